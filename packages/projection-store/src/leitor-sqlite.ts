// The API's side of the projection: a read-only connection answering in ready-to-send JSON. SQLite
// writes each listing page whole (stored documents with `atualizado_em` appended as text, inside
// the page's envelope): one value crosses into JavaScript per page, and no document is parsed.
import Database from 'better-sqlite3';
import { escolherPlanoIncremental } from '@imoveis/domain';
import { HORA_MS } from './escritor-sqlite.ts';
import { VERSAO_ESQUEMA, ProjecaoDeVersaoMaisNova } from './migracoes.ts';
import type { Frescor, ItemRemovidoLinha, LeitorProjecao } from './leitor.ts';

export class ProjecaoAusente extends Error {
  override readonly name = 'ProjecaoAusente';
  readonly code = 'PROJECAO_AUSENTE';
}

/** An epoch-ms column as `Date#toISOString` writes it (whole seconds, so no floating-point rounding). */
export const isoSql = (coluna: string): string =>
  `strftime('%Y-%m-%dT%H:%M:%S', ${coluna} / 1000, 'unixepoch') || printf('.%03dZ', ${coluna} % 1000)`;

/**
 * A listed item's JSON: a Property is its stored document (kept without `atualizado_em`) with the
 * closing brace cut as a byte and `atualizado_em` appended as the last field; a Withdrawn property
 * is written here from its id and code.
 */
const ITEM_JSON = `concat(
    CASE anunciado
      WHEN 1 THEN CAST(substr(CAST(documento AS BLOB), 1, length(CAST(documento AS BLOB)) - 1) AS TEXT)
      ELSE concat('{"id":"', imoveis.id, '","codigo":', json_quote(codigo), ',"publicado":false')
    END,
    ',"atualizado_em":"', ${isoSql('atualizado_em')}, '"}')`;

/** `id > apos`, with the rest of a listing's filter (and, for the incremental one, its index). */
type Filtro = (apos: string) => string;
const ANUNCIADOS: Filtro = (apos) => `WHERE anunciado = 1 AND id > ${apos}`;
/** Both incremental plans take ids from a covering index: walking ids, or sorting a narrow window by instant. */
const alterados =
  (indice: 'imoveis_por_id' | 'imoveis_alterados'): Filtro =>
  (apos) =>
    `INDEXED BY ${indice} WHERE ja_anunciado = 1 AND atualizado_em >= :desde AND id > ${apos}`;

/** The page's ids in id order: only these rows are then read and written out. */
const idsDaPagina = (filtro: Filtro): string => `SELECT rowid AS linha, id FROM imoveis ${filtro(':apos')} ORDER BY id LIMIT :limite`;

/**
 * A page's bounds from the index alone: `[first id, last id, whether another item follows]`
 * (the probe stops at the first item after the last).
 */
const limites = (filtro: Filtro): string => `
  SELECT primeiro, ultimo, n = :limite AND EXISTS (SELECT 1 FROM imoveis ${filtro('ultimo')} LIMIT 1)
  FROM (SELECT min(id) AS primeiro, max(id) AS ultimo, count(*) AS n FROM (${idsDaPagina(filtro)}))`;

/**
 * The page's body in one value: the envelope's head rides on the first item and its tail on the
 * last, so group_concat's buffer is the whole body and nothing copies the page again. CROSS JOIN
 * keeps the ids as the outer loop, so the aggregate sees the items in id order (the tests check it).
 */
const corpo = (filtro: Filtro): string => `
  SELECT CAST(group_concat(concat(iif(pagina.id = :primeiro, '{"dados":[', ''), ${ITEM_JSON}, iif(pagina.id = :ultimo, :cauda, '')), ',') AS BLOB)
  FROM (${idsDaPagina(filtro)}) AS pagina CROSS JOIN imoveis ON imoveis.rowid = pagina.linha`;

type Limites = [string | null, string | null, number];
interface ConsultasPagina {
  limites: Database.Statement<[ParametrosPagina], Limites>;
  corpo: Database.Statement<[ParametrosPagina & { primeiro: string; ultimo: string; cauda: string }], Buffer>;
}
type ParametrosPagina = { apos: string; limite: number; desde?: number };

// The empty string sorts before every id, so "after ''" means "from the start".
const INICIO = '';

export class LeitorSqlite implements LeitorProjecao {
  readonly #db: Database.Database;
  readonly #s;

