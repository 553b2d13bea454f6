// Features list rule: the agents' free entries tidied into a sorted list without repeats.
import { nadaAVer } from './texto.ts';

// Created once: building a collator is costly and the list is mapped for every property.
const COLLATOR_PT_BR = new Intl.Collator('pt-BR');

/** An entry as shown, its comparison key, and whether that key sorts by code units (see below). */
interface Entrada {
  texto: string;
  chave: string;
  simples: boolean;
}

/**
 * Repeats are the same feature typed with another case, without accents or with characters
 * nobody sees ("Piscina", "piscína", "Piscina\u200b").
 */
function chaveDeComparacao(texto: string): string {
  return texto.normalize('NFD').replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, '').toLowerCase();
}

/**
 * Entries of Latin-1 letters, digits and spaces whose key is lower-case ASCII letters, digits and
 * spaces only (accents and case removed). For those, the pt-BR collation's primary level (base
 * letters; accents and case are lower levels) is the key's code-unit order, space before digits
 * before letters; and keys are unique once repeats are dropped, so two such entries never reach
 * the collator's lower levels. caracteristicas.test.ts checks this against the collator.
 */
const TEXTO_SIMPLES = /^[A-Za-z0-9 \u00c0-\u00ff]*$/;
const CHAVE_SIMPLES = /^[a-z0-9 ]*$/;

/** Entries seen before: agents pick features from a short list, so the same strings recur. */
const VISTAS = new Map<string, Entrada | null>();
const MAXIMO_VISTAS = 10_000;

function entrada(bruta: string): Entrada | null {
  let vista = VISTAS.get(bruta);
  if (vista === undefined) {
    const texto = bruta.trim().replace(/\s+/g, ' ');
    const chave = chaveDeComparacao(texto);
    vista = nadaAVer(texto) ? null : { texto, chave, simples: TEXTO_SIMPLES.test(texto) && CHAVE_SIMPLES.test(chave) };
    if (VISTAS.size >= MAXIMO_VISTAS) VISTAS.clear();
    VISTAS.set(bruta, vista);
  }
  return vista;
}

function compararCaracteristicas(a: Entrada, b: Entrada): number {
  if (a.simples && b.simples) return a.chave < b.chave ? -1 : 1;
  // Code-unit tie-break: entries the collator holds equal still get one deterministic order.
  return COLLATOR_PT_BR.compare(a.texto, b.texto) || (a.texto < b.texto ? -1 : a.texto > b.texto ? 1 : 0);
}

export function mapearCaracteristicas(caracteristicas: readonly string[]): string[] {
  const entradas: Entrada[] = [];
  for (const bruta of caracteristicas) {
    const e = entrada(bruta);
    // Lists are short: a linear search beats building a set.
    if (e !== null && !entradas.some((outra) => outra.chave === e.chave)) entradas.push(e);
  }
  entradas.sort(compararCaracteristicas);
  return entradas.map((e) => e.texto);
}
