import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EscritorProjecao } from './escritor-sqlite.ts';
import { marcadorDe, ProjecaoNaoConfiavel } from './sincronia.ts';

let dir: string;
let caminho: string;
let boot: string | null;
const idDoBoot = () => boot;
const sincronia = (e: EscritorProjecao) => e.db.pragma('synchronous', { simple: true });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sincronia-'));
  caminho = join(dir, 'projecao.db');
  boot = 'boot-1';
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('adiarSincronia', () => {
  it('marks the file with this boot while commits skip fsync, and unmarks it once back in step', () => {
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    expect(sincronia(escritor)).toBe(1); // NORMAL
    escritor.adiarSincronia(true);
    expect(sincronia(escritor)).toBe(0); // OFF
    expect(readFileSync(marcadorDe(caminho), 'utf8').trim()).toBe('boot-1');
    escritor.transacao(() => escritor.gravarEstado('geracao', 1));

    escritor.adiarSincronia(false);
    expect(sincronia(escritor)).toBe(1);
    expect(existsSync(marcadorDe(caminho))).toBe(false);
    escritor.close();
  });

  it('unmarks the file on a clean close', () => {
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    escritor.adiarSincronia(true);
    escritor.close();
    expect(existsSync(marcadorDe(caminho))).toBe(false);
  });

  it('reopens a file left marked by a killed process of the same boot; the next deferring writer takes the marker over', () => {
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    escritor.adiarSincronia(true);
    escritor.transacao(() => escritor.gravarEstado('geracao', 7));
    escritor.db.close(); // a killed process closes nothing: the marker stays

    const depois = EscritorProjecao.abrir(caminho, { idDoBoot });
    expect(depois.lerEstado('geracao')).toBe(7);
    expect(existsSync(marcadorDe(caminho))).toBe(true);
    depois.retomarSincroniaPendente();
    expect(depois.sincroniaAdiada).toBe(true);
    depois.adiarSincronia(false);
    expect(existsSync(marcadorDe(caminho))).toBe(false);
    depois.close();
  });

  it('leaves the marker of a deferring writer alone when another writer opens and closes the file', () => {
    const projetor = EscritorProjecao.abrir(caminho, { idDoBoot });
    projetor.adiarSincronia(true);
    const outro = EscritorProjecao.abrir(caminho, { idDoBoot });
    outro.transacao(() => outro.gravarEstado('geracao', 1));
    outro.close();
    expect(existsSync(marcadorDe(caminho))).toBe(true);
    projetor.close();
    expect(existsSync(marcadorDe(caminho))).toBe(false);
  });

  it('puts the marker back before the next write if it went missing while deferring', () => {
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    escritor.adiarSincronia(true);
    rmSync(marcadorDe(caminho));
    escritor.adiarSincronia(true);
    expect(existsSync(marcadorDe(caminho))).toBe(true);
    escritor.close();
  });

  it('refuses a file left marked when the OS restarted since, naming the file', () => {
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    escritor.adiarSincronia(true);
    escritor.db.close(); // as a crash would leave it

    boot = 'boot-2';
    expect(() => EscritorProjecao.abrir(caminho, { idDoBoot })).toThrow(ProjecaoNaoConfiavel);
    expect(() => EscritorProjecao.abrir(caminho, { idDoBoot })).toThrow(caminho);
  });

  it('refuses so too when the crash left the file unreadable, rather than failing on the look for whose it is', () => {
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    escritor.adiarSincronia(true);
    escritor.db.close();
    writeFileSync(caminho, 'não é um banco SQLite '.repeat(400));

    boot = 'boot-2';
    expect(() => EscritorProjecao.abrir(caminho, { idDoBoot })).toThrow(ProjecaoNaoConfiavel);
  });

  it('never defers where the OS gives no boot id', () => {
    boot = null;
    const escritor = EscritorProjecao.abrir(caminho, { idDoBoot });
    escritor.adiarSincronia(true);
    expect(escritor.sincroniaAdiada).toBe(false);
    expect(sincronia(escritor)).toBe(1);
    expect(existsSync(marcadorDe(caminho))).toBe(false);
    escritor.close();
  });
});
