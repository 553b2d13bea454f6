import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfiguracaoInvalida, KAFKA_BROKERS, lerConfiguracao } from './index.ts';

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
