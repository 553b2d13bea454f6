// Entry point of `pnpm projector`: reads the environment, opens the projection and Kafka,
// consumes until SIGTERM/SIGINT, then stops cleanly. Everything else is in the modules it wires.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { ehFalhaDeArquivo, encerrarComGraca, escutarOuSair, garantirPastaDe, lerConfiguracaoOuSair } from '@imoveis/config';
import { criarClienteKafka, ehKafkaInacessivel, kafkaInacessivel } from '@imoveis/kafka';
import { ArquivoTravado, EscritorProjecao, avisoDeMigracao, ProjecaoComIdsMaiusculos, ProjecaoDaDemo, ProjecaoDeVersaoMaisNova, ProjecaoNaoConfiavel, ehFalhaDeArmazenamento, travarEscritaDaProjecao, type Trava } from '@imoveis/projection-store';
import { ConfigProjetor, linhaTopicosAusentes } from './config.ts';
import { criarHttpOperacional } from './http.ts';
import { criarMetricas } from './metricas.ts';
import { TopicosAusentes, criarProjetor, exigirTopicos } from './projetor.ts';

const config = lerConfiguracaoOuSair(ConfigProjetor);
// Written synchronously (decision 0018): a line said before or during a step that blocks the event
// loop (a migration of a million rows takes minutes) reaches the operator then, not after it.
const log = pino({ level: config.LOG_LEVEL, base: { servico: 'projector' } }, pino.destination({ dest: 1, sync: true }));

/**
 * A projection the code must not write (another projector writes it, newer schema, ids of an
 * older version, possibly corrupt, the demo's) or cannot write (path, permissions, disk): one
 * line naming it, exit 1.
 */
function sairSeProjecaoRecusada(erro: unknown, caminho: string): never {
  if (erro instanceof ArquivoTravado) {
    log.fatal({ code: erro.code, banco: caminho }, `outro projetor já grava a projeção ${caminho} (DATABASE_PATH): um só por arquivo`);
  } else if (erro instanceof ProjecaoNaoConfiavel || erro instanceof ProjecaoDeVersaoMaisNova || erro instanceof ProjecaoComIdsMaiusculos || erro instanceof ProjecaoDaDemo) {
    log.fatal({ code: erro.code }, erro.message);
  } else if (ehFalhaDeArmazenamento(erro) || ehFalhaDeArquivo(erro)) {
    const { code, message } = erro as NodeJS.ErrnoException;
    log.fatal({ code, banco: caminho }, `a projeção ${caminho} não pode ser aberta para escrita (DATABASE_PATH): ${message}`);
  } else {
    throw erro;
  }
  process.exit(1);
}

/** One writer per file: a second projector's batches would interleave with this one's. */
function travarOuSair(caminho: string): Trava {
  try {
    garantirPastaDe(caminho);
    return travarEscritaDaProjecao(caminho);
  } catch (erro) {
    return sairSeProjecaoRecusada(erro, caminho);
  }
}

function abrirOuSair(caminho: string): EscritorProjecao {
  try {
    return EscritorProjecao.abrir(caminho, {
      aoMigrar: (de, para) => log.info({ de, para, banco: caminho }, avisoDeMigracao(de, para)),
    });
  } catch (erro) {
    return sairSeProjecaoRecusada(erro, caminho);
  }
}

// Every check that needs no projection comes before it is created or migrated (a migration of a
// million rows takes over a minute): the lock, then the metrics port.
const trava = travarOuSair(config.DATABASE_PATH);
/** The projection once open: readiness and metrics ask it, and find none before. */
const projecao: { escritor?: EscritorProjecao } = {};
const emDiaEm = (): number | null => projecao.escritor?.emDiaEm() ?? null;
const metricas = criarMetricas({ emDiaEm, regras: () => projecao.escritor?.regras() });
let fase: 'iniciando' | 'consumindo' | 'encerrando' = 'iniciando';
const http = criarHttpOperacional({ registry: metricas.registry, fase: () => fase, emDiaEm, atrasoMaximoMs: config.READY_MAX_LAG_SECONDS * 1000 });
await escutarOuSair(
  () => http.listen({ host: config.METRICS_HOST, port: config.METRICS_PORT }),
  { host: 'METRICS_HOST', porta: 'METRICS_PORT' },
  { host: config.METRICS_HOST, porta: config.METRICS_PORT },
);

