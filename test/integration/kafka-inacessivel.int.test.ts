// The Kafka adapter against brokers that cannot be reached (no broker needed: a closed local port).
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { criarClienteKafka, ehKafkaInacessivel } from '@imoveis/kafka';

/** A local port nothing listens on: bound, then let go. */
async function portaFechada(): Promise<number> {
  const servidor = createServer();
  await new Promise<void>((resolve) => servidor.listen(0, '127.0.0.1', resolve));
  const { port } = servidor.address() as AddressInfo;
  await new Promise((resolve) => servidor.close(resolve));
  return port;
}

describe('ehKafkaInacessivel', () => {
  it('recognises what the client throws once it has spent its retries on brokers that refuse connections', async () => {
    const kafka = criarClienteKafka({ brokers: [`127.0.0.1:${await portaFechada()}`], clientId: 'teste-inacessivel', tentativas: 1 });
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
