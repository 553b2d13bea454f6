// kafkajs' own log lines, into the process's logger.
import { logLevel as NivelKafkajs, type LogEntry } from 'kafkajs';
import type { RegistroLog } from './tipos.ts';

/**
 * kafkajs warnings about choices made on purpose, logged as debug: a producer's retries are the
 * client's (12, about two minutes), so that a send fails while the broker is away rather than
 * wait forever; repeats are dropped by idempotence meanwhile, and dead letters are at least once
 * anyway (decisions 0003 and 0004).
 */
const AVISOS_ESPERADOS = new Set(['Limiting retries for the idempotent producer may invalidate EoS guarantees']);

export function registrarLog(log: RegistroLog | undefined, { level, log: entrada }: LogEntry): void {
  if (!log) return;
  const { message, ...resto } = entrada;
  const nivel = AVISOS_ESPERADOS.has(message) ? NivelKafkajs.DEBUG : level;
  const contexto = { componente: 'kafkajs', ...resto };
  if (nivel <= NivelKafkajs.ERROR) log.error(contexto, message);
  else if (nivel === NivelKafkajs.WARN) log.warn(contexto, message);
  else if (nivel === NivelKafkajs.INFO) log.info(contexto, message);
  else log.debug(contexto, message);
}
