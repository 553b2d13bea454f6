// The fallback's bookkeeping with a Redis whose answers the test chooses (the real one, stopped and
// hung, is in test/integration/api-limite.int.test.ts): what one process admitted while Redis was
// away still counts once Redis answers again, and a refusal never names a time too early.
import { EventEmitter } from 'node:events';
import { decidir, type DecisaoLimite } from '@imoveis/domain';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { LimitadorComReserva } from './limitador-com-reserva.ts';
import type { DecisaoRedis, LimitadorRedis } from './limitador-redis.ts';
import { LimitadorLocal } from './limitador.ts';

const JANELA = 60_000;

/** A Redis that answers as told, on its own clock (`relogio`), keeping a log like the script's. */
class RedisDeMentira {
  readonly limite: number;
  readonly redis = new EventEmitter();
  conectado = true;
  relogio = 1_000_000;
  /** How long a command takes to reach Redis, which then answers at once. */
  atrasoMs = 0;
  /** Entries per key, as the sorted set holds them. */
  readonly entradas = new Map<string, number[]>();
  desfeitos = 0;

  constructor(limite: number) {
    this.limite = limite;
  }

  decidir(chave: string): Promise<DecisaoRedis> {
    if (!this.conectado) return Promise.reject(new Error('Stream isn\'t writeable'));
    this.relogio += this.atrasoMs;
    const agoraMs = this.relogio;
    const log = (this.entradas.get(chave) ?? []).filter((t) => t > agoraMs - JANELA);
    const admitido = log.length < this.limite;
    if (admitido) log.push(agoraMs);
    this.entradas.set(chave, log);
    const decisao: DecisaoLimite = decidir({ admitido, contagem: log.length, maisAntigaMs: log[0] ?? null, agoraMs, limite: this.limite, janelaMs: JANELA });
    return Promise.resolve({
      decisao,
      agoraMs,
      desfazer: () => {
        this.desfeitos++;
        log.splice(log.indexOf(agoraMs), 1);
      },
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function montar(limite: number, logger = pino({ level: 'silent' })) {
  const redis = new RedisDeMentira(limite);
  // The host's clock runs 5 s behind Redis's: the local log must keep to Redis's.
  const agora = () => redis.relogio - 5_000;
  const limitador = new LimitadorComReserva({
    redis: redis as unknown as LimitadorRedis,
    local: new LimitadorLocal({ limite, agora }),
    logger,
    agora,
    pausaMs: 0,
  });
  return { redis, limitador };
}

describe('LimitadorComReserva', () => {
  it('admits through Redis only what this process has room for, after admitting on its own while Redis was away', async () => {
    const { redis, limitador } = montar(3);
    expect((await limitador.tentar('c')).admitido).toBe(true);
    redis.conectado = false;
    redis.relogio += 1_000;
    expect((await limitador.tentar('c')).admitido).toBe(true);
    expect((await limitador.tentar('c')).admitido).toBe(true);
    expect(limitador.modo).toBe('reserva');

    // Back, and empty: Redis alone would admit three more.
    redis.conectado = true;
    redis.entradas.clear();
    redis.relogio += 1_000;
    const recusada = await limitador.tentar('c');
    expect(limitador.modo).toBe('redis');
    expect(recusada).toMatchObject({ admitido: false, retryAfterS: 58 });
    // Redis's entry for it is taken back: Redis counts only what was admitted.
    expect(redis.desfeitos).toBe(1);
    expect(redis.entradas.get('c')).toEqual([]);

    // Exactly Retry-After later, the first request has left this process's window.
    redis.relogio += 58_000;
    expect((await limitador.tentar('c')).admitido).toBe(true);
  });

  it('refuses with the later of Redis and its own window, so Retry-After is never early', async () => {
    const { redis, limitador } = montar(2);
    // Another process fills Redis's window first; this one is refused, and learns Redis's clock.
    redis.entradas.set('c', [redis.relogio, redis.relogio]);
    expect(await limitador.tentar('c')).toMatchObject({ admitido: false, retryAfterS: 60 });
    // It falls back meanwhile and admits two of its own, 40 s later.
    redis.conectado = false;
    redis.relogio += 40_000;
    expect((await limitador.tentar('c')).admitido).toBe(true);
    expect((await limitador.tentar('c')).admitido).toBe(true);

    redis.conectado = true;
    redis.relogio += 1_000;
    // Redis alone would say 19 s; this process's own two leave the window in 59.
    expect(await limitador.tentar('c')).toMatchObject({ admitido: false, retryAfterS: 59 });
    redis.relogio += 58_999;
    expect((await limitador.tentar('c')).admitido).toBe(false);
    redis.relogio += 1;
    expect((await limitador.tentar('c')).admitido).toBe(true);
  });

  it('keeps what Redis admitted in the window until it leaves Redis\'s, however long a command took to reach Redis', async () => {
    const { redis, limitador } = montar(1);
    redis.atrasoMs = 90;
    expect((await limitador.tentar('c')).admitido).toBe(true);
    const admitidaEm = redis.relogio;
    redis.conectado = false;
    // 50 ms before the entry leaves Redis's window: still in this process's.
    redis.relogio = admitidaEm + JANELA - 50;
    expect(await limitador.tentar('c')).toMatchObject({ admitido: false, retryAfterS: 1 });
    redis.relogio = admitidaEm + JANELA;
    expect((await limitador.tentar('c')).admitido).toBe(true);
    // The entry made meanwhile does not leave early either, once Redis is back (and empty).
    redis.conectado = true;
    redis.atrasoMs = 0;
    redis.entradas.clear();
    redis.relogio = admitidaEm + 2 * JANELA - 1;
    expect((await limitador.tentar('c')).admitido).toBe(false);
  });

  it('falls back when the connection is lost, without a request, and not when it closes itself', async () => {
    const { redis, limitador } = montar(1);
    redis.redis.emit('close');
    expect(limitador.modo).toBe('reserva');
    const outro = montar(1);
    await outro.limitador.close();
    outro.redis.redis.emit('close');
    expect(outro.limitador.modo).toBe('redis');
    expect(outro.redis.redis.listenerCount('close')).toBe(0);
  });

  it('says why the connection was lost (a wrong password is not a Redis that is down), and not a cause it recovered from', () => {
    const linhas: { msg: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'warn' }, { write: (linha: string) => void linhas.push(JSON.parse(linha) as (typeof linhas)[number]) });
    const { redis } = montar(1, logger);
    // An error the connection recovered from is no cause of a later loss.
    redis.redis.emit('error', new Error('ECONNRESET'));
    redis.redis.emit('ready');
    redis.redis.emit('error', new Error('WRONGPASS invalid username-password pair or user is disabled.'));
    redis.redis.emit('close');
    expect(linhas).toEqual([
      expect.objectContaining({ msg: expect.stringMatching(/^Redis indisponível/), err: expect.objectContaining({ message: 'conexão com o Redis perdida: WRONGPASS invalid username-password pair or user is disabled.' }) }),
    ]);
  });

  it('says a flapping Redis in two lines: its fall, and its return once it held, with the falls between', async () => {
    vi.useFakeTimers();
    try {
      const linhas: { msg: string; quedasNoMeio?: number }[] = [];
      const logger = pino({ level: 'warn' }, { write: (linha: string) => void linhas.push(JSON.parse(linha) as (typeof linhas)[number]) });
      const { redis, limitador } = montar(1_000, logger);
      // Lost, back for a moment (a command succeeds), lost again… three times.
      for (let i = 0; i < 3; i++) {
        redis.redis.emit('close');
        await limitador.tentar('k');
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(limitador.modo).toBe('redis');
      expect(linhas.map((l) => l.msg.split(':')[0])).toEqual(['Redis indisponível']);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(linhas).toEqual([
        expect.objectContaining({ msg: expect.stringMatching(/^Redis indisponível/) }),
        expect.objectContaining({ msg: expect.stringMatching(/^Redis de volta/), quedasNoMeio: 2 }),
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('names no stale cause after the connection came back', () => {
    const linhas: { err?: { message: string } }[] = [];
    const logger = pino({ level: 'warn' }, { write: (linha: string) => void linhas.push(JSON.parse(linha) as (typeof linhas)[number]) });
    const { redis } = montar(1, logger);
    redis.redis.emit('error', new Error('ECONNREFUSED'));
    redis.redis.emit('ready');
    redis.redis.emit('close');
    expect(linhas[0]?.err?.message).toBe('conexão com o Redis perdida');
  });
});
