// Prometheus metrics of the projector, on a registry of its own.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function criarMetricas() {
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
    atraso: new Gauge({
      name: 'projetor_atraso_mensagens',
      help: 'Mensagens ainda por consumir, por tópico e partição.',
      labelNames: ['topico', 'particao'] as const,
      registers: [registry],
    }),
    emDiaHaSegundos: new Gauge({
      name: 'projetor_em_dia_ha_segundos',
      help: 'Segundos desde a última vez em que o projetor havia consumido todas as partições até o fim.',
      registers: [registry],
    }),
    duracaoLote: new Histogram({
      name: 'projetor_lote_duracao_segundos',
      help: 'Tempo para aplicar um lote, da decodificação ao commit.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}
export type MetricasProjetor = ReturnType<typeof criarMetricas>;
