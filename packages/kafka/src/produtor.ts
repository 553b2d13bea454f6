// The producer: idempotent, every write acknowledged by all in-sync replicas.
import { Partitioners, type Kafka } from 'kafkajs';
import { cabecalhosParaEnvio } from './cabecalhos.ts';
import type { Produtor } from './tipos.ts';

export async function abrirProdutor(kafka: Kafka): Promise<Produtor> {
  const produtor = kafka.producer({
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
    // kafkajs retries a whole produce request when one partition fails (a leader moving, a
    // topic just created), so the partitions that succeeded would be written twice; the
    // broker drops such repeats from an idempotent producer. One request in flight keeps
    // its sequence numbers in order (KIP-98).
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await produtor.connect();
  return {
    async enviar(topico, mensagens) {
      if (mensagens.length === 0) return;
      await produtor.send({
        topic: topico,
        acks: -1,
        messages: mensagens.map((m) => ({ key: m.key, value: m.value, ...(m.headers ? { headers: cabecalhosParaEnvio(m.headers) } : {}) })),
      });
    },
    close: () => produtor.disconnect(),
  };
}
