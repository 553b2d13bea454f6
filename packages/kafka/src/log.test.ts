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
  it('keeps kafkajs levels, but logs a broker\'s error answer, which its caller retries or reports, as a warning', () => {
    expect(
      registrar(
        entrada('Connection', logLevel.ERROR, 'Response Metadata(key: 3, version: 6)'),
        entrada('Connection', logLevel.ERROR, 'Connection error: read ECONNRESET'),
        entrada('Consumer', logLevel.ERROR, 'Crash: KafkaJSNumberOfRetriesExceeded'),
        entrada('Producer', logLevel.WARN, 'Limiting retries for the idempotent producer may invalidate EoS guarantees'),
        entrada('Consumer', logLevel.INFO, 'Starting'),
      ),
    ).toEqual([
      ['warn', 'Response Metadata(key: 3, version: 6)'],
      ['error', 'Connection error: read ECONNRESET'],
      ['error', 'Crash: KafkaJSNumberOfRetriesExceeded'],
      ['debug', 'Limiting retries for the idempotent producer may invalidate EoS guarantees'],
      ['info', 'Starting'],
    ]);
  });
});
