// The credentials file: partner name, id, timestamps and the SHA-256 of each token, never the
// token. Tokens are 256 random bits, so a fast hash is enough: there is no dictionary to try
// and nothing to brute-force, and a slow password hash would cost milliseconds per request.
// Written atomically (temp file + rename) so a running API never reads half a file, and changed
// under a lock file so two commands at once never lose each other's change.
import { hash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, closeSync, fsyncSync, lstatSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { unescape as decodificarTolerante } from 'node:querystring';
import { garantirPastaDe } from '@imoveis/config';
import { z } from 'zod';

/** `imv_` + 43 base64url characters (32 random bytes). The prefix makes leaked tokens greppable. */
export const PADRAO_TOKEN = /imv_[A-Za-z0-9_-]{43}/;
/** How many times a text is percent-decoded in search of a token; a text still encoded after that is taken as one. */
const DECODIFICACOES_MAXIMAS = 8;
/**
 * True when `texto`, as sent or percent-decoded, holds a token. Decoded escape by escape: one
 * malformed escape (`%ZZ`) must not leave an encoded token unread (`decodeURIComponent` gives up
 * on the whole text). And again while that changes it: encoded twice (`%2569mv_…`), a token is
 * one decoding away for whoever reads the log, and a server decodes the query once before the
 * gate reads it, the log never.
 */
export function temToken(texto: string): boolean {
  if (PADRAO_TOKEN.test(texto)) return true;
  for (let i = 0, atual = texto; atual.includes('%'); i++) {
    if (i === DECODIFICACOES_MAXIMAS) return true;
    const decodificado = decodificarTolerante(atual);
    if (decodificado === atual) return false;
    if (PADRAO_TOKEN.test(decodificado)) return true;
    atual = decodificado;
  }
  return false;
}
/**
 * The partner the embedded demo (`pnpm start`) issues its credential to, its token kept in plain
 * text beside the file: never active in a file beside partners' credentials, and the API refuses
 * a file where one is active.
 */
export const PARCEIRO_DA_DEMO = 'demo';
/** Query parameters that carry a token by their name alone (refused, and never logged). */
export const PARAMETROS_DE_TOKEN: ReadonlySet<string> = new Set(['access_token', 'token']);

/** How a credential's `hash` starts: the algorithm, then its hex digest. */
export const PREFIXO_HASH = 'sha256:';

// Loose: a field an operator added by hand (a contact, a ticket number) is kept when a command
// rewrites the file, not silently dropped.
const Credencial = z.looseObject({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  parceiro: z.string().min(1),
  /** PREFIXO_HASH + the token's 64 hex digits (digestoDoToken). */
  hash: z.string().regex(new RegExp(`^${PREFIXO_HASH}[0-9a-f]{64}$`)),
  criada_em: z.iso.datetime({ offset: true }),
  revogada_em: z.iso.datetime({ offset: true }).nullable(),
});
export type Credencial = z.infer<typeof Credencial>;

export const ArquivoCredenciais = z.looseObject({
  versao: z.literal(1),
  credenciais: z.array(Credencial),
});
export type ArquivoCredenciais = z.infer<typeof ArquivoCredenciais>;

export class ArquivoCredenciaisInvalido extends Error {
  override readonly name = 'ArquivoCredenciaisInvalido';
  readonly code = 'ARQUIVO_CREDENCIAIS_INVALIDO';
}

export class CredencialNaoEncontrada extends Error {
  override readonly name = 'CredencialNaoEncontrada';
  readonly code = 'CREDENCIAL_NAO_ENCONTRADA';
}

/** What a revocation asked for was revoked before: nothing changed. */
export class CredencialJaRevogada extends Error {
  override readonly name = 'CredencialJaRevogada';
  readonly code = 'CREDENCIAL_JA_REVOGADA';
  readonly credenciais: readonly Credencial[];
  constructor(credenciais: readonly Credencial[]) {
    super(`já revogada: ${credenciais.map((c) => c.id).join(', ')}`);
    this.credenciais = credenciais;
  }
}

/** Another command holds the file's lock, for longer than one would. */
export class TravaOcupada extends Error {
  override readonly name = 'TravaOcupada';
  readonly code = 'TRAVA_OCUPADA';
}

function gerarToken(): string {
  return `imv_${randomBytes(32).toString('base64url')}`;
}

/** The digest a credential keeps of its token. */
export function digestoDoToken(token: string): Buffer {
  // One-shot: no Hash object per request (a twentieth of a single property's CPU before).
  return hash('sha256', token, 'buffer');
}

function hashDoToken(token: string): string {
  return PREFIXO_HASH + digestoDoToken(token).toString('hex');
}

/** The digest a credential's `hash` names. */
export function digestoDaCredencial(credencial: Credencial): Buffer {
  return Buffer.from(credencial.hash.slice(PREFIXO_HASH.length), 'hex');
}

/**
 * Far above any real file (a credential takes about 260 bytes: this is some 250,000 of them). A
 * larger one is refused unread: parsing it holds the API's event loop for a tenth of a second per
 * 10 MB, and its memory grows with it.
 */
export const TAMANHO_MAXIMO_DO_ARQUIVO = 64 * 1024 * 1024;

/**
 * Reads and validates the file; a missing file is an empty set of credentials, or, `ausenteEhErro`
 * (a reader that has read one before), its ENOENT.
 */
export function lerArquivoCredenciais(caminho: string, opcoes: { ausenteEhErro?: boolean } = {}): ArquivoCredenciais {
  let texto: string;
  try {
    const { size } = statSync(caminho);
    if (size > TAMANHO_MAXIMO_DO_ARQUIVO) {
      throw new ArquivoCredenciaisInvalido(`${caminho} tem ${size} bytes, mais que os ${TAMANHO_MAXIMO_DO_ARQUIVO} que um arquivo de credenciais pode ter`);
    }
    texto = readFileSync(caminho, 'utf8');
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code === 'ENOENT' && opcoes.ausenteEhErro !== true) return { versao: 1, credenciais: [] };
    throw erro;
  }
  let json: unknown;
  try {
    json = JSON.parse(texto);
  } catch (erro) {
    throw new ArquivoCredenciaisInvalido(`${caminho} não é JSON válido`, { cause: erro });
  }
  // Fields added by hand are kept when a command rewrites the file: never a token pasted into one.
  if (PADRAO_TOKEN.test(texto)) throw new ArquivoCredenciaisInvalido(`${caminho} guarda um token, e só deve guardar hashes de tokens: apague-o do arquivo`);
  const lido = ArquivoCredenciais.safeParse(json);
  if (!lido.success) {
    throw new ArquivoCredenciaisInvalido(`${caminho} inválido: ${lido.error.issues[0]?.path.join('.') ?? ''} ${lido.error.issues[0]?.message ?? ''}`);
  }
  return lido.data;
}

