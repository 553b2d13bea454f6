// The switch at the end of a rebuild: the live projection takes the content of a projection
// rebuilt beside it, in one write transaction, so the API's readers see the old snapshot until the
// commit and the new one after it. Timestamps of what comes out identical are kept (decision 0006).
import { comNomeCondominio } from '@imoveis/domain';
import { SQL_RECONTAR } from './contagens.ts';
import type { EscritorProjecao } from './escritor-sqlite.ts';
import { SQL_CHAVES_FRESCOR, sqlChave } from './estado.ts';
import { carimbar } from './projecao.ts';
import type Database from './sqlite.ts';

/**
 * `atualizado_em` of what the switch changed, until it is stamped (no real instant is negative).
 * Stored in as many bytes as a real instant, its ISO text as long: stamping it leaves the row's
 * size unchanged, so SQLite rewrites only the page holding it, not the document's pages.
 */
const ALTERADO = -1_000_000_000_000;

/**
 * Up to this share of the live rows to write, only those are written; past it, the whole table
 * is, in one pass, with its indexes built afterwards (all of a million rows here: 183 s so, 380 s
 * one by one).
 */
const PARCELA_ESCRITA_NO_LUGAR = 1 / 3;

export interface ResumoTroca {
  /** The switch instant, stamped on what changed. */
  instante: number;
  imoveis: number;
  /** Listed items whose visible state is unchanged: they keep their `atualizado_em`. */
  mantidos: number;
  /** Listed items that differ: they take the switch instant and reappear in incremental listings. */
  alterados: number;
  removidosNovos: number;
  /** In the live projection, absent from the rebuild: kept as they were (saved after the rebuild caught up, or gone from the topics). */
  ausentes: number;
  /**
   * Properties at a later revision in the live projection than the topics still hold (compaction
   * keeps a key's last record, which an out-of-order older revision can be): kept as they were.
   */
  maisNovos: number;
  /** Property rows written: those that differ from the live ones, or all of them when the table is filled again. */
  escritos: number;
  geracao: number;
}

/**
 * Replaces the content of `live` with that of the projection file at `caminhoNovo`, keeping the
 * live offsets' successor: the rebuilt offsets, and a new `geracao` so the live projector knows to
 * seek to them. In one write transaction: the condominiums and properties compared (two temporary
 * tables), the rows that differ written, the rebuild's offsets and freshness copied, what changed
 * stamped with the switch instant.
 */
export function trocarProjecao(
  live: EscritorProjecao,
  caminhoNovo: string,
  agora: () => number,
  /** Tests force either way of writing with it: both must give the same projection. */
  { parcelaEscritaNoLugar = PARCELA_ESCRITA_NO_LUGAR }: { parcelaEscritaNoLugar?: number } = {},
): ResumoTroca {
  const { db } = live;
  db.prepare('ATTACH DATABASE ? AS novo').run(caminhoNovo);
  try {
    return live.transacao(() => {
      db.function('com_nome_condominio', { deterministic: true }, (documento: unknown, nome: unknown) =>
        comNomeCondominio(documento as string, nome as string | null),
      );
      compararCondominios(db);
      compararImoveis(db);
      const { escritos, noLugar } = escreverImoveis(db, parcelaEscritaNoLugar);
      const regrasMisturadas = documentosDeOutrasRegras(db);
      copiarCondominiosEOffsets(db);
      // Documents kept from the live projection were made by its rules: if the rebuild's differ,
      // the projection holds both, which an absent version says (decision 0011).
      if (regrasMisturadas) live.gravarEstado('regras', null);
      const { instante, removidosNovos } = carimbarOQueMudou(live, agora);
      db.exec(SQL_RECONTAR);
      const contagem = db
        .prepare<[], { imoveis: number; mantidos: number | null; alterados: number | null; ausentes: number | null; mais_novos: number | null }>(
          'SELECT count(*) AS imoveis, sum(mantido) AS mantidos, sum(ja_anunciado = 1 AND NOT mantido) AS alterados, sum(ausente) AS ausentes, sum(mais_novo) AS mais_novos FROM troca_imoveis',
        )
        .get();
      db.exec('DROP TABLE troca_imoveis');
      const geracao = live.geracao() + 1;
      live.gravarEstado('geracao', geracao);
      return {
        instante,
        imoveis: contagem?.imoveis ?? 0,
        mantidos: contagem?.mantidos ?? 0,
        alterados: contagem?.alterados ?? 0,
        removidosNovos,
        ausentes: contagem?.ausentes ?? 0,
        maisNovos: contagem?.mais_novos ?? 0,
        escritos: noLugar ? escritos : (contagem?.imoveis ?? 0),
        geracao,
      };
    });
  } finally {
    db.exec('DETACH DATABASE novo');
  }
}

