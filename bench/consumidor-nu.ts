// Baseline of bench:projector: a bare kafkajs consumer that reads both topics and discards every
// message. Prints one JSON line when it has read `BENCH_TOTAL` messages.
import { Kafka, logLevel } from 'kafkajs';

const total = Number(process.env['BENCH_TOTAL']);
const kafka = new Kafka({ clientId: 'bench-nu', brokers: (process.env['KAFKA_BROKERS'] ?? '').split(','), logLevel: logLevel.NOTHING });
const consumidor = kafka.consumer({ groupId: process.env['KAFKA_GROUP_ID'] ?? 'bench-nu', maxBytesPerPartition: 1_048_576, maxWaitTimeInMs: 500 });
await consumidor.connect();
await consumidor.subscribe({ topics: [process.env['IMOVEIS_TOPIC']!, process.env['CONDOMINIOS_TOPIC']!], fromBeginning: true });
let lidos = 0;
let bytes = 0;
await consumidor.run({
  autoCommit: false,
  eachBatch: async ({ batch }) => {
    for (const m of batch.messages) bytes += m.value?.length ?? 0;
    lidos += batch.messages.length;
    if (lidos >= total) {
      process.stdout.write(`${JSON.stringify({ lidos, bytes })}\n`);
    }
  },
});
