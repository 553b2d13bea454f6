// The API's defaults are operations.md's table; a bad value names its variable.
import { lerConfiguracao } from '@imoveis/config';
import { describe, expect, it } from 'vitest';
import { ConfigApi, avisosDaConfiguracao } from './config.ts';

describe('ConfigApi', () => {
  it('reads TRUST_PROXY as the number of proxies in front (true: one), naming it when it is neither', () => {
    const ler = (TRUST_PROXY?: string) => lerConfiguracao(ConfigApi, TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).TRUST_PROXY;
    expect([ler(), ler('false'), ler('true'), ler('2'), ler('TRUE'), ler('off')]).toEqual([0, 0, 1, 2, 1, 0]);
    expect(() => ler('talvez')).toThrow(/^configuração inválida: TRUST_PROXY: /);
  });

  it('reads TRUST_PROXY as the proxies\' addresses too, refusing what is no address', () => {
    const ler = (TRUST_PROXY: string) => lerConfiguracao(ConfigApi, { TRUST_PROXY }).TRUST_PROXY;
    expect(ler('10.0.0.0/8, 192.0.2.7,2001:db8::/32')).toEqual(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);
    expect(ler('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
    // A count past 9 or a decimal is a mistyped count, not the address ipaddr.js would read (0.0.0.10).
    for (const ruim of ['10.0.0.0/99', '10.0.0.1,', 'gateway.interno', '10', '12', '01', '1.5', '10/8', '0x0a000001']) {
      expect(() => ler(ruim), ruim).toThrow(/^configuração inválida: TRUST_PROXY: /);
    }
  });

  it("defaults to operations.md's values", () => {
    expect(lerConfiguracao(ConfigApi, {})).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 3000,
      DATABASE_PATH: './data/projecao.db',
      CREDENTIALS_FILE: './data/credenciais.json',
      RATE_LIMIT_PER_MINUTE: 120,
      LOG_LEVEL: 'info',
      READY_MAX_LAG_SECONDS: 60,
    });
    // Unset: the per-process limiter (server.ts warns at start, avisosDaConfiguracao below).
    expect(lerConfiguracao(ConfigApi, {}).REDIS_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['REDIS_URL', 'http://x'],
    ['LOG_LEVEL', 'verbose'],
  ])('names %s when it is %j', (variavel, valor) => {
    expect(() => lerConfiguracao(ConfigApi, { [variavel]: valor })).toThrow(new RegExp(`^configuração inválida: ${variavel}: `));
  });
});

describe('avisosDaConfiguracao', () => {
  const avisos = (env: Record<string, string>) => avisosDaConfiguracao(lerConfiguracao(ConfigApi, { REDIS_URL: 'redis://r:6379', ...env }));

  it('warns of the per-process limiter when REDIS_URL is unset, and of nothing in a sound setting', () => {
    expect(avisosDaConfiguracao(lerConfiguracao(ConfigApi, {}))).toEqual([expect.stringMatching(/^REDIS_URL ausente/)]);
    expect(avisos({})).toEqual([]);
    expect(avisos({ HOST: '0.0.0.0', TRUST_PROXY: '10.0.0.0/8' })).toEqual([]);
  });

  it('warns when proxies are counted by hops on a port others can reach, where a direct client picks its limit key', () => {
    expect(avisos({ HOST: '0.0.0.0', TRUST_PROXY: 'true' })).toEqual([expect.stringMatching(/^TRUST_PROXY conta 1 proxy.*HOST 0\.0\.0\.0/)]);
    expect(avisos({ HOST: '10.1.2.3', TRUST_PROXY: '2' })).toHaveLength(1);
    for (const HOST of ['127.0.0.1', 'localhost', '::1']) expect(avisos({ HOST, TRUST_PROXY: 'true' }), HOST).toEqual([]);
  });
});
