// The small interfaces the rest of the project talks Kafka through (decision 0003).
import type { Cabecalhos } from './cabecalhos.ts';

export interface LogKafka {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OpcoesCliente {
  brokers: readonly string[];
  clientId: string;
  /** Where kafkajs' own log lines go; silent when absent. */
  log?: LogKafka;
  /**
   * Retries of a failed request or connection before it fails for good (default 12: one to two minutes
   * of backoff, so that a broker restart is ridden out).
   */
  tentativas?: number;
  /** How long a request waits for its answer (default 30 s; tests shorten it). */
  prazoRequisicaoMs?: number;
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
   * stop work. Stopping the consumer does not make it false: the batch in hand is finished first
   * (see `parando`).
   */
  ativo(): boolean;
  /**
   * True once the consumer is closing. A batch finishes what it can do now, but a wait with no
   * end in sight (another process's write lock) ends: what it did not write is fetched again.
   */
  parando(): boolean;
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
   * (default SESSAO_PADRAO_MS): after a crash, the restarted consumer waits up to this long to get them back.
   */
  sessaoMs?: number;
}

/** The group's session timeout unless told (kafkajs's own default). */
export const SESSAO_PADRAO_MS = 30_000;

export interface Consumidor {
  iniciar(): Promise<void>;
  /** Records in Kafka the next offset to read (for lag tooling; the projection holds the truth). */
  commit(offsets: ReadonlyArray<ParticaoTopico & { proximoOffset: string }>): Promise<void>;
  close(): Promise<void>;
}

export interface DefinicaoTopico {
  nome: string;
  particoes?: number;
  /** Keeps the last record of each key (`cleanup.policy=compact`): the register topics. */
  compactado?: boolean;
  /** Keeps every record for ever (`cleanup.policy=delete`, `retention.ms=-1`), not the broker's default week: the dead letters. */
  semExpirar?: boolean;
  /** The largest record batch the topic accepts (`max.message.bytes`); the broker's default when absent. */
  bytesPorMensagem?: number;
}

export interface ClienteKafka {
  /** Creates the topics that do not exist yet; existing ones are left as they are. */
  criarTopicos(topicos: readonly DefinicaoTopico[]): Promise<void>;
  descreverTopico(nome: string): Promise<{ particoes: number; config: Record<string, string> }>;
  /** Those of `nomes` the brokers do not have. */
  topicosAusentes(nomes: readonly string[]): Promise<string[]>;
  /** Grows a topic to `total` partitions (what ops do to spread a register's load). */
  aumentarParticoes(topico: string, total: number): Promise<void>;
  /** High watermark (next offset to be written) of every partition of the topic. */
  fimDasParticoes(topico: string): Promise<Map<number, string>>;
  /** Deletes a consumer group that has no members left (its committed offsets with it). */
  apagarGrupo(groupId: string): Promise<void>;
  /** The consumer groups whose id starts with `prefixo`, with their state as the broker names it (`Empty`, `Stable`…). */
  grupos(prefixo: string): Promise<Array<{ id: string; estado: string }>>;
  /** The topics a consumer group's members read now; null when it has none, or is rebalancing. */
  topicosDoGrupo(groupId: string): Promise<string[] | null>;
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

/** A partition's key in maps of offsets (a NUL cannot appear in a topic's name). */
export const chaveParticao = (topico: string, particao: number): string => `${topico}\u0000${particao}`;

/** A {@link chaveParticao} as people write a partition: `registro.imoveis.v1/3`. */
export const rotuloDaParticao = (chave: string): string => chave.replace('\u0000', '/');
