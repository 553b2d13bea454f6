// The demo's configuration: the API's own variables, with defaults that keep the demo's files
// apart from a real projection's.
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { atrasoMinimoPermitidoMs } from '@imoveis/domain';
import { INTERVALO_FRESCOR_PADRAO_MS } from '@imoveis/projector';
import { HOST, LOG_LEVEL, PHOTOS_BASE_URL, PORT, RATE_LIMIT_PER_MINUTE, READY_MAX_LAG_SECONDS } from '@imoveis/config';

export const ConfigDemo = z.object({
  HOST,
  PORT,
  LOG_LEVEL,
  RATE_LIMIT_PER_MINUTE,
  READY_MAX_LAG_SECONDS,
  DATABASE_PATH: z.string().default('./data/demo/projecao.db'),
  CREDENTIALS_FILE: z.string().default('./data/demo/credenciais.json'),
  /** The sample register events to load: NDJSON lines `{ topico, chave, valor }`. */
  DEMO_EVENTS_FILE: z.string().default(fileURLToPath(new URL('../amostra/registro.ndjson', import.meta.url))),
  PHOTOS_BASE_URL: PHOTOS_BASE_URL.default('https://fotos.exemplo.com.br/marca-dagua'),
}).refine((c) => c.READY_MAX_LAG_SECONDS * 1000 >= atrasoMinimoPermitidoMs(INTERVALO_FRESCOR_PADRAO_MS), {
  // The demo confirms its freshness at the projector's default interval: the projector's rule.
  path: ['READY_MAX_LAG_SECONDS'],
  message: `deve ser ao menos ${atrasoMinimoPermitidoMs(INTERVALO_FRESCOR_PADRAO_MS) / 1000} s, com a demo confirmando estar em dia a cada ${INTERVALO_FRESCOR_PADRAO_MS} ms`,
});
export type ConfigDemo = z.output<typeof ConfigDemo>;
