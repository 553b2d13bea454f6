// The projector's configuration (operations.md), parsed once at start.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import type { TopicoRegistro } from '@imoveis/contracts';
import { atrasoMinimoPermitidoMs } from '@imoveis/domain';
import { SESSAO_PADRAO_MS } from '@imoveis/kafka';
import {
  CONDOMINIOS_TOPIC,
  DATABASE_PATH,
  IMOVEIS_TOPIC,
  KAFKA_BROKERS,
  LOG_LEVEL,
  METRICS_PORT,
  PHOTOS_BASE_URL,
  READY_MAX_LAG_SECONDS,
  HOST,
  inteiro,
} from '@imoveis/config';

/** How often the projector measures its lag and records its freshness; criarProjetor's default too. */
export const INTERVALO_FRESCOR_PADRAO_MS = 5_000;
/** Messages behind the partitions' ends above which commits skip fsync (decision 0007); criarProjetor's default too. */
export const ATRASO_PARA_ADIAR_SINCRONIA = 20_000;
/**
 * One thread per core, at most two. Preparing an event (parse, zod, mapping, masking) costs about
 * twice what writing it does (decision 0007): on 2 cores, two threads beside the writer replay
 * faster than one, and the single writer keeps up with about two. Each costs about 50 MB of RSS.
 */
const threadsPadrao = (): number => Math.min(2, availableParallelism());

/** What a projector and a rebuild both read: Kafka, the projection, the mapping, the replay. */
const comuns = {
  KAFKA_BROKERS,
  KAFKA_GROUP_ID: z.string().trim().min(1).default('imoveis-projector'),
  IMOVEIS_TOPIC,
  CONDOMINIOS_TOPIC,
  DATABASE_PATH,
  PHOTOS_BASE_URL,
  LOG_LEVEL,
  /** Threads decoding and mapping events beside the SQLite writer (0: all on the main thread). */
  PREPARE_THREADS: inteiro(0, 64).default(threadsPadrao),
  /** Messages behind Kafka above which commits skip fsync until caught up (0: never). Decision 0007. */
  DEFER_FSYNC_ABOVE_LAG: inteiro(0, 1_000_000_000).default(ATRASO_PARA_ADIAR_SINCRONIA),
};

/** A topic is read as one aggregate's: one topic for both would send every event of the other to the dead letters. */
function topicosDistintos(c: { IMOVEIS_TOPIC: string; CONDOMINIOS_TOPIC: string }, ctx: z.RefinementCtx): void {
  if (c.IMOVEIS_TOPIC === c.CONDOMINIOS_TOPIC) {
    ctx.addIssue({ code: 'custom', path: ['CONDOMINIOS_TOPIC'], message: `deve ser outro tópico que IMOVEIS_TOPIC (${c.IMOVEIS_TOPIC})` });
  }
}

export const ConfigProjetor = z
  .object({
    ...comuns,
    /** Where /metrics and /health/* of the projector listen. */
    METRICS_HOST: HOST,
    METRICS_PORT,
    READY_MAX_LAG_SECONDS,
    /** How long the group waits for a silent projector before reassigning (Kafka's minimum is 6 s). */
    KAFKA_SESSION_TIMEOUT_MS: inteiro(6_000, 300_000).default(SESSAO_PADRAO_MS),
    /** How often the projector confirms in the database how far behind Kafka it is. */
    FRESHNESS_INTERVAL_MS: inteiro(500, 60_000).default(INTERVALO_FRESCOR_PADRAO_MS),
  })
  .superRefine((c, ctx) => {
    if (c.READY_MAX_LAG_SECONDS * 1000 < atrasoMinimoPermitidoMs(c.FRESHNESS_INTERVAL_MS)) {
      ctx.addIssue({ code: 'custom', path: ['READY_MAX_LAG_SECONDS'], message: `deve ser ao menos ${atrasoMinimoPermitidoMs(c.FRESHNESS_INTERVAL_MS) / 1000} s com FRESHNESS_INTERVAL_MS de ${c.FRESHNESS_INTERVAL_MS} ms` });
    }
    topicosDistintos(c, ctx);
  });
export type ConfigProjetor = z.output<typeof ConfigProjetor>;

/** `pnpm run rebuild`: the projector's settings it uses, and none of those it does not (metrics, readiness). */
export const ConfigReconstrucao = z.object(comuns).superRefine(topicosDistintos);
export type ConfigReconstrucao = z.output<typeof ConfigReconstrucao>;

/** The setting that names a register topic. */
export const variavelDoTopico = (qual: TopicoRegistro): 'IMOVEIS_TOPIC' | 'CONDOMINIOS_TOPIC' => (qual === 'imoveis' ? 'IMOVEIS_TOPIC' : 'CONDOMINIOS_TOPIC');

/** The one line an entry point stops with when register topics are missing: each with its setting. */
export function linhaTopicosAusentes(topicos: readonly string[], config: { IMOVEIS_TOPIC: string; KAFKA_BROKERS: readonly string[] }): string {
  const nomeados = topicos.map((t) => `${t} (${variavelDoTopico(t === config.IMOVEIS_TOPIC ? 'imoveis' : 'condominios')})`);
  return `tópico do registro ausente no Kafka em ${config.KAFKA_BROKERS.join(',')}: ${nomeados.join(', ')}; confira o nome, ou crie-o antes (o registro o cria)`;
}
