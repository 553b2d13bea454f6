// A real one-node Apache Kafka 4.x broker (KRaft: broker and controller in one JVM) for tests and
// benchmarks, from the jars on Maven Central. No Docker: the jars are fetched once with Maven into
// .cache/kafka/<version>/libs and the broker runs on the machine's Java on free loopback ports.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ProgramaAusente,
  ServicoNaoIniciou,
  criarDiretorioExecucao,
  esperarPronto,
  finalDoArquivo,
  guardarLog,
  iniciarProcesso,
  localizarPrograma,
  portasLivres,
  removerDiretorio,
  type ServicoIniciado,
} from './processo-servico.ts';

/** 4.4.0 is not fully on the Maven mirror these machines use; 4.3.1 is. */
export const VERSAO_KAFKA = '4.3.1';

const RAIZ = fileURLToPath(new URL('../../', import.meta.url));
const DIR_KAFKA_INFRA = fileURLToPath(new URL('./kafka/', import.meta.url));

export interface KafkaIniciado extends ServicoIniciado {
  /** `host:port` addresses for clients. */
  readonly brokers: string[];
  /**
   * A broker restart as operations see one: a controlled shutdown, then the same broker (same
   * ports, same data) again; resolves once it answers. Absent for brokers a test does not own.
   */
  reiniciar?(): Promise<void>;
}

export interface OpcoesKafka {
  readonly versao?: string;
  /** How long the broker may take to answer, in ms. */
  readonly prazo?: number;
}

/** Where the broker's jars live once fetched. */
export function diretorioJars(versao = VERSAO_KAFKA): string {
  return join(RAIZ, '.cache', 'kafka', versao, 'libs');
}

/** Fails with one line when no Java 17+ is available (Kafka 4 brokers need 17). Returns the `java` path. */
export function verificarJava(): string {
  const javaHome = process.env['JAVA_HOME'];
  const java = localizarPrograma('java', javaHome ? [join(javaHome, 'bin')] : []);
  if (java === null) {
    throw new ProgramaAusente('java não encontrado: o broker Kafka de teste precisa do Java 17 ou mais novo (Debian: apt-get install -y openjdk-17-jre-headless)');
  }
  const versao = spawnSync(java, ['-version'], { encoding: 'utf8' });
  const texto = `${versao.stderr}${versao.stdout}`;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(texto);
  const maior = m ? (m[1] === '1' ? Number(m[2]) : Number(m[1])) : NaN;
  if (!(maior >= 17)) {
    throw new ProgramaAusente(`${java} não é um Java 17 ou mais novo (${texto.split('\n')[0] ?? '?'}); o broker Kafka 4 precisa dele (Debian: apt-get install -y openjdk-17-jre-headless)`);
  }
  return java;
}

/**
 * Makes sure the broker's jars are in .cache/kafka/<version>/libs, fetching them with Maven
 * (test/infra/kafka/pom.xml) when missing. Returns the directory.
 */
export async function garantirJarsKafka(versao = VERSAO_KAFKA): Promise<string> {
  const libs = diretorioJars(versao);
  // The jars are fetched again when the pom (the dependency list) has changed since.
  const carimbo = createHash('sha256').update(readFileSync(join(DIR_KAFKA_INFRA, 'pom.xml'))).digest('hex');
  const arquivoCarimbo = join(libs, '.pom-sha256');
  if (existsSync(arquivoCarimbo) && readFileSync(arquivoCarimbo, 'utf8') === carimbo) return libs;
  const mvn = localizarPrograma('mvn');
  if (mvn === null) {
    throw new ProgramaAusente(`mvn não encontrado: é preciso o Maven para baixar os jars do Kafka ${versao} para ${libs} (Debian: apt-get install -y maven), ou copie-os para lá`);
  }
  // Fetch into a private directory and rename it into place, so a run that dies half-way (or
  // a concurrent fetch) never leaves a half-filled libs directory that looks complete.
  const parcial = `${libs}.parcial-${process.pid}`;
  removerDiretorio(parcial);
  mkdirSync(parcial, { recursive: true });
  const args = [
    '-q', '-B',
    '-f', join(DIR_KAFKA_INFRA, 'pom.xml'),
    'dependency:copy-dependencies',
    `-DoutputDirectory=${parcial}`,
    '-DincludeScope=runtime',
    `-Dkafka.version=${versao}`,
  ];
  const { codigo, saida } = await new Promise<{ codigo: number | null; saida: string }>((resolve, reject) => {
    const filho = spawn(mvn, args, { cwd: DIR_KAFKA_INFRA, stdio: ['ignore', 'pipe', 'pipe'] });
    let texto = '';
    filho.stdout.on('data', (d: Buffer) => (texto += d.toString()));
    filho.stderr.on('data', (d: Buffer) => (texto += d.toString()));
    filho.once('error', reject);
    filho.once('close', (c) => resolve({ codigo: c, saida: texto }));
  });
  if (codigo !== 0) {
    removerDiretorio(parcial);
    throw new ServicoNaoIniciou(`mvn não conseguiu baixar os jars do Kafka ${versao} (código ${String(codigo)}):\n${saida.trimEnd().split('\n').slice(-15).join('\n')}`);
  }
  writeFileSync(join(parcial, '.pom-sha256'), carimbo);
  try {
    if (existsSync(libs)) removerDiretorio(libs); // stale: fetched from an older pom
    renameSync(parcial, libs);
  } catch (erro) {
    removerDiretorio(parcial);
    if (!existsSync(libs)) throw erro;
    // another process finished first: its copy is as good as ours
  }
  return libs;
}

