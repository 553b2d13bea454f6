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

/** What tells a save that changed only private fields: see {@link soCamposPrivados}. */
export interface LadoPublico {
  /** Digest of the document the public fields gave (`ImovelSalvoPreparado.publico`); null when unknown. */
  publico: string | null;
  condominioId: string | null;
  anunciado: boolean;
}

/**
 * True when a save changed only private fields, or nothing (register-events.md): the public fields
 * give the document they gave, under the same condominium and advertised state, so the stored
 * document stays as partners have it, with its `atualizado_em`, even where the private values
 * masked in its text changed (a new owner's name, a note rewritten: decision 0016).
 */
export function soCamposPrivados(anterior: LadoPublico, novo: LadoPublico): boolean {
  return anterior.publico !== null && anterior.publico === novo.publico && anterior.condominioId === novo.condominioId && anterior.anunciado === novo.anunciado;
}

/**
 * The commit instant stamped on a write transaction: the clock, but always later than the previous stamp, so
 * a clock stepping back cannot place a change before one a partner has already read, and two
 * changes of one property never share an `atualizado_em` (nor its ETag: a 304 would hide the
 * second). Transactions a millisecond apart, or a clock behind, move it on by a millisecond each.
 */
export function instanteDaTransacao(agoraMs: number, ultimoMs: number | null): number {
  return ultimoMs === null ? agoraMs : Math.max(agoraMs, ultimoMs + 1);
}
