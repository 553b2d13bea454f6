// Listing pages wrapped around the reader's items, and ETag matching.
import { describe, expect, it } from 'vitest';
import { CAMINHOS, etagCorresponde, etagImovel, montarListagem, montarRemovidos, rotaDeParceiro } from './imoveis.routes.ts';

describe('montarListagem', () => {
  it('wraps the ready-made items and points the cursor where the reader says more follow', () => {
    const json = Buffer.from('{"id":"a","titulo":"Casa açaí","atualizado_em":"2026-11-21T10:00:00.000Z"},{"id":"b"}');
    const corpo = montarListagem({ json, quantidade: 2, proximoCursor: 'b', total: 5 }, 2).toString();
    expect(JSON.parse(corpo)).toEqual({
      dados: [{ id: 'a', titulo: 'Casa açaí', atualizado_em: '2026-11-21T10:00:00.000Z' }, { id: 'b' }],
      por_pagina: 2,
      proximo_cursor: 'b',
      total: 5,
    });
  });

  it('ends with a null cursor, also for an empty result', () => {
    const corpo = montarListagem({ json: Buffer.alloc(0), quantidade: 0, proximoCursor: null, total: 0 }, 50).toString();
    expect(JSON.parse(corpo)).toEqual({ dados: [], por_pagina: 50, proximo_cursor: null, total: 0 });
  });
});

describe('montarRemovidos', () => {
  it('wraps the items the reader wrote in the envelope, none too', () => {
    const item = '{"id":"a","codigo":"AP\\"1","removido_em":"2026-11-21T10:00:00.000Z"}';
    expect(JSON.parse(montarRemovidos(Buffer.from(`${item},${item}`)).toString())).toEqual({ dados: [JSON.parse(item), JSON.parse(item)] });
    expect(montarRemovidos(Buffer.alloc(0)).toString()).toBe('{"dados":[]}');
  });
});

describe('ETag', () => {
  it('changes with atualizado_em and matches weakly, in a list, or *', () => {
    const etag = etagImovel('a', 1000);
    expect(etagImovel('a', 1001)).not.toBe(etag);
    expect(etagCorresponde(etag, etag)).toBe(true);
    expect(etagCorresponde(etag.slice(2), etag)).toBe(true);
    expect(etagCorresponde(`"x", ${etag}`, etag)).toBe(true);
    expect(etagCorresponde('*', etag)).toBe(true);
    expect(etagCorresponde('"x"', etag)).toBe(false);
    expect(etagCorresponde(undefined, etag)).toBe(false);
  });
});

describe('rotaDeParceiro', () => {
  it('gives the route of a partner path, query string or not', () => {
    expect(rotaDeParceiro('/imoveis')).toBe(CAMINHOS.listagem);
    expect(rotaDeParceiro('/imoveis?por_pagina=2')).toBe(CAMINHOS.listagem);
    expect(rotaDeParceiro('/imoveis/removidos?desde=x')).toBe(CAMINHOS.removidos);
    expect(rotaDeParceiro('/imoveis/0f8e1c52-4a7c-4c0e-9a63-0d3b8a1f2e45')).toBe(CAMINHOS.imovel);
    expect(rotaDeParceiro('/imoveis/qualquer-coisa?x=1')).toBe(CAMINHOS.imovel);
    expect(rotaDeParceiro('/imoveis#x')).toBe(CAMINHOS.listagem);
    expect(rotaDeParceiro('/imoveis/removidos#x')).toBe(CAMINHOS.removidos);
  });

  it('gives null for any other path', () => {
    for (const url of ['/', '/imoveisx', '/imoveis/a/b', '/imoveis/', '/openapi.json', '/outro/imoveis']) expect(rotaDeParceiro(url), url).toBeNull();
  });
});