/**
 * Starts a one-node KRaft broker on free loopback ports in a fresh temp directory and resolves
 * once it is ready for clients (see {@link kafkaResponde}). Topics are never auto-created: the
 * project creates its own.
 */
export async function iniciarKafka(opcoes: OpcoesKafka = {}): Promise<KafkaIniciado> {
  const java = verificarJava();
  const libs = await garantirJarsKafka(opcoes.versao ?? VERSAO_KAFKA);
  // A port taken between choosing and binding makes the broker exit at start: try again.
  for (let tentativa = 1; ; tentativa++) {
    try {
      return await iniciarUmaVez(java, libs, opcoes.prazo ?? 90_000);
    } catch (erro) {
      const portaOcupada = erro instanceof ServicoNaoIniciou && /Address already in use|BindException/i.test(erro.message);
      if (!portaOcupada || tentativa >= 3) throw erro;
    }
  }
}

async function iniciarUmaVez(java: string, libs: string, prazo: number): Promise<KafkaIniciado> {
  // A test may restart it at the same address (`reiniciar`).
  const [porta, portaControlador] = (await portasLivres(2)) as [number, number];
  const dir = criarDiretorioExecucao('kafka-teste');
  const arquivoLog = join(dir, 'broker.out');
  const propriedades = join(dir, 'server.properties');
  writeFileSync(propriedades, propriedadesServidor({ dir, porta, portaControlador }));

  const jvm = [
    '-Xms256m', '-Xmx512m',
    // A short-lived test broker: a simple collector and the client compiler start faster.
    '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${join(DIR_KAFKA_INFRA, 'log4j2.xml')}`,
    `-Dkafka.logs.dir=${dir}`,
    '-cp', `${libs}/*`,
  ];

  const idCluster = idDeCluster();
  const formatar = spawnSync(java, [...jvm, 'kafka.tools.StorageTool', 'format', '--cluster-id', idCluster, '--config', propriedades], { cwd: dir, encoding: 'utf8' });
  if (formatar.status !== 0) {
    const detalhe = `${formatar.stdout}${formatar.stderr}`.trimEnd().split('\n').slice(-10).join('\n');
    removerDiretorio(dir);
    throw new ServicoNaoIniciou(`kafka-storage format falhou (código ${String(formatar.status)}):\n${detalhe}`);
  }

  const iniciarBroker = () => iniciarProcesso(java, [...jvm, 'kafka.Kafka', propriedades], { cwd: dir, arquivoLog, dirExecucao: dir });
  const esperarBroker = (p: ReturnType<typeof iniciarBroker>) =>
    esperarPronto(p, () => kafkaResponde('127.0.0.1', porta), { prazo, intervalo: 200, descricao: `broker Kafka em 127.0.0.1:${porta}`, arquivoLog });
  let processo = iniciarBroker();
  let parado: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (parado ??= (async () => {
      // The data is thrown away, so there is nothing to flush: no need for a controlled shutdown.
      await processo.parar(0);
      guardarLog(join(dir, 'broker.log'), 'kafka-broker.log');
      removerDiretorio(dir);
    })());

  try {
    await esperarBroker(processo);
  } catch (erro) {
    const log = finalDoArquivo(join(dir, 'broker.log'));
    await stop();
    if (erro instanceof ServicoNaoIniciou && log !== '') erro.message += `\nbroker.log:\n${log}`;
    throw erro;
  }
  const reiniciar = async (): Promise<void> => {
    await processo.parar(30_000);
    processo = iniciarBroker();
    await esperarBroker(processo);
  };
  return { brokers: [`127.0.0.1:${porta}`], stop, reiniciar };
}

