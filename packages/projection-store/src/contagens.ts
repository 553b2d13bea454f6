// The incremental listing's `total` without counting properties: the writer keeps how many listed
// properties carry each `atualizado_em` instant, and per minute and per hour. A window's total is
// then the instants of its first minute, the minutes left in its first hour and the hours after:
// at most a minute of commits and 59 minutes beside the hours, however large the projection and
// however often the projector commits. The SQL of the three tables, and of a recount, lives here.
import { sqlChave } from './estado.ts';
import { LISTADO } from './sql.ts';
import type Database from './sqlite.ts';

export const MINUTO_MS = 60_000;
export const HORA_MS = 3_600_000;

/** Finest first: each scale's key is the instant divided by its `ms`, rounded down. */
export const ESCALAS = [
  { tabela: 'contagem_por_instante', chave: 'instante', ms: 1 },
  { tabela: 'contagem_por_minuto', chave: 'minuto', ms: MINUTO_MS },
  { tabela: 'contagem_por_hora', chave: 'hora', ms: HORA_MS },
] as const;

/** The writer's statements for one scale: add a delta to a key, and drop a key counted down to zero. */
export function consultasDeEscala(db: Database.Database, escala: (typeof ESCALAS)[number]) {
  return {
    somar: db.prepare<[number, number]>(
      `INSERT INTO ${escala.tabela} (${escala.chave}, n) VALUES (?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n`,
    ),
    limpar: db.prepare<[number]>(`DELETE FROM ${escala.tabela} WHERE ${escala.chave} = ? AND n = 0`),
  };
}

/**
 * One statement: scale i sums its keys from where the finer scale stopped up to the end of
 * the window's first unit of scale i + 1; the coarsest sums everything after.
 * Parameters: {@link limitesDaJanela}.
 */
export const SQL_CONTAR_ALTERADOS = `SELECT ${ESCALAS.map((e, i) =>
  i < ESCALAS.length - 1
    ? `coalesce((SELECT sum(n) FROM ${e.tabela} WHERE ${e.chave} >= ? AND ${e.chave} < ?), 0)`
    : `coalesce((SELECT sum(n) FROM ${e.tabela} WHERE ${e.chave} >= ?), 0)`,
).join(' + ')}`;

/** The parameters of {@link SQL_CONTAR_ALTERADOS} for the window from `desdeMs` (inclusive). */
export function limitesDaJanela(desdeMs: number): number[] {
  const limites: number[] = [];
  let inicio = desdeMs; // in ms: where the finer scales have counted up to
  ESCALAS.forEach((escala, i) => {
    limites.push(Math.ceil(inicio / escala.ms));
    const seguinte = ESCALAS[i + 1];
    if (seguinte === undefined) return;
    inicio = (Math.floor(desdeMs / seguinte.ms) + 1) * seguinte.ms;
    limites.push(inicio / escala.ms);
  });
  return limites;
}

/** Every counter counted again from the properties (after a rebuild's switch rewrote those that differ). */
export const SQL_RECONTAR = `
  UPDATE estado SET valor = (SELECT count(*) FROM imoveis WHERE anunciado = 1) WHERE chave = ${sqlChave('anunciados')};
  UPDATE estado SET valor = (SELECT count(*) FROM imoveis WHERE ${LISTADO}) WHERE chave = ${sqlChave('listados')};
  ${ESCALAS.map(
    (e) => `
  DELETE FROM ${e.tabela};
  INSERT INTO ${e.tabela} (${e.chave}, n) SELECT atualizado_em / ${e.ms}, count(*) FROM imoveis WHERE ${LISTADO} GROUP BY 1;`,
  ).join('')}`;
