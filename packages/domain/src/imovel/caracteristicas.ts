// Features list rule: the agents' free entries tidied into a sorted list without repeats.

// Created once: building a collator is costly and the list is mapped for every property.
const COLLATOR_PT_BR = new Intl.Collator('pt-BR');

/** Repeats are the same feature typed with another case or without accents ("Piscina", "piscína"). */
function chaveDeComparacao(texto: string): string {
  return texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function compararCaracteristicas(a: string, b: string): number {
  // Code-unit tie-break: entries the collator holds equal still get one deterministic order.
  return COLLATOR_PT_BR.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

export function mapearCaracteristicas(caracteristicas: readonly string[]): string[] {
  const porChave = new Map<string, string>();
  for (const entrada of caracteristicas) {
    const texto = entrada.trim().replace(/\s+/g, ' ');
    if (texto === '') continue;
    const chave = chaveDeComparacao(texto);
    if (!porChave.has(chave)) porChave.set(chave, texto);
  }
  return [...porChave.values()].sort(compararCaracteristicas);
}
