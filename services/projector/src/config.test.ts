// The projector's defaults are operations.md's table; PHOTOS_BASE_URL has none outside the demo.
import { lerConfiguracao } from '@imoveis/config';
import { describe, expect, it } from 'vitest';
import { ConfigProjetor, ConfigReconstrucao } from './config.ts';

/** operations.md's defaults for the variables the projector and the rebuild read alike. */
const PADROES = {
  KAFKA_BROKERS: ['127.0.0.1:9092'],
  IMOVEIS_TOPIC: 'registro.imoveis.v1',
  CONDOMINIOS_TOPIC: 'registro.condominios.v1',
  DATABASE_PATH: './data/projecao.db',
  LOG_LEVEL: 'info',
};

describe('ConfigProjetor', () => {
  it("defaults to operations.md's values", () => {
    expect(lerConfiguracao(ConfigProjetor, { PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br' })).toMatchObject({ ...PADROES, KAFKA_GROUP_ID: 'imoveis-projector' });
  });

  it('requires an https: PHOTOS_BASE_URL, naming it, and saying it is missing when it is', () => {
    expect(() => lerConfiguracao(ConfigProjetor, {})).toThrow(/^configuração inválida: PHOTOS_BASE_URL: obrigatória: /);
    expect(() => lerConfiguracao(ConfigProjetor, { PHOTOS_BASE_URL: 'http://fotos.exemplo.com.br' })).toThrow(/^configuração inválida: PHOTOS_BASE_URL: /);
  });

  it('refuses a PHOTOS_BASE_URL the storage keys cannot follow, or that would hand partners a password, naming it', () => {
    for (const url of ['fotos.exemplo.com.br', 'https://cdn.exemplo.com/wm?sig=abc', 'https://cdn.exemplo.com/wm?', 'https://cdn.exemplo.com/wm#a', 'https://fotos:segredo@cdn.exemplo.com/wm', 'https://fotos@cdn.exemplo.com']) {
      expect(() => lerConfiguracao(ConfigProjetor, { PHOTOS_BASE_URL: url }), url).toThrow(/^configuração inválida: PHOTOS_BASE_URL: /);
    }
    // Written so that every photo's url would be no URI (the contract's `string (uri)`).
    for (const url of ['https://cdn.exemplo.com/a b', 'https://cdn.exemplo.com/a%zz', 'https://cdn.exemplo.com/a\\b', 'https://cdn.exemplo.com/a"b', 'https://cdn.exemplo.com/marca-dágua',
      // …before any slash too, or with no `//` (WHATWG URLs read `\` as `/` and add the slashes).
      'https://cdn.exemplo.com\\marca-dagua', 'https://cdn.exemplo.com\\a b', 'https://cdn exemplo.com/wm', 'https:cdn.exemplo.com/wm', 'https:/cdn.exemplo.com/wm']) {
      expect(() => lerConfiguracao(ConfigProjetor, { PHOTOS_BASE_URL: url }), url).toThrow(/^configuração inválida: PHOTOS_BASE_URL: /);
    }
    expect(lerConfiguracao(ConfigProjetor, { PHOTOS_BASE_URL: 'https://cdn.exemplo.com/marca-d%C3%A1gua/' }).PHOTOS_BASE_URL).toBe('https://cdn.exemplo.com/marca-d%C3%A1gua/');
    expect(lerConfiguracao(ConfigProjetor, { PHOTOS_BASE_URL: 'https://CDN.exemplo.com:8443/wm/v1.2/~a_b-c!$&()*+,;=:@' }).PHOTOS_BASE_URL).toBe('https://CDN.exemplo.com:8443/wm/v1.2/~a_b-c!$&()*+,;=:@');
  });

  it('requires READY_MAX_LAG_SECONDS to span three freshness checks, naming it', () => {
    const base = { PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br' };
    expect(() => lerConfiguracao(ConfigProjetor, { ...base, READY_MAX_LAG_SECONDS: '14' })).toThrow(/^configuração inválida: READY_MAX_LAG_SECONDS: /);
    expect(lerConfiguracao(ConfigProjetor, { ...base, READY_MAX_LAG_SECONDS: '15' }).READY_MAX_LAG_SECONDS).toBe(15);
  });

  it('refuses one topic for both aggregates, naming it', () => {
    const env = { PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br', IMOVEIS_TOPIC: 'registro', CONDOMINIOS_TOPIC: 'registro' };
    expect(() => lerConfiguracao(ConfigProjetor, env)).toThrow(/^configuração inválida: CONDOMINIOS_TOPIC: deve ser outro tópico que IMOVEIS_TOPIC \(registro\)$/);
  });

  it('says in words what a topic name may hold', () => {
    const env = { PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br', IMOVEIS_TOPIC: 'ruim/topico' };
    expect(() => lerConfiguracao(ConfigProjetor, env)).toThrow('configuração inválida: IMOVEIS_TOPIC: um nome de tópico do Kafka: letras, dígitos, ., _ e - (até 249)');
  });
});

describe('ConfigReconstrucao', () => {
  const base = { PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br' };

  it("defaults to operations.md's values, as the projector does", () => {
    expect(lerConfiguracao(ConfigReconstrucao, base)).toMatchObject(PADROES);
  });

  it("reads the projector's settings it uses, and is not stopped by those it does not (metrics, readiness)", () => {
    const env = { ...base, METRICS_PORT: 'abc', READY_MAX_LAG_SECONDS: '1', PREPARE_THREADS: '0', DEFER_FSYNC_ABOVE_LAG: '5' };
    expect(() => lerConfiguracao(ConfigProjetor, env)).toThrow(/METRICS_PORT/);
    expect(lerConfiguracao(ConfigReconstrucao, env)).toMatchObject({ IMOVEIS_TOPIC: 'registro.imoveis.v1', PREPARE_THREADS: 0, DEFER_FSYNC_ABOVE_LAG: 5 });
  });

  it('refuses what it uses, naming it', () => {
    expect(() => lerConfiguracao(ConfigReconstrucao, { ...base, PREPARE_THREADS: '-1' })).toThrow(/^configuração inválida: PREPARE_THREADS: /);
    expect(() => lerConfiguracao(ConfigReconstrucao, { ...base, IMOVEIS_TOPIC: 'r', CONDOMINIOS_TOPIC: 'r' })).toThrow(/^configuração inválida: CONDOMINIOS_TOPIC: /);
  });
});
