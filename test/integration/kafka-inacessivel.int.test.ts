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

  /**
   * What the client throws at a local address whose server treats each connection as `atender`
   * does, and the one line an entry point would stop with.
   */
  async function contraUmServidor(atender: (socket: Socket) => void): Promise<{ erro: unknown; linha: string }> {
    const sockets = new Set<Socket>();
    const servidor = createServer((socket) => {
      sockets.add(socket);
      atender(socket);
    });
    await new Promise<void>((resolve) => servidor.listen(0, '127.0.0.1', resolve));
    const brokers = [`127.0.0.1:${(servidor.address() as AddressInfo).port}`];
    const kafka = criarClienteKafka({ brokers, clientId: 'teste-nao-kafka', tentativas: 1, prazoRequisicaoMs: 1_000 });
    try {
      const erro: unknown = await kafka.topicosAusentes(['registro.imoveis.v1']).then(() => null, (e: unknown) => e);
      return { erro, linha: erro instanceof Error ? kafkaInacessivel(brokers, erro) : '' };
    } finally {
      await kafka.close();
      for (const socket of sockets) socket.destroy();
      servidor.close();
    }
  }

  it('recognises an address that accepts connections but is not Kafka (a wrong port), and says so', async () => {
    // Accepts, reads, never answers: what Redis does with a Kafka request.
    const { erro, linha } = await contraUmServidor((socket) => socket.on('data', () => {}));
    expect(ehKafkaInacessivel(erro)).toBe(true);
    expect(linha).toMatch(/\(KAFKA_BROKERS\): .*não responde como um broker Kafka/);
  });

  it('recognises an address that closes the connections it accepts (a TLS or SASL listener, another service), and says so', async () => {
    const { erro, linha } = await contraUmServidor((socket) => socket.destroy());
    expect(ehKafkaInacessivel(erro)).toBe(true);
    expect(linha).toMatch(/\(KAFKA_BROKERS\): o endereço aceita a conexão e a fecha/);
  });

  it('does not take other failures for an unreachable broker', () => {
    expect(ehKafkaInacessivel(new Error('SQLITE_FULL'))).toBe(false);
    expect(ehKafkaInacessivel(Object.assign(new Error('x'), { name: 'KafkaJSProtocolError' }))).toBe(false);
    expect(ehKafkaInacessivel('KafkaJSConnectionError')).toBe(false);
  });
});
