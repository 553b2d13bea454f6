// A look at a file that may hold a projection, before anything opens it to write (whose it is,
// what it holds): nothing created, migrated or written.
import { statSync } from 'node:fs';
import Database from './sqlite.ts';

/**
 * `ler` over a read-only connection to the file at `caminho`; `undefined` when no file is there
 * (a folder is none: opening it to write says what is wrong with it). Read-only: a read-write
 * connection, closing last, would checkpoint a killed writer's WAL into the file; a read-only one
 * reads the WAL and leaves both as they are (of a database in WAL mode, SQLite leaves the -wal and
 * -shm files any reader makes).
 */
export function espiar<T>(caminho: string, ler: (db: Database.Database) => T): T | undefined {
  if (statSync(caminho, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
  const db = new Database(caminho, { readonly: true, fileMustExist: true });
  try {
    return ler(db);
  } finally {
    db.close();
  }
}

/** Tables every schema version of a projection has. */
const TABELAS_DE_PROJECAO = ['imoveis', 'estado', 'offsets'];

/**
 * What a database holds: nothing (a projection yet to be made), a projection (a schema version
 * and its tables, whichever version), or what another application made: its tables, views or
 * indexes, named.
 */
export function conteudoDoBanco(db: Database.Database): { tipo: 'vazio' | 'projecao' } | { tipo: 'alheio'; nomes: string[] } {
  const nomes = db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").pluck().all();
  if (nomes.length === 0) return { tipo: 'vazio' };
  const versao = db.pragma('user_version', { simple: true }) as number;
  return versao >= 1 && TABELAS_DE_PROJECAO.every((tabela) => nomes.includes(tabela)) ? { tipo: 'projecao' } : { tipo: 'alheio', nomes };
}

/**
 * Why the file at `caminho` is another application's database and no projection, or null (no
 * file, an empty one, a projection). Read as {@link espiar} reads; a file SQLite cannot read
 * throws its error.
 */
export function bancoAlheio(caminho: string): string | null {
  const conteudo = espiar(caminho, conteudoDoBanco);
  if (conteudo?.tipo !== 'alheio') return null;
  const nomes = conteudo.nomes.length > 3 ? `${conteudo.nomes.slice(0, 3).join(', ')}…` : conteudo.nomes.join(', ');
  return `guarda ${nomes}, de outro banco, e nenhuma projeção`;
}
