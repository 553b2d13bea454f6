// The SQLite projection: schema, the projector's writer and logic, the API's read-only reader.
export * from './leitor.ts';
export * from './leitor-sqlite.ts';
export * from './escritor-sqlite.ts';
export { bancoAlheio } from './espiar.ts';
export * from './migracoes.ts';
export * from './projecao.ts';
export * from './sincronia.ts';
export * from './trava.ts';
export * from './troca.ts';
export { default as Database, MODULO_SQLITE, caminhoDoModuloSqlite } from './sqlite.ts';
