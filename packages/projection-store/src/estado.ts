// The keys of the projection's `estado` table, in one place: code names a key through
// `ChaveEstado` (a typo does not compile); SQL names one through `sqlChave`.

/** The projector's freshness record (operations.md), each field under its key; written together. */
export const CHAVES_FRESCOR = { registradoEm: 'frescor_registrado_em', emDiaEm: 'frescor_em_dia_em', atraso: 'frescor_atraso' } as const;

export type ChaveEstado =
  /** Advertised properties: the full scan's `total`. Kept in step by the writer. */
  | 'anunciados'
  /** Listed properties (`LISTADO` in sql.ts): sizes the incremental listing's plans. */
  | 'listados'
  /** Moves each time a rebuild is switched in (decision 0006). */
  | 'geracao'
  /** The last commit instant stamped (`carimbar`): each next one is later. */
  | 'ultimo_instante'
  /** The rules version (`VERSAO_DAS_REGRAS`) the stored documents were made with; absent: unknown (before versions were recorded, or mixed). */
  | 'regras'
  /** 1: made by the embedded demo from its sample, which may delete and make it again. */
  | 'demo'
  /** What the demo's projection was made from (`digestoDaAmostra`): another sample or photo address makes it again. */
  | 'demo_fonte'
  | (typeof CHAVES_FRESCOR)[keyof typeof CHAVES_FRESCOR];

/** A key as an SQL literal, checked like any other use of a key. */
export const sqlChave = (chave: ChaveEstado): string => `'${chave}'`;

/** The freshness keys as an SQL list, for statements that copy the record whole. */
export const SQL_CHAVES_FRESCOR = Object.values(CHAVES_FRESCOR).map(sqlChave).join(', ');
