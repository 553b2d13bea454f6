// The running API's view of the credentials file: a map from token hash to credential, re-read
// when the file changes (fs.watch on its directory, since an atomic rename replaces the inode,
// plus a periodic stat in case the watcher misses an event, as it can on network filesystems).
import { timingSafeEqual } from 'node:crypto';
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  ArquivoCredenciaisInvalido,
  arquivoReal,
  digestoDaCredencial,
  digestoDoToken,
  lerArquivoCredenciais,
  PARCEIRO_DA_DEMO,
  type Credencial,
} from './arquivo-credenciais.ts';

export type ResultadoAutenticacao =
  | { readonly tipo: 'valida'; readonly credencial: Credencial }
  | { readonly tipo: 'desconhecida' }
  | { readonly tipo: 'revogada'; readonly credencial: Credencial };

/** What the app needs from a credentials source; tests may give a fixed one. */
export interface FonteCredenciais {
  autenticar(token: string): ResultadoAutenticacao;
  /** True while the file on disk could not be loaded and older credentials still answer. */
  readonly desatualizadas?: boolean;
}

interface Entrada {
  readonly credencial: Credencial;
  readonly hash: Buffer;
}

// Compared against when the hash is unknown, so both outcomes do the same work.
const HASH_FICTICIO = Buffer.alloc(32);

/** Where the store says what it read or could not: a pino logger, or one that holds lines until the process listens. */
export interface LogDeCredenciais {
  info(contexto: object, mensagem: string): void;
  warn(contexto: object, mensagem: string): void;
  error(contexto: object, mensagem: string): void;
}

/** How often a version of the file refused for what it holds is read again while unchanged. */
export const RELEITURA_DO_RECUSADO_MS = 30_000;

export class CredenciaisStore implements FonteCredenciais {
  readonly #caminho: string;
  readonly #logger: LogDeCredenciais;
  readonly #semDemo: boolean;
  #porHash = new Map<string, Entrada>();
  /** The loaded version holds the demo's active credential (left out where `semDemo`). */
  #demoAtiva = false;
  #assinatura = '';
  /** The version of the file that failed to load, logged once; retried at every check meanwhile, unless refused for what it holds. */
  #falhou: string | null = null;
  /** The version that failed was read, and refused for what it holds (not a file that could not be read); when. */
  #recusadoPeloConteudo = false;
  #falhouEm = 0;
  readonly #ler: typeof lerArquivoCredenciais;
  readonly #agora: () => number;
  #watcher: FSWatcher | null = null;
  #timer: NodeJS.Timeout | null = null;
  #debounce: NodeJS.Timeout | null = null;

  private constructor(caminho: string, logger: LogDeCredenciais, semDemo: boolean, ler: typeof lerArquivoCredenciais, agora: () => number) {
    this.#caminho = caminho;
    this.#logger = logger;
    this.#semDemo = semDemo;
    this.#ler = ler;
    this.#agora = agora;
  }

  /**
   * Loads the file (a missing file is an empty set, with a warning: credentials issued later
   * are picked up without a restart; but once one was read, its disappearance is a failure, as
   * a file that cannot be read is) and starts watching it. A file that cannot be parsed at
   * start is an error: better not to start than to refuse every partner silently.
   * `semDemo` (the partners' API): the demo's credential, whose token lies in plain text beside
   * the file, never authenticates, whenever it is found there (the caller refuses it at start).
   */
  static abrir(
    caminho: string,
    opcoes: { logger: LogDeCredenciais; intervaloMs?: number; semDemo?: boolean; ler?: typeof lerArquivoCredenciais; agora?: () => number },
  ): CredenciaisStore {
    const store = new CredenciaisStore(caminho, opcoes.logger, opcoes.semDemo ?? false, opcoes.ler ?? lerArquivoCredenciais, opcoes.agora ?? (() => performance.now()));
    store.#carregar(true);
    store.#observar(opcoes.intervaloMs ?? 2_000);
    return store;
  }

  get desatualizadas(): boolean {
    return this.#falhou !== null;
  }

  /** The file holds the demo's active credential: see `semDemo`. */
  get demoAtiva(): boolean {
    return this.#demoAtiva;
  }

  /** No file at its path (yet): every request gets a 401 until a credential is issued. The caller says so at start. */
  get semArquivo(): boolean {
    return this.#assinatura === 'ausente';
  }

  autenticar(token: string): ResultadoAutenticacao {
    const hash = digestoDoToken(token);
    // The map lookup's timing depends on the hash, not the token: it tells nothing usable.
    const entrada = this.#porHash.get(hash.toString('hex'));
    const igual = timingSafeEqual(hash, entrada?.hash ?? HASH_FICTICIO);
    if (entrada === undefined || !igual) return { tipo: 'desconhecida' };
    if (entrada.credencial.revogada_em !== null) return { tipo: 'revogada', credencial: entrada.credencial };
    return { tipo: 'valida', credencial: entrada.credencial };
  }

