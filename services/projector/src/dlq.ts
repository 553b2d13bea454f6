// The dead-letter topics: how the projector creates them, what a dead letter carries, and what a
// rebuild reads back so as not to send a rejection twice (decision 0006).
import { BYTES_DO_LOTE, bytesNoLote, textoDoCabecalho, type ClienteKafka, type DefinicaoTopico, type Mensagem, type Produtor, type LogKafka } from '@imoveis/kafka';
import type { Logger } from 'pino';
import type { Rejeicao } from './processar-lote.ts';

export const topicoDlq = (topico: string): string => `${topico}.dlq`;

/**
 * Room a dead letter has beyond the largest record its source topic accepts: for the headers it
 * gains. A copy of a record at its topic's size limit would otherwise be refused, and the
 * projector would stop on that event at every restart.
 */
const FOLGA_DA_DLQ = 64 * 1024;

/** Kafka's `max.message.bytes` as a topic describes it (the broker's default when unset). */
const bytesPorMensagemDe = (config: Record<string, string>): number => Number(config['max.message.bytes'] ?? 1_048_588);

/**
 * A dead-letter topic as the projector creates it when missing: every record kept for ever, for
 * inspection and so that a rebuild knows what was sent (docker-compose.yml creates the same), and
 * records up to {@link FOLGA_DA_DLQ} larger than its source topic takes.
 */
const definicaoDlq = (topico: string, bytesDaOrigem: number): DefinicaoTopico => ({
  nome: topicoDlq(topico),
  particoes: 1,
  semExpirar: true,
  bytesPorMensagem: bytesDaOrigem + FOLGA_DA_DLQ,
});

/**
 * Creates the missing dead-letter topics of `origens`, and returns what each dead-letter topic
 * takes per record, made now or long ago (before dead letters had room for their headers). A
 * broker that refuses to describe a topic (an ACL) leaves its default to assume: dead letters
 * are still split to it, and one too large still goes without its value.
 */
export async function prepararDlqs(kafka: ClienteKafka, origens: readonly string[], log: Logger): Promise<Map<string, number>> {
  const bytesDe = async (topico: string): Promise<number> =>
    bytesPorMensagemDe(
      await kafka.descreverTopico(topico).then(
        (t) => t.config,
        (erro: unknown) => {
          log.warn({ err: erro, topico }, 'não foi possível ler max.message.bytes do tópico (ACL de DescribeConfigs?): suposto o padrão do broker');
          return {};
        },
      ),
    );
  await kafka.criarTopicos(await Promise.all(origens.map(async (topico) => definicaoDlq(topico, await bytesDe(topico)))));
  const bytes = new Map<string, number>();
  for (const topico of origens) bytes.set(topicoDlq(topico), await bytesDe(topicoDlq(topico)));
  return bytes;
}

/** The headers a dead letter carries beside the record's own, written and read back by these names. */
const CABECALHOS_DLQ = {
  motivo: 'dlq.motivo',
  detalhe: 'dlq.detalhe',
  topico: 'dlq.topico',
  particao: 'dlq.particao',
  offset: 'dlq.offset',
  rejeitadoEm: 'dlq.rejeitado_em',
  omitido: 'dlq.omitido',
} as const;

/** What a dead letter keeps when nothing else fits: why, where from, when. */
const ESSENCIAIS: ReadonlySet<string> = new Set([CABECALHOS_DLQ.motivo, CABECALHOS_DLQ.topico, CABECALHOS_DLQ.particao, CABECALHOS_DLQ.offset, CABECALHOS_DLQ.rejeitadoEm]);

/** A detail is a sentence; one built from a huge bad value is cut here (the log line has it whole). */
const DETALHE_MAXIMO = 2_000;

const chaveRejeicao = (topico: string, particao: number | string, offset: string, motivo: string): string =>
  [topico, particao, offset, motivo].join('\u0000');

/**
 * The dead letters of one topic in sends its size limit accepts: as many per send as fit, and one
 * too large by itself (a dead-letter topic made before it had room, or a source topic that took
 * larger records) sent without its value, and if still too large without its key, its own headers
 * and the detail too, saying so in `dlq.omitido`: the dead letter still tells what was refused,
 * why and where. One that does not fit even so (a topic taking less than a kilobyte) is dropped,
 * counted in `descartados`, rather than stop the projector at every restart.
 */
