// Sends generated records to Kafka in batches through the workspace's producer.
import type { Mensagem, Produtor as ProdutorKafka } from '@imoveis/kafka';
import type { RegistroBruto } from '@imoveis/contracts';

/**
 * The one producer method used here, taken from @imoveis/kafka's producer so the two cannot
 * drift; a plain object with `enviar` does too (tests need no broker).
 */
export type Produtor = Pick<ProdutorKafka, 'enviar'>;

export interface TopicosKafka {
  imoveis: string;
  condominios: string;
}

export interface OpcoesEnvio {
  /** Messages per `enviar` call, per topic. Default 500. */
  loteTamanho?: number;
}

export interface ResultadoEnvio {
  mensagens: number;
  lotes: number;
}

/**
 * Sends every record to its topic, `loteTamanho` messages per call. Each topic's records keep
 * their order (and with them every key's order); the two topics are not ordered against each
 * other, which the contract allows. Batches are sent one at a time, so a failure stops the run
 * with everything before it sent.
 */
export async function enviarParaKafka(
  registros: Iterable<RegistroBruto> | AsyncIterable<RegistroBruto>,
  produtor: Produtor,
  topicos: TopicosKafka,
  opcoes: OpcoesEnvio = {},
): Promise<ResultadoEnvio> {
  const loteTamanho = opcoes.loteTamanho ?? 500;
  if (!Number.isSafeInteger(loteTamanho) || loteTamanho < 1) throw new RangeError(`loteTamanho deve ser um inteiro >= 1, recebido ${loteTamanho}`);
  const lotes: Record<RegistroBruto['topico'], Mensagem[]> = { imoveis: [], condominios: [] };
  const resultado: ResultadoEnvio = { mensagens: 0, lotes: 0 };

  const descarregar = async (topico: RegistroBruto['topico']): Promise<void> => {
    const lote = lotes[topico];
    if (lote.length === 0) return;
    lotes[topico] = [];
    await produtor.enviar(topicos[topico], lote);
    resultado.mensagens += lote.length;
    resultado.lotes++;
  };

  for await (const r of registros) {
    const lote = lotes[r.topico];
    lote.push({ key: r.chave, value: r.valor });
    if (lote.length >= loteTamanho) await descarregar(r.topico);
  }
  await descarregar('imoveis');
  await descarregar('condominios');
  return resultado;
}
