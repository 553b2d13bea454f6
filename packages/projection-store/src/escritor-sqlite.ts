// The projector's side of the projection: the only writer. Every statement is prepared once; the
// counters behind cheap totals are kept in step with every row written here (a rebuild's switch,
// which rewrites the rows that differ or fills the table again, counts them again: troca.ts).
import { setTimeout as esperar } from 'node:timers/promises';
import Database from './sqlite.ts';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import { ESCALAS, consultasDeEscala } from './contagens.ts';
import { espiar } from './espiar.ts';
import { CHAVES_FRESCOR, type ChaveEstado } from './estado.ts';
import { migrar } from './migracoes.ts';
import { LIMITE_LIGADO } from './sql.ts';
import { concluirSincroniaAdiada, idDoBootLinux, marcarSincroniaAdiada, sincroniaPendente, verificarSincroniaAdiada, type IdDoBoot } from './sincronia.ts';

export interface LinhaImovel {
  id: string;
  codigo: string;
  versao: number;
  condominioId: string | null;
  anunciado: boolean;
  jaAnunciado: boolean;
  documento: string;
  atualizadoEm: number | null;
  /** Digest of what the public fields gave when the document was made (`ImovelSalvoPreparado`); null before schema 5. */
  publico: string | null;
}

export interface LinhaCondominio {
  id: string;
  nome: string | null;
  versao: number;
  excluido: boolean;
}

export interface OffsetParticao {
  topico: string;
  particao: number;
  proximo: string;
}

export interface RegistroFrescor {
  registradoEm: number;
  emDiaEm: number | null;
  atraso: number;
}

interface RowImovel {
  id: string;
  codigo: string;
  versao: number;
  condominio_id: string | null;
  anunciado: number;
  ja_anunciado: number;
  documento: string;
  atualizado_em: number | null;
  publico: string | null;
}

const COLUNAS_IMOVEL = 'id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em, publico';

const rowToImovel = (r: RowImovel): LinhaImovel => ({
  id: r.id,
  codigo: r.codigo,
  versao: r.versao,
  condominioId: r.condominio_id,
  anunciado: r.anunciado === 1,
  jaAnunciado: r.ja_anunciado === 1,
  documento: r.documento,
  atualizadoEm: r.atualizado_em,
  publico: r.publico,
});

export interface OpcoesEscritor {
  /** Which boot of the OS this is, for deferred syncing (see `adiarSincronia`). */
  idDoBoot?: IdDoBoot;
  /** The embedded demo's writer: the only one that opens a projection marked as the demo's. */
  daDemo?: boolean;
  /** Told before an existing projection is migrated to this code's schema (see `migrar`). */
  aoMigrar?: (de: number, para: number) => void;
}

/**
 * The demo's projection (`pnpm start`, marked `demo` in `estado`): sample listings and offsets
 * of partition 0 alone. A projector resuming from it would serve the sample and skip the first
 * real events, so only the demo writes it.
 */
export class ProjecaoDaDemo extends Error {
  override readonly name = 'ProjecaoDaDemo';
  readonly code = 'PROJECAO_DA_DEMO';
  constructor(caminho: string) {
    super(`${caminho} (DATABASE_PATH) é a projeção da demonstração (pnpm start), feita de uma amostra: aponte DATABASE_PATH para outro arquivo`);
  }
}

// The disk or the file itself failed (full, I/O error, corrupt, read-only, gone): retrying the
// batch cannot help, and a writer that keeps retrying hides the failure from the supervisor.
const FALHAS_DE_ARMAZENAMENTO = /^SQLITE_(FULL|IOERR|CORRUPT|NOTADB|READONLY|CANTOPEN|PERM)(_|$)/;

/** True for an SQLite error that means the projection file cannot be written any more. */
export function ehFalhaDeArmazenamento(erro: unknown): erro is InstanceType<typeof Database.SqliteError> {
  return erro instanceof Database.SqliteError && FALHAS_DE_ARMAZENAMENTO.test(erro.code);
}

/**
 * True when another process holds the write lock longer than SQLite waits (`busy_timeout`), or
 * holds the file busy otherwise (SQLite's extended codes: a recovery, a snapshot out of date).
 */
export function ehTravaOcupada(erro: unknown): boolean {
  return erro instanceof Database.SqliteError && /^SQLITE_BUSY(_|$)/.test(erro.code);
}

