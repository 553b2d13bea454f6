// The gate's pure parts: Accept negotiation, spotting a token in the query string, a repeated
// Authorization header and the limit's key for an address.
import { describe, expect, it } from 'vitest';
import { aceitaJson, autorizacaoRepetida, chaveDoEndereco, tokenNaUrl } from './acesso.hook.ts';

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
    ['application/json;q=0, application/json', true],
    ['application/json, application/json;q=0', true],
    ['*/*;q=0, text/html, */*;q=0.5', true],
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

describe('chaveDoEndereco', () => {
  it('keys an IPv4 client by its address, however its socket wrote it', () => {
    expect(chaveDoEndereco('203.0.113.7')).toBe('ip:203.0.113.7');
    expect(chaveDoEndereco('::ffff:203.0.113.7')).toBe('ip:203.0.113.7');
  });

  it('keys an IPv6 client by its /64, so the addresses of one host share one window', () => {
    const chave = chaveDoEndereco('2001:db8:1:2::1');
    expect(chave).toBe('ip:2001:db8:1:2::/64');
    expect(chaveDoEndereco('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(chave);
    expect(chaveDoEndereco('2001:db8:1:3::1')).not.toBe(chave);
    expect(chaveDoEndereco('::1')).toBe('ip:0:0:0:0::/64');
  });

  it('keys an IPv4 client behind NAT64 by its own address', () => {
    expect(chaveDoEndereco('64:ff9b::cb00:7107')).not.toBe(chaveDoEndereco('64:ff9b::cb00:7108'));
  });

  it('keeps what is no address as it came', () => {
    expect(chaveDoEndereco('desconhecido')).toBe('ip:desconhecido');
  });
});

describe('autorizacaoRepetida', () => {
  it('spots Authorization sent twice, whatever its case', () => {
    expect(autorizacaoRepetida(['Host', 'x', 'Authorization', 'Bearer a', 'authorization', 'Bearer b'])).toBe(true);
    expect(autorizacaoRepetida(['AUTHORIZATION', 'Bearer a', 'Accept', '*/*', 'Authorization', 'Bearer a'])).toBe(true);
  });

  it('leaves one Authorization, and a value that only reads like the name, alone', () => {
    expect(autorizacaoRepetida(['Host', 'x', 'Authorization', 'Bearer a'])).toBe(false);
    expect(autorizacaoRepetida(['Authorization', 'Bearer a', 'X-Nota', 'authorization'])).toBe(false);
    expect(autorizacaoRepetida([])).toBe(false);
  });
});
