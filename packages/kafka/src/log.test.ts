import { logLevel, type LogEntry } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { registrarLog } from './log.ts';
import type { LogKafka } from './tipos.ts';

/** The level and message of every line kafkajs' entries became. */
function registrar(...entradas: LogEntry[]): [string, string][] {
  const linhas: [string, string][] = [];
  const nivel = (nome: string) => (_contexto: object, mensagem: string) => void linhas.push([nome, mensagem]);
  const log: LogKafka = { error: nivel('error'), warn: nivel('warn'), info: nivel('info'), debug: nivel('debug') };
  for (const entrada of entradas) registrarLog(log, entrada);
  return linhas;
}
const entrada = (namespace: string, level: logLevel, message: string): LogEntry => ({
  namespace,
  level,
  label: logLevel[level],
  log: { timestamp: '2026-11-23T05:00:00.000Z', message },
});

describe('registrarLog', () => {
  it('drops the stack of a failed connection, keeping its other fields', () => {
    const contextos: object[] = [];
    const guardar = (contexto: object) => void contextos.push(contexto);
    const log: LogKafka = { error: guardar, warn: guardar, info: guardar, debug: guardar };
    const falha = entrada('Connection', logLevel.ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:1');
    registrarLog(log, { ...falha, log: { ...falha.log, broker: '127.0.0.1:1', stack: 'Error: connect ECONNREFUSED\n    at …' } });
    expect(contextos).toEqual([{ componente: 'kafkajs', timestamp: falha.log.timestamp, broker: '127.0.0.1:1' }]);
  });

  it("keeps kafkajs levels, but logs a broker's error answer and a failed connection, which the client retries, as warnings", () => {
    expect(
      registrar(
        entrada('Connection', logLevel.ERROR, 'Response Metadata(key: 3, version: 6)'),
        entrada('Connection', logLevel.ERROR, 'Connection error: read ECONNRESET'),
        entrada('Connection', logLevel.ERROR, 'Connection timeout'),
        entrada('BrokerPool', logLevel.ERROR, 'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED 127.0.0.1:1'),
        entrada('Consumer', logLevel.ERROR, 'Crash: KafkaJSNumberOfRetriesExceeded'),
        entrada('Producer', logLevel.WARN, 'Limiting retries for the idempotent producer may invalidate EoS guarantees'),
        entrada('Consumer', logLevel.INFO, 'Starting'),
      ),
    ).toEqual([
      ['warn', 'Response Metadata(key: 3, version: 6)'],
      ['warn', 'Connection error: read ECONNRESET'],
      ['warn', 'Connection timeout'],
      ['warn', 'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED 127.0.0.1:1'],
      ['error', 'Crash: KafkaJSNumberOfRetriesExceeded'],
      ['debug', 'Limiting retries for the idempotent producer may invalidate EoS guarantees'],
      ['info', 'Starting'],
    ]);
  });
});
