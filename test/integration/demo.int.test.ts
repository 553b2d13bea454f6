// The demo's start in-process, for what a child process cannot show reliably: a start that dies at
// a chosen step (the e2e suite stops it with Ctrl-C, which the demo defers to between its steps).
import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Database, EscritorProjecao, espiarEstado } from '@imoveis/projection-store';
import { ConfigDemo } from '../../services/demo/src/config.ts';
import { iniciarDemo } from '../../services/demo/src/demo.ts';
import { sqliteTemporario } from '../helpers.ts';

const logger = pino({ level: 'silent' });

/** Starts the demo and checks it made its projection from the whole sample, marked, nothing left beside it; then stops it. */
async function iniciarDoZero(config: ConfigDemo): Promise<void> {
  const demo = await iniciarDemo(config, logger);
  try {
    expect(demo.carga).toMatchObject({ jaCarregada: false, registros: expect.any(Number) as number });
    expect(demo.carga.registros).toBeGreaterThan(700);
    expect(espiarEstado(config.DATABASE_PATH, 'demo')).toBe(1);
    expect(existsSync(`${config.DATABASE_PATH}.criando`)).toBe(false);
  } finally {
    await demo.close();
  }
}

describe('the demo (in-process)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('dying between making its projection and marking it as its own leaves nothing the next start refuses', async () => {
    const banco = sqliteTemporario();
    const config = ConfigDemo.parse({ DATABASE_PATH: banco.caminho, CREDENTIALS_FILE: join(banco.dir, 'credenciais.json') });
    // What a kill -9 or a full disk does at that step: the mark is never written.
    const gravarEstado = EscritorProjecao.prototype.gravarEstado;
    vi.spyOn(EscritorProjecao.prototype, 'gravarEstado').mockImplementation(function (this: EscritorProjecao, chave, valor) {
      if (chave === 'demo') throw new Error('morto antes de marcar');
      gravarEstado.call(this, chave, valor);
    });
    try {
      await expect(iniciarDemo(config, logger)).rejects.toThrow('morto antes de marcar');
      expect(espiarEstado(banco.caminho, 'demo')).toBeUndefined();
      vi.restoreAllMocks();

      await iniciarDoZero(config);
    } finally {
      banco.remover();
    }
  });

  it("makes its projection whole where a file was deleted without its -wal, and where a killed start left its '.criando'", async () => {
    const banco = sqliteTemporario();
    const config = ConfigDemo.parse({ DATABASE_PATH: banco.caminho, CREDENTIALS_FILE: join(banco.dir, 'credenciais.json') });
    try {
      // Another database's WAL, left beside a path whose file was deleted: SQLite would read its
      // pages as the new file's.
      const outro = new Database(banco.caminho);
      outro.pragma('journal_mode = WAL');
      outro.pragma('wal_autocheckpoint = 0');
      outro.exec("CREATE TABLE estado (chave TEXT PRIMARY KEY, valor INTEGER); INSERT INTO estado VALUES ('demo', 0)");
      copyFileSync(`${banco.caminho}-wal`, `${banco.dir}/wal-velho`);
      outro.close();
      rmSync(banco.caminho);
      renameSync(`${banco.dir}/wal-velho`, `${banco.caminho}-wal`);
      writeFileSync(`${banco.caminho}.criando`, 'restos de uma partida morta');

      await iniciarDoZero(config);
    } finally {
      banco.remover();
    }
  });
});
