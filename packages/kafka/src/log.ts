// kafkajs' own log lines, into the process's logger.
import { logLevel as NivelKafkajs, type LogEntry } from 'kafkajs';
import type { LogKafka } from './tipos.ts';

/**
 * kafkajs warnings about choices made on purpose, logged as debug: a producer's retries are the
 * client's (12, about two minutes), so that a send fails while the broker is away rather than
 * wait forever; repeats are dropped by idempotence meanwhile, and dead letters are at least once
 * anyway (decisions 0003 and 0004).
 */
const AVISOS_ESPERADOS = new Set(['Limiting retries for the idempotent producer may invalidate EoS guarantees']);

/**
 * A broker's error answer (`Response Metadata(key: 3, version: 6)`, "This server does not host this
 * topic-partition" just after a topic is made) is thrown to the request's caller, which retries it
 * or fails where our code logs the failure: the connection's own line of it is a warning.
 */
const respostaComErro = (namespace: string, message: string, nivel: NivelKafkajs): boolean =>
  namespace === 'Connection' && message.startsWith('Response ') && nivel === NivelKafkajs.ERROR;

/**
 * A connection that fails or drops (a broker restarting, a network cut, brokers out of reach at
 * start) is retried by the client, and what it does not recover from ends in a line of ours (the
 * consumer's crash, "Kafka inacessível"): each attempt is a warning. Its socket error's stack says
 * nothing its message does not, and would make every attempt a dozen lines in a terminal.
 */
const conexaoFalhou = (namespace: string, message: string): boolean =>
  (namespace === 'Connection' && (message.startsWith('Connection error') || message.startsWith('Connection timeout'))) ||
  (namespace === 'BrokerPool' && message.startsWith('Failed to connect to seed broker'));

export function registrarLog(log: LogKafka | undefined, { namespace, level, log: entrada }: LogEntry): void {
  if (!log) return;
  const { message, ...resto } = entrada;
  const falhaDeConexao = level === NivelKafkajs.ERROR && conexaoFalhou(namespace, message);
  if (falhaDeConexao) delete resto['stack'];
  const nivel =
    AVISOS_ESPERADOS.has(message) ? NivelKafkajs.DEBUG
    : falhaDeConexao || respostaComErro(namespace, message, level) ? NivelKafkajs.WARN
    : level;
  const contexto = { componente: 'kafkajs', ...resto };
  if (nivel <= NivelKafkajs.ERROR) log.error(contexto, message);
  else if (nivel === NivelKafkajs.WARN) log.warn(contexto, message);
  else if (nivel === NivelKafkajs.INFO) log.info(contexto, message);
  else log.debug(contexto, message);
}
