// The three partner operations against a projection written by the real projector code: every
// rule of partner-api.md on pagination, full vs incremental listings, detail and removals,
// parameter validation, error bodies, ETag and compression. Every body is checked against the
// served OpenAPI document by the support's validator.
import { randomUUID } from 'node:crypto';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imovelExcluido, imovelSalvo } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { criarApi, criarProjecao, idsOrdenados, type ApiDeTeste, type ProjecaoDeTeste } from './api-suporte.ts';

const T1 = Date.parse('2026-11-21T10:00:00.000Z');
const T2 = Date.parse('2026-11-21T11:00:00.000Z');
const T3 = Date.parse('2026-11-21T12:00:00.000Z');
const T4 = Date.parse('2026-11-21T13:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
/** The client address of each request's log line, in order. */
const enderecosLogados = (app: ApiDeTeste): string[] =>
  app.logs
    .map((linha) => JSON.parse(linha) as { msg?: string; req?: { remoteAddress?: string } })
    .filter((l) => l.msg === 'requisição atendida')
    .map((l) => l.req?.remoteAddress ?? '?');

interface Listagem {
  dados: { id: string; publicado: boolean; atualizado_em: string | null }[];
  por_pagina: number;
  proximo_cursor: string | null;
  total: number | null;
}

let projecao: ProjecaoDeTeste;
let api: ApiDeTeste;
// 7 advertised (one changed at T2), 2 withdrawn at T3, 1 never advertised, 1 deleted at T4.
// Written once, here: a test that needs a change to happen makes a projection of its own.
let anunciados: string[];
let alterado: string;
let retirados: string[];
let nuncaAnunciado: string;
let excluido: string;

beforeAll(async () => {
  projecao = criarProjecao();
  const ids = idsOrdenados(11);
  anunciados = ids.slice(0, 7);
  retirados = ids.slice(7, 9);
  nuncaAnunciado = ids[9] as string;
  excluido = ids[10] as string;
  alterado = anunciados[3] as string;
  projecao.aplicar(
    [
      ...[...anunciados, ...retirados, excluido].map((id) => imovelSalvo(id, 1)),
      imovelSalvo(nuncaAnunciado, 1, { publicar_no_site: false }),
    ],
    T1,
  );
  projecao.aplicar([imovelSalvo(alterado, 2, { valores: { venda: 650_000, preco_sob_consulta: false } })], T2);
  projecao.aplicar(retirados.map((id) => imovelSalvo(id, 2, { publicar_no_site: false })), T3);
  projecao.aplicar([imovelExcluido(excluido, 2, 'AP9999')], T4);
  api = await criarApi({ leitor: projecao.abrirLeitor(), limite: 10_000 });
});

afterAll(async () => {
  await api.fechar();
  projecao.remover();
});

async function listar(query: string): Promise<Listagem> {
  const r = await api.get(`/api/v1/imoveis${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return JSON.parse(r.body) as Listagem;
}

/** Follows proximo_cursor to the end, checking each page on the way. */
async function varrer(query: string, porPagina: number): Promise<{ ids: string[]; paginas: Listagem[] }> {
  const paginas: Listagem[] = [];
  let cursor: string | null = null;
  do {
    const sep = query === '' ? '?' : '&';
    const pagina = await listar(`${query}${sep}por_pagina=${porPagina}${cursor ? `&cursor=${cursor}` : ''}`);
    paginas.push(pagina);
    cursor = pagina.proximo_cursor;
    if (cursor !== null) {
      expect(pagina.dados.length, 'uma página intermediária nunca é vazia').toBe(porPagina);
      expect(cursor).toBe(pagina.dados.at(-1)?.id);
    }
  } while (cursor !== null && paginas.length < 100);
  return { ids: paginas.flatMap((p) => p.dados.map((d) => d.id)), paginas };
}

describe('GET /imoveis, full scan', () => {
  it('returns every advertised property once, in id order, with no gaps or repeats across pages', async () => {
    for (const porPagina of [1, 2, 3, 7, 200]) {
      const { ids, paginas } = await varrer('', porPagina);
      expect(ids).toEqual(anunciados);
      for (const p of paginas) {
        expect(p.total).toBe(7);
        expect(p.por_pagina).toBe(porPagina);
        expect(p.dados.every((d) => d.publicado)).toBe(true);
      }
      expect(paginas.at(-1)?.proximo_cursor).toBeNull();
    }
  });

  it('ends with proximo_cursor null on a full last page instead of sending an empty page', async () => {
    const primeira = await listar('?por_pagina=7');
    expect(primeira.dados).toHaveLength(7);
    expect(primeira.proximo_cursor).toBeNull();
  });

  it('leaves out withdrawn, never advertised and deleted properties', async () => {
    const { ids } = await varrer('', 50);
    for (const id of [...retirados, nuncaAnunciado, excluido]) expect(ids).not.toContain(id);
  });

  it('serves date-times in ISO 8601 with an offset and milliseconds', async () => {
    const pagina = await listar('');
    const imovel = pagina.dados.find((d) => d.id === alterado);
    expect(imovel?.atualizado_em).toBe(iso(T2));
    expect(imovel?.atualizado_em).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/);
  });

  it('accepts a cursor in upper case, as uuids are case-insensitive', async () => {
    const pagina = await listar(`?por_pagina=2&cursor=${(anunciados[1] as string).toUpperCase()}`);
    expect(pagina.dados.map((d) => d.id)).toEqual(anunciados.slice(2, 4));
  });
});

describe('GET /imoveis, an empty projection', () => {
  it('answers one empty page, its cursor null and its total 0, full and incremental', async () => {
    const vazia = criarProjecao();
    const apiVazia = await criarApi({ leitor: vazia.abrirLeitor(), limite: 10_000 });
    try {
      for (const query of ['', `?alterados_desde=${iso(T1)}`]) {
        const r = await apiVazia.get(`/api/v1/imoveis${query}`);
        expect(r.statusCode, query).toBe(200);
        expect(JSON.parse(r.body), query).toEqual({ dados: [], por_pagina: 50, proximo_cursor: null, total: 0 });
      }
    } finally {
      await apiVazia.fechar();
      vazia.remover();
    }
  });
});

describe('GET /imoveis, page size', () => {
  it('defaults to 50 and allows up to 200', async () => {
    const grande = criarProjecao();
    const ids = idsOrdenados(230);
    grande.aplicar(ids.map((id) => imovelSalvo(id, 1)), T1);
    const outra = await criarApi({ leitor: grande.abrirLeitor(), limite: 10_000 });
    try {
      const padrao = JSON.parse((await outra.get('/api/v1/imoveis')).body) as Listagem;
      expect(padrao.dados).toHaveLength(50);
      expect(padrao.por_pagina).toBe(50);
      expect(padrao.total).toBe(230);
      expect(padrao.proximo_cursor).toBe(ids[49]);
      const maximo = JSON.parse((await outra.get('/api/v1/imoveis?por_pagina=200')).body) as Listagem;
      expect(maximo.dados).toHaveLength(200);
      expect((await outra.get('/api/v1/imoveis?por_pagina=201')).statusCode).toBe(400);
    } finally {
      await outra.fechar();
      grande.remover();
    }
  });
});

describe('GET /imoveis, incremental (alterados_desde)', () => {
  it('returns what changed since the instant, inclusive, with withdrawn properties as Withdrawn items', async () => {
    const pagina = await listar(`?alterados_desde=${iso(T2)}`);
    expect(pagina.total).toBe(3);
    expect(pagina.proximo_cursor).toBeNull();
    const porId = new Map(pagina.dados.map((d) => [d.id, d]));
    expect([...porId.keys()]).toEqual([alterado, ...retirados].sort());
    expect(porId.get(alterado)).toMatchObject({ publicado: true, atualizado_em: iso(T2) });
    for (const id of retirados) {
      expect(porId.get(id)).toEqual({ id, codigo: expect.any(String), publicado: false, atualizado_em: iso(T3) });
    }
  });

  it('leaves out a change one millisecond before the instant', async () => {
    const pagina = await listar(`?alterados_desde=${iso(T2 + 1)}`);
    expect(pagina.dados.map((d) => d.id)).toEqual([...retirados].sort());
  });

  it('reads a time zone offset in any ISO 8601 form, and a + that arrived as a space, as the instant the client meant', async () => {
    const comMenos = await listar(`?alterados_desde=2026-11-21T08:00:00-03:00`);
    expect(comMenos.total).toBe(3);
    const comMaisCodificado = await listar(`?alterados_desde=2026-11-21T14:00:00%2B03:00`);
    expect(comMaisCodificado.total).toBe(3);
    // A client who forgot %2B sends a literal +, which a URL decoder turns into a space.
    const comMaisEsquecido = await listar(`?alterados_desde=2026-11-21T14:00:00+03:00`);
    expect(comMaisEsquecido.total).toBe(3);
    expect(comMaisEsquecido.dados).toEqual(comMaisCodificado.dados);
    // ISO 8601 beyond RFC 3339: a basic offset, or one of hours only.
    expect((await listar(`?alterados_desde=2026-11-21T08:00:00-0300`)).total).toBe(3);
    expect((await listar(`?alterados_desde=2026-11-21T14:00:00+03`)).total).toBe(3);
  });

  it('is paginated by cursor like the full scan', async () => {
    const { ids, paginas } = await varrer(`?alterados_desde=${iso(T1)}`, 2);
    expect(ids).toEqual([...anunciados, ...retirados, excluido].filter((id) => id !== excluido).sort());
    expect(paginas.every((p) => p.total === 9)).toBe(true);
  });

  it('includes nothing for an instant after every change', async () => {
    const pagina = await listar(`?alterados_desde=${iso(T4 + 1)}`);
    expect(pagina).toEqual({ dados: [], por_pagina: 50, proximo_cursor: null, total: 0 });
  });
});

describe('GET /imoveis/{id}', () => {
  it('returns one advertised property, not wrapped in an envelope, as it appears in the listing', async () => {
    const r = await api.get(`/api/v1/imoveis/${alterado}`);
    expect(r.statusCode).toBe(200);
    const listado = (await listar('')).dados.find((d) => d.id === alterado);
    expect(JSON.parse(r.body)).toEqual(listado);
  });

  it('answers 404 with an Erro for withdrawn, never advertised, deleted and unknown properties', async () => {
    // The last: well formed, though of no RFC 9562 version: not found rather than malformed.
    for (const id of [...retirados, nuncaAnunciado, excluido, '00000000-0000-4000-8000-000000000000', '0c0e0000-0000-9a63-0000-000000000001']) {
      const r = await api.get(`/api/v1/imoveis/${id}`);
      expect(r.statusCode).toBe(404);
      expect(JSON.parse(r.body)).toEqual({ mensagem: expect.any(String) });
    }
  });

  it('finds a property by its id in upper case, as uuids are case-insensitive', async () => {
    const r = await api.get(`/api/v1/imoveis/${alterado.toUpperCase()}`);
    expect(r.statusCode).toBe(200);
    expect((JSON.parse(r.body) as { id: string }).id).toBe(alterado);
  });

  it('sends an ETag and answers 304 to If-None-Match until the property changes', async () => {
    // A projection of its own: the change below would otherwise move a property the other tests
    // of this file read, and make them depend on running before this one.
    const propria = criarProjecao();
    const id = randomUUID();
    propria.aplicar([imovelSalvo(id, 1)], T1);
    const apiPropria = await criarApi({ leitor: propria.abrirLeitor(), limite: 10_000 });
    try {
      const primeira = await apiPropria.get(`/api/v1/imoveis/${id}`);
      expect(primeira.statusCode).toBe(200);
      const etag = primeira.headers['etag'] as string;
      expect(etag).toMatch(/^W\/".+"$/);
      const naoModificado = await apiPropria.get(`/api/v1/imoveis/${id}`, { headers: { 'if-none-match': etag } });
      expect(naoModificado.statusCode).toBe(304);
      expect(naoModificado.body).toBe('');
      expect(naoModificado.headers['etag']).toBe(etag);
      expect((await apiPropria.get(`/api/v1/imoveis/${id}`, { headers: { 'if-none-match': 'W/"outra", ' + etag } })).statusCode).toBe(304);

      propria.aplicar([imovelSalvo(id, 2, { titulo: 'Apartamento reformado' })], T2);
      const mudou = await apiPropria.get(`/api/v1/imoveis/${id}`, { headers: { 'if-none-match': etag } });
      expect(mudou.statusCode).toBe(200);
      expect(mudou.headers['etag']).not.toBe(etag);
    } finally {
      await apiPropria.fechar();
      propria.remover();
    }
  });
});

describe('GET /imoveis/removidos', () => {
  it('lists physical deletions since the instant, inclusive, and not withdrawals', async () => {
    const r = await api.get(`/api/v1/imoveis/removidos?desde=${iso(T1)}`);
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ dados: [{ id: excluido, codigo: 'AP9999', removido_em: iso(T4) }] });
    expect(JSON.parse((await api.get(`/api/v1/imoveis/removidos?desde=${iso(T4)}`)).body)).toEqual({
      dados: [{ id: excluido, codigo: 'AP9999', removido_em: iso(T4) }],
    });
    expect(JSON.parse((await api.get(`/api/v1/imoveis/removidos?desde=${iso(T4 + 1)}`)).body)).toEqual({ dados: [] });
  });

  it('reads desde with any offset and a fraction finer than a millisecond as the instant meant, inclusive', async () => {
    const removidos = async (desde: string) => (JSON.parse((await api.get(`/api/v1/imoveis/removidos?desde=${encodeURIComponent(desde)}`)).body) as { dados: unknown[] }).dados.length;
    // T4 is 13:00:00.000Z: 10:00 at -03:00; a fraction past its millisecond comes after it.
    expect(await removidos('2026-11-21T10:00:00-03:00')).toBe(1);
    expect(await removidos('2026-11-21T14:00:00.000+01:00')).toBe(1);
    expect(await removidos('2026-11-21T12:59:59.9999Z')).toBe(1);
    expect(await removidos('2026-11-21T13:00:00.0001Z')).toBe(0);
  });

  it('is not mistaken for a property id', async () => {
    const r = await api.get('/api/v1/imoveis/removidos');
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ mensagem: "parâmetro 'desde' inválido: obrigatório" });
  });
});

describe('parameter validation', () => {
  const casos: [string, string][] = [
    ['/api/v1/imoveis?por_pagina=abc', 'por_pagina'],
    ['/api/v1/imoveis?por_pagina=1.5', 'por_pagina'],
    ['/api/v1/imoveis?por_pagina=-1', 'por_pagina'],
    ['/api/v1/imoveis?por_pagina=0', 'por_pagina'],
    ['/api/v1/imoveis?por_pagina=201', 'por_pagina'],
    ['/api/v1/imoveis?por_pagina=', 'por_pagina'],
    ['/api/v1/imoveis?por_pagina=10&por_pagina=20', 'por_pagina'],
    ['/api/v1/imoveis?cursor=nao-e-uuid', 'cursor'],
    ['/api/v1/imoveis?cursor=00000000-0000-4000-8000-000000000000&cursor=00000000-0000-4000-8000-000000000001', 'cursor'],
    ['/api/v1/imoveis?alterados_desde=2026-11-21T10:00:00', 'alterados_desde'],
    ['/api/v1/imoveis?alterados_desde=2026-11-21', 'alterados_desde'],
    ['/api/v1/imoveis?alterados_desde=ontem', 'alterados_desde'],
    ['/api/v1/imoveis?alterados_desde=2026-11-21T10:00:00Z&alterados_desde=2026-11-21T11:00:00Z', 'alterados_desde'],
    ['/api/v1/imoveis/123', 'id'],
    ['/api/v1/imoveis/nao-e-uuid', 'id'],
    [`/api/v1/imoveis/${'a'.repeat(300)}`, 'id'],
    ['/api/v1/imoveis/removidos', 'desde'],
    ['/api/v1/imoveis/removidos?desde=2026-11-21T10:00:00', 'desde'],
    ['/api/v1/imoveis/removidos?desde=amanha', 'desde'],
    ['/api/v1/imoveis/removidos?desde=2026-11-21T10:00:00Z&desde=2026-11-21T10:00:00Z', 'desde'],
    ['/api/v1/imoveis?desde=2026-11-21T10:00:00Z', 'desde'],
  ];

  it.each(casos)('%s answers 400 with an Erro naming %s', async (url, parametro) => {
    const r = await api.get(url);
    expect(r.statusCode).toBe(400);
    const { mensagem } = JSON.parse(r.body) as { mensagem: string };
    expect(mensagem).toContain(`'${parametro}'`);
  });

  it('names every offending parameter when several are wrong', async () => {
    const r = await api.get('/api/v1/imoveis?por_pagina=999&cursor=x');
    expect(JSON.parse(r.body)).toEqual({
      mensagem: "parâmetro 'por_pagina' inválido: deve ser no máximo 200; parâmetro 'cursor' inválido: esperado um uuid",
    });
  });

  it('names the maximum of por_pagina, however large the number sent', async () => {
    const r = await api.get('/api/v1/imoveis?por_pagina=99999999999999999999');
    expect(JSON.parse(r.body)).toEqual({ mensagem: "parâmetro 'por_pagina' inválido: deve ser no máximo 200" });
  });

  it('reads a path that does not decode (a stray %) as the value sent: the 400 names id, after the credential', async () => {
    for (const url of ['/api/v1/imoveis/%E0%A4%A', '/api/v1/imoveis/%ZZ', '/api/v1/imoveis/removidos%ZZ?desde=x']) {
      const r = await api.get(url);
      expect(r.statusCode, url).toBe(400);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(r.body), url).toEqual({ mensagem: expect.stringContaining("parâmetro 'id' inválido") });
      expect((await api.get(url, { token: null })).statusCode, url).toBe(401);
    }
    const semRota = await api.get('/api/v1/imoveis%');
    expect(semRota.statusCode).toBe(404);
    // Named as sent, not as read.
    expect(JSON.parse(semRota.body)).toEqual({ mensagem: 'rota não encontrada: GET /api/v1/imoveis%' });
  });

  it('refuses every parameter an operation does not define, naming it and the ones it takes: a misspelt one is no silent full scan', async () => {
    const casos: [string, string][] = [
      ['/api/v1/imoveis?alterado_desde=2026-11-21T10:00:00Z', "parâmetro 'alterado_desde' inválido: desconhecido (aceitos: por_pagina, cursor, alterados_desde)"],
      ['/api/v1/imoveis?desde=2026-11-21T10:00:00Z&por_pagina=1', "parâmetro 'desde' inválido: desconhecido (aceitos: por_pagina, cursor, alterados_desde)"],
      ['/api/v1/imoveis?por_pagina%5B%5D=5', "parâmetro 'por_pagina[]' inválido: desconhecido (aceitos: por_pagina, cursor, alterados_desde)"],
      ['/api/v1/imoveis?POR_PAGINA=5&_=1700000000', "parâmetro 'POR_PAGINA' inválido: desconhecido (aceitos: por_pagina, cursor, alterados_desde); parâmetro '_' inválido: desconhecido (aceitos: por_pagina, cursor, alterados_desde)"],
      ['/api/v1/imoveis/removidos?desde=2026-11-21T10:00:00Z&por_pagina=10', "parâmetro 'por_pagina' inválido: desconhecido (aceitos: desde)"],
      // A parameter without a name is named too, as such.
      ['/api/v1/imoveis?=3', "parâmetro '' inválido: desconhecido (aceitos: por_pagina, cursor, alterados_desde)"],
      [`/api/v1/imoveis/${randomUUID()}?v=1`, "parâmetro 'v' inválido: desconhecido (esta operação não aceita parâmetros)"],
    ];
    for (const [url, mensagem] of casos) {
      const r = await api.get(url);
      expect(r.statusCode, url).toBe(400);
      expect(JSON.parse(r.body), url).toEqual({ mensagem });
    }
    // A bad value and an unknown name: both named.
    const ambos = await api.get('/api/v1/imoveis?por_pagina=0&curso=x');
    expect(JSON.parse(ambos.body)).toEqual({ mensagem: expect.stringMatching(/^(?=.*'por_pagina' inválido: deve ser no mínimo 1)(?=.*'curso' inválido: desconhecido)/) });
  });

  it('tells a negative por_pagina the minimum, not that it is no whole number', async () => {
    const r = await api.get('/api/v1/imoveis?por_pagina=-1');
    expect(JSON.parse(r.body)).toEqual({ mensagem: "parâmetro 'por_pagina' inválido: deve ser no mínimo 1" });
  });
});

describe('request id', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('answers every request, a refused one too, with a new X-Request-Id (and nosniff)', async () => {
    const respostas = await Promise.all([
      api.get('/api/v1/imoveis'),
      api.get('/api/v1/imoveis', { token: null }),
      api.get('/api/v1/imoveis?por_pagina=0'),
      api.get('/api/v1/nada'),
      api.get('/api/v1/imoveis%'),
      api.app.inject({ method: 'GET', url: '/health/live' }),
    ]);
    const ids = respostas.map((r) => r.headers['x-request-id']);
    for (const [i, id] of ids.entries()) expect(id, String(i)).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of respostas) expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('behind a trusted proxy, logs the address the proxy saw, not what the client wrote in X-Forwarded-For', async () => {
    const atrasDoProxy = await criarApi({ leitor: projecao.abrirLeitor(), config: { trustProxy: true } });
    try {
      for (let i = 0; i < 2; i++) await atrasDoProxy.get('/api/v1/imoveis', { token: null, headers: { 'x-forwarded-for': `10.0.0.${i}, 203.0.113.9` } });
      expect(enderecosLogados(atrasDoProxy).slice(-2)).toEqual(['203.0.113.9', '203.0.113.9']);
    } finally {
      await atrasDoProxy.fechar();
    }
  });

  it("keeps a trusted gateway's X-Request-Id when it looks like an id, and never a client's own", async () => {
    const recebido = '01JDX7Q2M3-gw.a:7@borda';
    const atrasDoProxy = await criarApi({ leitor: projecao.abrirLeitor(), config: { trustProxy: true } });
    try {
      expect((await atrasDoProxy.get('/api/v1/imoveis', { headers: { 'x-request-id': recebido } })).headers['x-request-id']).toBe(recebido);
      for (const ruim of ['a b', 'x'.repeat(129), '<script>', '']) {
        expect((await atrasDoProxy.get('/api/v1/imoveis', { headers: { 'x-request-id': ruim } })).headers['x-request-id'], ruim).toMatch(UUID);
      }
    } finally {
      await atrasDoProxy.fechar();
    }
    // Without a proxy in front, the header comes from the client, which must not pick its id.
    expect((await api.get('/api/v1/imoveis', { headers: { 'x-request-id': recebido } })).headers['x-request-id']).toMatch(UUID);
  });

  it('trusts proxies by address when told their addresses: a client reaching the port directly picks neither its address nor its id', async () => {
    const recebido = '01JDX7Q2M3-gw.a:7@borda';
    // The test's requests come from 127.0.0.1: a trusted proxy in one app, a client in the other.
    const doProxy = await criarApi({ leitor: projecao.abrirLeitor(), config: { trustProxy: ['127.0.0.0/8'] } });
    const direto = await criarApi({ leitor: projecao.abrirLeitor(), config: { trustProxy: ['192.0.2.7'] } });
    try {
      expect((await doProxy.get('/api/v1/imoveis', { headers: { 'x-request-id': recebido } })).headers['x-request-id']).toBe(recebido);
      expect((await direto.get('/api/v1/imoveis', { headers: { 'x-request-id': recebido } })).headers['x-request-id']).toMatch(UUID);
      // Through the trusted proxy each client is logged by its own address; directly, a forged header changes nothing.
      for (const app of [doProxy, direto]) {
        for (let i = 0; i < 2; i++) await app.get('/api/v1/imoveis', { token: null, headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      }
      expect(enderecosLogados(doProxy).slice(-2)).toEqual(['203.0.113.0', '203.0.113.1']);
      expect(enderecosLogados(direto).slice(-2)).toEqual(['127.0.0.1', '127.0.0.1']);
    } finally {
      await doProxy.fechar();
      await direto.fechar();
    }
  });
});

describe('error statuses outside the operations', () => {
  it('answers unknown routes with 404 and an Erro, inside and outside the prefix', async () => {
    // With a trailing slash, as every other partner path: no `id` was sent to be named.
    for (const url of ['/api/v1/nada', '/api/v2/imoveis', '/', '/api/v1/imoveis/removidos/x', '/api/v1/imoveis/', '/api/v1/imoveis/?por_pagina=1', `/api/v1/imoveis/${alterado}/`, '/api/v1/imoveis/removidos/']) {
      const r = await api.get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(r.body)).toEqual({ mensagem: expect.any(String) });
      // Under the partner prefix the gate answered first: a credential, and the limit's headers.
      if (url.startsWith('/api/v1/')) expect(r.headers['ratelimit'], url).toBeDefined();
    }
    expect((await api.get('/api/v1/nada', { token: null })).statusCode).toBe(401);
  });

  it('answers other methods on a known route with 405, an Erro and Allow: GET', async () => {
    for (const metodo of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'] as const) {
      for (const url of ['/api/v1/imoveis', `/api/v1/imoveis/${alterado}`, '/api/v1/imoveis/removidos']) {
        const r = await api.get(url, { metodo });
        expect(r.statusCode, `${metodo} ${url}`).toBe(405);
        expect(r.headers['allow']).toBe('GET');
        if (metodo !== 'HEAD') expect(JSON.parse(r.body)).toEqual({ mensagem: expect.stringContaining(metodo) });
      }
    }
  });

  it('answers 406 with an Erro when Accept excludes JSON, and serves JSON to */* or no Accept', async () => {
    for (const accept of ['text/html', 'application/xml, text/*;q=0.9', 'application/json;q=0, */*']) {
      const r = await api.get('/api/v1/imoveis', { headers: { accept } });
      expect(r.statusCode, accept).toBe(406);
      expect(JSON.parse(r.body)).toEqual({ mensagem: expect.any(String) });
    }
    for (const accept of ['*/*', 'application/json', 'application/*;q=0.5, text/html', 'text/html, */*;q=0.1']) {
      expect((await api.get('/api/v1/imoveis', { headers: { accept } })).statusCode, accept).toBe(200);
    }
  });

  it('answers 405 on a partner path before reading any body', async () => {
    const corpos: [string, string][] = [
      ['application/json', JSON.stringify({ x: 'a'.repeat(64 * 1024) })],
      ['application/json', '{ruim'],
      ['application/xml', '<a/>'],
    ];
    for (const [tipo, payload] of corpos) {
      const r = await api.app.inject({
        method: 'POST',
        url: '/api/v1/imoveis?por_pagina=2',
        headers: { 'content-type': tipo, authorization: `Bearer ${api.token}` },
        payload,
      });
      expect(r.statusCode, payload.slice(0, 10)).toBe(405);
      expect(r.headers['allow']).toBe('GET');
      expect(r.headers['ratelimit']).toBeDefined();
    }
  });

  it('answers 413 with an Erro for a large body sent anywhere else (no route takes a body)', async () => {
    const grande = await api.app.inject({
      method: 'POST',
      url: '/api/v1/nada',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
      payload: JSON.stringify({ x: 'a'.repeat(64 * 1024) }),
    });
    expect(grande.statusCode).toBe(413);
    api.validador.validar('POST', '/api/v1/nada', grande);
  });
});

describe('compression', () => {
  it('compresses a large page with gzip or brotli when the client accepts it', async () => {
    const simples = await api.get('/api/v1/imoveis');
    for (const [codificacao, descomprimir] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const r = await api.get('/api/v1/imoveis', { headers: { 'accept-encoding': codificacao } });
      expect(r.headers['content-encoding']).toBe(codificacao);
      expect(r.headers['vary']).toContain('accept-encoding');
      const corpo = descomprimir(r.rawPayload).toString('utf8');
      expect(corpo).toBe(simples.body);
      api.validador.validar('GET', '/api/v1/imoveis', { statusCode: r.statusCode, headers: r.headers, body: corpo });
    }
  });

  it('leaves a small answer uncompressed', async () => {
    const r = await api.get(`/api/v1/imoveis?alterados_desde=${iso(T4 + 10_000)}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers['content-encoding']).toBeUndefined();
  });
});