/**
 * How long writing the switch instant into what changed may take before it is written again with
 * the instant the switch will commit at (see `carimbarOQueMudou`).
 */
const ESCRITA_LONGA_MS = 5_000;

/**
 * Stamps what changed and adds the new removal items. Writing the instant into a changed row
 * rewrites its page: tens of seconds at a million rows after a change of the mapping rules, after
 * the instant was taken and before the commit. A partner's query starting in between, more than its
 * margin after the instant, would never see those changes (decision 0005). So when the writing took
 * longer than `ESCRITA_LONGA_MS`, it is done again with the instant its own duration foretells
 * for the commit (half as much again: the recount and the commit follow): later than the commit
 * rather than earlier.
 */
function carimbarOQueMudou(live: EscritorProjecao, agora: () => number): { instante: number; removidosNovos: number } {
  const { db } = live;
  const inicio = agora();
  const instante = carimbar(live, agora)();
  db.prepare(`UPDATE main.imoveis SET atualizado_em = ? WHERE ja_anunciado = 1 AND atualizado_em = ${ALTERADO}`).run(instante);
  // Removal items are kept for good: only those the live projection lacks are added.
  const removidosNovos = db
    .prepare('INSERT INTO main.removidos (id, codigo, removido_em) SELECT id, codigo, ? FROM novo.removidos WHERE id NOT IN (SELECT id FROM main.removidos)')
    .run(instante).changes;
  const duracao = agora() - inicio;
  const previsto = agora() + Math.ceil(duracao * 1.5);
  // The first instant may be ahead of the clock already (the previous one plus a millisecond,
  // after the clock stepped back): then it stands, and instants never go back.
  if (duracao <= ESCRITA_LONGA_MS || previsto <= instante) return { instante, removidosNovos };
  // No other row has the first instant: it is later than every instant stamped before it.
  db.prepare('UPDATE main.imoveis SET atualizado_em = ? WHERE ja_anunciado = 1 AND atualizado_em = ?').run(previsto, instante);
  db.prepare('UPDATE main.removidos SET removido_em = ? WHERE removido_em = ?').run(previsto, instante);
  live.gravarEstado('ultimo_instante', previsto);
  return { instante: previsto, removidosNovos };
}

/**
 * `troca_condominios`: the rebuild's condominiums, but for what the live projection knows and the
 * topics no longer hold (compaction keeps a key's last record, not its latest revision): a
 * deletion is final, a later revision stands, and one the rebuild never saw stays. Where such a
 * row's name is not the one the rebuild spliced into its properties, theirs is spliced again.
 */
function compararCondominios(db: Database.Database): void {
  db.exec(`
    CREATE TEMP TABLE troca_condominios AS
      SELECT n.*, 0 AS da_live, n.nome AS nome_no_novo FROM novo.condominios n LEFT JOIN main.condominios o ON o.id = n.id
      WHERE o.id IS NULL OR NOT (o.excluido = 1 OR o.versao > n.versao)
      UNION ALL
      SELECT o.*, 1, n.nome FROM main.condominios o LEFT JOIN novo.condominios n ON n.id = o.id
      WHERE n.id IS NULL OR o.excluido = 1 OR o.versao > n.versao;
    CREATE UNIQUE INDEX temp.troca_condominios_id ON troca_condominios (id);
  `);
}

/**
 * `troca_imoveis`: every property as the switch leaves it, without its document (a row's comes
 * from where it was compared: the rebuilt row, `linha_nova`, or the live one, `linha`, with the
 * condominium's name spliced in where `renomear` says so); `igual` where the live row is the
 * result already.
 *
 * An item keeps its timestamp when a partner would see the same thing: the same document while
 * advertised, the same Withdrawn item (codigo) while not. A property the live projection saw
 * advertised stays listed (a Withdrawn item) even when the rebuild, reading a compacted topic,
 * never saw it advertised. A property the live projection saw deleted stays deleted: the rebuild
 * may have caught up before the deletion. One the live projection holds at a later revision than
 * the rebuild found stays as it is (an older revision changes nothing). A property the rebuild
 * never saw (saved after it caught up, or gone from the topics) stays as the live projection has
 * it, its versao too: the live projector, seeking back to the rebuild's offsets, meets its events
 * again as the repeats they are. Applied again from the first, they would serve partners its older
 * revisions meanwhile, and move its instant. What changed is marked ALTERADO here and stamped at
 * the end, just before the commit: the copy takes seconds, and a change must not carry an instant
 * from before it can be read.
 */
