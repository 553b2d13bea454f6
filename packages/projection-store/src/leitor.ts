// What the API may ask of the projection: read-only, answers already in partner JSON so the API
// never parses and re-serialises documents. The SQLite implementation is `leitor-sqlite.ts`.

/** A listing page parsed: the `ListagemImoveis` of partner-api.md. */
export interface PaginaLida {
  readonly dados: ({ id: string } & Record<string, unknown>)[];
  readonly por_pagina: number;
  readonly proximo_cursor: string | null;
  readonly total: number;
}

/** Parses a listing page, for tests and tools (the API sends the bytes as they are). */
export const lerPagina = (corpo: Buffer): PaginaLida => JSON.parse(corpo.toString()) as PaginaLida;

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
  // Listings answer a whole `ListagemImoveis` body as partners receive it: at most `limite` items
  // in ascending id order, the cursor when another item follows, the filter's total.
  /** Full scan: advertised properties with `id > aposId`. */
  listarAnunciados(args: { aposId: string | null; limite: number }): Buffer;
  /** Incremental: every ever-advertised property with `atualizado_em >= desdeMs` and `id > aposId`. */
  listarAlterados(args: { desdeMs: number; aposId: string | null; limite: number }): Buffer;
  /** The Property JSON of an advertised property, or null when absent or not advertised. */
  obterAnunciado(id: string): { json: Buffer; atualizadoEm: number } | null;
  /** Removal items with `removido_em >= desdeMs`, oldest first. */
  listarRemovidos(desdeMs: number): readonly ItemRemovidoLinha[];
  frescor(): Frescor;
  close(): void;
}
