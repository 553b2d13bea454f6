// Taking over the credentials file's lock a killed command left behind.
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removerSeAbandonada } from './arquivo-credenciais.ts';

describe('removerSeAbandonada', () => {
  let pasta = '';
  let trava = '';
  const envelhecer = (arquivo: string) => utimesSync(arquivo, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  beforeEach(() => {
    pasta = mkdtempSync(join(tmpdir(), 'trava-'));
    trava = join(pasta, 'credenciais.json.lock');
  });
  afterEach(() => rmSync(pasta, { recursive: true, force: true }));

  it('removes a lock older than a command ever holds one, and leaves a recent one or none', () => {
    expect(removerSeAbandonada(trava)).toBe(false);
    writeFileSync(trava, '');
    expect(removerSeAbandonada(trava)).toBe(false);
    expect(existsSync(trava)).toBe(true);
    envelhecer(trava);
    expect(removerSeAbandonada(trava)).toBe(true);
    expect(existsSync(trava)).toBe(false);
    expect(existsSync(`${trava}.tomada`)).toBe(false);
  });

  it('leaves it to the one command taking it over already, so no two remove it (the second would remove the first one\'s new lock)', () => {
    writeFileSync(trava, '');
    envelhecer(trava);
    writeFileSync(`${trava}.tomada`, '');
    expect(removerSeAbandonada(trava)).toBe(false);
    expect(existsSync(trava)).toBe(true);
    // …unless that command was killed taking it over.
    envelhecer(`${trava}.tomada`);
    expect(removerSeAbandonada(trava)).toBe(false);
    expect(removerSeAbandonada(trava)).toBe(true);
  });
});
