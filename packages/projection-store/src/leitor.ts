// What the API may ask of the projection: read-only, answers already in partner JSON so the API
// never parses and re-serialises documents. The SQLite implementation is `leitor-sqlite.ts`.

/**
 * A page of listed items (Properties and Withdrawn properties) already in partner JSON, joined by
 * commas without brackets. SQLite assembles it in one piece, so documents go from the database to
 * the socket without being decoded, parsed or crossing into JavaScript one by one.
 */
export interface PaginaItens {
  /** `{…},{…}`: at most `limite` items in ascending `id` order; empty when there are none. */
  readonly json: Buffer;
  readonly quantidade: number;
  /** The last item's id when at least one more matching item follows it (the next cursor), else null. */
  readonly proximoCursor: string | null;
  /** Items matching the whole filter, not just this page (read in the same snapshot). */
  readonly total: number;
}

/** How fresh the projection is, as the projector last recorded it. */
export interface Frescor {
  /** Epoch ms of the last moment the projector had consumed every partition to its end; null if never. */
  readonly emDiaEm: number | null;
  /** Epoch ms at which the projector last wrote this record (its heartbeat); null if never. */
  readonly registradoEm: number | null;
  /** Messages still to consume, summed over partitions, at `registradoEm`. */
  readonly atraso: number;
}

export interface LeitorProjecao {
  /** Full scan: advertised properties with `id > aposId`, ascending. */
  listarAnunciados(args: { aposId: string | null; limite: number }): PaginaItens;
  /** Incremental: every ever-advertised property with `atualizado_em >= desdeMs` and `id > aposId`. */
  listarAlterados(args: { desdeMs: number; aposId: string | null; limite: number }): PaginaItens;
  /** The Property JSON of an advertised property, or null when absent or not advertised. */
  obterAnunciado(id: string): { json: Buffer; atualizadoEm: number } | null;
  /** Removal items with `removido_em >= desdeMs`, oldest first: their JSON, comma-separated (no brackets). */
  listarRemovidos(desdeMs: number): Buffer;
  frescor(): Frescor;
  /** False once the file's schema is not the one this reader was opened for (a newer projector migrated it in place). */
  esquemaAindaLegivel(): boolean;
  close(): void;
}
