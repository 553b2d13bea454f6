// Correction rules for the register's counts, areas and money values.

/**
 * Counts (rooms, parking spaces): a non-negative integer, else not informed. Safe integers only:
 * past 2^53 a number is no longer exact, and partners' int64 and JSON-schema readers refuse `1e+308`.
 */
export function contagem(valor: number | null): number | null {
  return valor !== null && Number.isSafeInteger(valor) && valor >= 0 ? valor : null;
}

/**
 * Areas and money: a finite, non-negative number, passed through unrounded (the register's
 * precision is the contract's).
 */
export function naoNegativo(valor: number | null): number | null {
  return valor !== null && Number.isFinite(valor) && valor >= 0 ? valor : null;
}
