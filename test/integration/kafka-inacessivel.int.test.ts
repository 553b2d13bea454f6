// The Kafka adapter against brokers that cannot be reached (no broker needed: a closed local port).
import { describe, expect, it } from 'vitest';
import { criarClienteKafka, ehKafkaInacessivel } from '@imoveis/kafka';
import { portasLivres } from '../infra/processo-servico.ts';

describe('ehKafkaInacessivel', () => {
  it('recognises what the client throws once it has spent its retries on brokers that refuse connections', async () => {
    const kafka = criarClienteKafka({ brokers: [`127.0.0.1:${(await portasLivres(1))[0]}`], clientId: 'teste-inacessivel', tentativas: 1 });
    try {
      const erro: unknown = await kafka.fimDasParticoes('registro.imoveis.v1').then(() => null, (e: unknown) => e);
      expect(erro).toBeInstanceOf(Error);
      expect(ehKafkaInacessivel(erro)).toBe(true);
    } finally {
      await kafka.close();
    }
  });

  it('does not take other failures for an unreachable broker', () => {
    expect(ehKafkaInacessivel(new Error('SQLITE_FULL'))).toBe(false);
    expect(ehKafkaInacessivel(Object.assign(new Error('x'), { name: 'KafkaJSProtocolError' }))).toBe(false);
    expect(ehKafkaInacessivel('KafkaJSConnectionError')).toBe(false);
  });
});
