// The request limit shared by every API process: a sliding-window log per key in a Redis sorted
// set, decided by one Lua script (one round trip, atomic) that reads the time from Redis, so the
// hosts' clocks never matter. Exact: never more than `limite` admitted in any window span.
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { decidir, JANELA_PADRAO_MS } from '@imoveis/domain';
import { PADROES_API } from '../config.ts';
import type { DecisaoLimite } from './limitador.ts';

// KEYS[1]: the key's sorted set. ARGV: limit, window ms, a nonce unique to this request.
// Times are Redis's microseconds (exact in a double until the year 2255): in milliseconds, an
// entry made at x.999 ms would leave the window 0.999 ms early. The window is
// (agora - janela, agora]: entries with score <= agora - janela are removed. The member is the
// request's own nonce, so two requests in the same microsecond are two entries, and an entry can
// be taken back by its nonce.
// Returns {admitted 0/1, count after the decision, agora µs, oldest score µs}.
// The window's rule is the domain's (janela-deslizante.ts, which LimitadorEmMemoria applies): a
// change of one must be made in the other, so that the fallback answers as Redis does.
const SCRIPT_JANELA = `
local t = redis.call('TIME')
local agora = tonumber(t[1]) * 1000000 + tonumber(t[2])
local limite = tonumber(ARGV[1])
local janela = tonumber(ARGV[2]) * 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', agora - janela)
local n = redis.call('ZCARD', KEYS[1])
local admitido = 0
if n < limite then
  redis.call('ZADD', KEYS[1], agora, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
  n = n + 1
  admitido = 1
end
local maisAntiga = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local antiga = -1
if maisAntiga[2] then antiga = tonumber(maisAntiga[2]) end
return {admitido, n, agora, antiga}
`;

interface RedisComJanela extends Redis {
  janelaDeslizante(chave: string, limite: number, janelaMs: number, nonce: string): Promise<[number, number, number, number]>;
}

/**
 * Connection options for a limiter that must never make a request wait on a dead Redis:
 * no offline queue (commands fail at once while disconnected), no per-command retries, and a
 * command timeout for a Redis that is connected but not answering. Reconnection continues in
 * the background.
 */
function opcoesRedisLimitador(comandoTimeoutMs: number = PADROES_API.REDIS_COMMAND_TIMEOUT_MS) {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: comandoTimeoutMs,
    connectTimeout: 1_000,
    retryStrategy: (tentativas) => Math.min(50 * 2 ** Math.min(tentativas, 6), 2_000),
    // A node that became a replica in a failover (or is loading, or lost its primary) answers
    // every script with an error on a connection that otherwise stays up: a new connection finds
    // the primary the address now names (a DNS-named endpoint). Without it the limit stayed per
    // process until a restart. 1: the failed command is not sent again (the fallback decided it).
    reconnectOnError: (erro: Error) => (/^(READONLY|MASTERDOWN|LOADING)\b/.test(erro.message) ? 1 : false),
    lazyConnect: false,
  } satisfies RedisOptions;
}

/** Redis's decision, with its clock at the decision and a way to take the entry back. */
export interface DecisaoRedis {
  readonly decisao: DecisaoLimite;
  /** Redis's clock when it decided. */
  readonly agoraMs: number;
  /** Takes back the entry an admission made (the caller refused the request after all). */
  desfazer(): void;
}

/** Entries to take back, kept at most this many while Redis is away. */
const MAXIMO_A_DESFAZER = 10_000;
/** ioredis's error for a command past `commandTimeout` (written, unanswered). */
const COMANDO_ESGOTADO = 'Command timed out';

/**
 * The shared limit in Redis. Not a `Limitador` by itself: it rejects when Redis fails, and
 * LimitadorComReserva, which decides in the process meanwhile, is what the app is given.
 */
