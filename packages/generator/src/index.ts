// Public API of @imoveis/generator: deterministic register events, to NDJSON or Kafka.
export { gerarCargaInicial, gerarCenario } from './carga-inicial.ts';
export { gerarMutacoes, gerarMutacoesRotuladas, ESPECIES_MUTACAO, type EspecieMutacao, type RegistroRotulado } from './mutacoes.ts';
export { ESPECIES_VENENO, MOTIVO_DO_VENENO, type EspecieVeneno } from './venenos.ts';
export { VALORES_RUINS, detectarValoresRuins, type ValorRuim } from './imovel-gerador.ts';
export { type OpcoesGerador, type OpcoesNormalizadas } from './opcoes.ts';
export { LinhaNdjsonInvalida, escreverNdjson, lerNdjson } from './ndjson.ts';
export { enviarParaKafka, type OpcoesEnvio, type Produtor, type ResultadoEnvio, type TopicosKafka } from './kafka-envio.ts';
export {
  CAMPOS_PRIVADOS_IMOVEL,
  type CondominioCompleto,
  type Contato,
  type Corretor,
  type FotoGerada,
  type ImovelCompleto,
  type Proprietario,
} from './tipos.ts';
