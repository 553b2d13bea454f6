// A rebuild: both topics replayed from offset 0 into a new projection file beside the live one,
// then switched in once caught up (decision 0006). The live projection serves until the switch.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import type { TopicoRegistro } from '@imoveis/contracts';
import type { ClienteKafka } from '@imoveis/kafka';
import type { ContextoProjecao } from '@imoveis/domain';
import { EscritorProjecao, ProjecaoDaDemo, apagarProjecao, avisoDeMigracao, ehProjecaoDaDemo, ehTravaOcupada, espiarTopicos, travarReconstrucaoDaProjecao, trocarProjecao, type ResumoTroca } from '@imoveis/projection-store';
import type { Logger } from 'pino';
import { rejeicoesNaDlq } from './dlq.ts';
import { criarProjetor, relogioDoHost, type Projetor } from './projetor.ts';

/**
 * The rebuild's loop measures progress itself (`intervaloMs`); the projector's own timer inside it
 * only keeps up the WAL checkpoint that timer drives, and no API reads this file meanwhile.
 */
const INTERVALO_FRESCOR_NA_RECONSTRUCAO_MS = 60_000;

export interface OpcoesReconstrucao {
  kafka: ClienteKafka;
  caminhoLive: string;
  contexto: ContextoProjecao;
  threadsDePreparo?: number;
  atrasoParaAdiarSincronia?: number;
  /**
   * The live projector's group. The rebuild reads from offset 0 in a group of its own, new each
   * time, named after this one (offsets live in the file, whatever a group committed: decision 0004).
   */
  grupoDoProjetor: string;
  topicos: { imoveis: string; condominios: string };
  log: Logger;
  agora?: () => number;
  /** How often progress is measured and logged; 1 s unless told (`pnpm run rebuild` logs every 5 s). */
  intervaloMs?: number;
  /**
   * Aborting it stops the rebuild before the switch, its file deleted (Ctrl-C, SIGTERM). It is
   * looked at between steps: a step under way (the consumer joining its group, a freshness check)
   * ends first, except the first read of Kafka, where unreachable brokers are retried for minutes.
   */
  sinal?: AbortSignal;
  /** Called just before the switch, which nothing interrupts once begun. */
  aoTrocar?: () => void;
}

/** Stopped by its caller before the switch: the live projection was not touched. */
export class ReconstrucaoInterrompida extends Error {
  override readonly name = 'ReconstrucaoInterrompida';
  readonly code = 'RECONSTRUCAO_INTERROMPIDA';
  constructor() {
    super('reconstrução interrompida antes da troca: a projeção viva não foi tocada');
  }
}

/**
 * The rebuild was given a topic the live projection never read while it reads another in its
 * place (a mistyped or staging topic): switched in, it would leave the live projection's rows
 * unseen and send the live projector back to replay its own topics from their start.
 */
export class TopicosDiferentesDaProjecao extends Error {
  override readonly name = 'TopicosDiferentesDaProjecao';
  readonly code = 'TOPICOS_DIFERENTES_DA_PROJECAO';
  readonly estranhos: ReadonlyArray<{ qual: TopicoRegistro; topico: string }>;
  readonly lidosPelaLive: readonly string[];
  /** Whose reading says so: the live file's offsets, or the running projector's group. */
  constructor(estranhos: TopicosDiferentesDaProjecao['estranhos'], lidosPelaLive: readonly string[], quem = 'a projeção viva') {
    super(`${quem} lê ${lidosPelaLive.join(', ')}, não ${estranhos.map((e) => e.topico).join(', ')}`);
    this.estranhos = estranhos;
    this.lidosPelaLive = lidosPelaLive;
  }
}

/**
 * The rebuild caught up without seeing one property while the live projection holds some: an
 * empty or wrong topic, or the two settings swapped (every event then goes to the dead letters).
 * Switched in, it would keep every live row unseen and send the live projector back to replay.
 */
export class ReconstrucaoSemImoveis extends Error {
  override readonly name = 'ReconstrucaoSemImoveis';
  readonly code = 'RECONSTRUCAO_SEM_IMOVEIS';
  readonly topico: string;
  constructor(topico: string) {
    super(`a reconstrução não viu nenhum imóvel em ${topico}, e a projeção viva tem imóveis: nada foi trocado`);
    this.topico = topico;
  }
}

/**
 * Which of the rebuild's topics stand where the live projection reads another: those it holds no
 * offsets for, when it holds offsets for a topic the rebuild does not read. A topic the live
 * projection has not read yet is no mismatch by itself (a register with no condominiums so far),
 * nor is a topic it no longer reads (moved to new topics, the old offsets stay until a switch).
 */
