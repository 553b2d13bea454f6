// Schema of the projection, versioned with PRAGMA user_version. Each migration runs once, in
// order, inside a transaction; a database from a newer version is refused rather than guessed at.
// A migration is frozen once released: it spells out its tables and indexes in full, even where a
// later one repeats them, so that no later edit can change what an old one does.
import type Database from './sqlite.ts';

export class ProjecaoDeVersaoMaisNova extends Error {
  override readonly name = 'ProjecaoDeVersaoMaisNova';
  readonly code = 'PROJECAO_VERSAO_MAIS_NOVA';
}

/** Ids written as the register sent them, before they were kept in lower case: replay instead. */
export class ProjecaoComIdsMaiusculos extends Error {
  override readonly name = 'ProjecaoComIdsMaiusculos';
  readonly code = 'PROJECAO_IDS_MAIUSCULOS';
}

export const MIGRACOES: readonly string[] = [
  // 1: the projection, its removal tombstones and what keeps listings and totals cheap.
  `
  CREATE TABLE imoveis (
    id            TEXT PRIMARY KEY,
    codigo        TEXT NOT NULL,
    versao        INTEGER NOT NULL,
    condominio_id TEXT,
    anunciado     INTEGER NOT NULL,  -- advertised now: served by the full scan and the detail
    ja_anunciado  INTEGER NOT NULL,  -- advertised at some point: listed by the incremental scan
    documento     TEXT NOT NULL,     -- partner JSON without atualizado_em, ready to send
    atualizado_em INTEGER            -- epoch ms of the last relevant change (null: never advertised)
  ) STRICT;
  -- Few indexes on random uuids: each is a random page written per new property, the main cost
  -- of a replay. The full scan walks the primary key (most rows are advertised); the incremental
  -- listing walks ids through a covering index, or reads a narrow window by instant.
  CREATE INDEX imoveis_listados ON imoveis (id, atualizado_em) WHERE ja_anunciado = 1;
  CREATE INDEX imoveis_alterados ON imoveis (atualizado_em, id) WHERE ja_anunciado = 1;
  CREATE INDEX imoveis_por_condominio ON imoveis (condominio_id, id) WHERE condominio_id IS NOT NULL;

  CREATE TABLE removidos (
    id          TEXT PRIMARY KEY,
    codigo      TEXT NOT NULL,
    removido_em INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX removidos_por_instante ON removidos (removido_em, id);

  CREATE TABLE condominios (
    id       TEXT PRIMARY KEY,
    nome     TEXT,                   -- null once deleted
    versao   INTEGER NOT NULL,
    excluido INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  -- How many listed properties carry each atualizado_em, and per hour: the incremental total is
  -- a sum over hours plus one partial hour, whatever the projection's size.
  CREATE TABLE contagem_por_instante (instante INTEGER PRIMARY KEY, n INTEGER NOT NULL) STRICT;
  CREATE TABLE contagem_por_hora (hora INTEGER PRIMARY KEY, n INTEGER NOT NULL) STRICT;

  -- Next offset to read of every partition, written in the same transaction as its effects.
  CREATE TABLE offsets (
    topico   TEXT NOT NULL,
    particao INTEGER NOT NULL,
    proximo  TEXT NOT NULL,
    PRIMARY KEY (topico, particao)
  ) STRICT;

  -- Counters and the projector's freshness record.
  CREATE TABLE estado (chave TEXT PRIMARY KEY, valor INTEGER) STRICT;
  INSERT INTO estado (chave, valor) VALUES ('anunciados', 0), ('listados', 0);
  `,
  // 2: one index by id instead of two. Each index on random uuids costs a random page written per
  // new property, the main cost of a replay; this one serves the writer's lookups, the full scan
  // and, covering, the incremental listing by id. Uniqueness of id now rests on the single writer,
  // which reads a property's row before every write of it. Rows are copied in storage order (a
  // sequential read, where id order would read a large file at random).
  `
  CREATE TABLE imoveis_v2 (
    id            TEXT NOT NULL,
    codigo        TEXT NOT NULL,
    versao        INTEGER NOT NULL,
    condominio_id TEXT,
    anunciado     INTEGER NOT NULL,  -- advertised now: served by the full scan and the detail
    ja_anunciado  INTEGER NOT NULL,  -- advertised at some point: listed by the incremental scan
    documento     TEXT NOT NULL,     -- partner JSON without atualizado_em, ready to send
    atualizado_em INTEGER            -- epoch ms of the last relevant change (null: never advertised)
  ) STRICT;
  INSERT INTO imoveis_v2 (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em)
    SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em FROM imoveis ORDER BY rowid;
  DROP TABLE imoveis;
  ALTER TABLE imoveis_v2 RENAME TO imoveis;
  CREATE INDEX imoveis_por_id ON imoveis (id, anunciado, ja_anunciado, atualizado_em);
  CREATE INDEX imoveis_alterados ON imoveis (atualizado_em, id) WHERE ja_anunciado = 1;
  CREATE INDEX imoveis_por_condominio ON imoveis (condominio_id, id) WHERE condominio_id IS NOT NULL;
  `,
  // 3: listed properties per minute, so that a window's total sums at most one minute of instants
  // (a busy projector commits many instants an hour) beside the minutes and hours (contagens.ts);
  // and the listed properties by id range and instant, for windows too wide to sort whole and too
  // narrow to walk by id (plano-incremental.ts). New entries go to the end of their range, so a
  // replay's inserts stay on 256 hot pages.
  `
  CREATE INDEX imoveis_alterados_por_faixa ON imoveis (substr(id, 1, 2), atualizado_em, id) WHERE ja_anunciado = 1;
  CREATE TABLE contagem_por_minuto (minuto INTEGER PRIMARY KEY, n INTEGER NOT NULL) STRICT;
  INSERT INTO contagem_por_minuto (minuto, n)
    SELECT atualizado_em / 60000, count(*) FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em IS NOT NULL GROUP BY 1;
  `,
  // 4: `atualizado_em` also as the text partners read, computed by SQLite when the row is written
  // (a stored generated column): formatting it on every read was a third of a page's
  // SQLite time. A stored column cannot be added in place, so the table is copied as in 2.
  `
  CREATE TABLE imoveis_v4 (
    id            TEXT NOT NULL,
    codigo        TEXT NOT NULL,
    versao        INTEGER NOT NULL,
    condominio_id TEXT,
    anunciado     INTEGER NOT NULL,  -- advertised now: served by the full scan and the detail
    ja_anunciado  INTEGER NOT NULL,  -- advertised at some point: listed by the incremental scan
    documento     TEXT NOT NULL,     -- partner JSON without atualizado_em, ready to send
    atualizado_em INTEGER,           -- epoch ms of the last relevant change (null: never advertised)
    -- atualizado_em as Date#toISOString writes it (whole seconds, so no floating-point rounding)
    atualizado_em_iso TEXT GENERATED ALWAYS AS (
      strftime('%Y-%m-%dT%H:%M:%S', atualizado_em / 1000, 'unixepoch') || printf('.%03dZ', atualizado_em % 1000)
    ) STORED
  ) STRICT;
  INSERT INTO imoveis_v4 (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em)
    SELECT id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em FROM imoveis ORDER BY rowid;
  DROP TABLE imoveis;
  ALTER TABLE imoveis_v4 RENAME TO imoveis;
  CREATE INDEX imoveis_por_id ON imoveis (id, anunciado, ja_anunciado, atualizado_em);
  CREATE INDEX imoveis_alterados ON imoveis (atualizado_em, id) WHERE ja_anunciado = 1;
  CREATE INDEX imoveis_por_condominio ON imoveis (condominio_id, id) WHERE condominio_id IS NOT NULL;
  CREATE INDEX imoveis_alterados_por_faixa ON imoveis (substr(id, 1, 2), atualizado_em, id) WHERE ja_anunciado = 1;
  `,
  // 5: a digest of the document the public fields alone give (before the private values are masked
  // in its text): an event with the same one changed only private fields, and leaves the document
  // as it is. Null for rows written before: their next event makes the document again, as before.
  `
  ALTER TABLE imoveis ADD COLUMN publico TEXT;
  `,
];