export class LimitadorRedis {
  readonly limite: number;
  readonly redis: Redis;
  readonly #janelaMs: number;
  readonly #prefixo: string;
  /**
   * Entries that may stand in Redis for requests it did not decide, by key: a script that timed out
   * on a hung Redis still runs when Redis resumes, stamped then. Removed before the next decision.
   */
  #aDesfazer = new Map<string, Set<string>>();
  #quantosADesfazer = 0;

  /** `redis`: the server's URL; the limiter makes and owns its connection. */
  constructor(opcoes: { redis: string; limite: number; janelaMs?: number; prefixo?: string; comandoTimeoutMs?: number }) {
    this.limite = opcoes.limite;
    this.#janelaMs = opcoes.janelaMs ?? JANELA_PADRAO_MS;
    this.#prefixo = opcoes.prefixo ?? PADROES_API.RATE_LIMIT_KEY_PREFIX;
    this.redis = new Redis(opcoes.redis, opcoesRedisLimitador(opcoes.comandoTimeoutMs));
    // defineCommand sends EVALSHA, falling back to EVAL (which loads it) on NOSCRIPT.
    this.redis.defineCommand('janelaDeslizante', { numberOfKeys: 1, lua: SCRIPT_JANELA });
  }

  /** True when commands can be sent now (a disconnected client would fail them at once). */
  get conectado(): boolean {
    return this.redis.status === 'ready';
  }

  /** Rejects when Redis fails or does not answer within the command timeout. */
  async tentar(chave: string): Promise<DecisaoLimite> {
    return (await this.decidir(chave)).decisao;
  }

  /** {@link tentar}, with Redis's clock and the entry's undo. */
  async decidir(chave: string): Promise<DecisaoRedis> {
    // `us:`: the sets of the millisecond script before it are left to expire, not misread.
    const chaveRedis = `${this.#prefixo}us:${chave}`;
    const nonce = randomBytes(8).toString('hex');
    // Written before the script on the same connection, so Redis runs them first; not awaited.
    this.#enviarDesfeitos();
    let resposta: [number, number, number, number];
    try {
      resposta = await (this.redis as RedisComJanela).janelaDeslizante(chaveRedis, this.limite, this.#janelaMs, nonce);
    } catch (erro) {
      this.#desfazerDepois(chaveRedis, nonce);
      throw erro;
    }
    const [admitido, contagem, agoraUs, antigaUs] = resposta;
    const decisao = decidir({
      admitido: admitido === 1,
      contagem,
      maisAntigaMs: antigaUs < 0 ? null : antigaUs / 1000,
      agoraMs: agoraUs / 1000,
      limite: this.limite,
      janelaMs: this.#janelaMs,
    });
    return {
      decisao,
      agoraMs: agoraUs / 1000,
      desfazer: () => {
        this.#desfazerDepois(chaveRedis, nonce);
        this.#enviarDesfeitos();
      },
    };
  }

  #desfazerDepois(chave: string, ...nonces: string[]): void {
    for (const nonce of nonces) {
      if (this.#quantosADesfazer >= MAXIMO_A_DESFAZER) return;
      const daChave = this.#aDesfazer.get(chave) ?? new Set<string>();
      this.#aDesfazer.set(chave, daChave);
      if (daChave.has(nonce)) continue;
      daChave.add(nonce);
      this.#quantosADesfazer++;
    }
  }

  /**
   * One ZREM per key of every entry to take back, written ahead of what follows on the connection.
   * One that times out was written, so Redis runs it before anything sent later: only one never
   * sent (the connection dropped) is kept for the next attempt. ZREM is idempotent.
   */
  #enviarDesfeitos(): void {
    if (this.#quantosADesfazer === 0 || !this.conectado) return;
    const lote = this.#aDesfazer;
    this.#aDesfazer = new Map();
    this.#quantosADesfazer = 0;
    for (const [chave, nonces] of lote) {
      this.redis.zrem(chave, ...nonces).catch((erro: unknown) => {
        if (!(erro instanceof Error && erro.message === COMANDO_ESGOTADO)) this.#desfazerDepois(chave, ...nonces);
      });
    }
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
