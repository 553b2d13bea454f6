// Configuration is read from the environment once, at start, into a typed frozen object.
// A bad or missing value stops the process with one line naming the variable.
import { z } from 'zod';

export { aoSinalDeParada, encerrarComGraca } from './encerramento.ts';
export { garantirPastaDe } from './pastas.ts';

export class ConfiguracaoInvalida extends Error {
  override readonly name = 'ConfiguracaoInvalida';
  readonly code = 'CONFIGURACAO_INVALIDA';
  readonly variavel: string;
  readonly motivo: string;
  constructor(variavel: string, motivo: string) {
    super(`configuração inválida: ${variavel}: ${motivo}`);
    this.variavel = variavel;
    this.motivo = motivo;
  }
}

/** Parses `env` with `schema`; throws {@link ConfiguracaoInvalida} naming the first bad variable. */
export function lerConfiguracao<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<z.output<S>> {
  // An empty (or blank) variable counts as unset, as shells and compose files often leave them.
  const valores = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const resultado = schema.safeParse(valores);
  if (!resultado.success) {
    const issue = resultado.error.issues[0];
    throw new ConfiguracaoInvalida(String(issue?.path[0] ?? '?'), issue?.message ?? 'inválida');
  }
  return Object.freeze(resultado.data);
}

/**
 * For entry points: parse, or print the one line and exit 1. Nothing half-starts because
 * entry points call this before opening anything.
 */
export function lerConfiguracaoOuSair<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<z.output<S>> {
  try {
    return lerConfiguracao(schema, env);
  } catch (erro) {
    if (erro instanceof ConfiguracaoInvalida) sairPorConfiguracao(erro.variavel, erro.motivo);
    throw erro;
  }
}

/**
 * For entry points, when a setting that parsed fails on use (a file that is no credentials file,
 * an address that cannot be bound): the same one line naming it, exit 1.
 */
export function sairPorConfiguracao(variavel: string, motivo: string): never {
  process.stderr.write(`${new ConfiguracaoInvalida(variavel, motivo).message}\n`);
  process.exit(1);
}

// The folder or file a path setting names cannot be created, read or written: a wrong path,
// permissions, a full or read-only disk.
// ENOENT: a folder on the way that cannot be made (a link to a volume that is not mounted).
const FALHAS_DE_ARQUIVO = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENOENT']);

/** True for a file-system failure that the path a setting names explains. */
export function ehFalhaDeArquivo(erro: unknown): erro is NodeJS.ErrnoException {
  return FALHAS_DE_ARQUIVO.has((erro as NodeJS.ErrnoException | null)?.code ?? '');
}

/** The listen failures a setting causes, and which of the two settings to name. */
const FALHAS_DE_ESCUTA: Record<string, 'host' | 'porta'> = {
  ENOTFOUND: 'host',
  EAI_AGAIN: 'host',
  EADDRNOTAVAIL: 'host',
  EADDRINUSE: 'porta',
  EACCES: 'porta',
};

/** Runs `escutar`; a failure the address or the port explains stops the process naming that variable. */
export async function escutarOuSair(
  escutar: () => Promise<unknown>,
  variaveis: { host: string; porta: string },
  valores: { host: string; porta: number },
): Promise<void> {
  try {
    await escutar();
  } catch (erro) {
    const code = (erro as NodeJS.ErrnoException).code ?? '';
    const qual = FALHAS_DE_ESCUTA[code];
    if (qual === undefined) throw erro;
    const motivo = qual === 'host' ? `o endereço ${valores.host} não existe nesta máquina (${code})` : `a porta ${valores.porta} não pode ser usada em ${valores.host} (${code})`;
    sairPorConfiguracao(qual === 'host' ? variaveis.host : variaveis.porta, motivo);
  }
}

// ---- Variables shared by several processes (operations.md) --------------------------------------

