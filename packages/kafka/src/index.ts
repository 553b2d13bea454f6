// The project's only door to Kafka. Everything else talks to these small interfaces, so the
// client library (kafkajs today) can be replaced here alone. See docs/decisions/0003-kafka-client.md.
export { cabecalhosParaEnvio, textoDoCabecalho, type Cabecalhos } from './cabecalhos.ts';
export { criarClienteKafka, ehKafkaInacessivel, kafkaInacessivel } from './cliente.ts';
export { BYTES_DO_LOTE, bytesNoLote } from './tamanho.ts';
export {
  chaveParticao,
  rotuloDaParticao,
  SESSAO_PADRAO_MS,
  type ClienteKafka,
  type Consumidor,
  type DefinicaoTopico,
  type Lote,
  type Mensagem,
  type MensagemRecebida,
  type OpcoesCliente,
  type OpcoesConsumidor,
  type ParticaoTopico,
  type Produtor,
  type LogKafka,
} from './tipos.ts';
