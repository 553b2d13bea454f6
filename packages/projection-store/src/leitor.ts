// What the API may ask of the projection: read-only, answers already in partner JSON so the API
// never parses and re-serialises documents. The SQLite implementation is `leitor-sqlite.ts`.

/**
 * One listed item as ready-to-send JSON (a Property or a Withdrawn property) in two pieces: the
 * UTF-8 bytes up to the closing brace (for a Property, the stored document itself, not copied),
 * then the text that ends it (`,"atualizado_em":"…"}`). A page is assembled from the pieces in one
 * copy: documents go from the database page to the socket without being decoded into strings.
 */
export interface ItemListado {
  readonly id: string;
  readonly inicio: Buffer;
  readonly fim: string;
}

/** The item's JSON in one buffer. */
export const jsonDoItem = (item: ItemListado): Buffer => Buffer.concat([item.inicio, Buffer.from(item.fim)]);

export interface PaginaItens {
  /** At most `limite` items, in ascending `id` order. */
  readonly itens: readonly ItemListado[];
  /** True when at least one more matching item exists after the last one returned. */
  readonly haMais: boolean;
  /** Items matching the whole filter, not just this page (read in the same snapshot). */
  readonly total: number;
}

export interface ItemRemovidoLinha {
  readonly id: string;
  readonly codigo: string;
  /** Epoch milliseconds. */
  readonly removidoEm: number;
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
  /** Removal items with `removido_em >= desdeMs`, oldest first. */
  listarRemovidos(desdeMs: number): readonly ItemRemovidoLinha[];
  frescor(): Frescor;
  close(): void;
}
