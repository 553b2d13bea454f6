// The switch at the end of a rebuild: the live projection takes the content of a projection
// rebuilt beside it, in one write transaction, so the API's readers see the old snapshot until the
// commit and the new one after it. Timestamps of what comes out identical are kept (decision 0006).
import { comNomeCondominio } from '@imoveis/domain';
import { SQL_RECONTAR } from './contagens.ts';
import type { EscritorProjecao } from './escritor-sqlite.ts';
import { SQL_CHAVES_FRESCOR } from './estado.ts';
import { carimbar } from './projecao.ts';

/** `atualizado_em` of what the switch changed, until it is stamped (no real instant is negative). */
const ALTERADO = -1;

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
  geracao: number;
}

/**
 * Replaces the content of `live` with that of the projection file at `caminhoNovo`, keeping the
 * live offsets' successor: the rebuilt offsets, and a new `geracao` so the live projector knows to
 * seek to them.
 */
export function trocarProjecao(live: EscritorProjecao, caminhoNovo: string, agora: () => number): ResumoTroca {
  const { db } = live;
  db.prepare('ATTACH DATABASE ? AS novo').run(caminhoNovo);
  try {
    return live.transacao(() => {
      // Condominiums: the rebuild's, but for what the live projection knows and the topics no
      // longer hold (compaction keeps a key's last record, not its latest revision): a deletion
      // is final, a later revision stands, and one the rebuild never saw stays. Where such a row's
      // name is not the one the rebuild spliced into its properties, theirs is spliced again.
      db.function('com_nome_condominio', { deterministic: true }, (documento: unknown, nome: unknown) =>
        comNomeCondominio(documento as string, nome as string | null),
      );
      db.exec(`
        CREATE TEMP TABLE troca_condominios AS
          SELECT n.*, 0 AS da_live, n.nome AS nome_no_novo FROM novo.condominios n LEFT JOIN main.condominios o ON o.id = n.id
          WHERE o.id IS NULL OR NOT (o.excluido = 1 OR o.versao > n.versao)
          UNION ALL
          SELECT o.*, 1, n.nome FROM main.condominios o LEFT JOIN novo.condominios n ON n.id = o.id
          WHERE n.id IS NULL OR o.excluido = 1 OR o.versao > n.versao;
        CREATE UNIQUE INDEX temp.troca_condominios_id ON troca_condominios (id);
      `);
      // An item keeps its timestamp when a partner would see the same thing: the same document
      // while advertised, the same Withdrawn item (codigo) while not. A property the live
      // projection saw advertised stays listed (a Withdrawn item) even when the rebuild, reading a
      // compacted topic, never saw it advertised. A property the live projection saw deleted stays
      // deleted: the rebuild may have caught up before the deletion. One the live projection holds
      // at a later revision than the rebuild found stays as it is (an older revision changes nothing).
      // A property the rebuild never saw (saved after it caught up, or gone from the topics) stays
      // as the live projection has it, with a versao of 0: the live projector, seeking back to the
      // rebuild's offsets, applies its events again instead of skipping them as repeats.
      // What changed is marked ALTERADO here and stamped at the end, just before the commit: the
      // copy takes seconds, and a change must not carry an instant from before it can be read.
      db.exec(`
        CREATE TEMP TABLE troca_imoveis AS
        WITH novos AS NOT MATERIALIZED (
          SELECT n.id, n.codigo, n.versao, n.condominio_id, n.anunciado, n.ja_anunciado,
            CASE WHEN c.da_live = 1 AND c.nome IS NOT c.nome_no_novo THEN com_nome_condominio(n.documento, c.nome) ELSE n.documento END AS documento
          FROM novo.imoveis n LEFT JOIN troca_condominios c ON c.id = n.condominio_id
        ),
        -- Kept live rows take the name of the condominium as it is switched in.
        vivos AS NOT MATERIALIZED (
          SELECT o.id, o.codigo, o.versao, o.condominio_id, o.anunciado, o.ja_anunciado, o.atualizado_em, o.documento AS antes,
            CASE WHEN c.id IS NULL THEN o.documento ELSE com_nome_condominio(o.documento, c.nome) END AS documento
          FROM main.imoveis o LEFT JOIN troca_condominios c ON c.id = o.condominio_id
        ),
        comparados AS (
          SELECT n.id, n.codigo, n.versao, n.condominio_id, n.anunciado, n.documento,
            max(n.ja_anunciado, coalesce(o.ja_anunciado, 0)) AS ja_anunciado,
            coalesce(o.ja_anunciado = 1 AND o.anunciado = n.anunciado AND o.codigo = n.codigo
                     AND (n.anunciado = 0 OR o.documento = n.documento), 0) AS mantido,
            o.atualizado_em AS atualizado_antes, 0 AS ausente, 0 AS mais_novo
          FROM novos n LEFT JOIN main.imoveis o ON o.id = n.id
          WHERE n.id NOT IN (SELECT id FROM main.removidos) AND (o.id IS NULL OR o.versao <= n.versao)
          UNION ALL
          SELECT o.id, o.codigo, o.versao, o.condominio_id, o.anunciado, o.documento, o.ja_anunciado,
            o.ja_anunciado AND (o.anunciado = 0 OR o.documento = o.antes), o.atualizado_em, 0, 1
          FROM vivos o JOIN novo.imoveis n ON n.id = o.id
          WHERE o.versao > n.versao
          UNION ALL
          SELECT o.id, o.codigo, 0, o.condominio_id, o.anunciado, o.documento, o.ja_anunciado,
            o.ja_anunciado AND (o.anunciado = 0 OR o.documento = o.antes), o.atualizado_em, 1, 0
          FROM vivos o
          WHERE NOT EXISTS (SELECT 1 FROM novo.imoveis n WHERE n.id = o.id) AND o.id NOT IN (SELECT id FROM novo.removidos)
        )
        SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, mantido, ausente, mais_novo,
          CASE WHEN ja_anunciado = 0 THEN NULL WHEN mantido THEN atualizado_antes ELSE ${ALTERADO} END AS atualizado_em
        FROM comparados;

        DELETE FROM main.imoveis;
        INSERT INTO main.imoveis (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em)
          SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em FROM troca_imoveis;

        DELETE FROM main.condominios;
        INSERT INTO main.condominios (id, nome, versao, excluido) SELECT id, nome, versao, excluido FROM troca_condominios;
        DROP TABLE troca_condominios;
        DELETE FROM main.offsets;
        INSERT INTO main.offsets SELECT * FROM novo.offsets;
        -- The offsets go back to the rebuild's, and with them how fresh the projection is; the
        -- documents are the rebuild's, made by its rules (the few kept as they were aside).
        DELETE FROM main.estado WHERE chave IN (${SQL_CHAVES_FRESCOR}, 'regras');
        INSERT INTO main.estado SELECT * FROM novo.estado WHERE chave IN (${SQL_CHAVES_FRESCOR}, 'regras');
      `);
      const instante = carimbar(live, agora);
      db.prepare(`UPDATE main.imoveis SET atualizado_em = ? WHERE ja_anunciado = 1 AND atualizado_em = ${ALTERADO}`).run(instante);
      // Removal items are kept for good: only those the live projection lacks are added.
      const removidosNovos = db
        .prepare('INSERT INTO main.removidos (id, codigo, removido_em) SELECT id, codigo, ? FROM novo.removidos WHERE id NOT IN (SELECT id FROM main.removidos)')
        .run(instante).changes;
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
        geracao,
      };
    });
  } finally {
    db.exec('DETACH DATABASE novo');
  }
}
