// The API's pino logger: the Authorization header is redacted everywhere, and a URL is logged
// with any token-looking value and any `token`/`access_token` parameter blanked out, since a
// partner who puts the token in the URL must not have it written to the logs as well.
import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger } from 'pino';
import { unescape as decodificarTolerante } from 'node:querystring';
import { PADRAO_TOKEN, PARAMETROS_DE_TOKEN, temToken } from './credenciais/arquivo-credenciais.ts';

const TOKEN_EM_QUALQUER_LUGAR = new RegExp(PADRAO_TOKEN.source, 'g');

const PODE_TER_SEGREDO = /[%+]|imv_|token/i;


/**
 * The URL as logged: a path segment or query value that reads as a token once decoded (`imv%5F…`
 * is a token too), and any `token`/`access_token` parameter, become [REDACTED].
 */
export function urlParaLog(url: string): string {
  // Every request's log line comes here: a URL with nothing encoded reads as itself, and without
  // `imv_` or `token` it holds no secret.
  if (!PODE_TER_SEGREDO.test(url)) return url;
  const i = url.indexOf('?');
  const caminho = (i < 0 ? url : url.slice(0, i))
    .split('/')
    .map((segmento) => (temToken(segmento) ? '[REDACTED]' : segmento))
    .join('/');
  if (i < 0) return caminho.replace(TOKEN_EM_QUALQUER_LUGAR, '[REDACTED]');
  const consulta = url
    .slice(i + 1)
    .split('&')
    .map((parametro) => {
      const igual = parametro.indexOf('=');
      const nome = igual < 0 ? parametro : parametro.slice(0, igual);
      const valor = igual < 0 ? '' : parametro.slice(igual + 1);
      const nomeEhToken = temToken(nome);
      // The name as a server reads it (`acc%65ss_token`, `+` a space).
      const nomeLido = decodificarTolerante(nome.replaceAll('+', ' ')).toLowerCase();
      const segredo = nomeEhToken || PARAMETROS_DE_TOKEN.has(nomeLido) || temToken(valor);
      return segredo ? `${nomeEhToken ? '[REDACTED]' : nome}=[REDACTED]` : parametro;
    })
    .join('&');
  return `${caminho}?${consulta}`.replace(TOKEN_EM_QUALQUER_LUGAR, '[REDACTED]');
}

interface RequisicaoLogada {
  method: string;
  url: string;
  /** As sent (a Fastify request): `url` may be the router's copy, every `%` escaped again. */
  originalUrl?: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

/** The API's logger; the demo, which serves the same routes, names itself in `servico`. */
export function criarLogger(opcoes: { nivel: string; destino?: DestinationStream; servico?: string }): Logger {
  return pino(
    {
      level: opcoes.nivel,
      // Which process wrote it, as the projector's lines say (`servico`), and which one of several.
      base: { servico: opcoes.servico ?? 'api', pid: process.pid, hostname: hostname() },
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[REDACTED]' },
      serializers: {
        req: (req: RequisicaoLogada) => ({ method: req.method, url: urlParaLog(req.originalUrl ?? req.url), remoteAddress: req.ip }),
      },
    },
    opcoes.destino,
  );
}
