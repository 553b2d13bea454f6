// Narrows a free register string to one of a closed list of partner values, or null.

/** Exact match only: the partner lists are a contract, so a near miss is a wrong value, not a spelling. */
export function umDosPermitidos<T extends string>(permitidos: readonly T[], valor: string | null): T | null {
  if (valor === null) return null;
  return permitidos.find((permitido) => permitido === valor) ?? null;
}
