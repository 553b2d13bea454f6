// The projector as a library: the demo, the benchmarks and the tests drive the same code the service runs.
export { INTERVALO_FRESCOR_PADRAO_MS } from './config.ts';
export { criarProjetor, type OpcoesProjetor, type Projetor } from './projetor.ts';
export { topicoDlq } from './dlq.ts';
export { projetarRegistros, type ResumoProjecao } from './projetar-registros.ts';
export { ReconstrucaoInterrompida, ReconstrucaoSemImoveis, prefixoDosGruposDeReconstrucao, reconstruir, type OpcoesReconstrucao } from './reconstrucao.ts';
