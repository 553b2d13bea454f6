// The API's Prometheus metrics, in a registry of its own (never prom-client's global one, so
// several apps in one test process do not collide).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metricas {
  readonly registry: Registry;
  readonly requisicoes: Counter<'rota' | 'metodo' | 'status'>;
  readonly duracao: Histogram<'rota' | 'metodo' | 'status'>;
  readonly recusasPorLimite: Counter<'chave'>;
  readonly decisoesNaReserva: Counter;
  readonly transicoesLimitador: Counter<'para'>;
  readonly limitadorEmReserva: Gauge;
  readonly falhasDeLeitura: Counter;
}

export function criarMetricas(opcoes: { padraoDoProcesso?: boolean } = {}): Metricas {
  const registry = new Registry();
  if (opcoes.padraoDoProcesso ?? true) collectDefaultMetrics({ register: registry });
  const metricas: Metricas = {
    registry,
    requisicoes: new Counter({
      name: 'http_requisicoes_total',
      help: 'Requisições respondidas, por rota, método e status',
      labelNames: ['rota', 'metodo', 'status'],
      registers: [registry],
    }),
    duracao: new Histogram({
      name: 'http_duracao_segundos',
      help: 'Tempo de resposta em segundos, por rota, método e status',
      labelNames: ['rota', 'metodo', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    recusasPorLimite: new Counter({
      name: 'limite_recusas_total',
      help: 'Requisições acima do limite, por chave: credencial (429) ou endereço do cliente sem credencial válida (401 com Retry-After)',
      labelNames: ['chave'],
      registers: [registry],
    }),
    decisoesNaReserva: new Counter({
      name: 'limitador_decisoes_reserva_total',
      help: 'Requisições limitadas pelo limitador do processo porque o Redis falhou',
      registers: [registry],
    }),
    transicoesLimitador: new Counter({
      name: 'limitador_transicoes_total',
      help: 'Mudanças do limitador entre o Redis e a reserva do processo',
      labelNames: ['para'],
      registers: [registry],
    }),
    limitadorEmReserva: new Gauge({
      name: 'limitador_em_reserva',
      help: '1 enquanto o limite é contado só neste processo (Redis indisponível)',
      registers: [registry],
    }),
    falhasDeLeitura: new Counter({
      name: 'projecao_falhas_de_leitura_total',
      help: 'Leituras da projeção que o arquivo fez falhar (corrompido, erro de E/S, travado além da espera do SQLite)',
      registers: [registry],
    }),
  };
  return metricas;
}

/** What the limiter with its per-process fallback reports: each decision made on the fallback, each change of mode. */
export function metricasDoLimitador(m: Metricas): { aoDecidirNaReserva(): void; aoMudarModo(modo: 'redis' | 'reserva'): void } {
  return {
    aoDecidirNaReserva: () => m.decisoesNaReserva.inc(),
    aoMudarModo: (modo) => {
      m.transicoesLimitador.inc({ para: modo });
      m.limitadorEmReserva.set(modo === 'reserva' ? 1 : 0);
    },
  };
}

/** The projection's freshness, read at each scrape; null fields: no projection, or never confirmed. */
export function registrarMetricasDeFrescor(metricas: Metricas, lerFrescor: () => { idadeS: number | null; atraso: number | null }): void {
  const registry = metricas.registry;
  // An app built again on the same metrics reads its own projection.
  for (const nome of ['projecao_idade_segundos', 'projecao_atraso_mensagens']) registry.removeSingleMetric(nome);
  new Gauge({
    name: 'projecao_idade_segundos',
    help: 'Segundos desde que o projetor confirmou estar em dia com o Kafka (+Inf sem projeção ou sem confirmação)',
    registers: [registry],
    collect() {
      // Unknown is never fresh: an alert on the age fires for a missing or never-caught-up projection.
      this.set(lerFrescor().idadeS ?? Number.POSITIVE_INFINITY);
    },
  });
  new Gauge({
    name: 'projecao_atraso_mensagens',
    help: 'Mensagens que faltavam consumir no último registro do projetor (NaN sem projeção)',
    registers: [registry],
    collect() {
      this.set(lerFrescor().atraso ?? Number.NaN);
    },
  });
}

/** 1 while the credentials file on disk cannot be loaded: older credentials answer, its revocations do not apply. */
export function registrarCredenciais(metricas: Metricas, desatualizadas: () => boolean): void {
  metricas.registry.removeSingleMetric('credenciais_desatualizadas');
  new Gauge({
    name: 'credenciais_desatualizadas',
    help: 'Credenciais do arquivo que não pôde ser lido (1): valem as anteriores, e revogações nele ainda não',
    registers: [metricas.registry],
    collect() {
      this.set(desatualizadas() ? 1 : 0);
    },
  });
}