export function enviosDaDlq(
  mensagens: readonly Mensagem[],
  bytesPorMensagem: number,
): { envios: Mensagem[][]; omitidos: number; descartados: Mensagem[] } {
  const cabe = (bytes: number) => BYTES_DO_LOTE + bytes <= bytesPorMensagem;
  const envios: Mensagem[][] = [];
  const descartados: Mensagem[] = [];
  let atual: Mensagem[] = [];
  let bytesAtual = 0;
  let omitidos = 0;
  for (const original of mensagens) {
    let mensagem = original;
    let bytes = bytesNoLote(mensagem);
    if (!cabe(bytes)) {
      const omitir = (quais: string, base: Mensagem): Mensagem => ({
        ...base,
        value: null,
        headers: { ...base.headers, [CABECALHOS_DLQ.omitido]: `${quais}: ${bytes} bytes, mais que os ${bytesPorMensagem} do tópico; o original está na origem (dlq.topico, dlq.particao, dlq.offset)` },
      });
      mensagem = omitir('valor', original);
      if (!cabe(bytesNoLote(mensagem))) {
        const essenciais = Object.fromEntries(Object.entries(original.headers ?? {}).filter(([nome]) => ESSENCIAIS.has(nome)));
        mensagem = omitir('valor, chave, cabeçalhos do registro e detalhe', { key: null, value: null, headers: essenciais });
      }
      bytes = bytesNoLote(mensagem);
      if (!cabe(bytes)) {
        descartados.push(original);
        continue;
      }
      omitidos++;
    }
    if (atual.length > 0 && !cabe(bytesAtual + bytes)) {
      envios.push(atual);
      atual = [];
      bytesAtual = 0;
    }
    atual.push(mensagem);
    bytesAtual += bytes;
  }
  if (atual.length > 0) envios.push(atual);
  return { envios, omitidos, descartados };
}

/**
 * Each rejection copied unchanged (key, value, its own headers) to its topic's dead letters, with
 * the reason and where it came from. Resolves once the broker has them all.
 */
export async function enviarRejeicoes(
  produtor: Produtor,
  rejeicoes: readonly Rejeicao[],
  opcoes: {
    agora: () => number;
    /** The dead-letter topic's `max.message.bytes`. */
    bytesPorMensagem: (topicoDlq: string) => number;
    jaNaDlq?: (rejeicao: Rejeicao) => boolean;
    log?: Pick<LogKafka, 'warn' | 'error'>;
    /** Counts the dead letters sent without their value, and those not sent at all. */
    contarIncompletas?: (topicoDlq: string, como: 'sem-valor' | 'descartada', quantas: number) => void;
  },
): Promise<void> {
  const porTopico = new Map<string, Rejeicao[]>();
  for (const r of rejeicoes) {
    if (opcoes.jaNaDlq?.(r)) continue;
    const lista = porTopico.get(r.topico);
    if (lista) lista.push(r);
    else porTopico.set(r.topico, [r]);
  }
  for (const [topico, lista] of porTopico) {
    const destino = topicoDlq(topico);
    const { envios, omitidos, descartados } = enviosDaDlq(
      lista.map((r) => ({
        key: r.mensagem.key,
        value: r.mensagem.value,
        headers: {
          ...r.mensagem.headers,
          [CABECALHOS_DLQ.motivo]: r.motivo,
          [CABECALHOS_DLQ.detalhe]: r.detalhe.length > DETALHE_MAXIMO ? `${r.detalhe.slice(0, DETALHE_MAXIMO)}…` : r.detalhe,
          [CABECALHOS_DLQ.topico]: r.topico,
          [CABECALHOS_DLQ.particao]: String(r.particao),
          [CABECALHOS_DLQ.offset]: r.mensagem.offset,
          [CABECALHOS_DLQ.rejeitadoEm]: new Date(opcoes.agora()).toISOString(),
        },
      })),
      opcoes.bytesPorMensagem(destino),
    );
    if (omitidos > 0) {
      opcoes.contarIncompletas?.(destino, 'sem-valor', omitidos);
      opcoes.log?.warn({ topico: destino, omitidos }, 'eventos rejeitados maiores que o tópico de dead letters aceita: enviados sem o valor (ver dlq.omitido)');
    }
    if (descartados.length > 0) opcoes.contarIncompletas?.(destino, 'descartada', descartados.length);
    for (const d of descartados) {
      const onde = (nome: string) => String(d.headers?.[nome]);
      opcoes.log?.error(
        { topico: destino, origem: onde(CABECALHOS_DLQ.topico), particao: onde(CABECALHOS_DLQ.particao), offset: onde(CABECALHOS_DLQ.offset), motivo: onde(CABECALHOS_DLQ.motivo) },
        `evento rejeitado não cabe em ${destino} nem sem o valor: não foi para a dead-letter (aumente max.message.bytes do tópico)`,
      );
    }
    for (const envio of envios) await produtor.enviar(destino, envio);
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
