// vitest globalSetup of the integration project: one real Kafka broker and one Redis for the
// whole run (unless KAFKA_BROKERS / REDIS_URL point at existing ones), handed to tests with
// provide/inject, and stopped when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { iniciarServicos } from './servicos.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port` of the Kafka brokers. Each test creates its own topics and group ids. */
    kafkaBrokers: string[];
    /** `redis://host:port` of the Redis server. Each test uses its own keys. */
    redisUrl: string;
    /** A directory for this run's temporary files (test/helpers.ts), removed when the run ends. */
    dirTemporario: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servicos = await iniciarServicos();
  // Test workers can be killed before their exit hooks run: whatever a test forgot to delete
  // goes with this directory at teardown.
  const dirTemporario = mkdtempSync(join(tmpdir(), 'imoveis-testes-'));
  project.provide('kafkaBrokers', servicos.kafkaBrokers);
  project.provide('redisUrl', servicos.redisUrl);
  project.provide('dirTemporario', dirTemporario);
  return async () => {
    rmSync(dirTemporario, { recursive: true, force: true });
    await servicos.stop();
  };
}