  /** Re-reads the file now if it changed (the watcher and the timer call this). */
  recarregarSeMudou(): void {
    this.#carregar(false);
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#debounce) clearTimeout(this.#debounce);
  }

  #carregar(inicial: boolean): void {
    const assinatura = this.#assinaturaAtual();
    if (!inicial && assinatura === this.#assinatura && this.#falhou === null) return;
    // A version refused for what it holds is read again only now and then: a large one holds the
    // event loop, and it would be refused again, unless a writer changed it within the signature's
    // tick (same size, mtime and ctime). One that could not be read at all is tried at every
    // check: a disk's or a share's error may pass (a chmod or chown moves the ctime anyway).
    if (!inicial && assinatura === this.#falhou && this.#recusadoPeloConteudo && this.#agora() - this.#falhouEm < RELEITURA_DO_RECUSADO_MS) return;
    try {
      // Gone after a file was read: deleted by hand, or a shared folder briefly away. Every
      // partner refused until a credential is issued again would be the worst reading of it.
      if (assinatura === 'ausente' && this.#assinatura !== 'ausente' && !inicial) throw new Error(`${this.#caminho} não existe mais`);
      // Gone between the stat above and the read: the same as gone before it.
      const arquivo = this.#ler(this.#caminho, { ausenteEhErro: !inicial && this.#assinatura !== 'ausente' });
      const porHash = new Map<string, Entrada>();
      let demoAtiva = false;
      for (const credencial of arquivo.credenciais) {
        if (credencial.parceiro === PARCEIRO_DA_DEMO && credencial.revogada_em === null) {
          demoAtiva = true;
          if (this.#semDemo) continue;
        }
        const hash = digestoDaCredencial(credencial);
        porHash.set(hash.toString('hex'), { credencial, hash });
      }
      if (this.#semDemo && demoAtiva && !inicial) {
        this.#logger.error({ arquivo: this.#caminho }, 'o arquivo de credenciais guarda a credencial ativa da demonstração (pnpm start): ignorada; revogue-a');
      }
      this.#porHash = porHash;
      this.#demoAtiva = demoAtiva;
      this.#assinatura = assinatura;
      const voltou = this.#falhou !== null;
      this.#falhou = null;
      if (voltou) {
        this.#logger.warn({ arquivo: this.#caminho, credenciais: porHash.size }, 'arquivo de credenciais lido de novo: credenciais em dia');
      } else if (!inicial || assinatura !== 'ausente') {
        this.#logger.info({ arquivo: this.#caminho, credenciais: porHash.size }, 'credenciais carregadas');
      }
    } catch (erro) {
      if (inicial) throw erro;
      // Keep serving with the last good set: a half-edited or deleted file must not lock every partner out.
      // Revocations in it do not apply meanwhile: said once per version of the file, and in the
      // metrics (`credenciais_desatualizadas`) for as long as it lasts.
      if (this.#falhou !== assinatura) {
        this.#logger.error(
          { err: erro, arquivo: this.#caminho },
          'arquivo de credenciais ilegível, inválido ou apagado: mantidas as credenciais anteriores, e revogações nele não valem até que seja lido',
        );
      }
      this.#falhou = assinatura;
      this.#falhouEm = this.#agora();
      this.#recusadoPeloConteudo = erro instanceof ArquivoCredenciaisInvalido;
    }
  }

  #assinaturaAtual(): string {
    try {
      const s = statSync(this.#caminho);
      return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      return 'ausente';
    }
  }

  #observar(intervaloMs: number): void {
    this.#timer = setInterval(() => this.recarregarSeMudou(), intervaloMs);
    this.#timer.unref();
    try {
      // Through a symbolic link, the folder of the file it names: that is where the command writes.
      const real = arquivoReal(this.#caminho);
      const nome = basename(real);
      this.#watcher = watch(dirname(real), { persistent: false }, (_evento, arquivo) => {
        if (arquivo !== null && arquivo !== nome) return;
        // Editors and rename-based writers fire several events per change: read once they settle.
        if (this.#debounce) clearTimeout(this.#debounce);
        this.#debounce = setTimeout(() => this.recarregarSeMudou(), 25);
        this.#debounce.unref();
      });
      this.#watcher.on('error', (erro) => {
        this.#logger.warn({ err: erro }, 'observação do diretório de credenciais falhou; segue a verificação periódica');
        this.#watcher?.close();
        this.#watcher = null;
      });
    } catch (erro) {
      // A missing directory cannot be watched; the periodic stat still notices the file appear.
      // Expected before the first credential is issued: its code, not a stack trace.
      const { code, message } = erro as NodeJS.ErrnoException;
      this.#logger.warn({ code, motivo: message, arquivo: this.#caminho }, 'não foi possível observar o diretório de credenciais; segue a verificação periódica');
    }
  }
}
