// The project's only door to Kafka. Everything else talks to these small interfaces, so the
// client library (kafkajs today) can be replaced here alone. See docs/decisions/0003-kafka-client.md.
import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners, logLevel as NivelKafkajs, type Admin, type Consumer, type IHeaders, type Producer, type LogEntry } from 'kafkajs';

export interface RegistroLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OpcoesCliente {
  brokers: readonly string[];
  clientId: string;
  /** Where kafkajs' own log lines go; silent when absent. */
  log?: RegistroLog;
  /** Give up connecting after this long (ms); kafkajs retries with backoff meanwhile. */
  tempoConexaoMs?: number;
}

/**
 * A record's headers as kafkajs hands them over: values as bytes (text where we write them; null
 * for a header without a value), a name sent twice keeping every value (kafkajs groups them under
 * the name, and decodes names as UTF-8). Dead letters copy them so.
 */
export type Cabecalhos = Record<string, Buffer | string | null | (Buffer | string | null)[]>;

const VAZIO = Buffer.alloc(0);

/**
 * Headers kafkajs can send: it cannot write a header without a value (null), which another
 * client may have sent, so that one goes as an empty value.
 */
export function cabecalhosParaEnvio(cabecalhos: Cabecalhos): IHeaders {
  const resultado: IHeaders = {};
  const enviavel = (valor: Buffer | string | null): Buffer | string => valor ?? VAZIO;
  for (const [nome, valor] of Object.entries(cabecalhos)) resultado[nome] = Array.isArray(valor) ? valor.map(enviavel) : enviavel(valor);
  return resultado;
}

/** A header's text: its last value, as UTF-8. */
export function textoDoCabecalho(cabecalhos: Cabecalhos, nome: string): string | undefined {
  const valor = cabecalhos[nome];
  const ultimo = Array.isArray(valor) ? valor[valor.length - 1] : valor;
  return ultimo?.toString() ?? undefined;
}

export interface Mensagem {
  key: string | Buffer | null;
  value: string | Buffer | null;
  headers?: Cabecalhos;
}

export interface Produtor {
  enviar(topico: string, mensagens: readonly Mensagem[]): Promise<void>;
  close(): Promise<void>;
}

export interface MensagemRecebida {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Cabecalhos;
}

export interface Lote {
  topico: string;
  particao: number;
  mensagens: readonly MensagemRecebida[];
  /** The partition's high watermark when fetched: the offset the next produced record will get. */
  fimDaParticao: string;
  /**
   * The offset after everything this batch covered: past its last message, and past the records
   * a consumer never sees that may follow it (a transaction's commit marker, aborted records).
   */
  proximoOffset: string;
  /** Tells the group coordinator we are alive; call between chunks of long work. */
  heartbeat(): Promise<void>;
  /**
   * False once the consumer is about to seek the partition elsewhere (kafkajs' `isStale`: a
   * rejoin of the group, which kafkajs makes only between batches, seeks every partition):
   * stop work. Stopping the consumer does not make it false: the batch in hand is finished first.
   */
  ativo(): boolean;
}

export interface ParticaoTopico {
  topico: string;
  particao: number;
}

export interface OpcoesConsumidor {
  groupId: string;
  topicos: readonly string[];
  /**
   * Called synchronously right after the group assigns partitions, before any fetch. Returns the
   * offset to start from for each partition (`undefined`: the beginning of the partition).
   */
  aoAtribuir(particoes: readonly ParticaoTopico[]): ReadonlyMap<string, string>;
  /** Handles a batch; when it returns while the consumer still runs, the batch counts as read. */
  aoLote(lote: Lote): Promise<void>;
  /**
   * A fetch held only records a consumer never sees (a transaction's commit or abort marker, the
   * aborted records): the partition's position moved to `proximoOffset` without a batch.
   */
  aoPularSemMensagens?(posicao: ParticaoTopico & { proximoOffset: string }): void;
  /** The client gave up (a crash it does not restart from). The process should exit non-zero. */
  aoFalhar(erro: Error): void;
  /** Max bytes fetched per partition per request (default 1 MiB). */
  bytesPorParticao?: number;
  /** Batches of one fetch handled at once, each of its own partition (default 1). */
  particoesSimultaneas?: number;
  /**
   * How long the group waits for a silent member before giving its partitions to another
   * (default 30 s): after a crash, the restarted consumer waits up to this long to get them back.
   */
  sessaoMs?: number;
}

