// SQL fragments shared by the reader and the writer.

/**
 * A listed property: one the incremental listing shows (advertised at some point, so it has an
 * `atualizado_em`). The same rule is written in three more places, which must stay equal to it:
 * the writer's counters (`listadoEm` in escritor-sqlite.ts), the reader's incremental filters
 * (`ja_anunciado = 1 AND atualizado_em >= ?`), and the `WHERE ja_anunciado = 1` of the indexes
 * they read (migracoes.ts), which SQLite uses only for a query whose filter implies it. (Migration
 * 3 spells it out too, frozen as migrations are.)
 */
export const LISTADO = 'ja_anunciado = 1 AND atualizado_em IS NOT NULL';

/**
 * A LIMIT taken from a bound parameter. Written plainly (`LIMIT ?`), SQLite (3.47 and later)
 * reads the bound value while planning, so every new binding re-prepares the statement: about
 * 40 µs per listing page here, more than reading a page of 50. The CAST hides the parameter
 * from the planner; the result is the same.
 */
export const LIMITE_LIGADO = 'LIMIT CAST(? AS INTEGER)';
