// The API's environment variables (operations.md), parsed once by server.ts.
import { z } from 'zod';
import { CREDENTIALS_FILE, DATABASE_PATH, HOST, LOG_LEVEL, PORT, RATE_LIMIT_PER_MINUTE, READY_MAX_LAG_SECONDS, REDIS_URL, inteiro } from '@imoveis/config';

/** Defaults the code's own options fall back to as well (tests and the demo build without this schema). */
export const PADROES_API = { RATE_LIMIT_KEY_PREFIX: 'imoveis:limite:', REDIS_COMMAND_TIMEOUT_MS: 100, MAX_EVENT_LOOP_DELAY_MS: 1_000 } as const;

export const ConfiguracaoApi = z.object({
  HOST,
  PORT,
  REDIS_URL,
  DATABASE_PATH,
  CREDENTIALS_FILE,
  RATE_LIMIT_PER_MINUTE,
  LOG_LEVEL,
  READY_MAX_LAG_SECONDS,
  /** Behind a reverse proxy: take the client address (for the per-address limit) from X-Forwarded-For, and the request id from X-Request-Id. */
  /**
   * Proxies in front of the API whose X-Forwarded-For entries are trusted, counted from the API:
   * `true` (or yes, on…) is one, the usual gateway; `false` none. Only those hops' entries are
   * read, so a client cannot pick its own address (and with it, its request-limit key).
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(\d|true|false|yes|no|on|off|y|n|enabled|disabled)$/, { error: 'deve ser true, false ou o número de proxies à frente (0 a 9)' })
    .transform((v) => (/^\d$/.test(v) ? Number(v) : ['true', 'yes', 'on', 'y', 'enabled'].includes(v) ? 1 : 0))
    .default(0),
  /** Prefix of the request-limit keys in Redis, to share one Redis between environments. */
  RATE_LIMIT_KEY_PREFIX: z.string().regex(/^[\w:.-]*$/).default(PADROES_API.RATE_LIMIT_KEY_PREFIX),
  /**
   * How long a request may wait on Redis before the per-process limiter decides instead. Keep
   * it small: every request pays it while Redis hangs (once per pause, see LimitadorComReserva).
   */
  REDIS_COMMAND_TIMEOUT_MS: inteiro(10, 5_000).default(PADROES_API.REDIS_COMMAND_TIMEOUT_MS),
  /** Under-pressure: answer 503 when the event loop lags more than this. */
  MAX_EVENT_LOOP_DELAY_MS: inteiro(10, 60_000).default(PADROES_API.MAX_EVENT_LOOP_DELAY_MS),
});
export type ConfiguracaoApi = z.output<typeof ConfiguracaoApi>;
