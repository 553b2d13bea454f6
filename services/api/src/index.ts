// The partner API as a library: the app builder and what it is built from.
export * from './app.ts';
export * from './config.ts';
export * from './erros.ts';
export * from './fonte-projecao.ts';
export * from './logger.ts';
export * from './metricas.ts';
export * from './limite/limitador.ts';
export * from './limite/limitador-redis.ts';
export * from './limite/limitador-com-reserva.ts';
export * from './credenciais/arquivo-credenciais.ts';
export * from './credenciais/credenciais-store.ts';
// Fastify's types, for callers outside this package (tests, the demo) that do not depend on it.
export type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
