// The API's side of the projection: a read-only connection answering in ready-to-send JSON text.
// Documents are stored without `atualizado_em`; it is appended as text, never re-serialised.
import Database from 'better-sqlite3';
import { escolherPlanoIncremental } from '@imoveis/domain';
import { HORA_MS } from './escritor-sqlite.ts';
import { VERSAO_ESQUEMA, ProjecaoDeVersaoMaisNova } from './migracoes.ts';
import { jsonDoItem, type Frescor, type ItemListado, type ItemRemovidoLinha, type LeitorProjecao, type PaginaItens } from './leitor.ts';

/** `[id, codigo, anunciado, documento (UTF-8 bytes), atualizado_em]`: raw rows, no object per row. */
type RowListado = [string, string, number, Buffer, number];

export class ProjecaoAusente extends Error {
  override readonly name = 'ProjecaoAusente';
  readonly code = 'PROJECAO_AUSENTE';
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Ends a listed item: its `atualizado_em`, appended as the last field. */
const fimComInstante = (atualizadoEm: number): string => `,"atualizado_em":"${iso(atualizadoEm)}"}`;

/** A Property: the stored document up to its closing brace (a view, not a copy), then `atualizado_em`. */
export const itemImovel = (id: string, documento: Buffer, atualizadoEm: number): ItemListado => ({
  id,
  inicio: documento.subarray(0, documento.length - 1),
  fim: fimComInstante(atualizadoEm),
});

/** A Withdrawn property. */
export const itemRetirado = (id: string, codigo: string, atualizadoEm: number): ItemListado => ({
  id,
  inicio: Buffer.from(`{"id":"${id}","codigo":${JSON.stringify(codigo)},"publicado":false`),
  fim: fimComInstante(atualizadoEm),
});

const rowToItem = ([id, codigo, anunciado, documento, atualizadoEm]: RowListado): ItemListado =>
  anunciado === 1 ? itemImovel(id, documento, atualizadoEm) : itemRetirado(id, codigo, atualizadoEm);

function pagina(rows: RowListado[], limite: number, total: number): PaginaItens {
  const haMais = rows.length > limite;
  return { itens: (haMais ? rows.slice(0, limite) : rows).map(rowToItem), haMais, total };
}

/** An incremental page: rowids from `indice` (covering), then those rows, in id order. */
const paginaAlterados = (indice: 'imoveis_por_id' | 'imoveis_alterados'): string => `
  SELECT i.id, i.codigo, i.anunciado, CAST(i.documento AS BLOB), i.atualizado_em
  FROM (SELECT rowid AS linha, id FROM imoveis INDEXED BY ${indice}
        WHERE ja_anunciado = 1 AND atualizado_em >= ? AND id > ? ORDER BY id LIMIT ?) AS pagina
  JOIN imoveis AS i ON i.rowid = pagina.linha
  ORDER BY pagina.id`;

// The empty string sorts before every id, so "after ''" means "from the start".
const INICIO = '';

export class LeitorSqlite implements LeitorProjecao {
  readonly #db: Database.Database;
  readonly #s;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#s = {
      anunciados: db.prepare<[string, number], RowListado>(
        `SELECT id, codigo, anunciado, CAST(documento AS BLOB), atualizado_em FROM imoveis
         WHERE anunciado = 1 AND id > ? ORDER BY id LIMIT ?`,
      ).raw(),
      // Both plans pick the page's ids from a covering index (walking ids, or sorting a narrow
      // window by instant), then read only the page's own rows.
      alteradosPorId: db.prepare<[number, string, number], RowListado>(paginaAlterados('imoveis_por_id')).raw(),
      alteradosPorInstante: db.prepare<[number, string, number], RowListado>(paginaAlterados('imoveis_alterados')).raw(),
      obter: db.prepare<[string], { documento: Buffer; atualizado_em: number }>(
        'SELECT CAST(documento AS BLOB) AS documento, atualizado_em FROM imoveis WHERE id = ? AND anunciado = 1',
      ),
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
  listarAnunciados(args: { aposId: string | null; limite: number }): PaginaItens {
    return this.#lerNoMesmoInstante(() => {
      const rows = this.#s.anunciados.all(args.aposId ?? INICIO, args.limite + 1);
      return pagina(rows, args.limite, this.contarAnunciados());
    });
  }

  listarAlterados(args: { desdeMs: number; aposId: string | null; limite: number }): PaginaItens {
    return this.#lerNoMesmoInstante(() => {
      const total = this.contarAlterados(args.desdeMs);
      const plano = escolherPlanoIncremental({ naJanela: total, listados: this.#estado('listados'), pagina: args.limite });
      const consulta = plano === 'por-id' ? this.#s.alteradosPorId : this.#s.alteradosPorInstante;
      return pagina(consulta.all(args.desdeMs, args.aposId ?? INICIO, args.limite + 1), args.limite, total);
    });
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
    return row ? { json: jsonDoItem(itemImovel(id, row.documento, row.atualizado_em)), atualizadoEm: row.atualizado_em } : null;
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