function compararImoveis(db: Database.Database): void {
  db.exec(`
    CREATE TEMP TABLE troca_imoveis AS
    WITH novos AS NOT MATERIALIZED (
      SELECT n.rowid AS linha_nova, n.id, n.codigo, n.versao, n.condominio_id, n.anunciado, n.ja_anunciado, n.publico,
        c.da_live = 1 AND c.nome IS NOT c.nome_no_novo AS renomear, c.nome AS nome,
        CASE WHEN c.da_live = 1 AND c.nome IS NOT c.nome_no_novo THEN com_nome_condominio(n.documento, c.nome) ELSE n.documento END AS documento
      FROM novo.imoveis n LEFT JOIN troca_condominios c ON c.id = n.condominio_id
    ),
    -- Kept live rows take the name of the condominium as it is switched in.
    vivos AS NOT MATERIALIZED (
      SELECT o.rowid AS linha, o.id, o.codigo, o.versao, o.condominio_id, o.anunciado, o.ja_anunciado, o.atualizado_em, o.documento AS antes,
        c.id IS NOT NULL AS renomear, c.nome AS nome,
        CASE WHEN c.id IS NULL THEN o.documento ELSE com_nome_condominio(o.documento, c.nome) END AS documento
      FROM main.imoveis o LEFT JOIN troca_condominios c ON c.id = o.condominio_id
    ),
    -- mantido: the domain's mudancaRelevante (@imoveis/domain), and the versao filters its
    -- revisaoAplicavel, in SQL over whole tables: a change of one must be made in the other.
    comparados AS (
      SELECT n.id, n.codigo, n.versao, n.condominio_id, n.anunciado,
        max(n.ja_anunciado, coalesce(o.ja_anunciado, 0)) AS ja_anunciado,
        coalesce(o.ja_anunciado = 1 AND o.anunciado = n.anunciado AND o.codigo = n.codigo
                 AND (n.anunciado = 0 OR o.documento = n.documento), 0) AS mantido,
        o.atualizado_em AS atualizado_antes, 0 AS ausente, 0 AS mais_novo,
        -- The live row keeps its place only with the rebuild's digest too (it has none from before schema 5).
        o.rowid AS linha, n.linha_nova, coalesce(n.renomear, 0) AS renomear, n.nome,
        o.documento = n.documento AND o.publico IS n.publico AS documento_igual,
        o.codigo AS codigo_antes, o.versao AS versao_antes, o.condominio_id AS condominio_antes,
        o.anunciado AS anunciado_antes, o.ja_anunciado AS ja_anunciado_antes
      FROM novos n LEFT JOIN main.imoveis o ON o.id = n.id
      WHERE n.id NOT IN (SELECT id FROM main.removidos) AND (o.id IS NULL OR o.versao <= n.versao)
      UNION ALL
      SELECT o.id, o.codigo, o.versao, o.condominio_id, o.anunciado, o.ja_anunciado,
        o.ja_anunciado AND (o.anunciado = 0 OR o.documento = o.antes), o.atualizado_em, 0, 1,
        o.linha, NULL, o.renomear, o.nome, o.documento = o.antes, o.codigo, o.versao, o.condominio_id, o.anunciado, o.ja_anunciado
      FROM vivos o JOIN novo.imoveis n ON n.id = o.id
      WHERE o.versao > n.versao
      UNION ALL
      SELECT o.id, o.codigo, o.versao, o.condominio_id, o.anunciado, o.ja_anunciado,
        o.ja_anunciado AND (o.anunciado = 0 OR o.documento = o.antes), o.atualizado_em, 1, 0,
        o.linha, NULL, o.renomear, o.nome, o.documento = o.antes, o.codigo, o.versao, o.condominio_id, o.anunciado, o.ja_anunciado
      FROM vivos o
      WHERE NOT EXISTS (SELECT 1 FROM novo.imoveis n WHERE n.id = o.id) AND o.id NOT IN (SELECT id FROM novo.removidos)
    ),
    resultado AS (
      SELECT *, CASE WHEN ja_anunciado = 0 THEN NULL WHEN mantido THEN atualizado_antes ELSE ${ALTERADO} END AS atualizado_em
      FROM comparados
    )
    SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, mantido, ausente, mais_novo, atualizado_em,
      linha, linha_nova, renomear, nome, NULL AS documento, NULL AS publico,
      coalesce(documento_igual AND codigo = codigo_antes AND versao = versao_antes AND condominio_id IS condominio_antes
               AND anunciado = anunciado_antes AND ja_anunciado = ja_anunciado_antes AND atualizado_em IS atualizado_antes, 0) AS igual
    FROM resultado;
  `);
}

