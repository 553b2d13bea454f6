// The request limit against a real Redis: 429 with Retry-After, the IETF RateLimit headers,
// exactness across three API instances sharing one Redis, Retry-After that is never early, and
// a Redis that dies or hangs mid-test (no 5xx, no request waiting on it, back when it returns).
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as esperar } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { imovelSalvo } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { LimitadorRedis, emitirCredencial } from '../../services/api/src/index.ts';
import { nomeUnico, sqliteTemporario } from '../helpers.ts';
import { portasLivres } from '../infra/processo-servico.ts';
import { redisResponde } from '../infra/redis-server.ts';
import { criarApi, criarProjecao, idsOrdenados, type ApiDeTeste, type ProjecaoDeTeste } from './api-suporte.ts';

const redisUrl = inject('redisUrl');
let projecao: ProjecaoDeTeste;

beforeAll(() => {
  projecao = criarProjecao();
  projecao.aplicar(idsOrdenados(3).map((id) => imovelSalvo(id, 1)), Date.parse('2026-11-21T10:00:00Z'));
});

afterAll(() => {
  projecao.remover();
});

describe('over the limit', () => {
  it('answers 429 with an Erro and a Retry-After in whole seconds, with RateLimit headers on every answer', async () => {
    const api = await criarApi({ leitor: projecao.abrirLeitor(), redisUrl, limite: 5 });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await api.get('/api/v1/imoveis');
        expect(r.statusCode).toBe(200);
        expect(r.headers['ratelimit-policy']).toBe('"credencial";q=5;w=60');
        const rateLimit = /^"credencial";r=(\d+);t=(\d+)$/.exec(r.headers['ratelimit'] as string);
        expect(Number(rateLimit?.[1])).toBe(4 - i);
        expect(Number(rateLimit?.[2])).toBeGreaterThanOrEqual(1);
        expect(Number(rateLimit?.[2])).toBeLessThanOrEqual(60);
      }
      for (const url of ['/api/v1/imoveis', '/api/v1/imoveis/removidos?desde=2026-11-21T10:00:00Z', '/api/v1/imoveis/00000000-0000-4000-8000-000000000000']) {
        const r = await api.get(url);
        expect(r.statusCode).toBe(429);
        expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(r.headers['ratelimit']).toMatch(/^"credencial";r=0;t=[1-9]\d*$/);
        expect(JSON.parse(r.body)).toEqual({ mensagem: expect.stringContaining('limite') });
      }
      // Another credential has its own window.
      const { token } = emitirCredencial(api.credenciaisArquivo, nomeUnico('outro'));
      await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000 }).toBe(200);
      const metricas = await api.metricas.registry.metrics();
      expect(metricas).toMatch(/limite_recusas_total\{chave="credencial"\} 3/);
    } finally {
      await api.fechar();
    }
  });

  it('admits a request sent exactly Retry-After seconds after a refusal (the script, with a 2 s window)', async () => {
    // A generous command timeout: a stall past the default 100 ms would decide on the per-process fallback.
    const limitador = new LimitadorRedis({ redis: redisUrl, limite: 2, janelaMs: 2_000, prefixo: `${nomeUnico('exato')}:`, comandoTimeoutMs: 5_000 });
    try {
      await expect.poll(() => limitador.conectado, { timeout: 10_000 }).toBe(true);
      expect((await limitador.tentar('k')).admitido).toBe(true);
      expect((await limitador.tentar('k')).admitido).toBe(true);
      const negado = await limitador.tentar('k');
      const recebidoEm = performance.now();
      expect(negado.admitido).toBe(false);
      expect(negado.retryAfterS).toBeGreaterThanOrEqual(1);
      expect(negado.retryAfterS).toBeLessThanOrEqual(2);
      // Waiting is the behaviour under test: exactly the time the server asked for.
      // A timer may fire up to a few ms early (libuv's clock is taken once per loop turn).
      const esperaMs = (negado.retryAfterS ?? 0) * 1000;
      await esperar(esperaMs);
      while (performance.now() - recebidoEm < esperaMs) await esperar(1);
      expect((await limitador.tentar('k')).admitido).toBe(true);
    } finally {
      await limitador.close();
    }
  });
});

