// The per-process request limiter: the same sliding-window log as the Redis script, kept in a
// Map of ascending timestamp logs. Exact for one process only; the fallback when Redis is down
// and the default when there is no Redis at all. The clock is passed in, so tests control it.
import { JANELA_PADRAO_MS, decidir, foraDaJanela, type DecisaoLimite } from './janela-deslizante.ts';

export interface OpcoesLimitadorEmMemoria {
  readonly limite: number;
  readonly janelaMs?: number;
  /**
   * Above this many keys, idle keys are swept on the next call. Bounds memory when many client
   * addresses send bad credentials.
   */
  readonly maxChaves?: number;
}

/**
 * A key's admitted instants, oldest first, read from `inicio`. Entries leaving the window move
 * `inicio` on; the spent front is cut off once it is half the array. Dropping from the front of
 * the array at every request cost time in proportion to the limit: 70 µs a request at 600,000
 * entries.
 */
class InstantesDaChave {
  #instantes: number[] = [];
  #inicio = 0;

  get contagem(): number {
    return this.#instantes.length - this.#inicio;
  }

  get maisAntigo(): number | null {
    return this.#instantes[this.#inicio] ?? null;
  }

  get maisNovo(): number | null {
    return this.#instantes.at(-1) ?? null;
  }

  registrar(instante: number): void {
    this.#instantes.push(instante);
  }

  descartarForaDaJanela(agoraMs: number, janelaMs: number): void {
    this.#inicio = foraDaJanela(this.#instantes, agoraMs, janelaMs, this.#inicio);
    if (this.#inicio === this.#instantes.length) {
      this.#instantes = [];
      this.#inicio = 0;
    } else if (this.#inicio >= 64 && this.#inicio * 2 >= this.#instantes.length) {
      this.#instantes = this.#instantes.slice(this.#inicio);
      this.#inicio = 0;
    }
  }
}

export class LimitadorEmMemoria {
  readonly limite: number;
  readonly janelaMs: number;
  readonly #maxChaves: number;
  readonly #logs = new Map<string, InstantesDaChave>();
  #proximaVarredura = 0;
  /** Past this many keys, the next call sweeps; moved up when a sweep finds every key live. */
  #varrerAcimaDe: number;

  constructor(opcoes: OpcoesLimitadorEmMemoria) {
    this.limite = opcoes.limite;
    this.janelaMs = opcoes.janelaMs ?? JANELA_PADRAO_MS;
    this.#maxChaves = opcoes.maxChaves ?? 100_000;
    this.#varrerAcimaDe = this.#maxChaves;
  }

  /**
   * Counts a request for `chave` at `agoraMs` if the window has room. `registrarEmMs`, when the
   * caller knows the instant only within bounds (another host's clock): the window is read at the
   * earliest (`agoraMs`), so no entry leaves it early, and the entry written at the latest, so it
   * does not leave later windows early either.
   */
  tentar(chave: string, agoraMs: number, registrarEmMs: number = agoraMs): DecisaoLimite {
    this.#varrerSePreciso(agoraMs);
    let log = this.#logs.get(chave);
    if (log === undefined) {
      log = new InstantesDaChave();
      this.#logs.set(chave, log);
    }
    log.descartarForaDaJanela(agoraMs, this.janelaMs);
    // A clock that steps back must not reorder the log: the entry takes the latest known time.
    const instante = Math.max(registrarEmMs, log.maisNovo ?? registrarEmMs);
    const admitido = log.contagem < this.limite;
    if (admitido) log.registrar(instante);
    return decidir({ admitido, contagem: log.contagem, maisAntigaMs: log.maisAntigo, agoraMs, limite: this.limite, janelaMs: this.janelaMs });
  }

  /** The window of `chave` at `agoraMs` as it stands, counting nothing: `admitido` when it has room. */
  consultar(chave: string, agoraMs: number): DecisaoLimite {
    const log = this.#logs.get(chave);
    log?.descartarForaDaJanela(agoraMs, this.janelaMs);
    const contagem = log?.contagem ?? 0;
    return decidir({ admitido: contagem < this.limite, contagem, maisAntigaMs: log?.maisAntigo ?? null, agoraMs, limite: this.limite, janelaMs: this.janelaMs });
  }

  /** Keys currently held (for tests). */
  get chaves(): number {
    return this.#logs.size;
  }

  // Sweeps at most once per window, or when the key count passes the bound: a key whose newest
  // entry left the window carries no information. Live keys cannot go (each holds a window the
  // limit needs): when the sweep leaves more than the bound, the next one by count waits until
  // as many keys again have come, so a sweep costs each new key one step, not every call all keys
  // (5 ms a request at 100,000 live client addresses).
  #varrerSePreciso(agoraMs: number): void {
    if (agoraMs < this.#proximaVarredura && this.#logs.size <= this.#varrerAcimaDe) return;
    this.#proximaVarredura = agoraMs + this.janelaMs;
    const limiteInferior = agoraMs - this.janelaMs;
    for (const [chave, log] of this.#logs) {
      if ((log.maisNovo ?? -Infinity) <= limiteInferior) this.#logs.delete(chave);
    }
    this.#varrerAcimaDe = Math.max(this.#maxChaves, 2 * this.#logs.size);
  }
}
