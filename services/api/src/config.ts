// The API's environment variables (operations.md), parsed once by server.ts.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { CREDENTIALS_FILE, DATABASE_PATH, HOST, LOG_LEVEL, PORT, RATE_LIMIT_PER_MINUTE, READY_MAX_LAG_SECONDS, REDIS_URL, inteiro } from '@imoveis/config';

/** Defaults the code's own options fall back to as well (tests and the demo build without this schema). */
export const PADROES_API = {
  RATE_LIMIT_KEY_PREFIX: 'imoveis:limite:',
  REDIS_COMMAND_TIMEOUT_MS: 100,
  MAX_EVENT_LOOP_DELAY_MS: 1_000,
  // Connection deadlines (buildApp's `prazos`): a request's headers within 10 s; no progress on a
  // request or its answer for 60 s closes the connection; Node checks every second.
  PRAZO_REQUISICAO_MS: 10_000,
  PRAZO_INATIVIDADE_MS: 60_000,
  VERIFICACAO_DE_PRAZOS_MS: 1_000,
  // A stop answers on its open connections for up to this long before closing the idle ones,
  DRENAGEM_MS: 500,
  // and cuts what is still being sent this long after, within the process's 10 s of grace.
  ENVIO_APOS_PARADA_MS: 7_000,
} as const;

/** Ranges proxy-addr (Fastify's reader of X-Forwarded-For) knows by name. */
const FAIXAS_NOMEADAS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * An address or a block written out in full: ipaddr.js also reads `10` as 0.0.0.10 and `1.5` as
 * 1.0.0.5, which here would be a mistyped count of proxies taken for an address.
 */
const ehEnderecoOuBloco = (texto: string): boolean =>
  ipaddr.IPv4.isValidFourPartDecimal(texto) || ipaddr.IPv4.isValidCIDRFourPartDecimal(texto) || ipaddr.IPv6.isValid(texto) || ipaddr.IPv6.isValidCIDR(texto);

export const ConfigApi = z.object({
  HOST,
  PORT,
  REDIS_URL,
  DATABASE_PATH,
  CREDENTIALS_FILE,
  RATE_LIMIT_PER_MINUTE,
  LOG_LEVEL,
  READY_MAX_LAG_SECONDS,
  /**
   * Behind a reverse proxy: take the client address (what requests without a valid credential
   * are counted by, and each request's log line) from X-Forwarded-For, and the request id from
   * X-Request-Id. Either the proxies in front, counted from the API (`true`, yes, on…: one, the
   * usual gateway; `false`: none), or the proxies' addresses (`10.0.0.0/8,192.0.2.7`): then a
   * client reaching the API's port directly is never taken at its word. Only trusted hops'
   * entries are read, so a client cannot pick its own address, nor the request id the logs give it.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .transform((valor, ctx): number | string[] => {
      const v = valor.toLowerCase();
      if (/^\d$/.test(v)) return Number(v);
      if (['true', 'yes', 'on', 'y', 'enabled'].includes(v)) return 1;
      if (['false', 'no', 'off', 'n', 'disabled'].includes(v)) return 0;
      // Addresses, blocks, or proxy-addr's names for whole ranges (`loopback`, `uniquelocal`).
      const enderecos = v.split(',').map((e) => e.trim());
      if (enderecos.every((e) => ehEnderecoOuBloco(e) || FAIXAS_NOMEADAS.has(e))) return enderecos;
      ctx.addIssue({ code: 'custom', message: 'deve ser true, false, o número de proxies à frente (0 a 9) ou os endereços deles (10.0.0.0/8,192.0.2.7,loopback)' });
      return z.NEVER;
    })
    .default(0),
  /** Prefix of the request-limit keys in Redis, to share one Redis between environments. */
  RATE_LIMIT_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]*$/, 'só letras, dígitos, :, ., _ e -')
    .default(PADROES_API.RATE_LIMIT_KEY_PREFIX),
  /**
   * How long a request may wait on Redis before the per-process limiter decides instead. Keep
   * it small: every request pays it while Redis hangs (once per pause, see LimitadorComReserva).
   */
  REDIS_COMMAND_TIMEOUT_MS: inteiro(10, 5_000).default(PADROES_API.REDIS_COMMAND_TIMEOUT_MS),
  /** Under-pressure: answer 503 when the event loop lags more than this. */
  MAX_EVENT_LOOP_DELAY_MS: inteiro(10, 60_000).default(PADROES_API.MAX_EVENT_LOOP_DELAY_MS),
});
export type ConfigApi = z.output<typeof ConfigApi>;

/** Loopback addresses: only this host's own processes (the gateway among them) reach the port. */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/i;

/**
 * What a valid configuration may still get wrong, one line each, for server.ts to log at start:
 * the per-process limiter without Redis, and proxies counted by hops on a port others can reach
 * (a client coming directly then writes the `X-Forwarded-For` entry taken as its address, and
 * with it its request-limit key, and picks its request id).
 */
export function avisosDaConfiguracao(config: Pick<ConfigApi, 'REDIS_URL' | 'TRUST_PROXY' | 'HOST'>): string[] {
  const avisos: string[] = [];
  if (config.REDIS_URL === undefined) avisos.push('REDIS_URL ausente: limite de requisições contado só neste processo (correto apenas com um único processo da API)');
  if (typeof config.TRUST_PROXY === 'number' && config.TRUST_PROXY > 0 && !LOOPBACK.test(config.HOST)) {
    avisos.push(
      `TRUST_PROXY conta ${config.TRUST_PROXY} proxy(s) e HOST ${config.HOST} aceita conexões de fora: quem chegar direto à porta escolhe o endereço (e a chave de limite) e o X-Request-Id que a API registra; prefira os endereços dos proxies (TRUST_PROXY=10.0.0.0/8,…)`,
    );
  }
  return avisos;
}
