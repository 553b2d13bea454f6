// The request-limit arithmetic of a sliding-window log: a request is admitted when fewer than
// `limite` requests were admitted in the window (agora - janela, agora]. Shared by the Redis
// script's caller and the per-process limiter, so both answer the same way.

export const JANELA_PADRAO_MS = 60_000;

/** What a limiter decided for one request, ready for the 429 and RateLimit headers. */
export interface DecisaoLimite {
  readonly admitido: boolean;
  readonly limite: number;
  /** Requests still admissible in the current window after this one. */
  readonly restantes: number;
  /**
   * Whole seconds until the oldest counted request leaves the window, i.e. until one more
   * request is admissible. At least 1 while anything is counted; 0 for an empty window.
   */
  readonly reinicioS: number;
  /** For a denied request: whole seconds to wait, never 0 and never early. Null when admitted. */
  readonly retryAfterS: number | null;
}

/**
 * Whole seconds from `agoraMs` until a request made at `maisAntigaMs` leaves the window.
 * Rounded up, so a client that waits exactly this long finds the slot free: the entry counts
 * while `maisAntiga > agora - janela`, and `agora + ceil(...)*1000 >= maisAntiga + janela`.
 * At least 1: a Retry-After of 0 would invite an immediate retry.
 */
export function segundosAteLiberar(maisAntigaMs: number, agoraMs: number, janelaMs: number = JANELA_PADRAO_MS): number {
  return Math.max(1, Math.ceil((maisAntigaMs + janelaMs - agoraMs) / 1000));
}

/**
 * Turns what the window held into a decision. `contagem` is the number of requests counted
 * after this one was considered (including it when admitted); `maisAntigaMs` the oldest still
 * in the window, null when none.
 */
export function decidir(args: {
  readonly admitido: boolean;
  readonly contagem: number;
  readonly maisAntigaMs: number | null;
  readonly agoraMs: number;
  readonly limite: number;
  readonly janelaMs?: number;
}): DecisaoLimite {
  const janelaMs = args.janelaMs ?? JANELA_PADRAO_MS;
  const reinicioS = args.maisAntigaMs === null ? 0 : segundosAteLiberar(args.maisAntigaMs, args.agoraMs, janelaMs);
  return {
    admitido: args.admitido,
    limite: args.limite,
    restantes: Math.max(0, args.limite - args.contagem),
    reinicioS,
    retryAfterS: args.admitido ? null : Math.max(1, reinicioS),
  };
}

/**
 * In an ascending log read from `inicio`, the index of the first entry still in the window at
 * `agoraMs`: the ones before it have left (`log.length` when all have).
 */
export function foraDaJanela(log: readonly number[], agoraMs: number, janelaMs: number = JANELA_PADRAO_MS, inicio = 0): number {
  const limiteInferior = agoraMs - janelaMs;
  let i = inicio;
  while (i < log.length && (log[i] as number) <= limiteInferior) i++;
  return i;
}
