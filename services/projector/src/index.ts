// The projector as a library: the demo and the tests drive the same code the service runs.
export { ConfigProjetor } from './config.ts';
export { criarMetricas, type MetricasProjetor } from './metricas.ts';
export { processarLote, type DependenciasLote, type Rejeicao, type ResultadoLote } from './processar-lote.ts';
export { criarProjetor, topicoDlq, type OpcoesProjetor, type Projetor } from './projetor.ts';
export { projetarRegistros, type RegistroBruto, type ResumoProjecao } from './projetar-registros.ts';
export { reconstruir, type OpcoesReconstrucao } from './reconstrucao.ts';
