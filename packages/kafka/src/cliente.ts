// The client: admin operations, reading a topic through, and the producers and consumers it
// opened (closed with it).
import { randomUUID } from 'node:crypto';
import { AssignerProtocol, Kafka, logLevel as NivelKafkajs, type Admin, type LogEntry } from 'kafkajs';
import { embrulharConsumidor } from './consumidor.ts';
import { registrarLog } from './log.ts';
import { abrirProdutor } from './produtor.ts';
import { chaveParticao, type ClienteKafka, type OpcoesCliente } from './tipos.ts';

/**
 * The brokers could not be reached at all, every retry spent: a wrong `KAFKA_BROKERS`, or Kafka
 * down for longer than the client rides out. A connection the address closes (a TLS or SASL
 * listener, a service that drops what it does not understand) is kafkajs's own subclass.
 */
export function ehKafkaInacessivel(erro: unknown): erro is Error {
  for (let e = erro; e instanceof Error; e = e.cause) {
    if (CONEXAO_FALHOU.has(e.name) || e.message === NAO_E_KAFKA) return true;
  }
  return false;
}

const CONEXAO_FALHOU = new Set(['KafkaJSConnectionError', 'KafkaJSConnectionClosedError']);

/**
 * What kafkajs throws (a plain Error) when a broker's first handshake (ApiVersions) was never
 * answered: something listens at the address, but it is not Kafka (a wrong port).
 */
const NAO_E_KAFKA = 'Broker not connected';

const fechadaPeloEndereco = (erro: unknown): boolean => {
  for (let e = erro; e instanceof Error; e = e.cause) if (e.name === 'KafkaJSConnectionClosedError') return true;
  return false;
};

/** The one line an entry point stops with when {@link ehKafkaInacessivel}: it names the setting. */
export function kafkaInacessivel(brokers: readonly string[], erro: Error): string {
  const motivo =
    erro.message === NAO_E_KAFKA ? 'o endereço aceita a conexão mas não responde como um broker Kafka (porta errada?)'
    : fechadaPeloEndereco(erro) ? 'o endereço aceita a conexão e a fecha (porta errada, ou um listener TLS/SASL?)'
    : erro.message;
  return `Kafka inacessível em ${brokers.join(',')} (KAFKA_BROKERS): ${motivo}`;
}

