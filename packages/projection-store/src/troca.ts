// The switch at the end of a rebuild: the live projection takes the content of a projection
// rebuilt beside it, in one write transaction, so the API's readers see the old snapshot until the
// commit and the new one after it. Timestamps of what comes out identical are kept (decision 0006).
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
      // An item keeps its timestamp when a partner would see the same thing: the same document
      // while advertised, the same Withdrawn item (codigo) while not. A property the live
      // projection saw advertised stays listed (a Withdrawn item) even when the rebuild, reading a
      // compacted topic, never saw it advertised. A property the live projection saw deleted stays
      // deleted: the rebuild may have caught up before the deletion.
      // A property the rebuild never saw (saved after it caught up, or gone from the topics) stays
      // as the live projection has it, with a versao of 0: the live projector, seeking back to the
      // rebuild's offsets, applies its events again instead of skipping them as repeats.
      // What changed is marked ALTERADO here and stamped at the end, just before the commit: the
      // copy takes seconds, and a change must not carry an instant from before it can be read.
      db.exec(`
        CREATE TEMP TABLE troca_imoveis AS
        WITH comparados AS (
          SELECT n.id, n.codigo, n.versao, n.condominio_id, n.anunciado, n.documento,
            max(n.ja_anunciado, coalesce(o.ja_anunciado, 0)) AS ja_anunciado,
            coalesce(o.ja_anunciado = 1 AND o.anunciado = n.anunciado AND o.codigo = n.codigo
                     AND (n.anunciado = 0 OR o.documento = n.documento), 0) AS mantido,
            o.atualizado_em AS atualizado_antes, 0 AS ausente
          FROM novo.imoveis n LEFT JOIN main.imoveis o ON o.id = n.id
          WHERE n.id NOT IN (SELECT id FROM main.removidos)
          UNION ALL
          SELECT o.id, o.codigo, 0, o.condominio_id, o.anunciado, o.documento, o.ja_anunciado, o.ja_anunciado, o.atualizado_em, 1
          FROM main.imoveis o
          WHERE NOT EXISTS (SELECT 1 FROM novo.imoveis n WHERE n.id = o.id) AND o.id NOT IN (SELECT id FROM novo.removidos)
        )
        SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, mantido, ausente,
          CASE WHEN ja_anunciado = 0 THEN NULL WHEN mantido THEN atualizado_antes ELSE ${ALTERADO} END AS atualizado_em
        FROM comparados;

        DELETE FROM main.imoveis;
        INSERT INTO main.imoveis (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em)
          SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em FROM troca_imoveis;

        DELETE FROM main.condominios;
        INSERT INTO main.condominios SELECT * FROM novo.condominios;
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
        .prepare<[], { imoveis: number; mantidos: number | null; alterados: number | null; ausentes: number | null }>(
          'SELECT count(*) AS imoveis, sum(mantido) AS mantidos, sum(ja_anunciado = 1 AND NOT mantido) AS alterados, sum(ausente) AS ausentes FROM troca_imoveis',
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
        geracao,
      };
    });
  } finally {
    db.exec('DETACH DATABASE novo');
  }
}