export function topicosEstranhos(
  lidosPelaLive: readonly string[],
  topicos: OpcoesReconstrucao['topicos'],
): TopicosDiferentesDaProjecao['estranhos'] {
  const daReconstrucao = new Set(Object.values(topicos));
  if (lidosPelaLive.every((t) => daReconstrucao.has(t))) return [];
  const lidos = new Set(lidosPelaLive);
  return foraDe(lidos, topicos);
}

const foraDe = (lidos: ReadonlySet<string>, topicos: OpcoesReconstrucao['topicos']): TopicosDiferentesDaProjecao['estranhos'] =>
  (['imoveis', 'condominios'] as const).filter((qual) => !lidos.has(topicos[qual])).map((qual) => ({ qual, topico: topicos[qual] }));

/**
 * Which of the rebuild's topics the running projector does not read (its group's members say
 * which they read): the live file's offsets cannot tell a move to new topics from a rebuild given
 * the former ones, nor a new topic the projector has read nothing from yet. Nothing when no
 * projector runs.
 */
export function topicosForaDoProjetor(lidosAgora: readonly string[] | null, topicos: OpcoesReconstrucao['topicos']): TopicosDiferentesDaProjecao['estranhos'] {
  return lidosAgora === null ? [] : foraDe(new Set(lidosAgora), topicos);
}

function seInterrompida(sinal: AbortSignal | undefined): void {
  if (sinal?.aborted) throw new ReconstrucaoInterrompida();
}

/**
 * `promessa`, or a ReconstrucaoInterrompida as soon as `sinal` is aborted, whichever comes first.
 * The work behind `promessa` goes on to its end unobserved: only for work that ends by itself.
 */
function ate<T>(sinal: AbortSignal | undefined, promessa: Promise<T>): Promise<T> {
  if (sinal === undefined) return promessa;
  promessa.catch(() => undefined); // its failure no longer matters once interrupted
  return new Promise<T>((resolve, reject) => {
    const interromper = () => reject(new ReconstrucaoInterrompida());
    if (sinal.aborted) return interromper();
    sinal.addEventListener('abort', interromper, { once: true });
    promessa.then(resolve, reject).finally(() => sinal.removeEventListener('abort', interromper));
  });
}

export async function reconstruir(opcoes: OpcoesReconstrucao): Promise<ResumoTroca> {
  const caminhoNovo = `${opcoes.caminhoLive}.reconstrucao`;
  // Refused now, not at the switch after the whole replay (which would refuse it too).
  if (ehProjecaoDaDemo(opcoes.caminhoLive)) throw new ProjecaoDaDemo(opcoes.caminhoLive);
  // One rebuild at a time: a second would delete the first's file under it.
  const trava = travarReconstrucaoDaProjecao(opcoes.caminhoLive);
  try {
    return await reconstruirEm(caminhoNovo, opcoes);
  } finally {
    trava.liberar();
  }
}

/** Where the groups of a projector's rebuilds are named: `<group>.rebuild.<start, epoch ms>`. */
export const prefixoDosGruposDeReconstrucao = (grupoDoProjetor: string): string => `${grupoDoProjetor}.rebuild.`;

/**
 * Deletes the groups left behind by this projector's earlier rebuilds, interrupted before they
 * could delete their own: empty ones only, so a rebuild under way elsewhere keeps its group.
 */
async function apagarGruposAbandonados(opcoes: OpcoesReconstrucao): Promise<void> {
  const { kafka, log } = opcoes;
  const grupos = await kafka.grupos(prefixoDosGruposDeReconstrucao(opcoes.grupoDoProjetor)).catch((erro: unknown) => {
    log.warn({ err: erro }, 'não foi possível listar os grupos de reconstruções interrompidas');
    return [];
  });
  for (const { id } of grupos.filter((g) => g.estado === 'Empty')) {
    await kafka.apagarGrupo(id).then(
      () => log.info({ grupo: id }, 'grupo deixado por uma reconstrução interrompida: apagado'),
      // A member joined it meanwhile, or the broker refused: the next rebuild tries again.
      (erro: unknown) => log.warn({ err: erro, grupo: id }, 'não foi possível apagar o grupo de uma reconstrução interrompida'),
    );
  }
}

/**
 * The topics to replay are the live projection's: the running projector's group says which it
 * reads; with none running, the live file's offsets say which it has read. A broker that refuses
 * to describe the group (an ACL) leaves the file to say.
 */
