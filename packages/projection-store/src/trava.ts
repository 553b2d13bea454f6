// An exclusive lock held for the life of a process: one projector per projection file, one
// rebuild per live projection. It is SQLite's own file lock (fcntl) on a small file beside the
// projection, so the kernel releases it when the process ends, however it ends (kill -9 too).
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { bancoAlheio } from './espiar.ts';
import Database from './sqlite.ts';

/** Another process (or connection) holds the lock. */
export class ArquivoTravado extends Error {
  override readonly name = 'ArquivoTravado';
  readonly code = 'ARQUIVO_TRAVADO';
}

export interface Trava {
  liberar(): void;
}

/** Takes the lock at `caminho` (creating the file) or throws {@link ArquivoTravado} at once. */
export function travarArquivo(caminho: string): Trava {
  const db = new Database(caminho);
  try {
    db.pragma('busy_timeout = 0');
    // Nothing is ever written: a journal in memory leaves no file beside the lock when the process
    // is killed holding it (OFF still creates one for the exclusive lock).
    db.pragma('journal_mode = MEMORY');
    // Held until released.
    db.exec('BEGIN EXCLUSIVE');
  } catch (erro) {
    db.close();
    if (erro instanceof Database.SqliteError && erro.code === 'SQLITE_BUSY') {
      throw new ArquivoTravado(`${caminho} está travado: outro processo o usa`, { cause: erro });
    }
    throw erro;
  }
  return {
    liberar() {
      if (db.open) db.close(); // ends the transaction, and with it the lock
    },
  };
}

/**
 * A file's own path, through symlinks (of the file, or of a folder on the way): two names of one
 * projection must name one lock. A file not made yet is named from its folder's own path.
 */
function caminhoProprio(caminho: string): string {
  try {
    return realpathSync(caminho);
  } catch {
    try {
      return join(realpathSync(dirname(caminho)), basename(caminho));
    } catch {
      return resolve(caminho);
    }
  }
}

/** The first 16 bytes of every SQLite database file. */
const CABECALHO_SQLITE = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Refuses a path that holds something no projection can be (a folder, a text file, another
 * application's SQLite database), before a lock file is made beside it: `DATABASE_PATH=/etc/hostname`
 * must not leave `/etc/hostname.projetor.lock` behind, and a writer must not add its tables to
 * someone else's database. Nothing there, an empty file or an empty database, is a projection yet to be made.
 */
function exigirProjecaoOuNada(caminho: string): void {
  let descritor: number;
  try {
    descritor = openSync(caminho, 'r');
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw erro;
  }
  try {
    if (fstatSync(descritor).isDirectory()) throw Object.assign(new Error(`EISDIR: ${caminho} é uma pasta, não um arquivo`), { code: 'EISDIR' });
    const cabecalho = Buffer.alloc(CABECALHO_SQLITE.length);
    const lidos = readSync(descritor, cabecalho, 0, cabecalho.length, 0);
    // SQLite's own error for such a file, so it is told as every other refusal of the file is.
    if (lidos > 0 && !cabecalho.equals(CABECALHO_SQLITE)) throw new Database.SqliteError('file is not a database', 'SQLITE_NOTADB');
    if (lidos === 0) return;
  } finally {
    closeSync(descritor);
  }
  const alheio = bancoAlheio(caminho);
  if (alheio !== null) throw new Database.SqliteError(alheio, 'SQLITE_NOTADB');
}

/** A lock beside the projection at `caminho`, named `<its own path><sufixo>`; none beside what is no SQLite file. */
function travarAoLadoDe(caminho: string, sufixo: string): Trava {
  exigirProjecaoOuNada(caminho);
  return travarArquivo(`${caminhoProprio(caminho)}${sufixo}`);
}

/**
 * The writer's lock of the projection at `caminho`: whoever writes it (a projector, the demo)
 * takes this one, so two of them never write one file, whatever name each was given.
 */
export const travarEscritaDaProjecao = (caminho: string): Trava => travarAoLadoDe(caminho, '.projetor.lock');

/** The rebuild's lock of the live projection at `caminho`: one rebuild at a time. */
export const travarReconstrucaoDaProjecao = (caminho: string): Trava => travarAoLadoDe(caminho, '.reconstrucao.lock');
