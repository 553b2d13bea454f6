/**
 * A wall clock that never steps back: after a step back of the host's clock (an NTP correction,
 * an operator's mistake), it goes on from its last reading by the monotonic clock's elapsed time
 * until the wall clock passes it again; a step forward it takes at once. The projector stamps
 * `atualizado_em` with it: stamped by the stepped-back clock, a change committed minutes later
 * would carry an instant before partners' last query, and they would never see it
 * (register-events.md, "Timestamps partners filter on"). `instanteDaTransacao` alone only keeps
 * the stamps in order. Within one process: a restart forgets how far the clock had gone.
 */
export function relogioQueNaoRecua(parede: () => number, monotono: () => number): () => number {
  let ultimo = -Infinity;
  let ultimoMonotono = 0;
  return () => {
    const agoraMonotono = monotono();
    ultimo = Math.max(parede(), ultimo + (agoraMonotono - ultimoMonotono));
    ultimoMonotono = agoraMonotono;
    return Math.floor(ultimo);
  };
}
