// Prometheus metrics of the projector, on a registry of its own.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { VERSAO_DAS_REGRAS, idadeDaProjecaoS } from '@imoveis/domain';

export interface OpcoesMetricas {
  /**
   * The last instant the projection was caught up (the database's record), read at each scrape,
   * so the age grows while Kafka is away and starts from the record a restart found.
   */
  emDiaEm?: () => number | null;
  /** The rules version of the projection's documents (`regras()`), read at each scrape; undefined: no projection open yet. */
  regras?: () => number | null | undefined;
  agora?: () => number;
}

export function criarMetricas(opcoes: OpcoesMetricas = {}) {
  const { emDiaEm = () => null, regras = () => undefined, agora = Date.now } = opcoes;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    eventosAplicados: new Counter({
      name: 'projetor_eventos_total',
      help: 'Eventos do registro processados, por tópico e efeito (aplicado, sem-mudanca, repetido, apos-exclusao, tombstone).',
      labelNames: ['topico', 'efeito'] as const,
      registers: [registry],
    }),
    eventosRejeitados: new Counter({
      name: 'projetor_eventos_rejeitados_total',
      help: 'Eventos enviados à dead-letter, por tópico e motivo.',
      labelNames: ['topico', 'motivo'] as const,
      registers: [registry],
    }),
    deadLettersIncompletas: new Counter({
      name: 'projetor_dead_letters_incompletas_total',
      help: 'Eventos rejeitados maiores que o tópico de dead letters aceita: enviados sem o valor (sem-valor; ver dlq.omitido) ou não enviados (descartada; o log diz onde estão).',
      labelNames: ['topico', 'como'] as const,
      registers: [registry],
    }),
    atraso: new Gauge({
      name: 'projetor_atraso_mensagens',
      help: 'Mensagens ainda por consumir, por tópico e partição.',
      labelNames: ['topico', 'particao'] as const,
      registers: [registry],
    }),
    emDiaHaSegundos: new Gauge({
      name: 'projetor_em_dia_ha_segundos',
      help: 'Segundos desde a última vez em que o projetor havia consumido todas as partições até o fim (+Inf: nunca).',
      registers: [registry],
      collect() {
        this.set(idadeDaProjecaoS(emDiaEm(), agora()) ?? Number.POSITIVE_INFINITY);
      },
    }),
    regrasDesatualizadas: new Gauge({
      name: 'projetor_regras_desatualizadas',
      help: 'Um quando os documentos gravados não foram todos feitos pelas regras de mapeamento deste código (o log de início diz quais); uma reconstrução os refaz.',
      registers: [registry],
      collect() {
        const versao = regras();
        this.set(versao === undefined || versao === VERSAO_DAS_REGRAS ? 0 : 1);
      },
    }),
    duracaoLote: new Histogram({
      name: 'projetor_lote_duracao_segundos',
      help: 'Tempo para aplicar um lote, da decodificação ao commit, com a espera atrás dos lotes de outras partições.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}
export type MetricasProjetor = ReturnType<typeof criarMetricas>;
