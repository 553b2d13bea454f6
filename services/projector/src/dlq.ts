// The dead-letter topics: how the projector creates them, what a dead letter carries, and what a
// rebuild reads back so as not to send a rejection twice (decision 0006).
import { textoDoCabecalho, type ClienteKafka, type DefinicaoTopico, type Produtor } from '@imoveis/kafka';
import type { Rejeicao } from './processar-lote.ts';

export const topicoDlq = (topico: string): string => `${topico}.dlq`;

/**
 * A dead-letter topic as the projector creates it when missing: every record kept for ever, for
 * inspection and so that a rebuild knows what was sent (docker-compose.yml creates the same).
 */
export const definicaoDlq = (topico: string): DefinicaoTopico => ({ nome: topicoDlq(topico), particoes: 1, semExpirar: true });

/** The headers a dead letter carries beside the record's own, written and read back by these names. */
const CABECALHOS_DLQ = {
  motivo: 'dlq.motivo',
  detalhe: 'dlq.detalhe',
  topico: 'dlq.topico',
  particao: 'dlq.particao',
  offset: 'dlq.offset',
  rejeitadoEm: 'dlq.rejeitado_em',
} as const;

const chaveRejeicao = (topico: string, particao: number | string, offset: string, motivo: string): string =>
  [topico, particao, offset, motivo].join('\u0000');

/**
 * Each rejection copied unchanged (key, value, its own headers) to its topic's dead letters, with
 * the reason and where it came from. Resolves once the broker has them all.
 */
export async function enviarRejeicoes(
  produtor: Produtor,
  rejeicoes: readonly Rejeicao[],
  opcoes: { agora: () => number; jaNaDlq?: (rejeicao: Rejeicao) => boolean },
): Promise<void> {
  const porTopico = new Map<string, Rejeicao[]>();
  for (const r of rejeicoes) {
    if (opcoes.jaNaDlq?.(r)) continue;
    const lista = porTopico.get(r.topico);
    if (lista) lista.push(r);
    else porTopico.set(r.topico, [r]);
  }
  for (const [topico, lista] of porTopico) {
    await produtor.enviar(
      topicoDlq(topico),
      lista.map((r) => ({
        key: r.mensagem.key,
        value: r.mensagem.value,
        headers: {
          ...r.mensagem.headers,
          [CABECALHOS_DLQ.motivo]: r.motivo,
          [CABECALHOS_DLQ.detalhe]: r.detalhe,
          [CABECALHOS_DLQ.topico]: r.topico,
          [CABECALHOS_DLQ.particao]: String(r.particao),
          [CABECALHOS_DLQ.offset]: r.mensagem.offset,
          [CABECALHOS_DLQ.rejeitadoEm]: new Date(opcoes.agora()).toISOString(),
        },
      })),
    );
  }
}

/**
 * What the dead-letter topics of `topicos` already hold, read up to their ends now: a rebuild
 * replaying the topics sends only the rejections nobody sent before (a changed rule may reject
 * an event anew, or for another reason: that one is sent).
 */
export async function rejeicoesNaDlq(kafka: ClienteKafka, topicos: readonly string[]): Promise<(rejeicao: Rejeicao) => boolean> {
  const enviadas = new Set<string>();
  for (const topico of topicos) {
    await kafka.lerTopico(topicoDlq(topico), ({ headers }) => {
      const ler = (nome: string) => textoDoCabecalho(headers, nome);
      const [origem, particao, offset, motivo] = [ler(CABECALHOS_DLQ.topico), ler(CABECALHOS_DLQ.particao), ler(CABECALHOS_DLQ.offset), ler(CABECALHOS_DLQ.motivo)];
      if (origem && particao && offset && motivo) enviadas.add(chaveRejeicao(origem, particao, offset, motivo));
    });
  }
  return (r) => enviadas.has(chaveRejeicao(r.topico, r.particao, r.mensagem.offset, r.motivo));
}