describe('OpenAPI document and documentation page', () => {
  it('is OpenAPI 3.1 with the three operations, every status of the contract with its Erro body, and the bearer scheme', async () => {
    const r = await api.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = JSON.parse(r.body) as {
      openapi: string;
      info: { version: string; description: string };
      servers: { url: string }[];
      paths: Record<string, { get: { operationId: string; responses: Record<string, { content?: Record<string, { schema: { $ref: string } }>; headers?: Record<string, unknown> }> } }>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
      security: unknown[];
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0]?.url).toBe('/api/v1');
    expect(doc.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/imoveis', '/imoveis/removidos', '/imoveis/{id}']);
    const esperado: Record<string, [string, string[]]> = {
      '/imoveis': ['listarImoveis', ['200', '400', '401', '429', '500']],
      '/imoveis/{id}': ['obterImovel', ['200', '400', '401', '404', '429']],
      '/imoveis/removidos': ['listarRemovidos', ['200', '400', '401', '429']],
    };
    for (const [caminho, [operacao, statuses]] of Object.entries(esperado)) {
      const get = doc.paths[caminho]?.get;
      expect(get?.operationId).toBe(operacao);
      for (const status of statuses) {
        const resposta = get?.responses[status];
        expect(resposta, `${operacao} ${status}`).toBeDefined();
        if (status !== '200') expect(resposta?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/Erro');
        expect(resposta?.headers).toHaveProperty('RateLimit');
        expect(resposta?.headers).toHaveProperty('X-Request-Id');
      }
      expect(get?.responses['429']?.headers).toHaveProperty('Retry-After');
      // Past the client address's limit, a 401 says when to come back (decision 0017).
      expect(get?.responses['401']?.headers).toHaveProperty('Retry-After');
      // "Documented for /imoveis only."
      expect(Object.hasOwn(get?.responses ?? {}, '500'), operacao).toBe(operacao === 'listarImoveis');
    }
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Erro', 'Foto', 'Imovel', 'ImovelRetirado', 'ItemRemovido', 'ListagemImoveis', 'ListagemRemovidos']);
    // The contract's bounds, stated for generated clients.
    const propriedades = (nome: string) => (doc.components.schemas[nome] as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(propriedades('ListagemImoveis')['por_pagina']).toMatchObject({ minimum: 1, maximum: 200 });
    expect(propriedades('ListagemImoveis')['total']).toMatchObject({ anyOf: [expect.objectContaining({ minimum: 0 }), { type: 'null' }] });
    expect(propriedades('Imovel')['caracteristicas']).toMatchObject({ uniqueItems: true });
    expect(propriedades('Foto')['ordem']).toMatchObject({ minimum: 1 });
    // Date parameters are date-times without RFC 3339's pattern: every ISO 8601 form with an offset is read.
    for (const [caminho, nome] of [['/imoveis', 'alterados_desde'], ['/imoveis/removidos', 'desde']] as const) {
      const { parameters } = doc.paths[caminho]!.get as unknown as { parameters: { name: string; schema: Record<string, unknown> }[] };
      expect(parameters.find((p) => p.name === nome)?.schema).toEqual({ type: 'string', format: 'date-time', example: '2026-11-21T10:00:00-03:00' });
    }
    // JSON Schema 2020-12 refuses a fragment as `$id` (validators and generators would reject
    // the document); the dialect is the document's own.
    expect(r.body).not.toMatch(/"\$id"|"\$schema"/);
    // The configured limit (this suite's app allows 10 000 so the limit never interferes).
    expect(doc.info.description).toContain('10000 requisições por minuto');
  });

  it("describes each resource field for field as partner-api.md's tables do: every field required, its type, whether it may be null, its allowed values", async () => {
    const r = await api.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const { schemas } = (JSON.parse(r.body) as { components: { schemas: Record<string, EsquemaJson> } }).components;
    // Transcribed from the contract's tables, not from our schemas: `a | b` are the values or
    // types a field may take, `"x"` an allowed value, `T[]` an array of T.
    const contrato: Record<string, Record<string, string>> = {
      Imovel: {
        id: 'uuid',
        codigo: 'string',
        publicado: 'true',
        tipo: 'string | null',
        categoria: '"Residencial" | "Comercial" | null',
        finalidade: '"Venda" | "Locação" | "Venda e Locação" | null',
        status_comercial: '"Disponível" | "Reservado" | "Em negociação" | null',
        lancamento: 'boolean',
        titulo: 'string',
        descricao: 'string | null',
        logradouro: 'string | null',
        numero: 'null',
        complemento: 'null',
        bairro: 'string | null',
        cidade: 'string | null',
        uf: 'string | null',
        cep: 'string | null',
        latitude: 'number | null',
        longitude: 'number | null',
        exibir_endereco: '"rua" | "bairro"',
        valor_venda: 'number | null',
        valor_aluguel: 'number | null',
        valor_condominio: 'number | null',
        valor_iptu: 'number | null',
        periodicidade_iptu: '"Mensal" | "Anual" | null',
        ocultar_preco: 'boolean',
        aceita_financiamento: 'boolean | null',
        aceita_permuta: 'boolean | null',
        mobiliado: '"Mobiliado" | "Não" | null',
        quartos: 'integer | null',
        suites: 'integer | null',
        banheiros: 'integer | null',
        vagas: 'integer | null',
        area_util: 'number | null',
        area_total: 'number | null',
        nome_condominio: 'string | null',
        caracteristicas: 'string[]',
        fotos: 'Foto[]',
        video_url: 'uri | null',
        tour_virtual_url: 'string | null',
        criado_em: 'date-time | null',
        atualizado_em: 'date-time | null',
      },
      Foto: { url: 'uri', ordem: 'integer', principal: 'boolean' },
      ImovelRetirado: { id: 'uuid', codigo: 'string', publicado: 'false', atualizado_em: 'date-time | null' },
      ItemRemovido: { id: 'uuid', codigo: 'string', removido_em: 'date-time' },
      ListagemImoveis: { dados: '(Imovel | ImovelRetirado)[]', por_pagina: 'integer', proximo_cursor: 'uuid | null', total: 'integer | null' },
      ListagemRemovidos: { dados: 'ItemRemovido[]' },
      Erro: { mensagem: 'string' },
    };
    for (const [nome, campos] of Object.entries(contrato)) {
      const esquema = schemas[nome]!;
      // In the contract's order, so generated clients list the fields as partners read them.
      expect(Object.entries(esquema.properties ?? {}).map(([campo, s]) => [campo, forma(s)]), nome).toEqual(Object.entries(campos));
      expect(esquema.required, nome).toEqual(Object.keys(campos));
    }
    expect(schemas['Imovel']!.properties!['cep']).toMatchObject({ anyOf: [{ pattern: String.raw`^\d{8}$` }, { type: 'null' }] });
  });

  it("carries the contract's rules to the reader: every resource and field described, each operation's rules", async () => {
    const r = await api.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const doc = JSON.parse(r.body) as { components: { schemas: Record<string, EsquemaJson> }; paths: Record<string, { get: { description?: string } }> };
    const semDescricao = Object.entries(doc.components.schemas).flatMap(([nome, esquema]) => [
      ...(esquema.description ? [] : [nome]),
      ...Object.entries(esquema.properties ?? {}).flatMap(([campo, s]) => (s.description ? [] : [`${nome}.${campo}`])),
    ]);
    expect(semDescricao).toEqual([]);
    // A few of the contract's rules, as a partner reads them in the document.
    const { Imovel, Foto, ListagemImoveis } = doc.components.schemas;
    expect(Imovel!.properties!['ocultar_preco']!.description).toContain('preço sob consulta');
    expect(Imovel!.properties!['quartos']!.description).toContain('`0` significa nenhum');
    expect(Foto!.properties!['principal']!.description).toContain('Exatamente uma foto por imóvel');
    expect(ListagemImoveis!.properties!['proximo_cursor']!.description).toContain('`null` significa o fim');
    expect(ListagemImoveis!.properties!['total']!.description).toContain('todo o filtro, não da página');
    expect(doc.paths['/imoveis']!.get.description).toMatch(/ordem estável por `id`[\s\S]*1\. Sem `alterados_desde`[\s\S]*5\. /);
    expect(doc.paths['/imoveis/{id}']!.get.description).toContain('404 quando o imóvel não existe ou não está anunciado');
    expect(doc.paths['/imoveis/removidos']!.get.description).toContain('Despublicar ou inativar não é exclusão');
  });

  it('serves a human-readable documentation page without a credential', async () => {
    const r = await api.app.inject({ method: 'GET', url: '/api/v1/docs/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    // Scripts only from the page's own files; nothing upgraded to HTTPS (the demo serves plain HTTP).
    const politica = String(r.headers['content-security-policy']);
    expect(politica).toMatch(/(^|; )script-src 'self'[^;]*;/);
    expect(politica).toContain("object-src 'none'");
    expect(politica).not.toMatch(/upgrade-insecure-requests|validator\.swagger\.io/);
    const arquivo = await api.app.inject({ method: 'GET', url: '/api/v1/docs/static/swagger-initializer.js' });
    expect(arquivo.statusCode).toBe(200);
    expect(arquivo.headers['content-security-policy']).toBe(politica);
    // The partner routes' JSON is no page: no CSP there.
    expect((await api.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).headers['content-security-policy']).toBeUndefined();
  });

  it('sends the page\'s files as they are, with an ETag: compressing 1.5 MB of script on every request would cost anyone\'s loop 100 ms of CPU', async () => {
    const r = await api.app.inject({ method: 'GET', url: '/api/v1/docs/static/swagger-ui-bundle.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['etag']).toBeTruthy();
    // The page's copy of the contract likewise: the contract's own document is compressed.
    const copia = await api.app.inject({ method: 'GET', url: '/api/v1/docs/json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(copia.statusCode).toBe(200);
    expect(copia.headers['content-encoding']).toBeUndefined();
  });

  it('sends the contract compressed as the client accepts, the same bytes each time, and as it is otherwise', async () => {
    const pedir = (aceitas?: string) =>
      api.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: aceitas === undefined ? {} : { 'accept-encoding': aceitas } });
    const puro = await pedir();
    expect(puro.headers['content-encoding']).toBeUndefined();
    const documento = JSON.parse(puro.body) as unknown;
    for (const [aceitas, codificacao, descomprimir] of [
      ['gzip', 'gzip', gunzipSync],
      ['gzip, br', 'br', brotliDecompressSync],
      ['br;q=0.5, gzip', 'gzip', gunzipSync],
    ] as const) {
      const [primeira, segunda] = [await pedir(aceitas), await pedir(aceitas)];
      expect(primeira.headers['content-encoding'], aceitas).toBe(codificacao);
      expect(primeira.headers['vary'], aceitas).toContain('accept-encoding');
      expect(JSON.parse(descomprimir(primeira.rawPayload).toString('utf8')), aceitas).toEqual(documento);
      expect(segunda.rawPayload.equals(primeira.rawPayload), aceitas).toBe(true);
    }
    for (const aceitas of ['identity', 'deflate', 'gzip;q=0, br;q=0']) expect((await pedir(aceitas)).headers['content-encoding'], aceitas).toBeUndefined();
  });
});

interface EsquemaJson {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: EsquemaJson[];
  items?: EsquemaJson;
  $ref?: string;
  properties?: Record<string, EsquemaJson>;
  required?: string[];
  description?: string;
}

/** A JSON Schema as the contract's tables write a type: `string | null`, `"Venda" | "Locação"`, `Foto[]`. */
function forma(s: EsquemaJson): string {
  if (s.anyOf !== undefined) return s.anyOf.map(forma).join(' | ');
  if (s.$ref !== undefined) return s.$ref.split('/').at(-1)!;
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.type)) return s.type.map((type) => forma({ ...s, type })).join(' | ');
  if (s.enum !== undefined) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') {
    const item = forma(s.items!);
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  }
  return s.format ?? s.type!;
}