/** A register topic missing, or every retry of the brokers spent (one to two minutes): one line, exit 1. */
function sairSeKafkaRecusou(erro: unknown): never {
  if (erro instanceof TopicosAusentes) {
    log.fatal({ code: erro.code, topicos: erro.topicos }, linhaTopicosAusentes(erro.topicos, config));
    process.exit(1);
  }
  if (!ehKafkaInacessivel(erro)) throw erro;
  // A wrong address, or Kafka down: the supervisor restarts us.
  log.fatal({ brokers: config.KAFKA_BROKERS }, kafkaInacessivel(config.KAFKA_BROKERS, erro));
  process.exit(1);
}

const kafka = criarClienteKafka({ brokers: config.KAFKA_BROKERS, clientId: 'imoveis-projector', log });
// A projection not there yet (no file, or an empty one) is made only once Kafka has shown the
// topics: a mistyped topic or brokers out of reach would leave an empty one behind, which the API
// serves. An existing one is opened first, so that a projection this code refuses says so at once
// (`iniciar` checks the topics then). A stop signal meanwhile ends the process, as a clean stop
// (exit 0): nothing was written, nothing is lost. One that comes while the projection opens (a
// migration of a million rows takes over a minute, synchronously) waits in Node until the graceful
// stop below can take it: the early handler is removed only once that one is in place, or Node
// would drop the waiting signal with its last listener.
const pararAntesDeAbrir = (sinal: NodeJS.Signals) => {
  log.info({ signal: sinal }, 'encerrando antes de abrir a projeção');
  process.exit(0);
};
process.once('SIGTERM', pararAntesDeAbrir).once('SIGINT', pararAntesDeAbrir);
const porFazer = (statSync(config.DATABASE_PATH, { throwIfNoEntry: false })?.size ?? 0) === 0;
if (porFazer) await exigirTopicos(kafka, [config.IMOVEIS_TOPIC, config.CONDOMINIOS_TOPIC]).catch(sairSeKafkaRecusou);

const escritor = abrirOuSair(config.DATABASE_PATH);
projecao.escritor = escritor;
const projetor = criarProjetor({
  kafka,
  escritor,
  contexto: { fotosBaseUrl: config.PHOTOS_BASE_URL },
  threadsDePreparo: config.PREPARE_THREADS,
  atrasoParaAdiarSincronia: config.DEFER_FSYNC_ABOVE_LAG,
  groupId: config.KAFKA_GROUP_ID,
  topicos: { imoveis: config.IMOVEIS_TOPIC, condominios: config.CONDOMINIOS_TOPIC },
  log,
  metricas,
  intervaloFrescorMs: config.FRESHNESS_INTERVAL_MS,
  sessaoKafkaMs: config.KAFKA_SESSION_TIMEOUT_MS,
  aoFalhar: (erro) => {
    if (ehFalhaDeArmazenamento(erro)) {
      log.fatal({ err: erro, code: erro.code, banco: config.DATABASE_PATH }, `a projeção não pode ser gravada (${erro.code}); saindo sem confirmar o lote`);
    } else {
      log.fatal({ err: erro }, 'o consumidor Kafka parou e não se recupera; saindo para que o supervisor reinicie');
    }
    process.exit(1);
  },
});

encerrarComGraca(30_000, log, async () => {
  fase = 'encerrando';
  await projetor.parar();
  await kafka.close();
  await http.close();
  escritor.close();
  trava.liberar();
});
process.off('SIGTERM', pararAntesDeAbrir).off('SIGINT', pararAntesDeAbrir);

await projetor.iniciar().catch((erro: unknown) => {
  // Closed first: a killed predecessor's deferred fsync, taken over at the start, ends with it.
  escritor.close();
  sairSeKafkaRecusou(erro);
});
// A signal during the start (joining the group takes seconds) is already stopping it.
if (fase === 'iniciando') {
  fase = 'consumindo';
  log.info(
    // The file's absolute path: an API started from another folder must name the same one.
    { brokers: config.KAFKA_BROKERS, topicos: [config.IMOVEIS_TOPIC, config.CONDOMINIOS_TOPIC], banco: resolve(config.DATABASE_PATH), metricas: config.METRICS_PORT },
    'projetor consumindo',
  );
}
