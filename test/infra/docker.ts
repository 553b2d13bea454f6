// The same services through testcontainers, for machines where a local Docker engine answers.
// Kept small on purpose: the project's CI machines have no Docker engine, so this path is not
// exercised there; the embedded path (kafka-broker.ts, redis-server.ts) is the one tests rely on.
import { VERSAO_KAFKA, kafkaResponde, type KafkaIniciado } from './kafka-broker.ts';
import { esperarAte, portasLivres } from './processo-servico.ts';
import { redisResponde, type RedisIniciado } from './redis-server.ts';

/**
 * True when testcontainers finds a container engine within 5 s, looking where it will look when it
 * starts one: DOCKER_HOST, ~/.testcontainers.properties, the default socket, then rootless Docker's
 * and Docker Desktop's sockets (Colima and Rancher Desktop through DOCKER_HOST). An engine that
 * accepts and never answers counts as none.
 */
export async function dockerDisponivel(): Promise<boolean> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  let prazo: NodeJS.Timeout | undefined;
  const semResposta = new Promise<boolean>((resolve) => {
    prazo = setTimeout(() => resolve(false), 5_000);
  });
  const encontrado = getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([encontrado, semResposta]);
  } finally {
    clearTimeout(prazo);
  }
}

export async function iniciarKafkaDocker(): Promise<KafkaIniciado> {
  const { GenericContainer } = await import('testcontainers');
  // The advertised address must be known before start, so the host port is chosen here.
  const [porta] = (await portasLivres(1)) as [number];
  const container = await new GenericContainer(`apache/kafka:${VERSAO_KAFKA}`)
    .withExposedPorts({ container: 9092, host: porta })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${porta}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .start();
  const responde = async (): Promise<void> => esperarAte(() => kafkaResponde('127.0.0.1', porta), { prazo: 90_000, descricao: `Kafka no container (127.0.0.1:${porta})` });
  try {
    await responde();
  } catch (erro) {
    await container.stop();
    throw erro;
  }
  return {
    brokers: [`127.0.0.1:${porta}`],
    stop: async () => {
      await container.stop();
    },
    // The same container again: same host port, same data.
    reiniciar: async () => {
      await container.restart();
      await responde();
    },
  };
}

export async function iniciarRedisDocker(): Promise<RedisIniciado> {
  const { GenericContainer } = await import('testcontainers');
  const container = await new GenericContainer('redis:7-alpine')
    .withExposedPorts(6379)
    .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
    .start();
  const porta = container.getMappedPort(6379);
  try {
    await esperarAte(() => redisResponde('127.0.0.1', porta), { prazo: 20_000, descricao: `Redis no container (127.0.0.1:${porta})` });
  } catch (erro) {
    await container.stop();
    throw erro;
  }
  return {
    url: `redis://127.0.0.1:${porta}`,
    stop: async () => {
      await container.stop();
    },
  };
}