/**
 * A value of a projection's `estado`, read without creating, migrating or writing the file:
 * `undefined` when the file holds no projection yet (absent, or no tables), null when it holds
 * something without that key. For a caller that must know whose a file is before opening it to
 * write (the demo).
 */
export function espiarEstado(caminho: string, chave: ChaveEstado): number | null | undefined {
  return espiar(caminho, (db) => {
    if (db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'estado'").get() === undefined) {
      return db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get() === undefined ? undefined : null;
    }
    return db.prepare<[string], { valor: number | null }>('SELECT valor FROM estado WHERE chave = ?').get(chave)?.valor ?? null;
  });
}

/**
 * Marked as the demo's, looked at before anything opens it to write (nothing migrated or written
 * in it). A file SQLite cannot read is no one's: opening it says what is wrong with it.
 */
export function ehProjecaoDaDemo(caminho: string): boolean {
  try {
    return espiarEstado(caminho, 'demo') === 1;
  } catch (erro) {
    if (erro instanceof Database.SqliteError) return false;
    throw erro;
  }
}

/**
 * The topics a projection has read (those it holds offsets for), read as {@link espiarEstado}
 * reads: empty when the file holds no projection yet. A rebuild compares them with its own.
 */
export function espiarTopicos(caminho: string): string[] {
  return (
    espiar(caminho, (db) => {
      if (db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'offsets'").get() === undefined) return [];
      return db.prepare<[], { topico: string }>('SELECT DISTINCT topico FROM offsets ORDER BY topico').all().map((r) => r.topico);
    }) ?? []
  );
}

/** Between attempts at a write lock another process holds (`quandoATravaLivre`). */
const PAUSA_ENTRE_TENTATIVAS_MS = 200;

/** How long SQLite waits for another process's write lock before SQLITE_BUSY (`busy_timeout`). */
const ESPERA_PELA_TRAVA_MS = 5_000;

/** Opens (creating and migrating when needed) a projection file for writing. */
function abrirBanco(caminho: string, { idDoBoot = idDoBootLinux, aoMigrar }: OpcoesEscritor): Database.Database {
  verificarSincroniaAdiada(caminho, idDoBoot);
  const db = new Database(caminho);
  try {
    configurarEMigrar(db, aoMigrar);
  } catch (erro) {
    // Closed now, not when collected: a connection left to the garbage collector checkpoints and
    // deletes `<file>-wal` and `-shm` by name when it goes, maybe those of a file made since at
    // the same path (the demo makes its own again when it cannot open it).
    db.close();
    throw erro;
  }
  return db;
}

function configurarEMigrar(db: Database.Database, aoMigrar: OpcoesEscritor['aoMigrar']): void {
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash may lose the last
  // commits, and those are re-applied from Kafka since their offsets went with them.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${ESPERA_PELA_TRAVA_MS}`);
  // 16 MiB: a million rows' index pages do not fit in any reasonable cache, the OS's page cache
  // serves the misses, and the projector's RSS stays bounded.
  db.pragma('cache_size = -16384');
  db.pragma('journal_size_limit = 67108864');
  // Checkpoints run inside a commit; fewer, larger ones keep batch commits short. The projector
  // also checkpoints on its freshness timer.
  db.pragma('wal_autocheckpoint = 8000');
  migrar(db, aoMigrar);
}

/** When a row is listed (`LISTADO` in sql.ts), the instant it is listed at; else null. */
const listadoEm = (linha: LinhaImovel | null): number | null => (linha?.jaAnunciado && linha.atualizadoEm !== null ? linha.atualizadoEm : null);

export class EscritorProjecao {
  readonly db: Database.Database;
  readonly #s;
  readonly #idDoBoot: IdDoBoot;
  #sincroniaAdiada = false;

  constructor(db: Database.Database, opcoes: OpcoesEscritor = {}) {
    this.db = db;
    this.#idDoBoot = opcoes.idDoBoot ?? idDoBootLinux;
    this.#transacao = this.#criarTransacao();
    this.#s = {
      imovel: db.prepare<[string], RowImovel>(`SELECT ${COLUNAS_IMOVEL} FROM imoveis WHERE id = ?`),
      inserirImovel: db.prepare(
        `INSERT INTO imoveis (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em, publico)
         VALUES (@id, @codigo, @versao, @condominioId, @anunciado, @jaAnunciado, @documento, @atualizadoEm, @publico)`,
      ),
      gravarVersao: db.prepare('UPDATE imoveis SET versao = ? WHERE id = ?'),
      atualizarImovel: db.prepare(
        `UPDATE imoveis SET codigo = @codigo, versao = @versao, condominio_id = @condominioId, anunciado = @anunciado,
           ja_anunciado = @jaAnunciado, documento = @documento, atualizado_em = @atualizadoEm, publico = @publico
         WHERE id = @id`,
      ),
      apagarImovel: db.prepare('DELETE FROM imoveis WHERE id = ?'),
      removido: db.prepare<[string], { id: string }>('SELECT id FROM removidos WHERE id = ?'),
      inserirRemovido: db.prepare('INSERT OR IGNORE INTO removidos (id, codigo, removido_em) VALUES (?, ?, ?)'),
      condominio: db.prepare<[string], { id: string; nome: string | null; versao: number; excluido: number }>(
        'SELECT id, nome, versao, excluido FROM condominios WHERE id = ?',
      ),
      gravarCondominio: db.prepare(
        `INSERT INTO condominios (id, nome, versao, excluido) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET nome = excluded.nome, versao = excluded.versao, excluido = excluded.excluido`,
      ),
      imoveisDoCondominio: db.prepare<[string, string, number], RowImovel>(
        `SELECT ${COLUNAS_IMOVEL} FROM imoveis WHERE condominio_id = ? AND id > ? ORDER BY id ${LIMITE_LIGADO}`,
      ),
      contarDoCondominio: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM imoveis WHERE condominio_id = ?'),
      offsets: db.prepare<[], OffsetParticao>('SELECT topico, particao, proximo FROM offsets'),
      offset: db.prepare<[string, number], { proximo: string }>('SELECT proximo FROM offsets WHERE topico = ? AND particao = ?'),
      gravarOffset: db.prepare(
        'INSERT INTO offsets (topico, particao, proximo) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET proximo = excluded.proximo',
      ),
      lerEstado: db.prepare<[string], { valor: number | null }>('SELECT valor FROM estado WHERE chave = ?'),
      vazia: db.prepare<[], { vazia: number }>(
        `SELECT NOT (EXISTS (SELECT 1 FROM imoveis) OR EXISTS (SELECT 1 FROM removidos) OR EXISTS (SELECT 1 FROM condominios)
           OR EXISTS (SELECT 1 FROM offsets)) AS vazia`,
      ),
      viuImoveis: db.prepare<[], { viu: number }>('SELECT EXISTS (SELECT 1 FROM imoveis) OR EXISTS (SELECT 1 FROM removidos) AS viu'),
      gravarEstado: db.prepare('INSERT INTO estado (chave, valor) VALUES (?, ?) ON CONFLICT DO UPDATE SET valor = excluded.valor'),
      somarEstado: db.prepare('UPDATE estado SET valor = valor + ? WHERE chave = ?'),
      contagens: ESCALAS.map((escala) => consultasDeEscala(db, escala)),
    };
  }

  static abrir(caminho: string, opcoes: OpcoesEscritor = {}): EscritorProjecao {
    if (opcoes.daDemo !== true && ehProjecaoDaDemo(caminho)) throw new ProjecaoDaDemo(caminho);
    const db = abrirBanco(caminho, opcoes);
    try {
      const escritor = new EscritorProjecao(db, opcoes);
      // Nothing stored yet: every document it will hold is made by this code's rules.
      if (escritor.regras() === null && escritor.vazia()) escritor.gravarEstado('regras', VERSAO_DAS_REGRAS);
      return escritor;
    } catch (erro) {
      db.close();
      throw erro;
    }
  }

  /** Holds nothing yet: no property, removal item, condominium or offset. */
  vazia(): boolean {
    return this.#s.vazia.get()!.vazia === 1;
  }

  /** Holds a property or a removal item: it has seen at least one property's event. */
  viuImoveis(): boolean {
    return this.#s.viuImoveis.get()!.viu === 1;
  }

  /** The rules version (`VERSAO_DAS_REGRAS`) its documents were made with; null: before versions were recorded. */
  regras(): number | null {
    return this.lerEstado('regras');
  }

  /**
   * Far behind Kafka, commits skip fsync (it halved SQLite's write cost in a replay); back in step, everything
   * written is made durable before the next commit. Decision 0007. Call between transactions.
   */
  adiarSincronia(adiar: boolean): void {
    if (adiar) {
      const boot = this.#idDoBoot();
      if (boot === null) return; // no way to tell an OS crash afterwards: stay durable
      // Checked on every call, not only the first: the marker must be there before each write.
      marcarSincroniaAdiada(this.db.name, boot);
      if (!this.#sincroniaAdiada) this.db.pragma('synchronous = OFF');
    } else if (this.#sincroniaAdiada) {
      this.db.pragma('synchronous = NORMAL');
      concluirSincroniaAdiada(this.db.name);
    }
    this.#sincroniaAdiada = adiar;
  }

  /**
   * The projector's writer, on start: a marker left by a predecessor killed while deferring is
   * taken over, so that it goes (after an fsync) once this writer is in step.
   */
  retomarSincroniaPendente(): void {
    if (!this.#sincroniaAdiada && sincroniaPendente(this.db.name)) this.adiarSincronia(true);
  }

  get sincroniaAdiada(): boolean {
    return this.#sincroniaAdiada;
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE): all of it commits, or none. */
  transacao<T>(fn: () => T): T {
    return this.#transacao.immediate(fn) as T;
  }

  /**
   * Runs `fn` (which opens write transactions) with SQLite waiting at most `ms` for another
   * process's write lock, then SQLITE_BUSY (`ehTravaOcupada`). SQLite's wait blocks the event
   * loop: a caller that waits out a rebuild's switch (minutes) between attempts keeps its health
   * answers, metrics and Kafka heartbeats going.
   */
  semEsperarPelaTrava<T>(fn: () => T, ms = 50): T {
    this.db.pragma(`busy_timeout = ${ms}`);
    try {
      return fn();
    } finally {
      this.db.pragma(`busy_timeout = ${ESPERA_PELA_TRAVA_MS}`);
    }
  }

  /**
   * Runs `fn` (which opens write transactions) once no other process holds the write lock (a
   * rebuild's switch holds it for minutes): attempts of `semEsperarPelaTrava`, with the event loop
   * free for `pausaMs` between them, for as long as `continuar` (asked after each pause) says so.
   * `aoEsperar` is called once, when the first attempt finds the lock held. Null when it stopped.
   */
  async quandoATravaLivre<T>(fn: () => T, opcoes: { continuar(): boolean | Promise<boolean>; aoEsperar?(): void; pausaMs?: number }): Promise<T | null> {
    for (let tentativa = 0; ; tentativa++) {
      try {
        return this.semEsperarPelaTrava(fn);
      } catch (erro) {
        if (!ehTravaOcupada(erro)) throw erro;
      }
      if (tentativa === 0) opcoes.aoEsperar?.();
      await esperar(opcoes.pausaMs ?? PAUSA_ENTRE_TENTATIVAS_MS);
      if (!(await opcoes.continuar())) return null;
    }
  }

  // Counter deltas are summed in memory during a transaction and written once at its end: a
  // batch of a thousand properties touches a handful of counter rows, not three per property.
  readonly #deltas = { estado: new Map<ChaveEstado, number>(), contagens: ESCALAS.map(() => new Map<number, number>()) };
  readonly #transacao: Database.Transaction<(fn: () => unknown) => unknown>;

  #criarTransacao() {
    return this.db.transaction((fn: () => unknown) => {
      try {
        const resultado = fn();
        this.#gravarDeltas();
        return resultado;
      } finally {
        this.#deltas.estado.clear();
        for (const deltas of this.#deltas.contagens) deltas.clear();
      }
    });
  }

  #gravarDeltas(): void {
    for (const [chave, delta] of this.#deltas.estado) if (delta !== 0) this.#s.somarEstado.run(delta, chave);
    this.#deltas.contagens.forEach((deltas, i) => {
      const { somar, limpar } = this.#s.contagens[i]!;
      for (const [chave, delta] of deltas) {
        if (delta === 0) continue;
        somar.run(chave, delta);
        if (delta < 0) limpar.run(chave);
      }
    });
  }

  obterImovel(id: string): LinhaImovel | null {
    const row = this.#s.imovel.get(id);
    return row ? rowToImovel(row) : null;
  }

  foiRemovido(id: string): boolean {
    return this.#s.removido.get(id) !== undefined;
  }

  /**
   * Writes the row and keeps the listing counters in step with the row it replaces. `anterior`
   * is the row as read in this transaction: no unique index guards the id (migration 2).
   */
  gravarImovel(novo: LinhaImovel, anterior: LinhaImovel | null): void {
    (anterior ? this.#s.atualizarImovel : this.#s.inserirImovel).run({
      ...novo,
      anunciado: novo.anunciado ? 1 : 0,
      jaAnunciado: novo.jaAnunciado ? 1 : 0,
    });
    this.#ajustarContadores(anterior, novo);
  }

  /** A revision that changed nothing partners see, nor the counters: only its `versao` is recorded. */
  gravarVersao(id: string, versao: number): void {
    this.#s.gravarVersao.run(versao, id);
  }

  /** Physical deletion: gone from every listing, a removal item kept for good. */
  removerImovel(id: string, codigo: string, instante: number): void {
    const anterior = this.obterImovel(id);
    if (anterior) {
      this.#s.apagarImovel.run(id);
      this.#ajustarContadores(anterior, null);
    }
    this.#s.inserirRemovido.run(id, codigo, instante);
  }

  obterCondominio(id: string): LinhaCondominio | null {
    const row = this.#s.condominio.get(id);
    return row ? { id: row.id, nome: row.nome, versao: row.versao, excluido: row.excluido === 1 } : null;
  }

  gravarCondominio(c: LinhaCondominio): void {
    this.#s.gravarCondominio.run(c.id, c.nome, c.versao, c.excluido ? 1 : 0);
  }

  /** The properties pointing to a condominium, in id order, a page at a time. */
  imoveisDoCondominio(condominioId: string, aposId: string, limite: number): LinhaImovel[] {
    return this.#s.imoveisDoCondominio.all(condominioId, aposId, limite).map(rowToImovel);
  }

  contarImoveisDoCondominio(condominioId: string): number {
    return this.#s.contarDoCondominio.get(condominioId)?.n ?? 0;
  }

  offsets(): OffsetParticao[] {
    return this.#s.offsets.all();
  }

  /** The next offset to read of one partition, or null when nothing of it was applied yet. */
  offsetDe(topico: string, particao: number): string | null {
    return this.#s.offset.get(topico, particao)?.proximo ?? null;
  }

  gravarOffset(o: OffsetParticao): void {
    this.#s.gravarOffset.run(o.topico, o.particao, o.proximo);
  }

  lerEstado(chave: ChaveEstado): number | null {
    return this.#s.lerEstado.get(chave)?.valor ?? null;
  }

  gravarEstado(chave: ChaveEstado, valor: number | null): void {
    this.#s.gravarEstado.run(chave, valor);
  }

  /** Moves each time a rebuild is switched in (decision 0006). */
  geracao(): number {
    return this.lerEstado('geracao') ?? 0;
  }

  /** The last instant the projector had consumed every partition to its end; null if never. */
  emDiaEm(): number | null {
    return this.lerEstado(CHAVES_FRESCOR.emDiaEm);
  }

  /** The freshness record, written whole (a savepoint when the caller holds a transaction). */
  registrarFrescor(f: RegistroFrescor): void {
    this.transacao(() => {
      this.gravarEstado(CHAVES_FRESCOR.registradoEm, f.registradoEm);
      this.gravarEstado(CHAVES_FRESCOR.emDiaEm, f.emDiaEm);
      this.gravarEstado(CHAVES_FRESCOR.atraso, f.atraso);
    });
  }

  /** Folds the WAL back into the database without waiting for readers (they are short). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  close(): void {
    if (!this.db.open) return;
    this.adiarSincronia(false);
    this.db.close();
  }

  #ajustarContadores(anterior: LinhaImovel | null, novo: LinhaImovel | null): void {
    const somar = <K>(mapa: Map<K, number>, chave: K, delta: number) => mapa.set(chave, (mapa.get(chave) ?? 0) + delta);
    const anunciados = Number(novo?.anunciado ?? false) - Number(anterior?.anunciado ?? false);
    if (anunciados !== 0) somar(this.#deltas.estado, 'anunciados', anunciados);

    const listadoAntes = listadoEm(anterior);
    const listadoDepois = listadoEm(novo);
    if (listadoAntes === listadoDepois) return;
    for (const [instante, delta] of [[listadoAntes, -1], [listadoDepois, +1]] as const) {
      if (instante === null) continue;
      ESCALAS.forEach((escala, i) => somar(this.#deltas.contagens[i]!, Math.floor(instante / escala.ms), delta));
      somar(this.#deltas.estado, 'listados', delta);
    }
  }
}
