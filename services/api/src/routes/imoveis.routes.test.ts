// Removal listings and ETag matching.
import { describe, expect, it } from 'vitest';
import { etagCorresponde, etagImovel, montarRemovidos } from './imoveis.routes.ts';

describe('montarRemovidos', () => {
  it('writes ISO date-times with milliseconds and escapes the code', () => {
    const texto = montarRemovidos([{ id: 'a', codigo: 'AP"1', removidoEm: Date.parse('2026-11-21T10:00:00Z') }]);
    expect(JSON.parse(texto)).toEqual({ dados: [{ id: 'a', codigo: 'AP"1', removido_em: '2026-11-21T10:00:00.000Z' }] });
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
