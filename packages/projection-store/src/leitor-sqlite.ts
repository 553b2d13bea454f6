// The API's side of the projection: a read-only connection answering in ready-to-send JSON. SQLite
// writes a page's items in one value (stored documents, `atualizado_em` appended as text): one
// value crosses into JavaScript per page, and no document is ever parsed or re-serialised.
import Database from './sqlite.ts';
import { FAIXAS, escolherPlanoIncremental } from '@imoveis/domain';
import { SQL_CONTAR_ALTERADOS, limitesDaJanela } from './contagens.ts';
import { CHAVES_FRESCOR, sqlChave, type ChaveEstado } from './estado.ts';
import { ProjecaoDaDemo } from './escritor-sqlite.ts';
import { VERSAO_ESQUEMA, ProjecaoDeVersaoMaisNova } from './migracoes.ts';
import { LIMITE_LIGADO } from './sql.ts';
import type { Frescor, LeitorProjecao, PaginaItens } from './leitor.ts';

const VAZIO = Buffer.alloc(0);
const VIRGULA = Buffer.from(',');

class ProjecaoAusente extends Error {
  override readonly name = 'ProjecaoAusente';
  readonly code = 'PROJECAO_AUSENTE';
}

/**
 * The removal items since `?`, oldest first, as JSON written by SQLite in one value: deletions are
 * kept for ever and the contract pages none of them, so a partner may ask for all of them at once
 * (about four times cheaper than rows made into objects and strings here). `removido_em` as
 * `Date#toISOString` writes it, split in integers as migration 4's `atualizado_em_iso` is.
 */
const REMOVIDOS_JSON = `SELECT CAST(group_concat(json_object(
    'id', id,
    'codigo', codigo,
    'removido_em', strftime('%Y-%m-%dT%H:%M:%S', removido_em / 1000, 'unixepoch') || printf('.%03dZ', removido_em % 1000)
  ), ',') AS BLOB)
  FROM (SELECT id, codigo, removido_em FROM removidos WHERE removido_em >= ? ORDER BY removido_em, id)`;

/**
 * A listed item's JSON: a Property is its stored document (kept without `atualizado_em`) with the
 * closing brace cut as a byte and `atualizado_em` appended as the last field, from the text the
 * row keeps beside the number (migration 4); a Withdrawn property is written here from its id and code.
 */
const ITEM_JSON = `CASE anunciado
    WHEN 1 THEN CAST(substr(CAST(documento AS BLOB), 1, length(CAST(documento AS BLOB)) - 1) AS TEXT)
    ELSE '{"id":"' || imoveis.id || '","codigo":' || json_quote(codigo) || ',"publicado":false'
  END || ',"atualizado_em":"' || atualizado_em_iso || '"}'`;

/**
 * A page in one row: `[items joined by commas, how many, the last id]`. The inner query picks the
 * page's rowids in id order; CROSS JOIN keeps it as the outer loop, so the aggregate sees the rows
 * in that order (the reader's tests check it). Only the page's own rows are read and written out.
 */
type LinhaPagina = [Buffer | null, number, string | null];
const paginaEmJson = (filtro: string): string => `
  SELECT CAST(group_concat(${ITEM_JSON}, ',') AS BLOB), count(*), max(pagina.id)
  FROM (SELECT rowid AS linha, id FROM imoveis ${filtro} ORDER BY id ${LIMITE_LIGADO}) AS pagina
  CROSS JOIN imoveis ON imoveis.rowid = pagina.linha`;

/** Whether anything matches: stops at the first entry, in whatever order the index gives. */
const existe = (filtro: string): string => `SELECT 1 FROM imoveis ${filtro} LIMIT 1`;

const ANUNCIADOS = 'WHERE anunciado = 1 AND id > ?';
/** The incremental plans take ids from a covering index: walking ids, or sorting a window by instant. */
const alterados = (indice: 'imoveis_por_id' | 'imoveis_alterados'): string =>
  `INDEXED BY ${indice} WHERE ja_anunciado = 1 AND atualizado_em >= ? AND id > ?`;
/** …or sorting one id range's share of the window (the expression is the index's, migration 3). */
const ALTERADOS_NA_FAIXA = 'INDEXED BY imoveis_alterados_por_faixa WHERE ja_anunciado = 1 AND substr(id, 1, 2) = ? AND atualizado_em >= ? AND id > ?';
const NOMES_FAIXAS = Array.from({ length: FAIXAS }, (_, i) => i.toString(16).padStart(2, '0'));
/** An id's range (ids are lower-case uuids); the first one when there is no cursor. */
const faixaDe = (id: string | null): number => (id === null ? 0 : Number.parseInt(id.slice(0, 2), 16));

