// The per-process request limiter: the same sliding-window log as the Redis script, kept in a
// Map of ascending timestamp arrays. Exact for one process only; the fallback when Redis is down
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

export class LimitadorEmMemoria {
  readonly limite: number;
  readonly janelaMs: number;
  readonly #maxChaves: number;
  readonly #logs = new Map<string, number[]>();
  #proximaVarredura = 0;

  constructor(opcoes: OpcoesLimitadorEmMemoria) {
    this.limite = opcoes.limite;
    this.janelaMs = opcoes.janelaMs ?? JANELA_PADRAO_MS;
    this.#maxChaves = opcoes.maxChaves ?? 100_000;
  }

  /** Counts a request for `chave` at `agoraMs` if the window has room. */
  tentar(chave: string, agoraMs: number): DecisaoLimite {
    this.#varrerSePreciso(agoraMs);
    let log = this.#logs.get(chave);
    if (log === undefined) {
      log = [];
      this.#logs.set(chave, log);
    }
    const expirados = foraDaJanela(log, agoraMs, this.janelaMs);
    if (expirados > 0) log.splice(0, expirados);
    // A clock that steps back must not reorder the log: the entry takes the latest known time.
    const instante = Math.max(agoraMs, log.at(-1) ?? agoraMs);
    const admitido = log.length < this.limite;
    if (admitido) log.push(instante);
    return decidir({ admitido, contagem: log.length, maisAntigaMs: log[0] ?? null, agoraMs, limite: this.limite, janelaMs: this.janelaMs });
  }

  /** Keys currently held (for tests and metrics). */
  get chaves(): number {
    return this.#logs.size;
  }

  // Sweeps at most once per window, or when the key count passes the bound: a key whose newest
  // entry left the window carries no information.
  #varrerSePreciso(agoraMs: number): void {
    if (agoraMs < this.#proximaVarredura && this.#logs.size <= this.#maxChaves) return;
    this.#proximaVarredura = agoraMs + this.janelaMs;
    const limiteInferior = agoraMs - this.janelaMs;
    for (const [chave, log] of this.#logs) {
      if ((log.at(-1) ?? -Infinity) <= limiteInferior) this.#logs.delete(chave);
    }
  }
}
