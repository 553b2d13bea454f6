// Which revision of an aggregate (property or condominium) applies (register-events.md, "Order,
// repeats and bad events"): a repeat or an older revision changes nothing.

/**
 * True when an event of `versao` applies after the revision last applied to its aggregate (null:
 * none yet). `versao` grows with each *save*, so a deletion may carry its last save's `versao`: it
 * applies then too. Ignoring it would keep a deleted property advertised for good, since a
 * deletion is final and nothing follows it.
 */
export function revisaoAplicavel(evento: { versao: number; exclusao: boolean }, ultimaAplicada: number | null): boolean {
  if (ultimaAplicada === null) return true;
  return evento.exclusao ? evento.versao >= ultimaAplicada : evento.versao > ultimaAplicada;
}
