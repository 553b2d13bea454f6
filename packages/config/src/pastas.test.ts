import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { garantirPastaDe } from './pastas.ts';

describe('garantirPastaDe', () => {
  let raiz = '';
  beforeEach(() => {
    raiz = mkdtempSync(join(tmpdir(), 'pastas-'));
  });
  afterEach(() => rmSync(raiz, { recursive: true, force: true }));

  it('makes the folder a file goes in and the folders above it, and leaves existing ones', () => {
    const arquivo = join(raiz, 'a', 'b', 'projecao.db');
    garantirPastaDe(arquivo);
    expect(existsSync(join(raiz, 'a', 'b'))).toBe(true);
    expect(existsSync(arquivo)).toBe(false);
    expect(() => garantirPastaDe(arquivo)).not.toThrow();
  });

  it('fails with the file system\'s error where a folder cannot be made', () => {
    writeFileSync(join(raiz, 'arquivo'), '');
    expect(() => garantirPastaDe(join(raiz, 'arquivo', 'sub', 'x.db'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => garantirPastaDe(join(raiz, 'arquivo', 'x.db'))).toThrow(
      expect.objectContaining({ code: 'EEXIST', message: `${join(raiz, 'arquivo')} existe e não é uma pasta` }),
    );
  });

  it.runIf(process.platform === 'linux')('fails at once under /proc, where Node\'s recursive mkdir loops for ever', () => {
    expect(() => garantirPastaDe('/proc/imoveis-nao-existe/dados/projecao.db')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