/** Decimal digits only: `Number()` would also read `0x1F` and `1e3`. */
const inteiro = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `deve ser um número inteiro de ${min} a ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `deve ser no mínimo ${min}`).max(max, `deve ser no máximo ${max}`));

/**
 * `silent` keeps one line: the `fatal` one a process exits with (a topic missing, a file it cannot
 * write), without which a supervisor's restarts would go on saying nothing.
 */
const NIVEIS_DE_LOG = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_LEVEL = z
  .enum(NIVEIS_DE_LOG, { error: `deve ser um de: ${NIVEIS_DE_LOG.join(', ')}` })
  .default('info')
  .transform((nivel) => (nivel === 'silent' ? 'fatal' : nivel));
export const DATABASE_PATH = z.string().default('./data/projecao.db');
export const KAFKA_BROKERS = z
  .string()
  .default('127.0.0.1:9092')
  .transform((texto) => texto.split(',').map((b) => b.trim()).filter(Boolean))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^[^\s:]+:\d{1,5}$/, 'esperado host:porta separados por vírgula')
          .refine((b) => Number(b.split(':')[1]) >= 1 && Number(b.split(':')[1]) <= 65535, 'porta fora de 1–65535'),
      )
      .min(1),
  );
/** Kafka's own rule for a topic's name: letters, digits, `.`, `_` and `-`, at most 249. */
const nomeDeTopico = () => z.string().regex(/^[\w.-]{1,249}$/, 'um nome de tópico do Kafka: letras, dígitos, ., _ e - (até 249)');
export const IMOVEIS_TOPIC = nomeDeTopico().default('registro.imoveis.v1');
export const CONDOMINIOS_TOPIC = nomeDeTopico().default('registro.condominios.v1');
/** The photo's storage key follows it after a slash: a query or fragment would swallow the key, and a user and password would go to every partner. */
export const PHOTOS_BASE_URL = z
  // abort: the checks below read the address, which a value that is none would make throw.
  .url({
    protocol: /^https$/,
    error: (problema) => (problema.input === undefined ? 'obrigatória: o endereço https: de onde os parceiros baixam as fotos' : 'deve ser um endereço https:'),
    abort: true,
  })
  .refine((url) => !/[?#]/.test(url), 'sem ? nem #: a chave de cada foto vem depois do endereço')
  // Partners get it as written, each photo's key after it: a space, a `\` or a stray `%` would
  // make every photo's url no URI (the contract's `string (uri)`), and so would an address
  // without its `//` (WHATWG URLs, which zod reads, take `\` for `/` and add missing slashes).
  .refine(
    (url) => /^https:\/\/[\w\-.~!$&'()*+,;=:@[\]]+(?:\/(?:[\w\-.~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*)?$/i.test(url),
    'escrito como vai aos parceiros: https://, o host, e no caminho só o que um endereço leva como está (espaço, acento, \\ ou % sem dois dígitos hexadecimais vão codificados: %20, %C3%A1)',
  )
  .refine((url) => !new URL(url).username && !new URL(url).password, 'sem usuário nem senha: o endereço de cada foto vai aos parceiros');
export const HOST = z.string().default('127.0.0.1');
export const PORT = inteiro(0, 65535).default(3000);
export const REDIS_URL = z
  // abort: the checks below read the address, which a value that is none would make throw.
  .url({ protocol: /^rediss?$/, error: 'deve ser um endereço redis:// ou rediss://', abort: true })
  // ioredis would take a missing host for localhost, and a path that is no number for database 0.
  .refine((url) => new URL(url).hostname !== '', 'deve dizer o host (redis://host:6379)')
  .refine((url) => /^(\/\d*)?$/.test(new URL(url).pathname), 'o caminho, se houver, é o número do banco (redis://host:6379/0)')
  .optional();
export const CREDENTIALS_FILE = z.string().default('./data/credenciais.json');
export const RATE_LIMIT_PER_MINUTE = inteiro(1, 1_000_000).default(120);
export const METRICS_PORT = inteiro(0, 65535).default(9464);
/** Readiness fails when the projector last confirmed being caught up longer ago than this. */
export const READY_MAX_LAG_SECONDS = inteiro(1, 86_400).default(60);
export { inteiro };
