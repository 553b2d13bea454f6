import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArquivoTravado, travarArquivo } from './trava.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'trava-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('travarArquivo', () => {
  it('refuses a second holder at once, and lets the next one in once released', () => {
    const caminho = join(dir, 'p.db.projetor.lock');
    const primeira = travarArquivo(caminho);
    expect(() => travarArquivo(caminho)).toThrow(ArquivoTravado);
    primeira.liberar();
    travarArquivo(caminho).liberar();
  });

  it('keeps no journal beside the lock file, so a process killed holding it leaves only that file', () => {
    const trava = travarArquivo(join(dir, 'p.db.projetor.lock'));
    expect(readdirSync(dir)).toEqual(['p.db.projetor.lock']);
    trava.liberar();
  });
});
