// How events change the projection, and how it is read, decided without I/O.
export * from './em-dia.ts';
export * from './mudanca-relevante.ts';
export * from './plano-incremental.ts';
export * from './prontidao.ts';
export * from './relogio.ts';
export * from './revisao.ts';
export * from './preparo.ts';
