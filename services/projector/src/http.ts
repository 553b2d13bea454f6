// The projector's operational endpoints: /metrics, /health/live, /health/ready. Ready as
// operations.md says: the consumer started, the projection caught up with Kafka within the
// allowed lag (a replay far behind is live but not ready), and the process not under pressure.
import fastifyUnderPressure from '@fastify/under-pressure';
import { avaliarProntidao } from '@imoveis/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

export interface DependenciasHttp {
  registry: Registry;
  /** Where the consumer is: starting, consuming, or stopping on a signal. */
  fase(): 'iniciando' | 'consumindo' | 'encerrando';
  /** When the projector last confirmed it had consumed everything (epoch ms); null if never. */
  emDiaEm(): number | null;
  atrasoMaximoMs: number;
  agora?: () => number;
  /** Under pressure past these: by default, an event loop a second late (as the API's default); no heap limit. */
  pressao?: { maxHeapUsedBytes?: number; intervaloAmostraMs?: number };
}

export function criarHttpOperacional(deps: DependenciasHttp): FastifyInstance {
  const agora = deps.agora ?? Date.now;
  const app = Fastify({ logger: false });
  // Only measured: these routes answer under pressure too, readiness saying so.
  void app.register(fastifyUnderPressure, {
    maxEventLoopDelay: 1_000,
    maxHeapUsedBytes: deps.pressao?.maxHeapUsedBytes ?? 0,
    sampleInterval: deps.pressao?.intervaloAmostraMs ?? 1_000,
    pressureHandler: () => undefined,
  });
  app.get('/health/live', async () => ({ vivo: true }));
  app.get('/health/ready', async (_req, reply) => {
    const fase = deps.fase();
    const doProcesso = fase === 'consumindo' ? [] : [fase === 'iniciando' ? 'consumidor iniciando' : 'encerrando'];
    if (app.isUnderPressure()) doProcesso.push('processo sob pressão');
    const estado = avaliarProntidao({ frescor: { emDiaEm: deps.emDiaEm() }, agoraMs: agora(), atrasoMaximoMs: deps.atrasoMaximoMs, doProcesso });
    return reply.code(estado.pronto ? 200 : 503).send(estado);
  });
  app.get('/metrics', async (_req, reply) => {
    return reply.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  return app;
}
