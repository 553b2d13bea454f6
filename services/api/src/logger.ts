// The API's pino logger: the Authorization header is redacted everywhere, and a URL is logged
// with any token-looking value and any `token`/`access_token` parameter blanked out, since a
// partner who puts the token in the URL must not have it written to the logs as well.
import { pino, type DestinationStream, type Logger } from 'pino';
import { PADRAO_TOKEN } from './credenciais/arquivo-credenciais.ts';

const TOKEN_EM_QUALQUER_LUGAR = new RegExp(PADRAO_TOKEN.source, 'g');
const PARAMETRO_DE_TOKEN = /([?&](?:access_token|token)=)[^&#]*/gi;

export function urlParaLog(url: string): string {
  return url.replace(PARAMETRO_DE_TOKEN, '$1[REDACTED]').replace(TOKEN_EM_QUALQUER_LUGAR, '[REDACTED]');
}

interface RequisicaoLogada {
  method: string;
  url: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

export function criarLogger(opcoes: { nivel: string; destino?: DestinationStream }): Logger {
  return pino(
    {
      level: opcoes.nivel,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[REDACTED]' },
      serializers: {
        req: (req: RequisicaoLogada) => ({ method: req.method, url: urlParaLog(req.url), remoteAddress: req.ip }),
      },
    },
    opcoes.destino,
  );
}