/**
 * A random cluster id as Kafka's own Uuid.randomUuid makes it: 16 bytes in base64url, never
 * starting with '-', which the storage tool's argument parser would take for an option (one
 * broker start in 64 failed that way).
 */
function idDeCluster(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function propriedadesServidor(p: { dir: string; porta: number; portaControlador: number }): string {
  return `${[
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${p.portaControlador}`,
    `listeners=PLAINTEXT://127.0.0.1:${p.porta},CONTROLLER://127.0.0.1:${p.portaControlador}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${p.porta}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${join(p.dir, 'dados')}`,
    'auto.create.topics.enable=false',
    'num.partitions=1',
    'offsets.topic.replication.factor=1',
    // Fewer partitions of the internal topics: created faster on the first group or transaction.
    'offsets.topic.num.partitions=5',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=5',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
  ].join('\n')}\n`;
}

/**
 * True when the broker is ready for what tests do first: it answers a Metadata request (v4,
 * still supported by Kafka 4) listing at least one live broker, so it has registered and been
 * unfenced and topics can be created; and it names a group coordinator (FindCoordinator v1),
 * which creates __consumer_offsets now rather than during the first test's group join.
 */
export async function kafkaResponde(host: string, porta: number, prazo = 2_000): Promise<boolean> {
  const semTopicos = Buffer.alloc(5);
  semTopicos.writeInt32BE(-1, 0); // topics: null = all
  semTopicos.writeInt8(0, 4); // allow_auto_topic_creation
  const metadados = await pedidoKafka(host, porta, { api: 3, versao: 4, corpo: semTopicos }, prazo);
  // throttle_time_ms(4) brokers.length(4)
  if (metadados === null || metadados.length < 8 || metadados.readInt32BE(4) < 1) return false;

  const grupo = Buffer.from('imoveis-teste-prontidao');
  const pedido = Buffer.alloc(2 + grupo.length + 1);
  pedido.writeInt16BE(grupo.length, 0);
  grupo.copy(pedido, 2);
  pedido.writeInt8(0, 2 + grupo.length); // key_type: group
  const coordenador = await pedidoKafka(host, porta, { api: 10, versao: 1, corpo: pedido }, prazo);
  // throttle_time_ms(4) error_code(2)
  return coordenador !== null && coordenador.length >= 6 && coordenador.readInt16BE(4) === 0;
}

/** Sends one request (non-flexible header v1) and resolves with the response body, or null. */
function pedidoKafka(host: string, porta: number, pedido: { api: number; versao: number; corpo: Buffer }, prazo: number): Promise<Buffer | null> {
  const idCliente = Buffer.from('imoveis-teste');
  const cabecalho = Buffer.alloc(4 + 2 + 2 + 4 + 2);
  cabecalho.writeInt32BE(2 + 2 + 4 + 2 + idCliente.length + pedido.corpo.length, 0); // size
  cabecalho.writeInt16BE(pedido.api, 4);
  cabecalho.writeInt16BE(pedido.versao, 6);
  cabecalho.writeInt32BE(1, 8); // correlation_id
  cabecalho.writeInt16BE(idCliente.length, 12);
  return new Promise((resolve) => {
    let recebido = Buffer.alloc(0);
    const socket = connect({ host, port: porta });
    const terminar = (resposta: Buffer | null): void => {
      socket.destroy();
      resolve(resposta);
    };
    socket.setTimeout(prazo, () => terminar(null));
    socket.once('error', () => terminar(null));
    socket.once('close', () => terminar(null));
    socket.once('connect', () => socket.write(Buffer.concat([cabecalho, idCliente, pedido.corpo])));
    socket.on('data', (d: Buffer) => {
      recebido = Buffer.concat([recebido, d]);
      // size(4) correlation_id(4) body
      if (recebido.length < 4 || recebido.length < 4 + recebido.readInt32BE(0)) return;
      terminar(recebido.readInt32BE(4) === 1 ? recebido.subarray(8, 4 + recebido.readInt32BE(0)) : null);
    });
  });
}
