// When does a change move `atualizado_em`? (register-events.md, "Timestamps partners filter on").
// Only what a partner can see counts: the Property while advertised, the Withdrawn item after.

/** What the projection holds of one property, as far as visibility is concerned. */
export interface Visibilidade {
  codigo: string;
  /** The partner document as stored (JSON text without `atualizado_em`). */
  documento: string;
  anunciado: boolean;
  /** Advertised at some point: from then on it appears in incremental listings. */
  jaAnunciado: boolean;
}

/**
 * True when the partner-visible item changes: the property becomes advertised or stops being so,
 * its document changes while advertised, or its Withdrawn item (`id`, `codigo`) changes.
 * A property never advertised has nothing visible, so nothing about it is relevant.
 */
export function mudancaRelevante(anterior: Visibilidade | null, novo: Omit<Visibilidade, 'jaAnunciado'>): boolean {
  if (anterior === null) return novo.anunciado;
  if (!anterior.jaAnunciado && !novo.anunciado) return false;
  if (anterior.anunciado !== novo.anunciado) return true;
  return novo.anunciado ? anterior.documento !== novo.documento : anterior.codigo !== novo.codigo;
}

/**
 * The commit instant stamped on a batch: the clock, but always later than the previous stamp, so
 * a clock stepping back cannot place a change before one a partner has already read, and two
 * changes of one property never share an `atualizado_em` (nor its ETag: a 304 would hide the
 * second). Batches a millisecond apart, or a clock behind, move it on by a millisecond each.
 */
export function instanteDoLote(agoraMs: number, ultimoMs: number | null): number {
  return ultimoMs === null ? agoraMs : Math.max(agoraMs, ultimoMs + 1);
}
