// The group consumer: seeks to the offsets the caller keeps, hands over whole batches, reports a crash.
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { cabecalhosPresentes } from './cabecalhos.ts';
import { setTimeout as esperar } from 'node:timers/promises';
import { SESSAO_PADRAO_MS, chaveParticao, type Consumidor, type OpcoesConsumidor, type LogKafka } from './tipos.ts';

const RELEITURA_DE_METADADOS_MS = 10_000;
/**
 * How long a stop waits for the group to take the member's leave, once no batch is in hand. A
 * broker that does not answer (down, cut off) drops the member after the session timeout anyway;
 * kafkajs would wait for its request timeout and retries, past any supervisor's grace period.
 */
const SAIDA_DO_GRUPO_MS = 5_000;

export function embrulharConsumidor(kafka: Kafka, opcoes: OpcoesConsumidor, log?: LogKafka): Consumidor {
  let parando = false;
  /** The batches being handed over: a stop waits for them, however long, before leaving the group. */
  const lotesEmMaos = new Set<Promise<void>>();
  /** The group is joined (and kafkajs has not crashed since): a batch may be in hand. */
  let consumindo = false;
  const consumidor: Consumer = kafka.consumer({
    groupId: opcoes.groupId,
    allowAutoTopicCreation: false,
    sessionTimeout: opcoes.sessaoMs ?? SESSAO_PADRAO_MS,
    heartbeatInterval: Math.min(3_000, Math.floor((opcoes.sessaoMs ?? SESSAO_PADRAO_MS) / 3)),
    maxBytesPerPartition: opcoes.bytesPorParticao ?? 1_048_576,
    maxWaitTimeInMs: 500,
    // The topics' partitions are re-read this often, and a partition added since makes the group
    // rejoin and consume it. kafkajs's 5 minutes would leave its events unread, and the freshness
    // check (which sees every partition's end) would report lag all that while.
    metadataMaxAge: RELEITURA_DE_METADADOS_MS,
    // kafkajs's own retries for a consumer (5), and no restart once stopping: a crash while the
    // group is still joining (a stop signal at start) would otherwise start it again.
    retry: { retries: 5, restartOnFailure: () => Promise.resolve(!parando) },
  });

  // Seeking here, synchronously inside the join event, lands before the first fetch of the new
  // assignment, so no batch is ever delivered from Kafka's own committed offset by mistake.
  consumidor.on(consumidor.events.GROUP_JOIN, ({ payload }) => {
    consumindo = true;
    const particoes = Object.entries(payload.memberAssignment).flatMap(([topico, ps]) =>
      ps.map((particao) => ({ topico, particao })),
    );
    const inicio = opcoes.aoAtribuir(particoes);
    for (const { topico, particao } of particoes) {
      // Offset 0 below the log start is answered with OFFSET_OUT_OF_RANGE and reset to the
      // earliest offset (fromBeginning), which is what "the beginning" means.
      consumidor.seek({ topic: topico, partition: particao, offset: inicio.get(chaveParticao(topico, particao)) ?? '0' });
    }
  });
  // kafkajs resolves such a fetch itself and never calls eachBatch for it; its batch events
  // still report it, with no messages.
  consumidor.on(consumidor.events.END_BATCH_PROCESS, ({ payload }) => {
    // A fetch finishing after the close began (its wait is bounded) is this consumer's no more.
    if (parando || payload.batchSize > 0 || payload.lastOffset === null || payload.lastOffset === undefined) return;
    opcoes.aoPularSemMensagens?.({ topico: payload.topic, particao: payload.partition, proximoOffset: (BigInt(payload.lastOffset) + 1n).toString() });
  });
  consumidor.on(consumidor.events.CRASH, ({ payload }) => {
    consumindo = false;
    if (!payload.restart && !parando) opcoes.aoFalhar(payload.error);
  });

  /** Hands one fetched batch over whole, then lets kafkajs fetch after it. */
  async function entregar(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    // Only losing the partition stops a batch: a stop (close) waits for the batch in hand, which
    // is then committed whole (the projector's graceful stop), unless it was waiting (`parando`).
    const ativo = () => !payload.isStale();
    await opcoes.aoLote({
      topico: batch.topic,
      particao: batch.partition,
      fimDaParticao: batch.highWatermark,
      proximoOffset: (BigInt(batch.lastOffset()) + 1n).toString(),
      mensagens: batch.messages.map((m) => ({
        offset: m.offset,
        key: m.key,
        value: m.value,
        headers: cabecalhosPresentes(m.headers),
      })),
      heartbeat: () => payload.heartbeat(),
      ativo,
      parando: () => parando,
    });
    // The next fetch starts after this batch; a batch cut short is fetched again.
    const ultima = batch.messages.at(-1);
    if (ultima && ativo()) payload.resolveOffset(ultima.offset);
  }

  return {
    async iniciar() {
      // A close during a step below lets it finish on its own; the next would connect again and
      // join the group (kafkajs's run connects), a member after the stop: disconnected instead.
      const fechadoNoMeio = (): boolean => {
        if (parando) void consumidor.disconnect().catch(() => {});
        return parando;
      };
      await consumidor.connect();
      if (fechadoNoMeio()) return;
      await consumidor.subscribe({ topics: [...opcoes.topicos], fromBeginning: true });
      if (fechadoNoMeio()) return;
      await consumidor.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: opcoes.particoesSimultaneas ?? 1,
        eachBatch: async (payload) => {
          // Stopping: no new batch is taken (its offsets were not applied, so it is fetched again).
          if (parando) return;
          const emMaos = entregar(payload);
          lotesEmMaos.add(emMaos);
          try {
            await emMaos;
          } finally {
            lotesEmMaos.delete(emMaos);
          }
        },
      });
    },

    async commit(offsets) {
      if (offsets.length === 0) return;
      await consumidor.commitOffsets(
        offsets.map((o) => ({ topic: o.topico, partition: o.particao, offset: o.proximoOffset })),
      );
    },
    async close() {
      parando = true;
      // Still joining (stopped at start): no batch is in hand, and kafkajs would hold the stop
      // until the join is answered, up to the group's session timeout. Left to finish on its own.
      if (!consumindo) return void consumidor.disconnect().catch(() => {});
      // The batches in hand end first, committed whole (cut short only by losing the partition, or
      // by the stop itself where they wait with no end in sight: Lote.parando).
      await Promise.allSettled([...lotesEmMaos]);
      const saida = consumidor.disconnect().then(() => true);
      saida.catch(() => {});
      if (!(await Promise.race([saida, esperar(SAIDA_DO_GRUPO_MS, false, { ref: false })]))) {
        log?.warn({ grupo: opcoes.groupId }, `o Kafka não confirmou a saída do grupo em ${SAIDA_DO_GRUPO_MS / 1000} s: o membro sai quando a sessão expirar`);
      }
    },
  };
}