  constructor(db: Database.Database) {
    this.#db = db;
    const preparar = (filtro: Filtro) => ({
      limites: db.prepare<[ParametrosPagina], Limites>(limites(filtro)).raw(),
      corpo: db.prepare<[ParametrosPagina & { primeiro: string; ultimo: string; cauda: string }], Buffer>(corpo(filtro)).pluck(),
    });
    this.#s = {
      anunciados: preparar(ANUNCIADOS),
      alteradosPorId: preparar(alterados('imoveis_por_id')),
      alteradosPorInstante: preparar(alterados('imoveis_alterados')),
      obter: db.prepare<[string], [Buffer, number]>(`SELECT CAST(${ITEM_JSON} AS BLOB), atualizado_em FROM imoveis WHERE id = ? AND anunciado = 1`).raw(),
      estado: db.prepare<[string], { valor: number | null }>('SELECT valor FROM estado WHERE chave = ?'),
      somaHoras: db.prepare<[number], { n: number | null }>('SELECT sum(n) AS n FROM contagem_por_hora WHERE hora > ?'),
      somaInstantes: db.prepare<[number, number], { n: number | null }>(
        'SELECT sum(n) AS n FROM contagem_por_instante WHERE instante >= ? AND instante < ?',
      ),
      removidos: db.prepare<[number], { id: string; codigo: string; removido_em: number }>(
        'SELECT id, codigo, removido_em FROM removidos WHERE removido_em >= ? ORDER BY removido_em, id',
      ),
    };
  }

  /** Opens the projection read-only; refuses a missing file or one of another schema version. */
  static abrir(caminho: string): LeitorSqlite {
    let db: Database.Database;
    try {
      db = new Database(caminho, { readonly: true, fileMustExist: true });
    } catch (erro) {
      throw new ProjecaoAusente(`a projeção ${caminho} não existe ou não pode ser aberta`, { cause: erro });
    }
    const versao = db.pragma('user_version', { simple: true }) as number;
    if (versao !== VERSAO_ESQUEMA) {
      db.close();
      if (versao > VERSAO_ESQUEMA) throw new ProjecaoDeVersaoMaisNova(`a projeção ${caminho} tem o esquema ${versao}, mais novo que o ${VERSAO_ESQUEMA}`);
      throw new ProjecaoAusente(`a projeção ${caminho} ainda não foi criada pelo projetor (esquema ${versao})`);
    }
    return new LeitorSqlite(db);
  }

  // Each listing reads its page and its total inside one read transaction: one snapshot.
  listarAnunciados(args: { aposId: string | null; limite: number }): Buffer {
    return this.#lerNoMesmoInstante(() =>
      this.#pagina(this.#s.anunciados, { apos: args.aposId ?? INICIO, limite: args.limite }, this.contarAnunciados()),
    );
  }

  listarAlterados(args: { desdeMs: number; aposId: string | null; limite: number }): Buffer {
    return this.#lerNoMesmoInstante(() => {
      const total = this.contarAlterados(args.desdeMs);
      const plano = escolherPlanoIncremental({ naJanela: total, listados: this.#estado('listados'), pagina: args.limite });
      const consultas = plano === 'por-id' ? this.#s.alteradosPorId : this.#s.alteradosPorInstante;
      return this.#pagina(consultas, { desde: args.desdeMs, apos: args.aposId ?? INICIO, limite: args.limite }, total);
    });
  }

  #pagina(consultas: ConsultasPagina, parametros: ParametrosPagina, total: number): Buffer {
    const [primeiro, ultimo, haMais] = consultas.limites.get(parametros)!;
    const cauda = `],"por_pagina":${parametros.limite},"proximo_cursor":${haMais ? `"${ultimo}"` : 'null'},"total":${total}}`;
    if (primeiro === null || ultimo === null) return Buffer.from(`{"dados":[${cauda}`);
    return consultas.corpo.get({ ...parametros, primeiro, ultimo, cauda })!;
  }

  contarAnunciados(): number {
    return this.#estado('anunciados');
  }

  contarAlterados(desdeMs: number): number {
    const hora = Math.floor(desdeMs / HORA_MS);
    const horasSeguintes = this.#s.somaHoras.get(hora)?.n ?? 0;
    const restoDaHora = this.#s.somaInstantes.get(desdeMs, (hora + 1) * HORA_MS)?.n ?? 0;
    return horasSeguintes + restoDaHora;
  }

  obterAnunciado(id: string): { json: Buffer; atualizadoEm: number } | null {
    const row = this.#s.obter.get(id);
    return row ? { json: row[0], atualizadoEm: row[1] } : null;
  }

  listarRemovidos(desdeMs: number): readonly ItemRemovidoLinha[] {
    return this.#s.removidos.all(desdeMs).map((r) => ({ id: r.id, codigo: r.codigo, removidoEm: r.removido_em }));
  }

  frescor(): Frescor {
    return {
      emDiaEm: this.#s.estado.get('frescor_em_dia_em')?.valor ?? null,
      registradoEm: this.#s.estado.get('frescor_registrado_em')?.valor ?? null,
      atraso: this.#s.estado.get('frescor_atraso')?.valor ?? 0,
    };
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #lerNoMesmoInstante<T>(fn: () => T): T {
    return this.#db.transaction(fn).deferred();
  }

  #estado(chave: string): number {
    return this.#s.estado.get(chave)?.valor ?? 0;
  }
}