export interface Consumidor {
  iniciar(): Promise<void>;
  /** Records in Kafka the next offset to read (for lag tooling; the projection holds the truth). */
  commit(offsets: ReadonlyArray<ParticaoTopico & { proximoOffset: string }>): Promise<void>;
  close(): Promise<void>;
}

export interface DefinicaoTopico {
  nome: string;
  particoes?: number;
  compactado?: boolean;
}

export interface ClienteKafka {
  /** Creates the topics that do not exist yet; existing ones are left as they are. */
  criarTopicos(topicos: readonly DefinicaoTopico[]): Promise<void>;
  descreverTopico(nome: string): Promise<{ particoes: number; config: Record<string, string> }>;
  /** High watermark (next offset to be written) of every partition of the topic. */
  fimDasParticoes(topico: string): Promise<Map<number, string>>;
  /** The offsets a consumer group committed for a topic, by partition (-1: none yet). */
  offsetsDoGrupo(groupId: string, topico: string): Promise<Map<number, string>>;
  /**
   * Hands every record of a topic to `aoLer`, from its start up to its end as of the call, through
   * a throwaway group that commits nothing (none for a topic that does not exist). Resolves with
   * the number of records read.
   */
  lerTopico(topico: string, aoLer: (mensagem: MensagemRecebida) => void, opcoes?: { limiteMs?: number }): Promise<number>;
  criarProdutor(): Promise<Produtor>;
  criarConsumidor(opcoes: OpcoesConsumidor): Consumidor;
  close(): Promise<void>;
}

export const chaveParticao = (topico: string, particao: number): string => `${topico}\u0000${particao}`;

