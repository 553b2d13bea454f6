// Access to the projection reader behind a tiny provider, so the API can start before the
// projector has created the file (it keeps trying), and follows a file deleted and made anew. A
// rebuild needs no reopening: it switches the content inside the same file (decision 0006).
import { existsSync, statSync } from 'node:fs';
import {
  LeitorSqlite,
  ProjecaoDaDemo,
  bancoAlheio,
  ehFalhaDeArmazenamento,
  ehProjecaoDaDemo,
  ehTravaOcupada,
  type LeitorProjecao,
} from '@imoveis/projection-store';
import { ProjecaoIndisponivel } from './erros.ts';

export interface FonteProjecao {
  /** The current reader; throws {@link ProjecaoIndisponivel} while there is none. */
  atual(): LeitorProjecao;
  /** A read from the current reader failed by the file under it: the next `atual()` opens it again. */
  falhouAoLer?(): void;
  close(): void;
}

/** How long after a read the projection's file failed the process says it is not ready. */
export const NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS = 30_000;

interface DependenciasFalhasDeLeitura {
  readonly fonte: FonteProjecao;
  /** Monotonic by default: a wall clock stepped back would keep the process unready for that long. */
  readonly agora?: () => number;
  /** The first failure of an episode (none in the last NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS): to be said. */
  readonly aoComecar: (erro: unknown) => void;
  /** Each failure: to be counted. */
  readonly aoFalhar: () => void;
}

/**
 * Reads from the projection that its file failed (corrupt, an I/O error, locked past SQLite's
 * wait): each is the contract's temporary failure for its request (the routes), and for a while
 * the process is not ready, so an orchestrator takes it out of the pool rather than send it
 * partners whose requests fail. The reader is opened again; said once per episode, counted each time.
 */
export class FalhasDeLeitura {
  readonly #deps: DependenciasFalhasDeLeitura;
  readonly #agora: () => number;
  #ultimaEm: number | null = null;

  constructor(deps: DependenciasFalhasDeLeitura) {
    this.#deps = deps;
    this.#agora = deps.agora ?? (() => performance.now());
  }

  /** True for a read failure of the file (not a defect of ours); then recorded. */
  registrar(erro: unknown): boolean {
    if (!ehFalhaDeArmazenamento(erro) && !ehTravaOcupada(erro)) return false;
    if (!this.recente()) this.#deps.aoComecar(erro);
    this.#ultimaEm = this.#agora();
    this.#deps.aoFalhar();
    this.#deps.fonte.falhouAoLer?.();
    return true;
  }

  recente(): boolean {
    return this.#ultimaEm !== null && this.#agora() - this.#ultimaEm < NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS;
  }
}

export function ehFonteProjecao(x: LeitorProjecao | FonteProjecao): x is FonteProjecao {
  return 'atual' in x && typeof x.atual === 'function';
}

export function fonteFixa(leitor: LeitorProjecao): FonteProjecao {
  return { atual: () => leitor, close: () => leitor.close() };
}

/**
 * Opens the reader at `caminho` on first use and, while opening fails (file missing, not yet
 * migrated), tries again at most once per `intervaloMs`, so a missing file costs no I/O per
 * request. As often, it checks that the path still names the file it has open: one deleted and
 * made anew (a projection replayed from the topics) is reopened, not served from the old one;
 * and that the file's schema is still this code's: one a newer projector migrated in place is
 * refused as on opening (not served, not ready), not read by statements of the old schema.
 */
export class FonteReabrivel implements FonteProjecao {
  readonly #caminho: string;
  readonly #abrir: (caminho: string) => LeitorProjecao;
  readonly #intervaloMs: number;
  readonly #agora: () => number;
  readonly #aoReabrir: () => void;
  #leitor: LeitorProjecao | null = null;
  /**
   * The open file's identity (device and inode; null: unknown, the file changed while it was
   * opened), and when the path was last checked against it.
   */
  #arquivo: { identidade: string | null; verificadoEm: number; abertoEm: number } | null = null;
  #ultimaFalha: { em: number; erro: unknown } | null = null;

  constructor(
    caminho: string,
    opcoes: { abrir?: (caminho: string) => LeitorProjecao; intervaloMs?: number; agora?: () => number; aoReabrir?: () => void } = {},
  ) {
    this.#caminho = caminho;
    this.#abrir = opcoes.abrir ?? ((c) => LeitorSqlite.abrir(c));
    this.#intervaloMs = opcoes.intervaloMs ?? 1_000;
    // Monotonic: a wall clock set back would stretch the interval and serve a deleted file meanwhile.
    this.#agora = opcoes.agora ?? (() => performance.now());
    this.#aoReabrir = opcoes.aoReabrir ?? (() => {});
  }