// The empty string sorts before every id, so "after ''" means "from the start".
const INICIO = '';

/** A listing's two statements: its page, and whether anything follows an id. `F`: the filter's own parameters. */
interface ConsultasDePagina<F extends unknown[]> {
  readonly pagina: Database.Statement<[...F, string, number], LinhaPagina>;
  readonly mais: Database.Statement<[...F, string], [1]>;
}

function consultasDePagina<F extends unknown[]>(db: Database.Database, filtro: string): ConsultasDePagina<F> {
  return {
    pagina: db.prepare<[...F, string, number], LinhaPagina>(paginaEmJson(filtro)).raw(),
    mais: db.prepare<[...F, string], [1]>(existe(filtro)).raw(),
  };
}

/** A page and its cursor: the last id, when a full page is followed by one more item. */
function lerPagina<F extends unknown[]>(
  consultas: ConsultasDePagina<F>,
  filtro: F,
  args: { aposId: string | null; limite: number },
  total: number,
): PaginaItens {
  const [json, quantidade, ultimo] = consultas.pagina.get(...filtro, args.aposId ?? INICIO, args.limite)!;
  const haMais = ultimo !== null && quantidade === args.limite && consultas.mais.get(...filtro, ultimo) !== undefined;
  return { json: json ?? VAZIO, quantidade, proximoCursor: haMais ? ultimo : null, total };
}

/**
 * The by-range plan: the ranges in turn from the cursor's, until the page is full, their parts
 * joined by commas. `id > cursor` only narrows the cursor's own range: every later range's ids
 * are greater. Whether another item follows: the rest of the last id's range, then by walking
 * ids (about listed / window entries, few where this plan is chosen), never range by range to
 * the end.
 */
function lerPaginaPorFaixa(
  consultas: ConsultasDePagina<[string, number]>,
  maisPorId: ConsultasDePagina<[number]>['mais'],
  desdeMs: number,
  args: { aposId: string | null; limite: number },
  total: number,
): PaginaItens {
  const partes: Buffer[] = [];
  let quantidade = 0;
  let ultimo: string | null = null;
  for (let faixa = faixaDe(args.aposId); faixa < FAIXAS && quantidade < args.limite; faixa++) {
    const [json, n, ultimoDaFaixa] = consultas.pagina.get(NOMES_FAIXAS[faixa]!, desdeMs, args.aposId ?? INICIO, args.limite - quantidade)!;
    if (json === null) continue;
    if (partes.length > 0) partes.push(VIRGULA);
    partes.push(json);
    quantidade += n;
    ultimo = ultimoDaFaixa;
  }
  const haMais =
    ultimo !== null &&
    quantidade === args.limite &&
    (consultas.mais.get(NOMES_FAIXAS[faixaDe(ultimo)]!, desdeMs, ultimo) !== undefined || maisPorId.get(desdeMs, ultimo) !== undefined);
  const json = partes.length <= 1 ? (partes[0] ?? VAZIO) : Buffer.concat(partes);
  return { json, quantidade, proximoCursor: haMais ? ultimo : null, total };
}

export class LeitorSqlite implements LeitorProjecao {
  readonly #db: Database.Database;
  readonly #s;
  /** Made once: better-sqlite3 builds a transaction's wrappers on every `transaction()` call. */
  readonly #transacao: Database.Transaction<(fn: () => unknown) => unknown>;
  readonly #escolherPlano: typeof escolherPlanoIncremental;

