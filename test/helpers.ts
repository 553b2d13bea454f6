// Per-test isolation for integration tests: unique Kafka names and throwaway SQLite files, so
// tests sharing one broker and one run never see each other's data.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { LeitorSqlite } from '@imoveis/projection-store';

/** A name no other test uses: `prefixo-<time>-<random>`, valid as a Kafka topic or group id. */
export function nomeUnico(prefixo: string): string {
  return `${prefixo}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

export interface SqliteTemporario {
  /** Path of the database file (it does not exist until opened). */
  readonly caminho: string;
  /** Its directory, which also holds the -wal and -shm files. */
  readonly dir: string;
  /** Deletes the directory and everything in it. Idempotent. */
  remover(): void;
}

const pendentes = new Set<string>();
// A test that forgets remover() still leaves nothing behind: removed when the worker exits, or
// at the latest with the run's directory by the integration global setup's teardown.
process.once('exit', () => {
  for (const dir of pendentes) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh SQLite file path in its own directory, inside the run's temporary directory (the
 * integration global setup provides one) or else the OS temp dir. Call `remover()` in an
 * `afterEach`/`afterAll` (or with `onTestFinished`).
 */
export function sqliteTemporario(nome = 'projecao.db'): SqliteTemporario {
  const base = (inject('dirTemporario') as string | undefined) ?? tmpdir();
  const dir = mkdtempSync(join(base, 'sqlite-'));
  pendentes.add(dir);
  return {
    caminho: join(dir, nome),
    dir,
    remover() {
      rmSync(dir, { recursive: true, force: true });
      pendentes.delete(dir);
    },
  };
}

/** `fn` over a read-only reader of the projection at `caminho`, closed afterwards. */
export function ler<T>(caminho: string, fn: (leitor: LeitorSqlite) => T): T {
  const leitor = LeitorSqlite.abrir(caminho);
  try {
    return fn(leitor);
  } finally {
    leitor.close();
  }
}
