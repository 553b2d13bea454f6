// Baseline of bench:api: a bare Fastify route answering, from memory, the exact bytes the real
// API answered for the same URL (read from BENCH_RESPOSTAS, a JSON map url → body).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const respostas = new Map(Object.entries(JSON.parse(readFileSync(process.env['BENCH_RESPOSTAS']!, 'utf8')) as Record<string, string>));
const app = Fastify({ logger: false });
app.get('/*', (request, reply) => {
  const corpo = respostas.get(request.url);
  if (corpo === undefined) return reply.code(404).send();
  return reply.type('application/json; charset=utf-8').send(corpo);
});
await app.listen({ host: '127.0.0.1', port: Number(process.env['PORT']) });