export function criarClienteKafka(opcoes: OpcoesCliente): ClienteKafka {
  const kafka = new Kafka({
    clientId: opcoes.clientId,
    brokers: [...opcoes.brokers],
    connectionTimeout: 3_000,
    requestTimeout: opcoes.prazoRequisicaoMs ?? 30_000,
    // Reconnect for a long while rather than exit: a broker restart is survived, not fatal.
    retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: opcoes.tentativas ?? 12 },
    logLevel: opcoes.log ? NivelKafkajs.WARN : NivelKafkajs.NOTHING,
    logCreator: () => (entrada: LogEntry) => registrarLog(opcoes.log, entrada),
  });

  let admin: Admin | null = null;
  const abertos = new Set<{ close(): Promise<void> }>();
  const obterAdmin = async (): Promise<Admin> => {
    if (!admin) {
      const novo = kafka.admin();
      await novo.connect();
      admin = novo;
    }
    return admin;
  };
  const topicosAusentes = async (nomes: readonly string[]): Promise<string[]> => {
    const existentes = new Set(await (await obterAdmin()).listTopics());
    return nomes.filter((nome) => !existentes.has(nome));
  };

  return {
    topicosAusentes,

    async criarTopicos(topicos) {
      const adm = await obterAdmin();
      const ausentes = new Set(await topicosAusentes(topicos.map((t) => t.nome)));
      const novos = topicos.filter((t) => ausentes.has(t.nome));
      if (novos.length === 0) return;
      // kafkajs's own wait for leaders retries only LEADER_NOT_AVAILABLE; a KRaft broker may
      // first answer that it does not host the new partition (UNKNOWN_TOPIC_OR_PARTITION).
      await adm.createTopics({
        waitForLeaders: false,
        topics: novos.map((t) => ({
          topic: t.nome,
          numPartitions: t.particoes ?? 1,
          replicationFactor: -1,
          configEntries: [
            ...(t.compactado ? [{ name: 'cleanup.policy', value: 'compact' }] : []),
            ...(t.semExpirar ? [{ name: 'cleanup.policy', value: 'delete' }, { name: 'retention.ms', value: '-1' }] : []),
            ...(t.bytesPorMensagem === undefined ? [] : [{ name: 'max.message.bytes', value: String(t.bytesPorMensagem) }]),
          ],
        })),
      });
      await esperarLideres(adm, novos.map((t) => t.nome));
    },

    async descreverTopico(nome) {
      const adm = await obterAdmin();
      const [metadados, configs] = await Promise.all([
        adm.fetchTopicMetadata({ topics: [nome] }),
        adm.describeConfigs({ includeSynonyms: false, resources: [{ type: 2 /* TOPIC */, name: nome }] }),
      ]);
      const config = Object.fromEntries(
        (configs.resources[0]?.configEntries ?? []).map((e) => [e.configName, e.configValue]),
      );
      return { particoes: metadados.topics[0]?.partitions.length ?? 0, config };
    },

    async aumentarParticoes(topico, total) {
      const adm = await obterAdmin();
      await adm.createPartitions({ topicPartitions: [{ topic: topico, count: total }] });
      await esperarLideres(adm, [topico], total);
    },

    async fimDasParticoes(topico) {
      const adm = await obterAdmin();
      const offsets = await adm.fetchTopicOffsets(topico);
      return new Map(offsets.map((o) => [o.partition, o.high]));
    },

    async apagarGrupo(groupId) {
      const adm = await obterAdmin();
      await adm.deleteGroups([groupId]);
    },

    async grupos(prefixo) {
      const adm = await obterAdmin();
      const ids = (await adm.listGroups()).groups.map((g) => g.groupId).filter((id) => id.startsWith(prefixo));
      if (ids.length === 0) return [];
      return (await adm.describeGroups(ids)).groups.map((g) => ({ id: g.groupId, estado: g.state }));
    },

    async topicosDoGrupo(groupId) {
      const adm = await obterAdmin();
      const [grupo] = (await adm.describeGroups([groupId])).groups;
      // Members' subscriptions are sent only while the group is settled (not mid-rebalance).
      if (grupo?.protocolType !== 'consumer' || grupo.state !== 'Stable' || grupo.members.length === 0) return null;
      const topicos = new Set<string>();
      for (const membro of grupo.members) {
        // kafkajs throws on metadata it cannot read (another client's assigner): not known, then.
        let metadados;
        try {
          metadados = AssignerProtocol.MemberMetadata.decode(membro.memberMetadata);
        } catch {
          return null;
        }
        if (metadados === null) return null;
        for (const topico of metadados.topics) topicos.add(topico);
      }
      return [...topicos].sort();
    },

    async offsetsDoGrupo(groupId, topico) {
      const adm = await obterAdmin();
      const [resultado] = await adm.fetchOffsets({ groupId, topics: [topico] });
      return new Map((resultado?.partitions ?? []).map((p) => [p.partition, p.offset]));
    },

    async lerTopico(topico, aoLer, { limiteMs = 60_000 } = {}) {
      const adm = await obterAdmin();
      if ((await topicosAusentes([topico])).length > 0) return 0;
      // Up to the last offset each partition holds now; an empty partition has nothing to wait for.
      const faltam = new Map(
        (await adm.fetchTopicOffsets(topico)).filter((o) => BigInt(o.high) > BigInt(o.low)).map((o) => [o.partition, BigInt(o.high) - 1n]),
      );
      let lidas = 0;
      if (faltam.size === 0) return lidas;
      let concluir!: (erro?: Error) => void;
      const pronto = new Promise<void>((resolve, reject) => (concluir = (erro) => (erro ? reject(erro) : resolve())));
      // Where each partition's reading has got to: a rejoin of the group resumes there, and a
      // batch fetched before it is not read twice.
      const proximo = new Map<number, bigint>();
      // Done with a partition once its position passes its last offset (a marker, maybe).
      const avancou = (particao: number, proximoOffset: string) => {
        proximo.set(particao, BigInt(proximoOffset));
        if (BigInt(proximoOffset) > (faltam.get(particao) ?? -1n)) faltam.delete(particao);
        if (faltam.size === 0) concluir();
      };
      const leitor = embrulharConsumidor(kafka, {
        groupId: `${opcoes.clientId}-leitura-${randomUUID()}`,
        topicos: [topico],
        aoAtribuir: () => new Map([...proximo].map(([particao, offset]) => [chaveParticao(topico, particao), offset.toString()])),
        aoLote: async (lote) => {
          const desde = proximo.get(lote.particao) ?? 0n;
          for (const m of lote.mensagens) {
            if (BigInt(m.offset) > (faltam.get(lote.particao) ?? -1n)) break;
            if (BigInt(m.offset) < desde) continue;
            aoLer(m);
            lidas++;
          }
          avancou(lote.particao, lote.proximoOffset);
        },
        aoPularSemMensagens: ({ particao, proximoOffset }) => avancou(particao, proximoOffset),
        aoFalhar: (erro) => concluir(erro),
      });
      const prazo = setTimeout(() => concluir(new Error(`leitura de ${topico} não terminou em ${limiteMs} ms`)), limiteMs);
      try {
        // The time limit may run out while the group is still being joined: raced, so its
        // rejection is always awaited (never left unhandled, which would end the process).
        await Promise.race([leitor.iniciar().then(() => pronto), pronto]);
        return lidas;
      } finally {
        clearTimeout(prazo);
        await leitor.close();
      }
    },

    async criarProdutor() {
      const produtor = await abrirProdutor(kafka);
      abertos.add(produtor);
      return produtor;
    },

    criarConsumidor(opcoesConsumidor) {
      const consumidor = embrulharConsumidor(kafka, opcoesConsumidor, opcoes.log);
      abertos.add(consumidor);
      // Closed, it is no longer the client's to close (a projector makes a new one at each switch).
      return {
        ...consumidor,
        close: async () => {
          abertos.delete(consumidor);
          await consumidor.close();
        },
      };
    },

    async close() {
      await Promise.allSettled([...abertos].map((r) => r.close()));
      abertos.clear();
      if (admin) await admin.disconnect();
      admin = null;
    },
  };
}

/** Until every partition of `topicos` has a leader, whatever transient error metadata gives meanwhile. */
async function esperarLideres(adm: Admin, topicos: string[], particoes = 1, prazoMs = 30_000): Promise<void> {
  const desistirEm = Date.now() + prazoMs;
  for (;;) {
    try {
      const { topics } = await adm.fetchTopicMetadata({ topics: topicos });
      if (topics.length === topicos.length && topics.every((t) => t.partitions.length >= particoes && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (erro) {
      if (Date.now() > desistirEm) throw erro;
    }
    if (Date.now() > desistirEm) throw new Error(`tópicos sem líder após ${prazoMs} ms: ${topicos.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