async function conferirTopicos(opcoes: OpcoesReconstrucao): Promise<void> {
  const { log } = opcoes;
  const lidosAgora = await opcoes.kafka.topicosDoGrupo(opcoes.grupoDoProjetor).catch((erro: unknown) => {
    log.warn({ err: erro, grupo: opcoes.grupoDoProjetor }, 'não foi possível saber que tópicos o projetor em curso lê (ACL de Describe no grupo?): conferidos pelos offsets da projeção viva');
    return null;
  });
  if (lidosAgora !== null) {
    log.info({ grupo: opcoes.grupoDoProjetor, topicos: lidosAgora }, 'tópicos conferidos com os que o projetor em curso lê');
    const fora = topicosForaDoProjetor(lidosAgora, opcoes.topicos);
    if (fora.length > 0) throw new TopicosDiferentesDaProjecao(fora, lidosAgora, `o projetor em curso (grupo ${opcoes.grupoDoProjetor})`);
  } else {
    log.info({ grupo: opcoes.grupoDoProjetor }, 'nenhum projetor em curso no grupo (ou em rebalanceamento): tópicos conferidos pelos offsets da projeção viva');
    const lidosPelaLive = espiarTopicos(opcoes.caminhoLive);
    const estranhos = topicosEstranhos(lidosPelaLive, opcoes.topicos);
    if (estranhos.length > 0) throw new TopicosDiferentesDaProjecao(estranhos, lidosPelaLive);
  }
}

/** Messages still to consume at one progress check, and when (ms). */
export interface MedidaDoAtraso {
  atraso: number;
  em: number;
}

/**
 * The pace between two progress checks (messages consumed per second, net of those the register
 * sent meanwhile) and the seconds left at it; null while there is no earlier check or no progress.
 */
export function ritmoDaReconstrucao(anterior: MedidaDoAtraso | null, atual: MedidaDoAtraso): { mensagensPorSegundo: number | null; restamSegundos: number | null } {
  const segundos = anterior === null ? 0 : (atual.em - anterior.em) / 1000;
  const consumidas = anterior === null ? 0 : anterior.atraso - atual.atraso;
  if (segundos <= 0 || consumidas <= 0) return { mensagensPorSegundo: null, restamSegundos: null };
  const porSegundo = consumidas / segundos;
  return { mensagensPorSegundo: Math.round(porSegundo), restamSegundos: Math.ceil(atual.atraso / porSegundo) };
}

/**
 * Until the rebuild's projector has caught up: everything the topics held at the previous check is
 * applied (a register that never pauses never shows a lag of exactly 0). Each check says how much
 * is left, at what pace and for how long.
 */
async function esperarEmDia(projetor: Projetor, estado: { falha: Error | null }, opcoes: OpcoesReconstrucao, agora: () => number): Promise<void> {
  const { log, sinal } = opcoes;
  let verificacaoAnterior = Number.POSITIVE_INFINITY;
  let medidaAnterior: MedidaDoAtraso | null = null;
  for (;;) {
    if (estado.falha) throw estado.falha;
    const verificacao = agora();
    const { atraso, emDiaEm } = await projetor.medirFrescor();
    seInterrompida(sinal);
    if (atraso === 0 || (emDiaEm !== null && emDiaEm >= verificacaoAnterior)) break;
    verificacaoAnterior = verificacao;
    // As of when the lag was sampled, not when the check returned (slow brokers would skew the pace).
    const medida = { atraso, em: verificacao };
    log.info({ atraso, ...ritmoDaReconstrucao(medidaAnterior, medida) }, 'reconstruindo: mensagens ainda por consumir');
    medidaAnterior = medida;
    await esperar(opcoes.intervaloMs ?? 1_000, undefined, sinal ? { signal: sinal } : {}).catch(() => seInterrompida(sinal));
  }
}

/**
 * How many times the switch waits SQLite's busy timeout (5 s) for the live projector's write lock:
 * a batch or a fan-out page on a slow disk may hold it longer, and giving up would throw the
 * whole replay away.
 */
const ESPERAS_PELA_TRAVA = 12;

function trocarEsperandoATrava(live: EscritorProjecao, caminhoNovo: string, agora: () => number, log: Logger): ResumoTroca {
  for (let espera = 1; ; espera++) {
    try {
      return trocarProjecao(live, caminhoNovo, agora);
    } catch (erro) {
      if (!ehTravaOcupada(erro) || espera >= ESPERAS_PELA_TRAVA) throw erro;
      log.warn({ espera, de: ESPERAS_PELA_TRAVA }, 'a projeção viva está com a trava de escrita ocupada: esperando para trocar');
    }
  }
}

