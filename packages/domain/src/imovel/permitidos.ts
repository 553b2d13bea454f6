// Narrows a free register string to one of a closed list of partner values, or null.

/**
 * Exact match only: the partner lists are a contract, so a near miss is a wrong value, not a
 * spelling. The same letters in another Unicode form (`Disponi\u0301vel`, an accent typed as a
 * combining mark, as some keyboards and systems store it) are the same value.
 */
export function umDosPermitidos<T extends string>(permitidos: readonly T[], valor: string | null): T | null {
  if (valor === null) return null;
  const comparavel = valor.normalize('NFC');
  return permitidos.find((permitido) => permitido === comparavel) ?? null;
}
