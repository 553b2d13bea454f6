import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfiguracaoInvalida, KAFKA_BROKERS, LOG_LEVEL, PORT, REDIS_URL, ehFalhaDeArquivo, lerConfiguracao } from './index.ts';

const Config = z.object({ KAFKA_BROKERS });

describe('lerConfiguracao', () => {
  it('splits KAFKA_BROKERS into host:port entries', () => {
    expect(lerConfiguracao(Config, { KAFKA_BROKERS: 'a:9092, b:19092' }).KAFKA_BROKERS).toEqual(['a:9092', 'b:19092']);
    expect(lerConfiguracao(Config, {}).KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
  });

  it.each(['nope', 'a:9092,b', 'host:99999', 'host:0'])('names KAFKA_BROKERS for %j', (valor) => {
    expect(() => lerConfiguracao(Config, { KAFKA_BROKERS: valor })).toThrow(ConfiguracaoInvalida);
    expect(() => lerConfiguracao(Config, { KAFKA_BROKERS: valor })).toThrow(/^configuração inválida: KAFKA_BROKERS: /);
  });
});

describe('LOG_LEVEL', () => {
  it('keeps the fatal line a process exits with when silent, and names a level it does not know', () => {
    const ler = (valor: string) => lerConfiguracao(z.object({ LOG_LEVEL }), { LOG_LEVEL: valor }).LOG_LEVEL;
    expect([ler('silent'), ler('fatal'), ler('debug')]).toEqual(['fatal', 'fatal', 'debug']);
    expect(lerConfiguracao(z.object({ LOG_LEVEL }), {}).LOG_LEVEL).toBe('info');
    expect(() => ler('verbose')).toThrow('configuração inválida: LOG_LEVEL: deve ser um de: fatal, error, warn, info, debug, trace, silent');
  });
});

describe('REDIS_URL', () => {
  it('takes a redis:// or rediss:// address with a host and, optionally, a database number', () => {
    const ler = (valor: string) => lerConfiguracao(z.object({ REDIS_URL }), { REDIS_URL: valor }).REDIS_URL;
    for (const bom of ['redis://127.0.0.1:6379', 'rediss://user:senha@cache.interno:6380/2', 'redis://cache/']) expect(ler(bom), bom).toBe(bom);
    // The last ones are no URL at all: refused all the same, in one line (they threw before).
    for (const ruim of ['redis://', 'http://cache:6379', 'redis://cache/limites', 'cache:6379', '127.0.0.1:6379', 'redis-host', 'redis://h:99999']) {
      expect(() => ler(ruim), ruim).toThrow(/^configuração inválida: REDIS_URL: /);
    }
  });
});

describe('integer settings', () => {
  const ComPorta = z.object({ PORT });

  it('reads decimal digits, and a blank value as unset', () => {
    expect(lerConfiguracao(ComPorta, { PORT: ' 8080 ' }).PORT).toBe(8080);
    expect(lerConfiguracao(ComPorta, { PORT: '0' }).PORT).toBe(0);
    // A blank value took port 0 (any free port) before: Number('   ') is 0.
    expect(lerConfiguracao(ComPorta, { PORT: '   ' }).PORT).toBe(3000);
    expect(lerConfiguracao(ComPorta, { PORT: '' }).PORT).toBe(3000);
  });

  it.each(['0x1F', '1e3', '12.5', '-1', 'abc', '65536'])('names PORT for %j', (valor) => {
    expect(() => lerConfiguracao(ComPorta, { PORT: valor })).toThrow(/^configuração inválida: PORT: deve ser /);
  });
});

describe('ehFalhaDeArquivo', () => {
  it('counts a folder that cannot be made on the way to a path (a dangling link: ENOENT)', () => {
    expect(ehFalhaDeArquivo(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(true);
    expect(ehFalhaDeArquivo(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