describe('three API instances sharing one Redis', () => {
  it('never readmits before a whole window has passed by Redis time, to the microsecond', async () => {
    // Thousands of scripts back to back: a stall past the default 100 ms timeout would fail one.
    const limitador = new LimitadorRedis({ redis: redisUrl, limite: 1, janelaMs: 50, prefixo: `${nomeUnico('micro')}:`, comandoTimeoutMs: 5_000 });
    const script = (limitador.redis as unknown as { janelaDeslizante(...a: unknown[]): Promise<[number, number, number, number]> }).janelaDeslizante.bind(limitador.redis);
    const chave = `${nomeUnico('micro')}:us:k`;
    await expect.poll(() => limitador.conectado, { timeout: 10_000 }).toBe(true);
    try {
      for (let rodada = 0; rodada < 5; rodada++) {
        let [admitido, , primeiro] = await script(chave, 1, 50, `a${rodada}`);
        while (admitido !== 1) [admitido, , primeiro] = await script(chave, 1, 50, `a${rodada}`);
        let segundo = primeiro;
        do [admitido, , segundo] = await script(chave, 1, 50, `b${rodada}`);
        while (admitido !== 1);
        expect(segundo - primeiro).toBeGreaterThanOrEqual(50_000);
      }
    } finally {
      await limitador.close();
    }
  });

  it('admit exactly the limit in total for one credential, however the requests are spread', async () => {
    const limite = 120;
    const credenciais = sqliteTemporario('credenciais.json');
    const { token } = emitirCredencial(credenciais.caminho, 'Portal Compartilhado');
    const prefixo = `${nomeUnico('tres')}:`;
    const apis = await Promise.all(
      // A generous command timeout: exactness is the script's property, and on a loaded test
      // machine a 100 ms timeout would send an instance to its per-process fallback (which
      // trades exactness for availability by design; tested below).
      [0, 1, 2].map(() =>
        criarApi({ leitor: projecao.abrirLeitor(), redisUrl, limite, prefixo, credenciaisArquivo: credenciais.caminho, comandoTimeoutMs: 2_000 }),
      ),
    );
    try {
      // Concurrent waves across the three instances.
      const respostas = [];
      for (let onda = 0; onda < (3 * limite) / 15; onda++) {
        respostas.push(
          ...(await Promise.all(
            Array.from({ length: 15 }, (_, i) => (apis[(onda + i) % 3] as (typeof apis)[number]).get('/api/v1/imoveis?por_pagina=1', { token })),
          )),
        );
      }
      for (const api of apis) expect(await api.metricas.registry.metrics()).toContain('limitador_decisoes_reserva_total 0');
      const porStatus = new Map<number, number>();
      for (const r of respostas) porStatus.set(r.statusCode, (porStatus.get(r.statusCode) ?? 0) + 1);
      expect(Object.fromEntries(porStatus)).toEqual({ 200: limite, 429: 2 * limite });
      // And it stays shut on every instance.
      for (const api of apis) expect((await api.get('/api/v1/imoveis', { token })).statusCode).toBe(429);
    } finally {
      await Promise.all(apis.map((a) => a.fechar()));
      credenciais.remover();
    }
  });
});

/** A redis-server this test owns, on a fixed port so it can be restarted at the same address. */
async function iniciarRedisProprio(porta: number): Promise<ChildProcess> {
  const processo = spawn('redis-server', ['--port', String(porta), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
    stdio: 'ignore',
  });
  await expect.poll(() => redisResponde('127.0.0.1', porta), { timeout: 10_000, interval: 50 }).toBe(true);
  return processo;
}

async function parar(processo: ChildProcess): Promise<void> {
  if (processo.exitCode !== null || processo.signalCode !== null) return;
  const saiu = new Promise((resolve) => processo.once('exit', resolve));
  processo.kill('SIGKILL');
  await saiu;
}

/** An API on a Redis of its own, which the test may kill, hang (SIGSTOP) or start again, empty. */
interface ComRedisProprio {
  api: ApiDeTeste;
  porta: number;
  redis: ChildProcess;
  reiniciarRedis(): Promise<void>;
  /** The statuses of `n` requests sent one after another. */
  status(n: number): Promise<number[]>;
  /** The limiter's mode gauge, read from the metrics: 1 while on the per-process fallback. */
  emReserva(): Promise<boolean>;
}