export function criarClienteKafka(opcoes: OpcoesCliente): ClienteKafka {
  const kafka = new Kafka({
    clientId: opcoes.clientId,
    brokers: [...opcoes.brokers],
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    // Reconnect for a long while rather than exit: a broker restart is survived, not fatal.
    retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 12 },
    logLevel: opcoes.log ? NivelKafkajs.WARN : NivelKafkajs.NOTHING,
    logCreator: () => (entrada: LogEntry) => registrarLog(opcoes.log, entrada),
  });

  let admin: Admin | null = null;
  const abertos = new Set<{ close(): Promise<void> }>();
  const obterAdmin = async (): Promise<Admin> => {
    if (!admin) {
      const novo = kafka.admin();
      await novo.connect();
      admin = novo;
    }
    return admin;
  };

  return {
    async criarTopicos(topicos) {
      const adm = await obterAdmin();
      const existentes = new Set(await adm.listTopics());
      const novos = topicos.filter((t) => !existentes.has(t.nome));
      if (novos.length === 0) return;
      // kafkajs's own wait for leaders retries only LEADER_NOT_AVAILABLE; a KRaft broker may
      // first answer that it does not host the new partition (UNKNOWN_TOPIC_OR_PARTITION).
      await adm.createTopics({
        waitForLeaders: false,
        topics: novos.map((t) => ({
          topic: t.nome,
          numPartitions: t.particoes ?? 1,
          replicationFactor: -1,
          configEntries: t.compactado ? [{ name: 'cleanup.policy', value: 'compact' }] : [],
        })),
      });
      await esperarLideres(adm, novos.map((t) => t.nome));
    },

    async descreverTopico(nome) {
      const adm = await obterAdmin();
      const [metadados, configs] = await Promise.all([
        adm.fetchTopicMetadata({ topics: [nome] }),
        adm.describeConfigs({ includeSynonyms: false, resources: [{ type: 2 /* TOPIC */, name: nome }] }),
      ]);
      const config = Object.fromEntries(
        (configs.resources[0]?.configEntries ?? []).map((e) => [e.configName, e.configValue]),
      );
      return { particoes: metadados.topics[0]?.partitions.length ?? 0, config };
    },

    async fimDasParticoes(topico) {
      const adm = await obterAdmin();
      const offsets = await adm.fetchTopicOffsets(topico);
      return new Map(offsets.map((o) => [o.partition, o.high]));
    },

    async offsetsDoGrupo(groupId, topico) {
      const adm = await obterAdmin();
      const [resultado] = await adm.fetchOffsets({ groupId, topics: [topico] });
      return new Map((resultado?.partitions ?? []).map((p) => [p.partition, p.offset]));
    },

    async lerTopico(topico, aoLer, { limiteMs = 60_000 } = {}) {
      const adm = await obterAdmin();
      if (!(await adm.listTopics()).includes(topico)) return 0;
      // Up to the last offset each partition holds now; an empty partition has nothing to wait for.
      const faltam = new Map(
        (await adm.fetchTopicOffsets(topico)).filter((o) => BigInt(o.high) > BigInt(o.low)).map((o) => [o.partition, BigInt(o.high) - 1n]),
      );
      let lidas = 0;
      if (faltam.size === 0) return lidas;
      let concluir!: (erro?: Error) => void;
      const pronto = new Promise<void>((resolve, reject) => (concluir = (erro) => (erro ? reject(erro) : resolve())));
      // Where each partition's reading has got to: a rejoin of the group resumes there, and a
      // batch fetched before it is not read twice.
      const proximo = new Map<number, bigint>();
      // Done with a partition once its position passes its last offset (a marker, maybe).
      const avancou = (particao: number, proximoOffset: string) => {
        proximo.set(particao, BigInt(proximoOffset));
        if (BigInt(proximoOffset) > (faltam.get(particao) ?? -1n)) faltam.delete(particao);
        if (faltam.size === 0) concluir();
      };
      const leitor = embrulharConsumidor(kafka, {
        groupId: `${opcoes.clientId}-leitura-${randomUUID()}`,
        topicos: [topico],
        aoAtribuir: () => new Map([...proximo].map(([particao, offset]) => [chaveParticao(topico, particao), offset.toString()])),
        aoLote: async (lote) => {
          const desde = proximo.get(lote.particao) ?? 0n;
          for (const m of lote.mensagens) {
            if (BigInt(m.offset) > (faltam.get(lote.particao) ?? -1n)) break;
            if (BigInt(m.offset) < desde) continue;
            aoLer(m);
            lidas++;
          }
          avancou(lote.particao, lote.proximoOffset);
        },
        aoPularSemMensagens: ({ particao, proximoOffset }) => avancou(particao, proximoOffset),
        aoFalhar: (erro) => concluir(erro),
      });
      const prazo = setTimeout(() => concluir(new Error(`leitura de ${topico} não terminou em ${limiteMs} ms`)), limiteMs);
      try {
        await leitor.iniciar();
        await pronto;
        return lidas;
      } finally {
        clearTimeout(prazo);
        await leitor.close();
      }
    },

    async criarProdutor() {
      const produtor = kafka.producer({
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        // kafkajs retries a whole produce request when one partition fails (a leader moving, a
        // topic just created), so the partitions that succeeded would be written twice; the
        // broker drops such repeats from an idempotent producer. One request in flight keeps
        // its sequence numbers in order (KIP-98).
        idempotent: true,
        maxInFlightRequests: 1,
      });
      await produtor.connect();
      const envolto = embrulharProdutor(produtor);
      abertos.add(envolto);
      return envolto;
    },

    criarConsumidor(opcoesConsumidor) {
      const consumidor = embrulharConsumidor(kafka, opcoesConsumidor);
      abertos.add(consumidor);
      return consumidor;
    },

    async close() {
      await Promise.allSettled([...abertos].map((r) => r.close()));
      abertos.clear();
      if (admin) await admin.disconnect();
      admin = null;
    },
  };
}

