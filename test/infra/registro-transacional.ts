// The register's side when it writes in Kafka transactions. The project itself never produces in
// transactions, so this is not part of @imoveis/kafka: it talks to kafkajs directly.
import { Kafka, logLevel } from 'kafkajs';

export interface RegistroTransacional {
  /** One record in a transaction of its own, committed or aborted; resolves once it has ended. */
  enviar(registro: { topico: string; particao: number; chave: string | null; valor: string | null }, confirmar: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function criarRegistroTransacional(brokers: readonly string[], id: string): Promise<RegistroTransacional> {
  // The first transactional producer of a run makes the broker create `__transaction_state`, which
  // a loaded broker may take longer over than kafkajs's default five retries: the project's twelve.
  const cliente = new Kafka({ clientId: id, brokers: [...brokers], logLevel: logLevel.NOTHING, retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 12 } });
  const produtor = cliente.producer({ transactionalId: id, idempotent: true, maxInFlightRequests: 1 });
  await produtor.connect();
  return {
    async enviar({ topico, particao, chave, valor }, confirmar) {
      const transacao = await produtor.transaction();
      await transacao.send({ topic: topico, messages: [{ key: chave, value: valor, partition: particao }] });
      await (confirmar ? transacao.commit() : transacao.abort());
    },
    close: () => produtor.disconnect(),
  };
}