export const VERSAO_ESQUEMA = MIGRACOES.length;

/** What a process says before it migrates a projection (`aoMigrar`). */
export const avisoDeMigracao = (de: number, para: number): string => `migrando a projeção do esquema ${de} ao ${para}: numa projeção grande, pode levar minutos`;

/**
 * Brings the file to this code's schema. `aoMigrar` is told first when a projection already there
 * is migrated (not when one is created): over a million rows that takes minutes, synchronously.
 */
export function migrar(db: Database.Database, aoMigrar?: (de: number, para: number) => void): void {
  const atual = db.pragma('user_version', { simple: true }) as number;
  if (atual > VERSAO_ESQUEMA) {
    throw new ProjecaoDeVersaoMaisNova(
      `a projeção ${db.name} tem o esquema ${atual}, mais novo que o ${VERSAO_ESQUEMA} deste código`,
    );
  }
  if (atual >= 1 && atual < 3) recusarIdsMaiusculos(db);
  if (atual >= 1 && atual < VERSAO_ESQUEMA) aoMigrar?.(atual, VERSAO_ESQUEMA);
  for (let versao = atual; versao < VERSAO_ESQUEMA; versao++) {
    db.transaction(() => {
      db.exec(MIGRACOES[versao] as string);
      db.pragma(`user_version = ${versao + 1}`);
    }).immediate();
  }
}

/**
 * Until schema 3, ids were kept in the case the register sent them; they are now lower-cased on
 * decoding (the form the API serves and reads back). Rewriting them would change what partners
 * already hold, so a projection with any upper-case id is refused, to be replayed from the topics.
 */
function recusarIdsMaiusculos(db: Database.Database): void {
  const n = db
    .prepare<[], number>(
      `SELECT (SELECT count(*) FROM imoveis WHERE id <> lower(id) OR condominio_id <> lower(condominio_id))
        + (SELECT count(*) FROM removidos WHERE id <> lower(id)) + (SELECT count(*) FROM condominios WHERE id <> lower(id))`,
    )
    .pluck()
    .get()!;
  if (n > 0) {
    throw new ProjecaoComIdsMaiusculos(
      `a projeção ${db.name} guarda ${n} ids em maiúsculas, que esta versão guarda em minúsculas: ` +
        'refaça-a a partir dos tópicos (pare o projetor, apague DATABASE_PATH com -wal e -shm e inicie-o de novo)',
    );
  }
}
