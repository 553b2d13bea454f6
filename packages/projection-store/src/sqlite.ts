// The SQLite binding, chosen for the Node that runs us (decision 0012). better-sqlite3 12 wraps its
// objects in Node's own ObjectWrap, which since Node 24.19 aborts the process when the garbage
// collector frees a statement outside JavaScript; 13 is built on Node-API instead, but crashes on
// Node 20. Node 20 gets 12 (installed under the alias better-sqlite3-node20), every later Node 13.
// Both expose the same API: the types are @types/better-sqlite3's.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const NODE_MAIOR = Number(process.versions.node.split('.')[0]);

/** The package this process loads (the type import above loads nothing). */
export const MODULO_SQLITE = NODE_MAIOR >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

const exigir = createRequire(import.meta.url);

/**
 * The binding, opened once on an in-memory database: 12 loads its addon only then, and an install
 * whose compilation failed (optional, so the install went on) would otherwise fail at first use.
 */
function carregar(): typeof BetterSqlite3 {
  try {
    const Database = exigir(MODULO_SQLITE) as typeof BetterSqlite3;
    new Database(':memory:').close();
    return Database;
  } catch (erro) {
    const comoObter =
      MODULO_SQLITE === 'better-sqlite3-node20'
        ? 'no Node 20 ele é compilado na instalação (python3, make e g++); com eles instalados, apague node_modules e rode `pnpm install`'
        : `rode \`pnpm install\` com este Node (${process.version})`;
    throw new Error(`o SQLite (${MODULO_SQLITE}) não pôde ser carregado: ${comoObter}`, { cause: erro });
  }
}

/** Where {@link MODULO_SQLITE} resolves from here (for a child process that must load the same one). */
export const caminhoDoModuloSqlite = (): string => exigir.resolve(MODULO_SQLITE);

const Database = carregar();
// The class's static side and its namespace of types, as `import Database from 'better-sqlite3'`
// gives them (a namespace of types only, merged with the value: what that import is).
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace Database {
  export type Database = BetterSqlite3.Database;
  export type Statement<P extends unknown[] | object = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;
  export type Transaction<F extends (...params: never[]) => unknown> = BetterSqlite3.Transaction<F>;
  export type SqliteError = BetterSqlite3.SqliteError;
}
export default Database;