/**
 * The file `caminho` names: itself, or what a symbolic link points to, even a file not made yet
 * (hosts sharing one file through links of their own must all write, and lock, that file).
 */
export function arquivoReal(caminho: string): string {
  try {
    return realpathSync(caminho);
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'ENOENT') throw erro;
  }
  const ligacao = lstatSync(caminho, { throwIfNoEntry: false });
  return ligacao?.isSymbolicLink() ? resolve(dirname(caminho), readlinkSync(caminho)) : caminho;
}

/**
 * Replaces the file (`arquivoReal`) atomically, keeping its mode and owner: ops running the
 * command as root must not leave a file the API's user cannot read, which would keep a revoked
 * credential valid there until it can (the API says so: `credenciais_desatualizadas`). A new
 * file made as root is given to its folder's owner, whom the API runs as where ops made the
 * folder for it. Nothing is left behind when a step fails (a full disk).
 */
function gravarArquivoCredenciais(arquivo: string, conteudo: ArquivoCredenciais): void {
  const atual = statSync(arquivo, { throwIfNoEntry: false });
  const temporario = join(dirname(arquivo), `.${basename(arquivo)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // 0600 for a new file: hashes are not secrets an attacker can use, but partner names and ids are nobody's business.
  const descritor = openSync(temporario, 'wx', 0o600);
  try {
    try {
      writeFileSync(descritor, `${JSON.stringify(conteudo, null, 2)}\n`);
      // On disk before the rename: after a crash, some file systems (XFS, ext4 without
      // auto_da_alloc) could hold the new name with no content, and the API would not start.
      fsyncSync(descritor);
    } finally {
      closeSync(descritor);
    }
    darDonoEModo(temporario, atual ?? statSync(dirname(arquivo)), atual === undefined);
    renameSync(temporario, arquivo);
  } catch (erro) {
    rmSync(temporario, { force: true });
    throw erro;
  }
  sincronizarPasta(dirname(arquivo));
}

/** The folder's entries on disk, so the rename survives a crash too. */
function sincronizarPasta(pasta: string): void {
  // Windows opens no folder to sync it.
  if (process.platform === 'win32') return;
  const descritor = openSync(pasta, 'r');
  try {
    fsyncSync(descritor);
  } finally {
    closeSync(descritor);
  }
}

/**
 * Gives `arquivo` the mode and owner of the file it replaces, or, new, the owner of its folder
 * (`origem`) and mode 0600. Only root can give a file to another user: run as another user than
 * the file's, the command leaves it that user's.
 */
function darDonoEModo(arquivo: string, origem: Stats, novo: boolean): void {
  if (!novo) chmodSync(arquivo, origem.mode & 0o777);
  if (process.getuid?.() === 0) chownSync(arquivo, origem.uid, origem.gid);
}

/** A lock older than this was left by a killed command: it is taken over. */
export const TRAVA_ABANDONADA_MS = 10_000;
const ESPERA_MAXIMA_MS = 30_000;

const abandonado = (arquivo: string): boolean => {
  const mtimeMs = statSync(arquivo, { throwIfNoEntry: false })?.mtimeMs;
  return mtimeMs !== undefined && Date.now() - mtimeMs > TRAVA_ABANDONADA_MS;
};

/**
 * Removes the lock `trava` if a killed command left it; true if it did. Under `<lock>.tomada`,
 * made exclusively, and looked at again there: two commands that both found it abandoned would
 * otherwise both remove it, the second one the lock the first had just made, and both change the
 * file at once.
 */
export function removerSeAbandonada(trava: string): boolean {
  if (!abandonado(trava)) return false;
  const tomada = `${trava}.tomada`;
  try {
    closeSync(openSync(tomada, 'wx', 0o600));
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'EEXIST') throw erro;
    // Another command is taking it over; one killed while doing so (it takes microseconds) is
    // given the same time.
    if (abandonado(tomada)) rmSync(tomada, { force: true });
    return false;
  }
  try {
    if (!abandonado(trava)) return false;
    rmSync(trava, { force: true });
    return true;
  } finally {
    rmSync(tomada, { force: true });
  }
}

/** The lock of the file `caminho` names (`arquivoReal`): `<file>.lock`. */
export const travaDe = (caminho: string): string => `${arquivoReal(caminho)}.lock`;

/** Runs `fn` (read, change, rewrite of the file `caminho` names) holding `<file>.lock`, created exclusively. */
function comTrava<T>(caminho: string, fn: (arquivo: string) => T): T {
  const arquivo = arquivoReal(caminho);
  garantirPastaDe(arquivo);
  const trava = travaDe(arquivo);
  const desistirEm = Date.now() + ESPERA_MAXIMA_MS;
  for (;;) {
    try {
      closeSync(openSync(trava, 'wx', 0o600));
      break;
    } catch (erro) {
      if ((erro as NodeJS.ErrnoException).code !== 'EEXIST') throw erro;
    }
    if (removerSeAbandonada(trava)) continue;
    if (Date.now() > desistirEm) throw new TravaOcupada(`${trava} ocupado há mais de ${ESPERA_MAXIMA_MS / 1000} s; apague-o se nenhum comando estiver rodando`);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.random() * 20);
  }
  try {
    return fn(arquivo);
  } finally {
    rmSync(trava, { force: true });
  }
}

/** Control characters, invisible format characters and line or paragraph separators: what would break a line of `list`. */
const CARACTERES_DE_CONTROLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name as the command prints it (one from a file written before names were checked): its control characters escaped, on one line. */
export const legivel = (nome: string): string => nome.replace(CARACTERES_DE_CONTROLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/**
 * A partner's name as a credential is issued to it: one line of readable text, as `list` prints it
 * and the logs carry it (a line break would fake a line of `list`). Files written before keep theirs.
 */
const NomeParceiro = z
  .string()
  .trim()
  .min(1, 'não pode ser vazio')
  .max(100, 'deve ter no máximo 100 caracteres')
  .refine((nome) => nome.match(CARACTERES_DE_CONTROLE) === null, 'não pode ter quebras de linha nem outros caracteres de controle');

export class NomeDeParceiroInvalido extends Error {
  override readonly name = 'NomeDeParceiroInvalido';
  readonly code = 'NOME_DE_PARCEIRO_INVALIDO';
}

/** The demo's credential and partners' in one file: the demo's token lies in plain text beside it. */
export class DemoComParceiros extends Error {
  override readonly name = 'DemoComParceiros';
  readonly code = 'DEMO_COM_PARCEIROS';
}

/** Issues a credential for `parceiro`: records its hash, returns the token (the only copy). */
export function emitirCredencial(caminho: string, parceiro: string, agora: () => Date = () => new Date()): { token: string; credencial: Credencial } {
  const nome = NomeParceiro.safeParse(parceiro);
  if (!nome.success) throw new NomeDeParceiroInvalido(nome.error.issues[0]?.message ?? 'inválido');
  return comTrava(caminho, (arquivo) => emitirNaTrava(arquivo, nome.data, agora));
}

function emitirNaTrava(caminho: string, parceiro: string, agora: () => Date): { token: string; credencial: Credencial } {
  const arquivo = lerArquivoCredenciais(caminho);
  const ativas = arquivo.credenciais.filter((c) => c.revogada_em === null);
  if (parceiro === PARCEIRO_DA_DEMO && ativas.some((c) => c.parceiro !== PARCEIRO_DA_DEMO)) {
    throw new DemoComParceiros(`${caminho} guarda credenciais de parceiros: a da demonstração (pnpm start), cujo token fica em texto ao lado do arquivo, não vai nele`);
  }
  if (parceiro !== PARCEIRO_DA_DEMO && ativas.some((c) => c.parceiro === PARCEIRO_DA_DEMO)) {
    throw new DemoComParceiros(
      `${caminho} guarda a credencial ativa da demonstração (pnpm start), cujo token fica em texto ao lado do arquivo: revogue-a (--partner ${PARCEIRO_DA_DEMO}) ou aponte CREDENTIALS_FILE para o arquivo dos parceiros`,
    );
  }
  const token = gerarToken();
  const credencial: Credencial = {
    id: randomBytes(6).toString('hex'),
    parceiro,
    hash: hashDoToken(token),
    criada_em: agora().toISOString(),
    revogada_em: null,
  };
  gravarArquivoCredenciais(caminho, { ...arquivo, credenciais: [...arquivo.credenciais, credencial] });
  return { token, credencial };
}

/** Revokes by id, or every active credential of a partner. Returns what was revoked. */
export function revogarCredencial(
  caminho: string,
  alvo: { id: string } | { parceiro: string },
  agora: () => Date = () => new Date(),
): Credencial[] {
  return comTrava(caminho, (arquivo) => revogarNaTrava(arquivo, alvo, agora));
}

function revogarNaTrava(caminho: string, alvo: { id: string } | { parceiro: string }, agora: () => Date): Credencial[] {
  const arquivo = lerArquivoCredenciais(caminho);
  const corresponde = (c: Credencial): boolean => ('id' in alvo ? c.id === alvo.id : c.parceiro === alvo.parceiro);
  const correspondentes = arquivo.credenciais.filter(corresponde);
  const alvos = correspondentes.filter((c) => c.revogada_em === null);
  if (alvos.length === 0) {
    if (correspondentes.length > 0) throw new CredencialJaRevogada(correspondentes);
    const descricao = 'id' in alvo ? `id ${alvo.id}` : `parceiro ${legivel(alvo.parceiro)}`;
    // Not an id at all: the name of a partner typed without --partner, most likely.
    const dica = 'id' in alvo && !/^[0-9a-f]{12}$/.test(alvo.id) ? ' (um id tem 12 dígitos hexadecimais; para revogar pelo nome, use --partner NOME)' : '';
    throw new CredencialNaoEncontrada(`nenhuma credencial com ${descricao}${dica}`);
  }
  const instante = agora().toISOString();
  const credenciais = arquivo.credenciais.map((c) => (alvos.includes(c) ? { ...c, revogada_em: instante } : c));
  gravarArquivoCredenciais(caminho, { ...arquivo, credenciais });
  return alvos.map((c) => ({ ...c, revogada_em: instante }));
}