/**
 * The live property rows made what `troca_imoveis` says: only those that differ, none of the rest
 * after a rebuild for a few bad documents (copying all of a million rows took three minutes here,
 * holding the write lock, and with it the projection's freshness, all that time); past
 * `parcelaEscritaNoLugar` of the live rows, the whole table filled again.
 */
function escreverImoveis(db: Database.Database, parcelaEscritaNoLugar: number): { escritos: number; noLugar: boolean } {
  const { escrever, vivas } = db
    .prepare<[], { escrever: number; vivas: number }>(
      'SELECT (SELECT count(*) FROM troca_imoveis WHERE NOT igual) AS escrever, (SELECT count(*) FROM main.imoveis) AS vivas',
    )
    .get()!;
  const noLugar = escrever <= vivas * parcelaEscritaNoLugar;
  // The rows written: those that differ, or all of them when the table is filled again.
  const escritas = noLugar ? 'NOT t.igual' : 'true';
  // Rows from the live projection to write take their documents and digests along before the
  // rows go (a few, filled again whole: later revisions, and what the rebuild never saw).
  db.exec(`
    UPDATE troca_imoveis AS t SET documento = CASE WHEN t.renomear THEN com_nome_condominio(o.documento, t.nome) ELSE o.documento END,
      publico = o.publico
    FROM main.imoveis o WHERE o.rowid = t.linha AND t.linha_nova IS NULL AND ${escritas}
  `);
  // Filled again whole, the table's indexes are built afterwards, each in one sorted pass: a
  // million inserts into each, in random order, were most of the cost. Their SQL is read back
  // from the schema, so they come back exactly as the migrations made them.
  const indices = noLugar
    ? []
    : db.prepare<[], { nome: string; sql: string }>("SELECT name AS nome, sql FROM main.sqlite_schema WHERE type = 'index' AND tbl_name = 'imoveis' AND sql IS NOT NULL").all();
  for (const { nome } of indices) db.exec(`DROP INDEX main."${nome}"`);
  db.exec(noLugar ? 'DELETE FROM main.imoveis WHERE rowid NOT IN (SELECT linha FROM troca_imoveis WHERE igual)' : 'DELETE FROM main.imoveis');
  db.exec(`
    INSERT INTO main.imoveis (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em, publico)
      SELECT t.id, t.codigo, t.versao, t.condominio_id, t.anunciado, t.ja_anunciado,
        coalesce(t.documento, CASE WHEN t.renomear THEN com_nome_condominio(n.documento, t.nome) ELSE n.documento END), t.atualizado_em,
        CASE WHEN t.linha_nova IS NULL THEN t.publico ELSE n.publico END
      FROM troca_imoveis t LEFT JOIN novo.imoveis n ON n.rowid = t.linha_nova
      WHERE ${escritas}
  `);
  for (const { sql } of indices) db.exec(sql);
  return { escritos: escrever, noLugar };
}

/** Whether documents kept from the live projection were made by other rules than the rebuild's (or unknown ones). */
function documentosDeOutrasRegras(db: Database.Database): boolean {
  const { misturadas } = db
    .prepare<[], { misturadas: number }>(
      `SELECT EXISTS (SELECT 1 FROM troca_imoveis WHERE linha_nova IS NULL)
         AND (SELECT valor FROM main.estado WHERE chave = ${sqlChave('regras')}) IS NOT (SELECT valor FROM novo.estado WHERE chave = ${sqlChave('regras')})
         AS misturadas`,
    )
    .get()!;
  return misturadas === 1;
}

/**
 * The condominiums as compared, and the rebuild's offsets, and with them how fresh the projection
 * is; the documents are the rebuild's, made by its rules (the few kept as they were aside).
 */
function copiarCondominiosEOffsets(db: Database.Database): void {
  db.exec(`
    DELETE FROM main.condominios;
    INSERT INTO main.condominios (id, nome, versao, excluido) SELECT id, nome, versao, excluido FROM troca_condominios;
    DROP TABLE troca_condominios;
    DELETE FROM main.offsets;
    INSERT INTO main.offsets SELECT * FROM novo.offsets;
    DELETE FROM main.estado WHERE chave IN (${SQL_CHAVES_FRESCOR}, ${sqlChave('regras')});
    INSERT INTO main.estado SELECT * FROM novo.estado WHERE chave IN (${SQL_CHAVES_FRESCOR}, ${sqlChave('regras')});
  `);
}
