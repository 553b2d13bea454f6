// Public API of @imoveis/generator: deterministic register events, to NDJSON or Kafka.
export { gerarCargaInicial, gerarCenario } from './carga-inicial.ts';
export { gerarMutacoes, gerarMutacoesRotuladas, type RegistroRotulado } from './mutacoes.ts';
export { type OpcoesGerador, type OpcoesNormalizadas } from './opcoes.ts';
export { LinhaNdjsonInvalida, lerNdjson } from './ndjson.ts';
export { enviarParaKafka, type OpcoesEnvio, type Produtor, type ResultadoEnvio, type TopicosKafka } from './kafka-envio.ts';
export {
  type CondominioCompleto,
  type Contato,
  type Corretor,
  type FotoGerada,
  type ImovelCompleto,
  type Proprietario,
} from './tipos.ts';
