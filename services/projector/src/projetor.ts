// Wires Kafka to the projection: the consumer group, the dead-letter producer (dlq.ts), and the freshness
// record the API reads to tell a caught-up projection over a quiet register from a stalled one.
import type { Agregado } from '@imoveis/contracts';
import { VERSAO_DAS_REGRAS, relogioQueNaoRecua, type ContextoProjecao } from '@imoveis/domain';
import { SESSAO_PADRAO_MS, chaveParticao, type ClienteKafka, type Consumidor, type Produtor } from '@imoveis/kafka';
import { ehFalhaDeArmazenamento, type EscritorProjecao } from '@imoveis/projection-store';
import type { Logger } from 'pino';
import { ATRASO_PARA_ADIAR_SINCRONIA, INTERVALO_FRESCOR_PADRAO_MS } from './config.ts';
import { enviarRejeicoes, prepararDlqs } from './dlq.ts';
import type { MetricasProjetor } from './metricas.ts';
import { vigiarAtribuicao } from './atribuicao.ts';
import { criarAjusteDeSincronia, criarMedidorDeFrescor } from './frescor.ts';
import { criarAvancoSobreMarcadores } from './marcadores.ts';
import { criarExclusao, processarLote, type Rejeicao } from './processar-lote.ts';
import { criarPreparador, type Preparador } from './preparo-em-threads.ts';

export interface OpcoesProjetor {
  kafka: ClienteKafka;
  escritor: EscritorProjecao;
  contexto: ContextoProjecao;
  /** Threads that decode and map events while the main thread writes (0: on the main thread). */
  threadsDePreparo?: number;
  groupId: string;
  topicos: { imoveis: string; condominios: string };
  log: Logger;
  metricas?: MetricasProjetor;
  agora?: () => number;
  intervaloFrescorMs?: number;
  /** Messages behind above which commits skip fsync (default `ATRASO_PARA_ADIAR_SINCRONIA`; 0: never). */
  atrasoParaAdiarSincronia?: number;
  /** The consumer group's session timeout (see `OpcoesConsumidor.sessaoMs`). */
  sessaoKafkaMs?: number;
  /** Rejections already in the dead-letter topic, not sent again (a rebuild: see `rejeicoesNaDlq`). */
  jaNaDlq?: (rejeicao: Rejeicao) => boolean;
  /**
   * Called when consuming cannot go on: the consumer gave up for good, or the projection file
   * cannot be written (disk full, I/O error). The process should exit non-zero.
   */
  aoFalhar(erro: Error): void;
}

export interface Projetor {
  iniciar(): Promise<void>;
  /**
   * Measures the lag now and records it (also done every `intervaloFrescorMs`): messages still to
   * consume, and the instant the projection is caught up as of (null: never). On the way, the
   * lag decides whether fsync is deferred, and a rebuild switched in is followed.
   */
  medirFrescor(): Promise<{ atraso: number; emDiaEm: number | null }>;
  /**
   * Finishes the batch in hand, then leaves the group. The batch is applied in transactions of at
   * most TAMANHO_PEDACO messages, each committed whole or not at all with its offset: a process
   * killed in between resumes from the last one committed. One waiting for another process's
   * write lock (a rebuild's switch) stops there: the rest is fetched again at the next start.
   */
  parar(): Promise<void>;
}

/**
 * The register topics are not on the brokers: a wrong name, or a register that has not created
 * them yet. Subscribing would fail after kafkajs's retries with a line that names neither.
 */
export class TopicosAusentes extends Error {
  override readonly name = 'TopicosAusentes';
  readonly code = 'TOPICOS_AUSENTES';
  readonly topicos: readonly string[];
  constructor(topicos: readonly string[]) {
    super(`tópicos ausentes no Kafka: ${topicos.join(', ')}`);
    this.topicos = topicos;
  }
}

/** Throws {@link TopicosAusentes} when any of `topicos` is not on the brokers (Kafka's retries spent: its own error). */
export async function exigirTopicos(kafka: ClienteKafka, topicos: readonly string[]): Promise<void> {
  const ausentes = await kafka.topicosAusentes(topicos);
  if (ausentes.length > 0) throw new TopicosAusentes(ausentes);
}

/** The host's clock, but never stepping back: what stamps the instants partners filter on. */
export const relogioDoHost = (): (() => number) => relogioQueNaoRecua(Date.now, () => performance.now());

