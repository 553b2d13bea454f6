// The domain rules of the service, pure and without I/O.
export * from './imovel/index.ts';
export * from './projecao/index.ts';
export * from './limite/index.ts';