async function reconstruirEm(caminhoNovo: string, opcoes: OpcoesReconstrucao): Promise<ResumoTroca> {
  const { log, sinal } = opcoes;
  // One clock for the replay's stamps, its freshness checks and the switch's stamp.
  const agora = opcoes.agora ?? relogioDoHost();
  const groupId = `${prefixoDosGruposDeReconstrucao(opcoes.grupoDoProjetor)}${Date.now()}`;
  const apagarNovo = () => {
    apagarProjecao(caminhoNovo);
  };
  apagarNovo();

  // The live projector sent these already; a replay would send them all again. Kafka's first use:
  // unreachable brokers are retried here for minutes, so an interruption does not wait for it (the
  // read stops by itself, at the latest after its own time limit).
  const jaNaDlq = await ate(sinal, rejeicoesNaDlq(opcoes.kafka, Object.values(opcoes.topicos)));
  await ate(sinal, conferirTopicos(opcoes));
  await ate(sinal, apagarGruposAbandonados(opcoes));
  // Which file is rebuilt, said before the replay: a mistyped DATABASE_PATH would replay for
  // hours into a new file beside the real one.
  const projecao = resolve(opcoes.caminhoLive);
  if (existsSync(projecao)) log.info({ projecao }, `relendo os tópicos para a projeção ${projecao}`);
  else log.warn({ projecao }, `nenhuma projeção em ${projecao}: a reconstrução a criará (confira DATABASE_PATH se ela deveria existir)`);
  const novo = EscritorProjecao.abrir(caminhoNovo);
  const estado: { falha: Error | null } = { falha: null };
  const projetor = criarProjetor({
    kafka: opcoes.kafka,
    escritor: novo,
    contexto: opcoes.contexto,
    ...(opcoes.threadsDePreparo === undefined ? {} : { threadsDePreparo: opcoes.threadsDePreparo }),
    ...(opcoes.atrasoParaAdiarSincronia === undefined ? {} : { atrasoParaAdiarSincronia: opcoes.atrasoParaAdiarSincronia }),
    groupId,
    topicos: opcoes.topicos,
    jaNaDlq,
    log,
    agora,
    intervaloFrescorMs: INTERVALO_FRESCOR_NA_RECONSTRUCAO_MS,
    aoFalhar: (erro) => {
      estado.falha = erro;
    },
  });
  let entrouNoGrupo = false;
  try {
    await projetor.iniciar();
    entrouNoGrupo = true;
    seInterrompida(sinal);
    // The projector's clock: the instants it records are compared with this one's readings.
    await esperarEmDia(projetor, estado, opcoes, agora);
    await projetor.parar();
    const viuImoveis = novo.viuImoveis();
    novo.close();
    seInterrompida(sinal);

    const live = EscritorProjecao.abrir(opcoes.caminhoLive, { aoMigrar: (de, para) => log.info({ de, para, banco: opcoes.caminhoLive }, avisoDeMigracao(de, para)) });
    try {
      if (!viuImoveis && live.viuImoveis()) throw new ReconstrucaoSemImoveis(opcoes.topicos.imoveis);
      // Synchronous, one transaction: signals wait until it is over.
      opcoes.aoTrocar?.();
      log.info('trocando a projeção: só o que mudou é escrito (meio minuto por milhão de imóveis, minutos se quase tudo mudou)');
      const inicio = performance.now();
      const resumo = trocarEsperandoATrava(live, caminhoNovo, agora, log);
      // How long the write lock was held: the live projector waited, and readiness may have lapsed.
      log.info({ ...resumo, trocaMs: Math.round(performance.now() - inicio) }, 'projeção reconstruída e trocada');
      return resumo;
    } finally {
      live.close();
    }
  } finally {
    await projetor.parar();
    novo.close();
    apagarNovo();
    // The rebuild's group (a new one each time, its offsets committed for lag tooling) would
    // otherwise stay on the broker, one more per rebuild. Not waited for once interrupted: the
    // next rebuild deletes it.
    if (entrouNoGrupo) {
      await ate(sinal, opcoes.kafka.apagarGrupo(groupId)).catch((erro: unknown) => {
        if (!(erro instanceof ReconstrucaoInterrompida)) log.warn({ err: erro, grupo: groupId }, 'não foi possível apagar o grupo da reconstrução');
      });
    }
  }
}