  atual(): LeitorProjecao {
    const agora = this.#agora();
    if (this.#leitor !== null && this.#arquivo !== null) {
      if (agora - this.#arquivo.verificadoEm < this.#intervaloMs) return this.#leitor;
      const { identidade } = this.#arquivo;
      if (identidade !== null && identidadeDe(this.#caminho) === identidade && esquemaAindaLegivel(this.#leitor)) {
        this.#arquivo.verificadoEm = agora;
        return this.#leitor;
      }
      this.close(); // replaced, deleted or migrated: this reader is not the one for the file now
      if (identidade !== null) this.#aoReabrir();
    }
    if (this.#ultimaFalha !== null && agora - this.#ultimaFalha.em < this.#intervaloMs) {
      throw new ProjecaoIndisponivel({ cause: this.#ultimaFalha.erro });
    }
    try {
      const antes = identidadeDe(this.#caminho);
      this.#leitor = this.#abrir(this.#caminho);
      const depois = identidadeDe(this.#caminho);
      // Made or replaced while opening: which file the reader holds is unknown, so it is opened again next time.
      this.#arquivo = { identidade: antes !== null && antes === depois ? antes : null, verificadoEm: agora, abertoEm: agora };
      this.#ultimaFalha = null;
      return this.#leitor;
    } catch (erro) {
      this.#ultimaFalha = { em: agora, erro };
      throw new ProjecaoIndisponivel({ cause: erro });
    }
  }

  /** Opened again at most once per interval, as a failed opening is tried: a file that keeps failing every request is not reopened for each. */
  falhouAoLer(): void {
    if (this.#arquivo !== null && this.#agora() - this.#arquivo.abertoEm >= this.#intervaloMs) this.close();
  }

  close(): void {
    this.#leitor?.close();
    this.#leitor = null;
    this.#arquivo = null;
  }
}

/** The reader's schema still the file's; not when the file cannot be read (opening again says why). */
function esquemaAindaLegivel(leitor: LeitorProjecao): boolean {
  try {
    return leitor.esquemaAindaLegivel();
  } catch {
    return false;
  }
}

/** Which file a path names now (device and inode); null when none can be read there. */
function identidadeDe(caminho: string): string | null {
  try {
    const s = statSync(caminho, { throwIfNoEntry: false });
    return s === undefined ? null : `${s.dev}:${s.ino}`;
  } catch {
    return null; // not a path that can name a file now (permissions, a file where a folder should be)
  }
}

/**
 * What a start makes of the projection at its path: refused (no projection can ever stand there:
 * the process stops, naming DATABASE_PATH), waited for (not there or not usable yet: the API
 * serves the contract's temporary failure meanwhile, said as a warning), or served.
 */
export type ProjecaoAoIniciar = { tipo: 'recusada'; motivo: string } | { tipo: 'aguardada'; contexto: object; aviso: string } | { tipo: 'servida' };

export function examinarProjecaoAoIniciar(caminho: string, fonte: FonteProjecao): ProjecaoAoIniciar {
  const impossivel = caminhoImpossivel(caminho);
  if (impossivel !== null) return { tipo: 'recusada', motivo: impossivel };
  // The demo's projection (`pnpm start`) holds sample listings, which partners must never be served.
  if (ehProjecaoDaDemo(caminho)) return { tipo: 'recusada', motivo: new ProjecaoDaDemo(caminho).message };
  // Another application's database: no projector makes a projection of it (each refuses it too).
  // A file SQLite cannot read is told below, as the reader finds it.
  let alheio: string | null = null;
  try {
    alheio = bancoAlheio(caminho);
  } catch {
    // unreadable here: the reader says why below
  }
  if (alheio !== null) return { tipo: 'recusada', motivo: `${caminho} ${alheio}` };
  // The reader refuses those at every open too (one made at the path after this start).
  try {
    fonte.atual();
    return { tipo: 'servida' };
  } catch (erro) {
    const code = ((erro as Error).cause as { code?: unknown } | undefined)?.code;
    // A file that is no SQLite database never becomes a projection: the path is wrong.
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return { tipo: 'recusada', motivo: `${caminho} não é uma projeção (${String(code)})` };
    const ate = 'a API responde 500 em /imoveis e 503 nas outras operações (falha temporária) e não fica pronta até o projetor';
    // Another schema version (deploy both together), or a projection the projector is still making.
    if (existsSync(caminho)) return { tipo: 'aguardada', contexto: { arquivo: caminho, err: erro }, aviso: `projeção ainda não utilizável: ${ate} prepará-la` };
    return { tipo: 'aguardada', contexto: { arquivo: caminho }, aviso: `projeção ainda ausente: ${ate} criá-la` };
  }
}

/**
 * Why no projection can ever stand at `caminho`, or null. One not created yet is waited for (the
 * contract's "temporary failure", until the projector creates it); a folder or device at its path,
 * a file where one of its folders should be, or a folder this process may not enter never becomes one.
 */
function caminhoImpossivel(caminho: string): string | null {
  try {
    return statSync(caminho).isFile() ? null : `${caminho} existe e não é um arquivo`;
  } catch (erro) {
    const { code, message } = erro as NodeJS.ErrnoException;
    if (code === 'ENOENT') return null;
    return code === 'ENOTDIR' ? `${caminho}: uma das pastas do caminho é um arquivo` : message;
  }
}
