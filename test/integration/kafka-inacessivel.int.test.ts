// The Kafka adapter against brokers that cannot be reached (no broker needed: a closed local port).
import { describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { criarClienteKafka, ehKafkaInacessivel, kafkaInacessivel } from '@imoveis/kafka';
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

  it('recognises an address that accepts connections but is not Kafka (a wrong port), and says so', async () => {
    // Accepts, reads, never answers: what Redis does with a Kafka request.
    const sockets = new Set<Socket>();
    const mudo = createServer((socket) => void sockets.add(socket.on('data', () => {})));
    await new Promise<void>((resolve) => mudo.listen(0, '127.0.0.1', resolve));
    const brokers = [`127.0.0.1:${(mudo.address() as AddressInfo).port}`];
    const kafka = criarClienteKafka({ brokers, clientId: 'teste-nao-kafka', tentativas: 1, prazoRequisicaoMs: 1_000 });
    try {
      const erro: unknown = await kafka.topicosAusentes(['registro.imoveis.v1']).then(() => null, (e: unknown) => e);
      expect(ehKafkaInacessivel(erro)).toBe(true);
      expect(kafkaInacessivel(brokers, erro as Error)).toMatch(/\(KAFKA_BROKERS\): .*não responde como um broker Kafka/);
    } finally {
      await kafka.close();
      for (const socket of sockets) socket.destroy();
      mudo.close();
    }
  });

  it('recognises an address that closes the connections it accepts (a TLS or SASL listener, another service), and says so', async () => {
    const fecha = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => fecha.listen(0, '127.0.0.1', resolve));
    const brokers = [`127.0.0.1:${(fecha.address() as AddressInfo).port}`];
    const kafka = criarClienteKafka({ brokers, clientId: 'teste-fecha', tentativas: 1, prazoRequisicaoMs: 1_000 });
    try {
      const erro: unknown = await kafka.topicosAusentes(['registro.imoveis.v1']).then(() => null, (e: unknown) => e);
      expect(ehKafkaInacessivel(erro)).toBe(true);
      expect(kafkaInacessivel(brokers, erro as Error)).toMatch(/\(KAFKA_BROKERS\): o endereço aceita a conexão e a fecha/);
    } finally {
      await kafka.close();
      fecha.close();
    }
  });

  it('does not take other failures for an unreachable broker', () => {
    expect(ehKafkaInacessivel(new Error('SQLITE_FULL'))).toBe(false);
    expect(ehKafkaInacessivel(Object.assign(new Error('x'), { name: 'KafkaJSProtocolError' }))).toBe(false);
    expect(ehKafkaInacessivel('KafkaJSConnectionError')).toBe(false);
  });
});