/** Until every partition of `topicos` has a leader, whatever transient error metadata gives meanwhile. */
async function esperarLideres(adm: Admin, topicos: string[], prazoMs = 30_000): Promise<void> {
  const desistirEm = Date.now() + prazoMs;
  for (;;) {
    try {
      const { topics } = await adm.fetchTopicMetadata({ topics: topicos });
      if (topics.length === topicos.length && topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (erro) {
      if (Date.now() > desistirEm) throw erro;
    }
    if (Date.now() > desistirEm) throw new Error(`tópicos sem líder após ${prazoMs} ms: ${topicos.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function embrulharProdutor(produtor: Producer): Produtor {
  return {
    async enviar(topico, mensagens) {
      if (mensagens.length === 0) return;
      await produtor.send({
        topic: topico,
        acks: -1,
        messages: mensagens.map((m) => ({ key: m.key, value: m.value, ...(m.headers ? { headers: cabecalhosParaEnvio(m.headers) } : {}) })),
      });
    },
    close: () => produtor.disconnect(),
  };
}

function embrulharConsumidor(kafka: Kafka, opcoes: OpcoesConsumidor): Consumidor {
  const consumidor: Consumer = kafka.consumer({
    groupId: opcoes.groupId,
    allowAutoTopicCreation: false,
    sessionTimeout: opcoes.sessaoMs ?? 30_000,
    heartbeatInterval: Math.min(3_000, Math.floor((opcoes.sessaoMs ?? 30_000) / 3)),
    maxBytesPerPartition: opcoes.bytesPorParticao ?? 1_048_576,
    maxWaitTimeInMs: 500,
  });
  let parando = false;

  // Seeking here, synchronously inside the join event, lands before the first fetch of the new
  // assignment, so no batch is ever delivered from Kafka's own committed offset by mistake.
  consumidor.on(consumidor.events.GROUP_JOIN, ({ payload }) => {
    const particoes = Object.entries(payload.memberAssignment).flatMap(([topico, ps]) =>
      ps.map((particao) => ({ topico, particao })),
    );
    const inicio = opcoes.aoAtribuir(particoes);
    for (const { topico, particao } of particoes) {
      // Offset 0 below the log start is answered with OFFSET_OUT_OF_RANGE and reset to the
      // earliest offset (fromBeginning), which is what "the beginning" means.
      consumidor.seek({ topic: topico, partition: particao, offset: inicio.get(chaveParticao(topico, particao)) ?? '0' });
    }
  });
  // kafkajs resolves such a fetch itself and never calls eachBatch for it; its batch events
  // still report it, with no messages.
  consumidor.on(consumidor.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.batchSize > 0 || payload.lastOffset === null || payload.lastOffset === undefined) return;
    opcoes.aoPularSemMensagens?.({ topico: payload.topic, particao: payload.partition, proximoOffset: (BigInt(payload.lastOffset) + 1n).toString() });
  });
  consumidor.on(consumidor.events.CRASH, ({ payload }) => {
    if (!payload.restart && !parando) opcoes.aoFalhar(payload.error);
  });

  return {
    async iniciar() {
      await consumidor.connect();
      await consumidor.subscribe({ topics: [...opcoes.topicos], fromBeginning: true });
      await consumidor.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: opcoes.particoesSimultaneas ?? 1,
        eachBatch: async (payload) => {
          const { batch } = payload;
          // Only losing the partition stops a batch: on shutdown kafkajs waits for the batch in
          // hand, which is then committed whole (the projector's graceful stop).
          const ativo = () => !payload.isStale();
          await opcoes.aoLote({
            topico: batch.topic,
            particao: batch.partition,
            fimDaParticao: batch.highWatermark,
            proximoOffset: (BigInt(batch.lastOffset()) + 1n).toString(),
            mensagens: batch.messages.map((m) => ({
              offset: m.offset,
              key: m.key,
              value: m.value,
              headers: cabecalhosPresentes(m.headers),
            })),
            heartbeat: () => payload.heartbeat(),
            ativo,
          });
          // The next fetch starts after this batch; a batch cut short is fetched again.
          const ultima = batch.messages.at(-1);
          if (ultima && ativo()) payload.resolveOffset(ultima.offset);
        },
      });
    },
    async commit(offsets) {
      if (offsets.length === 0) return;
      await consumidor.commitOffsets(
        offsets.map((o) => ({ topic: o.topico, partition: o.particao, offset: o.proximoOffset })),
      );
    },
    async close() {
      parando = true;
      await consumidor.disconnect();
    },
  };
}

/** kafkajs' headers without its `undefined` entries; values untouched. */
function cabecalhosPresentes(headers: Record<string, Cabecalhos[string] | undefined> | undefined): Cabecalhos {
  const resultado: Cabecalhos = {};
  for (const [nome, valor] of Object.entries(headers ?? {})) if (valor !== undefined) resultado[nome] = valor;
  return resultado;
}

/**
 * kafkajs warnings about choices made on purpose, logged as debug: a producer's retries are the
 * client's (12, about two minutes), so that a send fails while the broker is away rather than
 * wait forever; repeats are dropped by idempotence meanwhile, and dead letters are at least once
 * anyway (decisions 0003 and 0004).
 */
const AVISOS_ESPERADOS = new Set(['Limiting retries for the idempotent producer may invalidate EoS guarantees']);

function registrarLog(log: RegistroLog | undefined, { level, log: entrada }: LogEntry): void {
  if (!log) return;
  const { message, ...resto } = entrada;
  const nivel = AVISOS_ESPERADOS.has(message) ? NivelKafkajs.DEBUG : level;
  const contexto = { componente: 'kafkajs', ...resto };
  if (nivel <= NivelKafkajs.ERROR) log.error(contexto, message);
  else if (nivel === NivelKafkajs.WARN) log.warn(contexto, message);
  else if (nivel === NivelKafkajs.INFO) log.info(contexto, message);
  else log.debug(contexto, message);
}
