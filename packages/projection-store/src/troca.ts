// The switch at the end of a rebuild: the live projection takes the content of a projection
// rebuilt beside it, in one write transaction, so the API's readers see the old snapshot until the
// commit and the new one after it. Timestamps of what comes out identical are kept (decision 0006).
import { HORA_MS, type EscritorProjecao } from './escritor-sqlite.ts';
import { carimbar } from './projecao.ts';

export interface ResumoTroca {
  /** The switch instant, stamped on what changed. */
  instante: number;
  imoveis: number;
  /** Listed items whose visible state is unchanged: they keep their `atualizado_em`. */
  mantidos: number;
  /** Listed items that differ: they take the switch instant and reappear in incremental listings. */
  alterados: number;
  removidosNovos: number;
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
      const instante = carimbar(live, agora);
      // An item keeps its timestamp when a partner would see the same thing: the same document
      // while advertised, the same Withdrawn item (codigo) while not.
      db.exec(`
        CREATE TEMP TABLE troca_imoveis AS
        SELECT n.id, n.codigo, n.versao, n.condominio_id, n.anunciado, n.ja_anunciado, n.documento,
          CASE
            WHEN n.ja_anunciado = 0 THEN NULL
            WHEN o.ja_anunciado = 1 AND o.anunciado = n.anunciado AND o.codigo = n.codigo
                 AND (n.anunciado = 0 OR o.documento = n.documento) THEN o.atualizado_em
            ELSE ${instante}
          END AS atualizado_em,
          coalesce(n.ja_anunciado = 1 AND o.ja_anunciado = 1 AND o.anunciado = n.anunciado AND o.codigo = n.codigo
                 AND (n.anunciado = 0 OR o.documento = n.documento), 0) AS mantido
        FROM novo.imoveis n LEFT JOIN main.imoveis o ON o.id = n.id;

        DELETE FROM main.imoveis;
        INSERT INTO main.imoveis (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em)
          SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em FROM troca_imoveis;

        DELETE FROM main.condominios;
        INSERT INTO main.condominios SELECT * FROM novo.condominios;
        DELETE FROM main.offsets;
        INSERT INTO main.offsets SELECT * FROM novo.offsets;

        UPDATE estado SET valor = (SELECT count(*) FROM imoveis WHERE anunciado = 1) WHERE chave = 'anunciados';
        UPDATE estado SET valor = (SELECT count(*) FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em IS NOT NULL) WHERE chave = 'listados';
        DELETE FROM contagem_por_instante;
        INSERT INTO contagem_por_instante (instante, n)
          SELECT atualizado_em, count(*) FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em IS NOT NULL GROUP BY atualizado_em;
        DELETE FROM contagem_por_hora;
        INSERT INTO contagem_por_hora (hora, n)
          SELECT atualizado_em / ${HORA_MS}, count(*) FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em IS NOT NULL GROUP BY 1;
      `);
      // Removal items are kept for good: only those the live projection lacks are added.
      const removidosNovos = db
        .prepare('INSERT INTO main.removidos (id, codigo, removido_em) SELECT id, codigo, ? FROM novo.removidos WHERE id NOT IN (SELECT id FROM main.removidos)')
        .run(instante).changes;
      const contagem = db
        .prepare<[], { imoveis: number; mantidos: number | null; alterados: number | null }>(
          'SELECT count(*) AS imoveis, sum(mantido) AS mantidos, sum(ja_anunciado = 1 AND NOT mantido) AS alterados FROM troca_imoveis',
        )
        .get();
      db.exec('DROP TABLE troca_imoveis');
      const geracao = (live.lerEstado('geracao') ?? 0) + 1;
      live.gravarEstado('geracao', geracao);
      return {
        instante,
        imoveis: contagem?.imoveis ?? 0,
        mantidos: contagem?.mantidos ?? 0,
        alterados: contagem?.alterados ?? 0,
        removidosNovos,
        geracao,
      };
    });
  } finally {
    db.exec('DETACH DATABASE novo');
  }
}
