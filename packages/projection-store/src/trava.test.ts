import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from './sqlite.ts';
import { ArquivoTravado, travarArquivo, travarEscritaDaProjecao, travarReconstrucaoDaProjecao } from './trava.ts';

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

describe('travarEscritaDaProjecao', () => {
  it('gives two names of one projection (a symlink to it, or to its folder) one lock, made or not', () => {
    mkdirSync(join(dir, 'dados'));
    symlinkSync(join(dir, 'dados'), join(dir, 'atalho'));
    // Not made yet: named from the folder's own path.
    const primeira = travarEscritaDaProjecao(join(dir, 'dados', 'p.db'));
    expect(() => travarEscritaDaProjecao(join(dir, 'atalho', 'p.db'))).toThrow(ArquivoTravado);
    primeira.liberar();

    writeFileSync(join(dir, 'dados', 'p.db'), '');
    symlinkSync(join(dir, 'dados', 'p.db'), join(dir, 'outro-nome.db'));
    const segunda = travarEscritaDaProjecao(join(dir, 'outro-nome.db'));
    expect(() => travarEscritaDaProjecao(join(dir, 'dados', 'p.db'))).toThrow(ArquivoTravado);
    // The rebuild's is another lock.
    travarReconstrucaoDaProjecao(join(dir, 'dados', 'p.db')).liberar();
    segunda.liberar();
  });

  it('makes no lock beside what no projection can be, a folder or a file of another kind, and refuses it', () => {
    mkdirSync(join(dir, 'pasta'));
    writeFileSync(join(dir, 'texto.txt'), 'não é um banco');
    expect(() => travarEscritaDaProjecao(join(dir, 'pasta'))).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(() => travarReconstrucaoDaProjecao(join(dir, 'texto.txt'))).toThrow(expect.objectContaining({ code: 'SQLITE_NOTADB' }));
    expect(readdirSync(dir).sort()).toEqual(['pasta', 'texto.txt']);
    // Another application's database, with a schema version of its own or none, tables or only a
    // view: read, never written.
    for (const [arquivo, esquema] of [
      ['clientes.db', 'CREATE TABLE clientes (nome TEXT)'],
      ['versionado.db', 'CREATE TABLE clientes (nome TEXT); PRAGMA user_version = 4'],
      ['visao.db', 'CREATE VIEW clientes AS SELECT 1'],
    ] as const) {
      const alheio = new Database(join(dir, arquivo));
      alheio.exec(esquema);
      alheio.close();
      const antes = readFileSync(join(dir, arquivo));
      expect(() => travarEscritaDaProjecao(join(dir, arquivo)), arquivo).toThrow(
        expect.objectContaining({ code: 'SQLITE_NOTADB', message: expect.stringContaining('guarda clientes, de outro banco') as string }),
      );
      expect(readFileSync(join(dir, arquivo)).equals(antes), arquivo).toBe(true);
    }
    expect(readdirSync(dir).sort()).toEqual(['clientes.db', 'pasta', 'texto.txt', 'versionado.db', 'visao.db']);
    // An empty file, or an empty database, is a projection yet to be made.
    writeFileSync(join(dir, 'vazio.db'), '');
    travarEscritaDaProjecao(join(dir, 'vazio.db')).liberar();
    const vazio = new Database(join(dir, 'banco-vazio.db'));
    vazio.exec('CREATE TABLE t (x); DROP TABLE t');
    vazio.close();
    travarEscritaDaProjecao(join(dir, 'banco-vazio.db')).liberar();
  });
});
