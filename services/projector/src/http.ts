// The projector's operational endpoints: /metrics, /health/live, /health/ready.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

export interface DependenciasHttp {
  registry: Registry;
  /** Ready once the consumer has started and the projection is open. */
  pronto(): boolean;
}

export function criarHttpOperacional(deps: DependenciasHttp): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/health/live', async () => ({ status: 'ok' }));
  app.get('/health/ready', async (_req, reply) => {
    const pronto = deps.pronto();
    return reply.code(pronto ? 200 : 503).send({ status: pronto ? 'ok' : 'iniciando' });
  });
  app.get('/metrics', async (_req, reply) => {
    return reply.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  return app;
}
