// The JSON the reader has SQLite write must be byte for byte what JavaScript would write: dates as
// Date#toISOString, codes as JSON.stringify, documents untouched but for `atualizado_em`.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from './sqlite.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EscritorProjecao } from './escritor-sqlite.ts';
import { LeitorSqlite } from './leitor-sqlite.ts';
import { migrar } from './migracoes.ts';
import { FOTOS, imovelExcluido, imovelSalvo, prepararEAplicarTransacao } from './eventos-de-teste.ts';
import { ESCALAS, HORA_MS, MINUTO_MS, SQL_RECONTAR } from './contagens.ts';

describe('atualizado_em as stored text (schema 4)', () => {
  it('is what Date#toISOString writes, for every instant, and follows the instant when it moves', () => {
    const db = new Database(':memory:');
    migrar(db);
    const inserir = db.prepare<[string, number]>(
      `INSERT INTO imoveis (id, codigo, versao, condominio_id, anunciado, ja_anunciado, documento, atualizado_em) VALUES (?, 'C1', 1, NULL, 1, 1, '{}', ?)`,
    );
    const texto = db.prepare<[string], string>('SELECT atualizado_em_iso FROM imoveis WHERE id = ?').pluck();
    const instantes = [
      0,
      1,
      999,
      1_000,
      Date.parse('2024-02-29T23:59:59.999Z'),
      Date.parse('2026-11-21T13:00:00.010Z'),
      Date.parse('2038-01-19T03:14:08.000Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
      // Spread over the years partners will see, with every millisecond digit.
      ...Array.from({ length: 1_000 }, (_, i) => Date.parse('2020-01-01T00:00:00Z') + i * 987_654_321 + (i % 1_000)),
    ];
    instantes.forEach((ms, i) => inserir.run(String(i), ms));
    instantes.forEach((ms, i) => expect(texto.get(String(i))).toBe(new Date(ms).toISOString()));
    // Moved by just over a second (the last instant of year 9999 would leave the format, so it stays).
    const ultimo = Date.parse('9999-12-31T23:59:59.999Z');
    db.prepare('UPDATE imoveis SET atualizado_em = atualizado_em + 1001 WHERE atualizado_em < ?').run(ultimo);
    instantes.forEach((ms, i) => expect(texto.get(String(i))).toBe(new Date(ms < ultimo ? ms + 1001 : ms).toISOString()));
    db.close();
  });
});

describe('the items the reader writes', () => {
  let dir: string;
  let escritor: EscritorProjecao;
  let leitor: LeitorSqlite;
  const relogio = Date.parse('2026-11-21T13:00:00.123Z');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leitor-'));
    escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
    leitor = LeitorSqlite.abrir(join(dir, 'projecao.db'));
  });

  afterEach(() => {
    leitor.close();
    escritor.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const documento = (id: string) =>
    (escritor.db.prepare('SELECT documento FROM imoveis WHERE id = ?').get(id) as { documento: string }).documento;

  it('a Property is its stored document with atualizado_em as the last field, byte for byte', () => {
    const a = randomUUID();
    // Multi-byte characters right before the closing brace: the brace is cut as a byte.
    prepararEAplicarTransacao(escritor, { eventos: [imovelSalvo(a, 1, { titulo: 'Casa açaí 🏡', descricao: 'Vista: ação, ênfase — ok' })], offsets: [] }, { fotosBaseUrl: FOTOS }, () => relogio);
    const esperado = `${documento(a).slice(0, -1)},"atualizado_em":"${new Date(relogio).toISOString()}"}`;

    expect(leitor.obterAnunciado(a)!.json.toString()).toBe(esperado);
    expect(leitor.listarAnunciados({ aposId: null, limite: 50 }).json.toString()).toBe(esperado);
    expect(leitor.listarAlterados({ desdeMs: 0, aposId: null, limite: 50 }).json.toString()).toBe(esperado);
  });

  it('a Withdrawn property carries its code escaped as JSON.stringify escapes it', () => {
    const codigos = ['AP"1\\2', 'tab\tnl\ncr\r\b\f', '\u0000\u0001\u001f\u007f', 'linha\u2028parágrafo\u2029', 'ção 🏡'];
    const ids = codigos.map(() => randomUUID()).sort();
    const eventos = ids.flatMap((id, i) => [imovelSalvo(id, 1, { codigo: codigos[i] }), imovelSalvo(id, 2, { codigo: codigos[i], ativo: false })]);
    prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => relogio);

    const esperado = ids
      .map((id, i) => `{"id":"${id}","codigo":${JSON.stringify(codigos[i])},"publicado":false,"atualizado_em":"${new Date(relogio).toISOString()}"}`)
      .join(',');
    expect(leitor.listarAlterados({ desdeMs: 0, aposId: null, limite: 50 }).json.toString()).toBe(esperado);
  });

  it('removal items carry their code escaped as JSON.stringify escapes it and removido_em as Date#toISOString, oldest first, from desde inclusive', () => {
    const codigos = ['AP"1\\2', 'tab\tnl\ncr\r\b\f', '\u0000\u0001\u001f\u007f', 'linha\u2028parágrafo\u2029', 'ção 🏡'];
    const instantes = [relogio + 1, relogio + 999, relogio + 1_000, relogio + 5_000, relogio + 5_000];
    codigos.forEach((codigo, i) => prepararEAplicarTransacao(escritor, { eventos: [imovelExcluido(randomUUID(), 1, codigo)], offsets: [] }, { fotosBaseUrl: FOTOS }, () => instantes[i]!));

    // As stored (the writer keeps commit instants increasing), written as JavaScript would write them.
    const guardados = escritor.db.prepare<[], { id: string; codigo: string; removido_em: number }>('SELECT id, codigo, removido_em FROM removidos ORDER BY removido_em, id').all();
    expect(guardados).toHaveLength(codigos.length);
    const escrito = (desde: number) =>
      guardados
        .filter((r) => r.removido_em >= desde)
        .map((r) => `{"id":"${r.id}","codigo":${JSON.stringify(r.codigo)},"removido_em":"${new Date(r.removido_em).toISOString()}"}`)
        .join(',');
    expect(leitor.listarRemovidos(0).toString()).toBe(escrito(0));
    const terceiro = guardados[2]!.removido_em;
    expect(leitor.listarRemovidos(terceiro).toString()).toBe(escrito(terceiro));
    expect(escrito(terceiro)).toContain(guardados[2]!.id);
    expect(leitor.listarRemovidos(guardados.at(-1)!.removido_em + 1).toString()).toBe('');
  });

  it('a page holds its items in id order, whichever index found them', () => {
    const ids = Array.from({ length: 40 }, () => randomUUID());
    // Stamped in an order unrelated to the ids, so the by-instant plan must sort.
    ids.forEach((id, i) => prepararEAplicarTransacao(escritor, { eventos: [imovelSalvo(id, 1)], offsets: [] }, { fotosBaseUrl: FOTOS }, () => relogio + i));
    const ordenados = [...ids].sort();
    const idsNaPagina = (json: Buffer) => (JSON.parse(`[${json.toString()}]`) as { id: string }[]).map((i) => i.id);

    // One window of 3 (sorted by instant) and one of all 40 (walked by id).
    const estreita = leitor.listarAlterados({ desdeMs: relogio + 37, aposId: null, limite: 50 });
    expect(idsNaPagina(estreita.json)).toEqual(ids.slice(37).sort());
    const larga = leitor.listarAlterados({ desdeMs: 0, aposId: null, limite: 25 });
    expect(idsNaPagina(larga.json)).toEqual(ordenados.slice(0, 25));
    expect(larga.proximoCursor).toBe(ordenados[24]);
    expect(idsNaPagina(leitor.listarAnunciados({ aposId: ordenados[24]!, limite: 50 }).json)).toEqual(ordenados.slice(25));
  });

  it('a full page is followed by a cursor only when another item exists', () => {
    const ids = Array.from({ length: 4 }, () => randomUUID()).sort();
    prepararEAplicarTransacao(escritor, { eventos: ids.map((id) => imovelSalvo(id, 1)), offsets: [] }, { fotosBaseUrl: FOTOS }, () => relogio);

    expect(leitor.listarAnunciados({ aposId: null, limite: 4 })).toMatchObject({ quantidade: 4, proximoCursor: null, total: 4 });
    expect(leitor.listarAnunciados({ aposId: null, limite: 3 })).toMatchObject({ quantidade: 3, proximoCursor: ids[2], total: 4 });
    expect(leitor.listarAnunciados({ aposId: ids[2]!, limite: 3 })).toMatchObject({ quantidade: 1, proximoCursor: null });
    expect(leitor.listarAlterados({ desdeMs: relogio + 1, aposId: null, limite: 3 })).toMatchObject({ quantidade: 0, proximoCursor: null, total: 0 });
    expect(leitor.listarAlterados({ desdeMs: relogio + 1, aposId: null, limite: 3 }).json).toHaveLength(0);
  });

  it("an incremental listing's total is the count of its properties, from any instant", () => {
    // Commits 97 s apart from just before an hour's end: instants, minutes and hours all split,
    // some instants shared, then changes that move properties out of their instants.
    const inicio = Date.parse('2026-11-21T13:58:59.500Z');
    const ids = Array.from({ length: 120 }, () => randomUUID());
    const aplicar = (eventos: Parameters<typeof prepararEAplicarTransacao>[1]['eventos'], instante: number) =>
      prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => instante);
    // Two properties a commit, so that they share its instant.
    for (let i = 0; i < ids.length; i += 2) aplicar([imovelSalvo(ids[i]!, 1), imovelSalvo(ids[i + 1]!, 1)], inicio + (i / 2) * 97_000);
    ids.slice(0, 30).forEach((id, i) => aplicar([imovelSalvo(id, 2, { titulo: `Preço novo ${i}` })], inicio + 3 * HORA_MS + i * 41_000));
    aplicar([imovelSalvo(ids[40]!, 2, { ativo: false }), imovelExcluido(ids[41]!, 2), imovelExcluido(ids[42]!, 2)], inicio + 4 * HORA_MS);

    const contar = escritor.db.prepare<[number], [number]>('SELECT count(*) FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em >= ?').raw();
    const instantes = (escritor.db.prepare('SELECT DISTINCT atualizado_em FROM imoveis').pluck().all() as number[]).flatMap((t) => [t - 1, t, t + 1]);
    const fronteiras = Array.from({ length: 6 * 60 }, (_, m) => Math.floor(inicio / MINUTO_MS) * MINUTO_MS + m * MINUTO_MS).flatMap((t) => [t - 1, t, t + 1]);
    for (const desdeMs of [0, inicio - HORA_MS, ...instantes, ...fronteiras, inicio + 10 * HORA_MS]) {
      expect({ desdeMs, total: leitor.contarAlterados(desdeMs) }).toEqual({ desdeMs, total: contar.get(desdeMs)![0] });
    }
    // Counters drop the keys that reach zero.
    for (const tabela of ['contagem_por_instante', 'contagem_por_minuto', 'contagem_por_hora']) {
      expect(escritor.db.prepare(`SELECT count(*) FROM ${tabela} WHERE n <= 0`).pluck().get()).toBe(0);
    }
    // The recount a rebuild's switch runs (SQL's rule) finds exactly what the writer kept (its own).
    const contadores = () => [
      ...ESCALAS.map((e) => escritor.db.prepare(`SELECT * FROM ${e.tabela} ORDER BY 1`).raw().all()),
      escritor.db.prepare("SELECT chave, valor FROM estado WHERE chave IN ('anunciados', 'listados') ORDER BY 1").raw().all(),
    ];
    const mantidos = contadores();
    escritor.db.exec(SQL_RECONTAR);
    expect(contadores()).toEqual(mantidos);
  });

  it('every incremental plan serves the same pages, byte for byte, from any cursor', () => {
    // Ids spread over the 256 id ranges, and a cluster in one range, so that pages end inside a
    // range, on its last item, and span empty ranges.
    const ids = [
      ...Array.from({ length: 160 }, () => randomUUID()),
      ...Array.from({ length: 25 }, () => `a7${randomUUID().slice(2)}`),
      ...Array.from({ length: 5 }, () => `ff${randomUUID().slice(2)}`),
      `00${randomUUID().slice(2)}`,
    ];
    const aplicar = (eventos: Parameters<typeof prepararEAplicarTransacao>[1]['eventos'], instante: number) =>
      prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => instante);
    // One commit per instant, each for the properties sharing it (every commit is stamped later than the one before).
    for (let k = 0; k < 17; k++) aplicar(ids.filter((_, i) => i % 17 === k).map((id) => imovelSalvo(id, 1)), relogio + k * 1_000);
    aplicar(ids.filter((_, i) => i % 5 === 0).map((id) => imovelSalvo(id, 2, { ativo: false })), relogio + 20_000);
    aplicar(ids.filter((_, i) => i % 7 === 1).map((id) => imovelExcluido(id, 3)), relogio + 21_000);

    const planos = ['por-id', 'por-instante', 'por-faixa'] as const;
    const leitores = planos.map((plano) => LeitorSqlite.abrir(join(dir, 'projecao.db'), { escolherPlano: () => plano }));
    const esperados = escritor.db.prepare<[number], string>('SELECT id FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em >= ? ORDER BY id').pluck();
    const idsNaPagina = (json: Buffer) => (json.length === 0 ? [] : (JSON.parse(`[${json.toString()}]`) as { id: string }[]).map((i) => i.id));
    try {
      for (const desdeMs of [0, relogio + 3_000, relogio + 15_500, relogio + 20_000, relogio + 21_000, relogio + 22_000]) {
        for (const limite of [1, 3, 7, 50]) {
          const paginas = leitores.map((leitor) => {
            const lidas = [];
            let aposId: string | null = null;
            do {
              const pagina = leitor.listarAlterados({ desdeMs, aposId, limite });
              lidas.push({ ...pagina, json: pagina.json.toString() });
              aposId = pagina.proximoCursor;
            } while (aposId !== null);
            return lidas;
          });
          expect(paginas[1]).toEqual(paginas[0]);
          expect(paginas[2]).toEqual(paginas[0]);
          const porId = paginas[0]!;
          expect(porId.flatMap((p) => idsNaPagina(Buffer.from(p.json)))).toEqual(esperados.all(desdeMs));
          // Only the first page of an empty window is empty; a cursor always leads to more.
          if (porId.length > 1) expect(porId.every((p) => p.quantidade > 0)).toBe(true);
        }
      }
    } finally {
      for (const leitor of leitores) leitor.close();
    }
  });
});

describe('opening a file that is no projection', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leitor-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // The API tries again every second while the file at its path is refused: each refusal closes what it opened.
  it.runIf(process.platform === 'linux')('refuses it every time without keeping a file descriptor open', () => {
    const naoBanco = join(dir, 'texto.db');
    writeFileSync(naoBanco, 'não é um banco SQLite');
    const antiga = join(dir, 'antiga.db');
    const db = new Database(antiga);
    db.pragma('user_version = 1');
    db.close();
    const demo = join(dir, 'demo.db');
    const escritor = EscritorProjecao.abrir(demo, { daDemo: true });
    escritor.gravarEstado('demo', 1);
    escritor.close();
    const descritores = () => readdirSync('/proc/self/fd').length;
    const antes = descritores();
    for (let i = 0; i < 50; i++) {
      for (const caminho of [naoBanco, antiga, demo]) expect(() => LeitorSqlite.abrir(caminho)).toThrow();
    }
    expect(descritores()).toBeLessThanOrEqual(antes);
  });
});