  /** `escolherPlano`: tests force each incremental plan with it. */
  constructor(db: Database.Database, escolherPlano = escolherPlanoIncremental) {
    this.#db = db;
    this.#escolherPlano = escolherPlano;
    this.#transacao = db.transaction((fn: () => unknown) => fn());
    this.#s = {
      anunciados: consultasDePagina<[]>(db, ANUNCIADOS),
      alteradosPorId: consultasDePagina<[number]>(db, alterados('imoveis_por_id')),
      alteradosPorInstante: consultasDePagina<[number]>(db, alterados('imoveis_alterados')),
      alteradosPorFaixa: consultasDePagina<[string, number]>(db, ALTERADOS_NA_FAIXA),
      obter: db.prepare<[string], [Buffer, number]>(`SELECT CAST(${ITEM_JSON} AS BLOB), atualizado_em FROM imoveis WHERE id = ? AND anunciado = 1`).raw(),
      estado: db.prepare<[string], { valor: number | null }>('SELECT valor FROM estado WHERE chave = ?'),
      contarAlterados: db.prepare<number[], [number]>(SQL_CONTAR_ALTERADOS).raw(),
      removidos: db.prepare<[number], [Buffer | null]>(REMOVIDOS_JSON).raw(),
    };
  }

  /**
   * Opens the projection read-only; refuses a missing file, one of another schema version, and
   * one marked as the embedded demo's (sample listings, never served to partners) unless
   * `daDemo` (the demo's own reader, as with the writer).
   */
  static abrir(caminho: string, opcoes: { escolherPlano?: typeof escolherPlanoIncremental; daDemo?: boolean } = {}): LeitorSqlite {
    let db: Database.Database;
    try {
      db = new Database(caminho, { readonly: true, fileMustExist: true });
    } catch (erro) {
      throw new ProjecaoAusente(`a projeção ${caminho} não existe ou não pode ser aberta`, { cause: erro });
    }
    // Whatever refuses it (SQLite's own errors too: a file that is no database) closes it: the API
    // tries again every second while it fails, and would keep a descriptor open each time.
    try {
      const versao = db.pragma('user_version', { simple: true }) as number;
      if (versao > VERSAO_ESQUEMA) throw new ProjecaoDeVersaoMaisNova(`a projeção ${caminho} tem o esquema ${versao}, mais novo que o ${VERSAO_ESQUEMA}`);
      if (versao !== VERSAO_ESQUEMA) {
        // 0: a file the projector has only begun to make; otherwise one it has yet to migrate.
        throw new ProjecaoAusente(
          versao === 0
            ? `a projeção ${caminho} ainda não foi criada pelo projetor`
            : `a projeção ${caminho} tem o esquema ${versao}, anterior ao ${VERSAO_ESQUEMA}: o projetor a migra ao abri-la`,
        );
      }
      if (opcoes.daDemo !== true && db.prepare<[], number | null>(`SELECT valor FROM estado WHERE chave = ${sqlChave('demo')}`).pluck().get() === 1) {
        throw new ProjecaoDaDemo(caminho);
      }
      return new LeitorSqlite(db, opcoes.escolherPlano);
    } catch (erro) {
      db.close();
      throw erro;
    }
  }

  // Each listing reads its page, whether more follows, and its total inside one read transaction:
  // one snapshot.
  listarAnunciados(args: { aposId: string | null; limite: number }): PaginaItens {
    return this.#lerNoMesmoInstante(() => lerPagina(this.#s.anunciados, [], args, this.contarAnunciados()));
  }

  listarAlterados(args: { desdeMs: number; aposId: string | null; limite: number }): PaginaItens {
    return this.#lerNoMesmoInstante(() => {
      const total = this.contarAlterados(args.desdeMs);
      const plano = this.#escolherPlano({ naJanela: total, listados: this.#estado('listados'), pagina: args.limite });
      if (plano === 'por-faixa') return lerPaginaPorFaixa(this.#s.alteradosPorFaixa, this.#s.alteradosPorId.mais, args.desdeMs, args, total);
      const consultas = plano === 'por-id' ? this.#s.alteradosPorId : this.#s.alteradosPorInstante;
      return lerPagina(consultas, [args.desdeMs], args, total);
    });
  }

  contarAnunciados(): number {
    return this.#estado('anunciados');
  }

  contarAlterados(desdeMs: number): number {
    return this.#s.contarAlterados.get(...limitesDaJanela(desdeMs))![0];
  }

  obterAnunciado(id: string): { json: Buffer; atualizadoEm: number } | null {
    const row = this.#s.obter.get(id);
    return row ? { json: row[0], atualizadoEm: row[1] } : null;
  }

  listarRemovidos(desdeMs: number): Buffer {
    return this.#s.removidos.get(desdeMs)![0] ?? VAZIO;
  }

  frescor(): Frescor {
    return {
      emDiaEm: this.#s.estado.get(CHAVES_FRESCOR.emDiaEm)?.valor ?? null,
      registradoEm: this.#s.estado.get(CHAVES_FRESCOR.registradoEm)?.valor ?? null,
      atraso: this.#s.estado.get(CHAVES_FRESCOR.atraso)?.valor ?? 0,
    };
  }

  esquemaAindaLegivel(): boolean {
    return this.#db.pragma('user_version', { simple: true }) === VERSAO_ESQUEMA;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #lerNoMesmoInstante<T>(fn: () => T): T {
    return this.#transacao.deferred(fn) as T;
  }

  #estado(chave: ChaveEstado): number {
    return this.#s.estado.get(chave)?.valor ?? 0;
  }
}
