// The gate's pure parts: Accept negotiation and spotting a token in the query string.
import { describe, expect, it } from 'vitest';
import { aceitaJson, tokenNaUrl } from './acesso.hook.ts';

describe('aceitaJson', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['*/*', true],
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['application/*', true],
    ['text/html, */*;q=0.1', true],
    ['text/html', false],
    ['text/*', false],
    ['application/xml', false],
    ['application/json;q=0', false],
    ['application/json;q=0, */*', false],
    ['*/*;q=0', false],
  ])('Accept %j → %s', (accept, esperado) => {
    expect(aceitaJson(accept)).toBe(esperado);
  });
});

describe('tokenNaUrl', () => {
  const token = `imv_${'a'.repeat(43)}`;
  it('spots access_token and token parameters, whatever their value, and any value shaped like a token', () => {
    expect(tokenNaUrl({ access_token: 'x' })).toBe(true);
    expect(tokenNaUrl({ TOKEN: 'x' })).toBe(true);
    expect(tokenNaUrl({ cursor: token })).toBe(true);
    expect(tokenNaUrl({ cursor: ['a', `prefixo${token}`] })).toBe(true);
  });

  it('spots a percent-encoded token, as a value or a name, beside a malformed escape (left undecoded by the parser)', () => {
    expect(tokenNaUrl({ x: `${token.replace('_', '%5F').replace('aaa', '%61%61%61')}%ZZ` })).toBe(true);
    expect(tokenNaUrl({ [`${token.replace('_', '%5F')}%ZZ`]: '' })).toBe(true);
  });

  it('leaves ordinary parameters alone', () => {
    expect(tokenNaUrl({ por_pagina: '10', cursor: '00000000-0000-4000-8000-000000000000' })).toBe(false);
    expect(tokenNaUrl({})).toBe(false);
    expect(tokenNaUrl(undefined)).toBe(false);
  });
});
