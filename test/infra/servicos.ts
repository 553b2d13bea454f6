// Starts the Kafka broker and Redis that tests and benchmarks need, in parallel, unless the
// caller already has them (KAFKA_BROKERS / REDIS_URL). Embedded processes by default; Docker
// (testcontainers) when the embedded prerequisites are missing and a local engine answers, or
// when INFRA_TESTES=docker asks for it (INFRA_TESTES=local never uses Docker).
import { existsSync } from 'node:fs';
import { dockerDisponivel, iniciarKafkaDocker, iniciarRedisDocker } from './docker.ts';
import { diretorioJars, iniciarKafka, verificarJava, type KafkaIniciado } from './kafka-broker.ts';
import { ProgramaAusente, localizarPrograma } from './processo-servico.ts';
import { iniciarRedis, verificarRedis, type RedisIniciado } from './redis-server.ts';

export interface Servicos {
  readonly kafkaBrokers: string[];
  readonly redisUrl: string;
  /** Stops what this call started (nothing, for addresses given in the environment). */
  stop(): Promise<void>;
}

type Modo = 'local' | 'docker';

/** Throws the one-line {@link ProgramaAusente} of the first missing prerequisite, if any. */
function verificarLocal(precisaKafka: boolean, precisaRedis: boolean): void {
  if (precisaKafka) {
    verificarJava();
    if (!existsSync(diretorioJars()) && localizarPrograma('mvn') === null) {
      throw new ProgramaAusente(`mvn não encontrado e os jars do Kafka não estão em ${diretorioJars()}: instale o Maven (Debian: apt-get install -y maven) e rode pnpm infra:fetch`);
    }
  }
  if (precisaRedis) verificarRedis();
}

async function escolherModo(precisaKafka: boolean, precisaRedis: boolean): Promise<Modo> {
  const pedido = process.env['INFRA_TESTES'];
  if (pedido === 'docker') return 'docker';
  if (pedido === 'local') {
    verificarLocal(precisaKafka, precisaRedis);
    return 'local';
  }
  if (pedido !== undefined && pedido !== '') throw new ProgramaAusente(`INFRA_TESTES=${pedido}: use local, docker, ou deixe vazio`);
  try {
    verificarLocal(precisaKafka, precisaRedis);
    return 'local';
  } catch (erro) {
    if (erro instanceof ProgramaAusente && (await dockerDisponivel())) return 'docker';
    throw erro;
  }
}

/**
 * A broker of the caller's own (one it may restart), embedded or in Docker by the same rule as
 * the shared one. The Docker one's restart is untested on machines without a Docker engine.
 */
export async function iniciarKafkaProprio(): Promise<KafkaIniciado> {
  return (await escolherModo(true, false)) === 'docker' ? iniciarKafkaDocker() : iniciarKafka();
}

/** Reads KAFKA_BROKERS / REDIS_URL; starts whichever is unset and waits until both answer. */
export async function iniciarServicos(env: NodeJS.ProcessEnv = process.env): Promise<Servicos> {
  const brokersDados = env['KAFKA_BROKERS']?.split(',').map((b) => b.trim()).filter((b) => b !== '') ?? [];
  const redisDado = env['REDIS_URL'] ?? '';
  const precisaKafka = brokersDados.length === 0;
  const precisaRedis = redisDado === '';
  if (!precisaKafka && !precisaRedis) {
    return { kafkaBrokers: brokersDados, redisUrl: redisDado, stop: () => Promise.resolve() };
  }

  const modo = await escolherModo(precisaKafka, precisaRedis);
  const [kafka, redis] = await Promise.allSettled([
    precisaKafka ? (modo === 'docker' ? iniciarKafkaDocker() : iniciarKafka()) : Promise.resolve<KafkaIniciado | null>(null),
    precisaRedis ? (modo === 'docker' ? iniciarRedisDocker() : iniciarRedis()) : Promise.resolve<RedisIniciado | null>(null),
  ]);
  const iniciados = [kafka, redis].flatMap((r) => (r.status === 'fulfilled' && r.value !== null ? [r.value] : []));
  const stop = async (): Promise<void> => {
    await Promise.all(iniciados.map((s) => s.stop()));
  };
  if (kafka.status === 'rejected' || redis.status === 'rejected') {
    await stop();
    throw kafka.status === 'rejected' ? kafka.reason : (redis as PromiseRejectedResult).reason;
  }
  return {
    kafkaBrokers: kafka.value?.brokers ?? brokersDados,
    redisUrl: redis.value?.url ?? redisDado,
    stop,
  };
}
