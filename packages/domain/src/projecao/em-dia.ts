// Since when is the projection caught up with Kafka? As of an instant t when every message the
// partitions held at t is applied: the stored offsets have reached the partitions' ends sampled
// at t. A register that never pauses never shows a lag of exactly 0, yet a projector keeping up
// reaches each sample's ends a moment later; this is what readiness needs to know.

/**
 * The shortest lag a reader may allow (READY_MAX_LAG_SECONDS) for a freshness record confirmed
 * every `intervaloMs`: under steady traffic a check's ends are reached at the next check at the
 * earliest, so the record's age swings between one and two intervals; anything shorter than three
 * would make the projection (and the API) unready every cycle.
 */
export const atrasoMinimoPermitidoMs = (intervaloMs: number): number => 3 * intervaloMs;

/** The partitions' ends (next offsets, by partition key) read at `instante`. */
export interface AmostraDeFins {
  readonly instante: number;
  readonly fins: ReadonlyMap<string, bigint>;
}

/**
 * The latest sample whose ends the stored offsets (`lido`) have all reached, or null when none
 * has been; and the later samples, still to reach (at most `maximo`, the newest kept).
 */
export function ultimaAlcancada(
  amostras: readonly AmostraDeFins[],
  lido: (chave: string) => bigint,
  maximo = 1_000,
): { alcancadaEm: number | null; pendentes: AmostraDeFins[] } {
  for (let i = amostras.length - 1; i >= 0; i--) {
    const amostra = amostras[i]!;
    let alcancada = true;
    for (const [chave, fim] of amostra.fins) {
      if (lido(chave) < fim) {
        alcancada = false;
        break;
      }
    }
    if (alcancada) return { alcancadaEm: amostra.instante, pendentes: amostras.slice(i + 1) };
  }
  return { alcancadaEm: null, pendentes: amostras.slice(-maximo) };
}

/**
 * The partitions whose stored offset is past their end: the topic was deleted and created anew
 * (or truncated), so the projection holds offsets of messages that are gone, and is no measure of
 * how fresh it is until someone looks.
 */
export function particoesRecuadas(fins: ReadonlyMap<string, bigint>, lido: (chave: string) => bigint): string[] {
  return [...fins].filter(([chave, fim]) => lido(chave) > fim).map(([chave]) => chave);
}

/**
 * What the freshness record says after a check: the later of what it said and the instant the
 * check found reached (null: none). It never moves back, so a check that reaches an older sample
 * than the last one never makes the projection look staler than it was said to be.
 */
export function emDiaEmSeguinte(anterior: number | null, alcancada: number | null): number | null {
  return alcancada === null ? anterior : Math.max(alcancada, anterior ?? alcancada);
}