async function comRedisProprio(limite: number, teste: (contexto: ComRedisProprio) => Promise<void>, opcoes: { comandoTimeoutMs?: number } = {}): Promise<void> {
  const [porta] = (await portasLivres(1)) as [number];
  const contexto = { porta, redis: await iniciarRedisProprio(porta) } as ComRedisProprio;
  contexto.api = await criarApi({ leitor: projecao.abrirLeitor(), redisUrl: `redis://127.0.0.1:${porta}`, limite, ...opcoes });
  contexto.reiniciarRedis = async () => {
    contexto.redis = await iniciarRedisProprio(porta);
  };
  contexto.status = async (n) => {
    const codigos: number[] = [];
    for (let i = 0; i < n; i++) codigos.push((await contexto.api.get('/api/v1/imoveis')).statusCode);
    return codigos;
  };
  contexto.emReserva = async () => /^limitador_em_reserva 1$/m.test(await contexto.api.metricas.registry.metrics());
  try {
    await teste(contexto);
  } finally {
    contexto.redis.kill('SIGCONT');
    await contexto.api.fechar();
    await parar(contexto.redis);
  }
}

describe('when Redis fails', () => {
  it('keeps serving with the per-process limiter (no 5xx, no wait), says so in logs and metrics, and returns to Redis', () =>
    comRedisProprio(1_000, async ({ api, redis, reiniciarRedis, status, emReserva }) => {
      expect(await status(1)).toEqual([200]);
      const decididasEmReserva = async () => Number(/^limitador_decisoes_reserva_total (\d+)$/m.exec(await api.metricas.registry.metrics())?.[1] ?? 0);
      // Counted from here: a stall on a loaded machine may have timed a request out before.
      const reservaAntes = await decididasEmReserva();
      await parar(redis);

      const tempos: number[] = [];
      for (let i = 0; i < 20; i++) {
        const inicio = performance.now();
        const r = await api.get('/api/v1/imoveis');
        tempos.push(performance.now() - inicio);
        expect(r.statusCode).toBe(200);
        expect(r.headers['ratelimit']).toMatch(/^"credencial";r=\d+;t=\d+$/);
      }
      // Failing fast: a typical answer does not wait out the 100 ms command timeout, and none
      // hangs (the bounds leave room for a loaded test machine's stalls).
      const ordenados = tempos.slice(1).sort((a, b) => a - b);
      expect(ordenados[Math.floor(ordenados.length / 2)]).toBeLessThan(100);
      expect(ordenados.at(-1)).toBeLessThan(2_000);
      expect(api.logs.join('').match(/Redis indisponível/g)).toHaveLength(1);
      expect(await emReserva()).toBe(true);
      expect((await decididasEmReserva()) - reservaAntes).toBeGreaterThanOrEqual(10);
      expect((await decididasEmReserva()) - reservaAntes).toBeLessThanOrEqual(20);

      await reiniciarRedis();
      await expect.poll(async () => (await status(1), await emReserva()), { timeout: 15_000, interval: 100 }).toBe(false);
      // Said once Redis has held for a few seconds, at the level of the fallback's warning, so a
      // LOG_LEVEL=warn shows both.
      await expect.poll(() => api.logs.join(''), { timeout: 15_000, interval: 200 }).toMatch(/"level":40,[^\n]*Redis de volta/);
    }));

  it('falls back to a window that already holds what Redis admitted for this process', () =>
    comRedisProprio(5, async ({ api, redis }) => {
      const antes = await Promise.all(Array.from({ length: 6 }, () => api.get('/api/v1/imoveis')));
      expect(antes.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 429]);
      await parar(redis);
      const depois = await Promise.all(Array.from({ length: 5 }, () => api.get('/api/v1/imoveis')));
      expect(depois.map((r) => r.statusCode)).toEqual([429, 429, 429, 429, 429]);
      expect(api.logs.join('')).toContain('Redis indisponível');
    }));

  it('stays exact for this process across a fallback: what it admitted while Redis was away counts once Redis is back empty', () =>
    comRedisProprio(5, async ({ redis, reiniciarRedis, status, emReserva }) => {
      expect(await status(2)).toEqual([200, 200]);
      await parar(redis);
      expect(await status(4)).toEqual([200, 200, 200, 429]);
      // Back, and empty (no persistence): Redis alone would admit five more within the minute.
      await reiniciarRedis();
      await expect.poll(async () => (await status(1), await emReserva()), { timeout: 15_000, interval: 100 }).toBe(false);
      expect(await status(5)).toEqual([429, 429, 429, 429, 429]);
    }));

  it('takes back what the scripts that timed out on a hung Redis did when it resumed', () =>
    comRedisProprio(100, async ({ porta, redis, status, emReserva }) => {
      const cliente = new Redis(`redis://127.0.0.1:${porta}`);
      const entradas = async () => {
        const [chave] = await cliente.keys('*us:*');
        return chave === undefined ? 0 : cliente.zcard(chave);
      };
      try {
        expect(await status(1)).toEqual([200]);
        redis.kill('SIGSTOP');
        // Each a script sent to the stopped Redis (past the limiter's pause), timed out, decided here.
        for (let i = 0; i < 3; i++) {
          expect(await status(1)).toEqual([200]);
          await esperar(700);
        }
        redis.kill('SIGCONT');
        // Resumed, Redis runs what was sent to it in order: each late script, and before the second
        // and third, the removal of the ones before. The last one's entry is left for now.
        expect(await cliente.ping()).toBe('PONG');
        expect(await entradas()).toBe(2);
        // The next decision takes it back first: its own entry and the first request's are left.
        expect(await status(1)).toEqual([200]);
        expect(await emReserva()).toBe(false);
        await expect.poll(entradas, { timeout: 5_000, interval: 100 }).toBe(2);
      } finally {
        cliente.disconnect();
      }
      // A timeout that a stopped Redis still reaches, but that a loaded machine's stall before it
      // does not (the default 100 ms would send a request to the fallback by accident).
    }, { comandoTimeoutMs: 1_000 }));

  it('says it fell back as soon as the connection is lost, without waiting for a request', () =>
    comRedisProprio(5, async ({ api, redis, status, emReserva }) => {
      expect(await status(1)).toEqual([200]);
      await parar(redis);
      await expect.poll(emReserva, { timeout: 5_000, interval: 50 }).toBe(true);
      expect(api.logs.join('').match(/Redis indisponível/g)).toHaveLength(1);
    }));

  it('opens a new connection when its Redis turns replica in a failover (READONLY), to reach the primary its address now names', () =>
    comRedisProprio(1_000, async ({ porta, status, emReserva }) => {
      const cliente = new Redis(`redis://127.0.0.1:${porta}`);
      // The limiter's connections: every one but this test's own.
      const conexoesDoLimitador = async (): Promise<string[]> => {
        const propria = String(await cliente.client('ID'));
        const lista = String(await cliente.client('LIST'));
        return [...lista.matchAll(/\bid=(\d+)/g)].map((m) => m[1]!).filter((id) => id !== propria);
      };
      const [semPrimario] = (await portasLivres(1)) as [number];
      try {
        expect(await status(1)).toEqual([200]);
        const antes = await conexoesDoLimitador();
        expect(antes.length).toBeGreaterThan(0);
        // A replica of a primary that is not there: read-only, as a node demoted in a failover is.
        await cliente.call('REPLICAOF', '127.0.0.1', String(semPrimario));
        expect(await status(3)).toEqual([200, 200, 200]);
        expect(await emReserva()).toBe(true);
        // Before: the same connection kept getting READONLY, and the limit stayed per process.
        await expect.poll(async () => (await conexoesDoLimitador()).some((id) => !antes.includes(id)), { timeout: 10_000, interval: 100 }).toBe(true);
        await cliente.call('REPLICAOF', 'NO', 'ONE');
        await expect.poll(async () => (await status(1), await emReserva()), { timeout: 15_000, interval: 100 }).toBe(false);
      } finally {
        await cliente.call('REPLICAOF', 'NO', 'ONE').catch(() => {});
        cliente.disconnect();
      }
    }));

  it('does not let a hung Redis hold a request for more than about 100 ms', () =>
    comRedisProprio(1_000, async ({ api, redis, status, emReserva }) => {
      expect(await status(1)).toEqual([200]);
      redis.kill('SIGSTOP');
      for (let i = 0; i < 5; i++) {
        const inicio = performance.now();
        const r = await api.get('/api/v1/imoveis');
        const ms = performance.now() - inicio;
        expect(r.statusCode).toBe(200);
        // About 100 ms for the first (the command timeout), then none. A stopped Redis never
        // answers, so without the timeout this would hang; the bound leaves room for a loaded
        // test machine's stalls.
        expect(ms).toBeLessThan(2_000);
      }
      expect(await emReserva()).toBe(true);
    }));
});
