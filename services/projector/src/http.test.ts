import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { criarHttpOperacional, type DependenciasHttp } from './http.ts';

const AGORA = Date.parse('2026-11-22T12:00:00Z');
const abertos: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const app of abertos.splice(0)) await app.close();
});

async function pronto(deps: Partial<DependenciasHttp>) {
  const app = criarHttpOperacional({ registry: new Registry(), fase: () => 'consumindo', emDiaEm: () => AGORA - 5_000, atrasoMaximoMs: 60_000, agora: () => AGORA, ...deps });
  abertos.push(app);
  const r = await app.inject({ method: 'GET', url: '/health/ready' });
  return { status: r.statusCode, corpo: JSON.parse(r.body) as { pronto: boolean; motivos: string[]; idade_projecao_s: number | null } };
}

describe("the projector's /health/ready", () => {
  it('is ready once consuming and caught up with Kafka within the allowed lag', async () => {
    expect(await pronto({})).toEqual({ status: 200, corpo: { pronto: true, motivos: [], idade_projecao_s: 5 } });
  });

  it('is not ready while the consumer starts, before it first catches up, or when it last caught up too long ago', async () => {
    expect(await pronto({ fase: () => 'iniciando' })).toMatchObject({ status: 503, corpo: { pronto: false, motivos: ['consumidor iniciando'] } });
    expect(await pronto({ fase: () => 'encerrando' })).toMatchObject({ status: 503, corpo: { pronto: false, motivos: ['encerrando'] } });
    expect(await pronto({ emDiaEm: () => null })).toMatchObject({ status: 503, corpo: { motivos: ['o projetor ainda não alcançou o fim dos tópicos'] } });
    expect(await pronto({ emDiaEm: () => AGORA - 61_000 })).toMatchObject({ status: 503, corpo: { motivos: [expect.stringContaining('há 61 s')] } });
  });

  it('is not ready under pressure, as the API', async () => {
    // A heap limit of one byte: under pressure from the first sample.
    const app = criarHttpOperacional({ registry: new Registry(), fase: () => 'consumindo', emDiaEm: () => AGORA - 5_000, atrasoMaximoMs: 60_000, agora: () => AGORA, pressao: { maxHeapUsedBytes: 1, intervaloAmostraMs: 5 } });
    abertos.push(app);
    await app.ready();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const r = await app.inject({ method: 'GET', url: '/health/ready' });
    expect([r.statusCode, (JSON.parse(r.body) as { motivos: string[] }).motivos]).toEqual([503, ['processo sob pressão']]);
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('stays live whatever the lag', async () => {
    const app = criarHttpOperacional({ registry: new Registry(), fase: () => 'iniciando', emDiaEm: () => null, atrasoMaximoMs: 60_000 });
    abertos.push(app);
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
  });
});