export function criarProjetor(opcoes: OpcoesProjetor): Projetor {
  const { kafka, escritor, log } = opcoes;
  const agora = opcoes.agora ?? relogioDoHost();
  const agregados = new Map<string, Agregado>([
    [opcoes.topicos.imoveis, 'imovel'],
    [opcoes.topicos.condominios, 'condominio'],
  ]);
  let produtor: Produtor | null = null;
  let preparador: Preparador | null = null;
  const exclusivo = criarExclusao();
  let consumidor: Consumidor | null = null;
  let parando = false;
  let temporizador: NodeJS.Timeout | null = null;
  let checkpoints = 0;

  // Far behind Kafka, commits skip fsync; back in step, they are durable again (decision 0007).
  const sincronia = criarAjusteDeSincronia(escritor, opcoes.atrasoParaAdiarSincronia ?? ATRASO_PARA_ADIAR_SINCRONIA, log);

  let bytesDasDlqs = new Map<string, number>();
  const enviarParaDlq = (rejeicoes: readonly Rejeicao[]): Promise<void> =>
    enviarRejeicoes(produtor!, rejeicoes, {
      agora,
      bytesPorMensagem: (topico) => bytesDasDlqs.get(topico)!,
      log,
      contarIncompletas: (topico, como, quantas) => opcoes.metricas?.deadLettersIncompletas.inc({ topico, como }, quantas),
      ...(opcoes.jaNaDlq ? { jaNaDlq: opcoes.jaNaDlq } : {}),
    });

  const atribuicao = vigiarAtribuicao({ log, grupo: opcoes.groupId, sessaoMs: opcoes.sessaoKafkaMs ?? SESSAO_PADRAO_MS });

  const frescor = criarMedidorDeFrescor({
    kafka,
    escritor,
    topicos: [...agregados.keys()],
    agora,
    log,
    metricas: opcoes.metricas,
    sincronia,
    aoLerFins: (chaves, amostradoEm) => atribuicao.conferir(chaves, amostradoEm),
  });

  const medirFrescor = async (): Promise<{ atraso: number; emDiaEm: number | null }> => {
    // A rebuild switched in: follow it now, not at the next batch, which a quiet register may
    // never send (until then the switch undid what was applied after the rebuild caught up).
    if (escritor.geracao() !== geracaoAtribuida) reiniciarConsumidor();
    // A switch the join followed before its rules were checked, on a register too quiet to send a batch.
    else if (geracaoConferida !== null && geracaoConferida !== geracaoAtribuida) await conferirRegras();
    return frescor.medir(escritor.geracao());
  };

  // The batch's transaction was rolled back; the failure is thrown on (kafkajs does not resolve
  // the batch) and reported once, for the process to exit rather than retry against a dead disk.
  let falhouArmazenamento = false;
  const falharSeArmazenamento = (erro: unknown): never => {
    if (ehFalhaDeArmazenamento(erro) && !falhouArmazenamento) {
      falhouArmazenamento = true;
      opcoes.aoFalhar(erro);
    }
    throw erro;
  };

  // The projection's generation when the partitions were assigned: a rebuild switched in since
  // then means the stored offsets moved, so the consumer re-joins to seek to them.
  let geracaoAtribuida = escritor.geracao();
  // The generation whose mapping rules were last checked (conferirRegras): a switch landing after
  // the check, even before the first join, is checked again before any batch writes beside it.
  let geracaoConferida: number | null = null;
  /** The generation whose rules were last said to differ from this code's: said once each. */
  let geracaoAvisada: number | null = null;
  let reiniciando: Promise<void> | null = null;
  const marcadores = criarAvancoSobreMarcadores(escritor, {
    parando: () => parando,
    aoEsperar: () => log.warn('projeção travada por outro processo (uma reconstrução trocando?): esperando para avançar sobre marcadores de transação'),
    aoFalhar: (erro) => {
      try {
        falharSeArmazenamento(erro);
      } catch {
        log.warn({ err: erro }, 'não foi possível avançar o offset sobre marcadores de transação');
      }
    },
  });

  const conectar = async (): Promise<void> => {
    // The generation this consumer's partitions were assigned on: what its batches and ends are
    // written to, whatever a consumer joining later (after a close whose wait ran out) assigns.
    let geracaoDoConsumidor = escritor.geracao();
    const novo = kafka.criarConsumidor({
      groupId: opcoes.groupId,
      // Fetches of a few thousand events: fewer, larger transactions and chunks to overlap.
      bytesPorParticao: 3 * 1_048_576,
      // While one partition's batch is written, the others' are prepared (writes stay serial).
      particoesSimultaneas: 3,
      ...(opcoes.sessaoKafkaMs === undefined ? {} : { sessaoMs: opcoes.sessaoKafkaMs }),
      topicos: [...agregados.keys()],
      aoAtribuir: (particoes) => {
        // One line per (re)join: more than one per start means the group rebalanced.
        log.info({ particoes: particoes.map((p) => `${p.topico}/${p.particao}`) }, 'partições atribuídas');
        atribuicao.atribuir(particoes.map((p) => chaveParticao(p.topico, p.particao)));
        geracaoAtribuida = geracaoDoConsumidor = escritor.geracao();
        return new Map(escritor.offsets().map((o) => [chaveParticao(o.topico, o.particao), o.proximo]));
      },
      aoLote: async (lote) => {
        // A batch of a consumer already replaced (its close gave up waiting): what it fetched is
        // the replacement's to fetch again, and it must not restart the replacement.
        if (consumidor !== novo) return;
        const geracao = geracaoDoConsumidor;
        const mesmaGeracao = () => escritor.geracao() === geracao;
        // A switch the join already followed (it landed after the start's check of the rules):
        // its rules are checked before this code writes beside them, heartbeating meanwhile.
        if (geracaoConferida !== geracao && mesmaGeracao()) await conferirRegras(() => lote.heartbeat()).catch(falharSeArmazenamento);
        if (!mesmaGeracao() || geracaoConferida !== geracao) {
          reiniciarConsumidor();
          return;
        }
        const primeira = lote.mensagens[0];
        if (primeira) {
          sincronia.registrar(chaveParticao(lote.topico, lote.particao), Math.max(0, Number(BigInt(lote.fimDaParticao) - BigInt(primeira.offset))));
          sincronia.ajustar();
        }
        const inicio = performance.now();
        // Checked again before every transaction: a switch may land while this batch waits its turn.
        const { proximoOffset } = await processarLote({ ...lote, ativo: () => lote.ativo() && mesmaGeracao() }, {
          aindaNaTransacao: mesmaGeracao,
          escritor,
          preparador: preparador!,
          exclusivo,
          agora,
          agregados,
          enviarParaDlq,
          log,
          ...(opcoes.metricas ? { metricas: opcoes.metricas } : {}),
        }).catch(falharSeArmazenamento);
        opcoes.metricas?.duracaoLote.observe((performance.now() - inicio) / 1000);
        if (!mesmaGeracao()) {
          reiniciarConsumidor();
          return;
        }
        if (proximoOffset !== null) {
          // For lag tooling only: the projection already holds the offset. A failure here is harmless.
          await novo
            .commit([{ topico: lote.topico, particao: lote.particao, proximoOffset }])
            .catch((erro: unknown) => log.warn({ err: erro }, 'commit de offset no Kafka falhou; a projeção tem o offset'));
        }
      },
      aoPularSemMensagens: (fim) => marcadores.anotar(fim, geracaoDoConsumidor),
      aoFalhar: (erro) => opcoes.aoFalhar(erro),
    });
    consumidor = novo;
    await novo.iniciar();
  };

  /**
   * Documents stored by other mapping rules than this code's (decision 0011): said at start and
   * after a rebuild's switch. From then on this code's rules write beside them, so the
   * projection's rules become unknown (mixed) until a rebuild of this code records them again.
   * Read and marked under the write lock, before any batch: waiting out a rebuild's switch (this
   * code deployed while a rebuild runs), whose rules are then the ones read.
   */
  const conferirRegras = async (entreTentativas?: () => Promise<void>): Promise<void> => {
    const vistas = await escritor.quandoATravaLivre(
      () =>
        escritor.transacao(() => {
          const regras = escritor.regras();
          if (regras !== null && regras !== VERSAO_DAS_REGRAS) escritor.gravarEstado('regras', null);
          return { regras, geracao: escritor.geracao() };
        }),
      {
        continuar: async () => {
          await entreTentativas?.();
          return !parando;
        },
        aoEsperar: () => log.warn('projeção travada por outro processo (uma reconstrução trocando?): esperando para conferir as regras de mapeamento'),
      },
    );
    if (vistas === null) return;
    geracaoConferida = vistas.geracao;
    const { regras } = vistas;
    // Said once a generation: the checks a switch sets off side by side (the freshness check, each
    // batch, a re-join) find the same rules, or the later ones the mark the first one made.
    if (regras === VERSAO_DAS_REGRAS || geracaoAvisada === vistas.geracao) return;
    geracaoAvisada = vistas.geracao;
    const contexto = { regrasDaProjecao: regras, regrasDoCodigo: VERSAO_DAS_REGRAS };
    if (regras !== null && regras > VERSAO_DAS_REGRAS) {
      log.warn(contexto, 'documentos gravados por regras de mapeamento mais novas que as deste código: uma reconstrução com ele os refaria pelas antigas');
    } else {
      log.warn(contexto, 'documentos gravados por outras regras de mapeamento (mais antigas, misturadas ou não versionadas): `pnpm run rebuild` os refaz pelas deste código');
    }
  };

  /** Leaves the group and joins again (outside the batch in hand, which cannot wait for itself). */
  const reiniciarConsumidor = (): void => {
    if (parando) return;
    reiniciando ??= (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      log.info('a projeção foi trocada por uma reconstrução: reposicionando o consumidor');
      await conferirRegras();
      await consumidor?.close();
      // Stopping meanwhile: the batch in hand is finished; no new member joins only to leave.
      if (!parando) await conectar();
    })()
      .catch((erro: unknown) => {
        if (!parando) opcoes.aoFalhar(erro instanceof Error ? erro : new Error(String(erro)));
      })
      .finally(() => {
        reiniciando = null;
      });
  };

  /**
   * The start, step by step. A stop may come at any of its waits on the brokers (seconds each):
   * each step after one goes on only if none came, and a producer made meanwhile is closed here,
   * so that once `parar` has resolved no member joins the group and no thread starts.
   */
  const iniciarAteParar = async (): Promise<void> => {
    // A killed predecessor's deferral (its marker) is this writer's from now, and so ends once in
    // step or at its close: a stop during the waits below must not leave the marker, which an OS
    // restart would then find and refuse the projection for.
    escritor.retomarSincroniaPendente();
    await conferirRegras();
    if (parando) return;
    // Before the dead-letter topics are made: a mistyped topic would leave its `.dlq` behind.
    await exigirTopicos(kafka, [...agregados.keys()]);
    if (parando) return;
    bytesDasDlqs = await prepararDlqs(kafka, [...agregados.keys()], log);
    if (parando) return;
    const novoProdutor = await kafka.criarProdutor();
    if (parando) return novoProdutor.close();
    produtor = novoProdutor;
    preparador = criarPreparador({
      contexto: opcoes.contexto,
      threads: opcoes.threadsDePreparo ?? 0,
      aoMorrerThread: (erro) => log.warn({ err: erro }, 'uma thread de preparo morreu: substituída; o que ela tinha foi preparado na thread principal'),
    });

    await conectar();
    if (parando) return;
    const intervalo = opcoes.intervaloFrescorMs ?? INTERVALO_FRESCOR_PADRAO_MS;
    let medindo = false;
    const medir = () => {
      // One check at a time: while the brokers are unreachable a check waits minutes, and the
      // ones stacked behind it would record their samples of the ends out of order.
      if (medindo) return;
      medindo = true;
      medirFrescor()
        // A WAL never checkpointed grows without bound while the API's reads keep it busy: folded
        // every sixth check.
        .then(() => {
          if (++checkpoints % 6 === 0) escritor.checkpoint();
        })
        .catch(falharSeArmazenamento)
        // A check a stop overtook (it may wait minutes on the brokers) fails on the writer closed
        // under it: that is the stop, not a fault to report.
        .catch((erro: unknown) => {
          if (!parando) log.warn({ err: erro }, 'não foi possível medir o atraso');
        })
        .finally(() => {
          medindo = false;
        });
    };
    temporizador = setInterval(medir, intervalo);
    medir();
  };

  return {
    async iniciar() {
      try {
        await iniciarAteParar();
      } catch (erro) {
        // A stop meanwhile closed what the start was waiting on (a connection, the group's join).
        if (!parando) throw erro;
      }
    },
    medirFrescor,
    async parar() {
      parando = true;
      if (temporizador) clearInterval(temporizador);
      temporizador = null;
      await reiniciando;
      await consumidor?.close();
      await marcadores.ocioso();
      await produtor?.close();
      await preparador?.close();
      consumidor = null;
      produtor = null;
      preparador = null;
    },
  };
}
