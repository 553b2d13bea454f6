// Entry point of `pnpm run rebuild` (`pnpm rebuild` is pnpm's own command): replays both topics
// into a new projection beside the live one and switches it in once caught up. The API keeps
// serving the live projection until then; a running projector follows the switch by itself.
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { aoSinalDeParada, ehFalhaDeArquivo, garantirPastaDe, lerConfiguracaoOuSair, sairPorConfiguracao } from '@imoveis/config';
import { criarClienteKafka, ehKafkaInacessivel, kafkaInacessivel } from '@imoveis/kafka';
import { ArquivoTravado, ProjecaoDaDemo, ehFalhaDeArmazenamento, ehTravaOcupada } from '@imoveis/projection-store';
import { ConfigReconstrucao, linhaTopicosAusentes, variavelDoTopico } from './config.ts';
import { TopicosAusentes } from './projetor.ts';
import { ReconstrucaoInterrompida, ReconstrucaoSemImoveis, TopicosDiferentesDaProjecao, reconstruir } from './reconstrucao.ts';

/** One progress line every 5 s in the operator's terminal. */
const INTERVALO_DE_PROGRESSO_MS = 5_000;

const config = lerConfiguracaoOuSair(ConfigReconstrucao);
// Written synchronously: the switch blocks the event loop while it waits for the live projection's
// write lock (up to a minute), and the operator must read why while it waits, not after.
const log = pino({ level: config.LOG_LEVEL, base: { servico: 'rebuild' } }, pino.destination({ dest: 1, sync: true }));
try {
  garantirPastaDe(config.DATABASE_PATH);
} catch (erro) {
  if (!ehFalhaDeArquivo(erro)) throw erro;
  sairPorConfiguracao('DATABASE_PATH', erro.message);
}
const kafka = criarClienteKafka({ brokers: config.KAFKA_BROKERS, clientId: 'imoveis-rebuild', log });
const projecao = resolve(config.DATABASE_PATH);

// Ctrl-C or SIGTERM: stop before the switch and delete the rebuild's file (it may be gigabytes);
// a second signal (not the same Ctrl-C relayed by pnpm) exits at once, leaving the file for the
// next rebuild to delete. The switch is synchronous: a signal sent during it is handled after it,
// and only noted.
const interrupcao = new AbortController();
let sinalRecebido: NodeJS.Signals | null = null;
let trocaIniciada = false;
aoSinalDeParada(
  (sinal) => {
    sinalRecebido = sinal;
    if (trocaIniciada) return void log.warn({ sinal }, 'a troca já tinha começado: não foi interrompida (um segundo sinal sai já)');
    log.warn({ sinal }, 'interrompendo a reconstrução: apagando o arquivo dela (um segundo sinal sai já)');
    interrupcao.abort();
  },
  (sinal) => process.exit(128 + constants.signals[sinal]),
);

try {
  const resumo = await reconstruir({
    kafka,
    caminhoLive: config.DATABASE_PATH,
    contexto: { fotosBaseUrl: config.PHOTOS_BASE_URL },
    threadsDePreparo: config.PREPARE_THREADS,
    atrasoParaAdiarSincronia: config.DEFER_FSYNC_ABOVE_LAG,
    grupoDoProjetor: config.KAFKA_GROUP_ID,
    topicos: { imoveis: config.IMOVEIS_TOPIC, condominios: config.CONDOMINIOS_TOPIC },
    log,
    intervaloMs: INTERVALO_DE_PROGRESSO_MS,
    sinal: interrupcao.signal,
    aoTrocar: () => {
      trocaIniciada = true;
    },
  });
  if (resumo.ausentes > 0) {
    // Saved after the rebuild caught up (the live projector meets their events again as repeats), or gone from the
    // topics: a retention instead of compaction, or the wrong topic.
    log.warn({ ausentes: resumo.ausentes }, 'imóveis da projeção viva que a reconstrução não viu: mantidos como estavam');
  }
  if (resumo.maisNovos > 0) {
    // Compaction kept a key's last record, an older revision sent late: the live one stands.
    log.warn({ maisNovos: resumo.maisNovos }, 'imóveis em revisão mais nova na projeção viva que nos tópicos: mantidos como estavam');
  }
  process.stdout.write(
    `projeção ${projecao} trocada: ${resumo.imoveis} imóveis, ${resumo.mantidos} mantidos, ${resumo.alterados} alterados (atualizado_em ${new Date(resumo.instante).toISOString()}), ${resumo.removidosNovos} remoções novas, ${resumo.ausentes} não vistos pela reconstrução (mantidos), ${resumo.maisNovos} mais novos na projeção viva (mantidos)\n`,
  );
} catch (erro) {
  if (erro instanceof ReconstrucaoInterrompida) {
    log.warn({ code: erro.code }, erro.message);
    process.exitCode = 128 + constants.signals[sinalRecebido ?? 'SIGINT'];
  } else if (erro instanceof ArquivoTravado) {
    log.fatal({ code: erro.code, banco: config.DATABASE_PATH }, `outra reconstrução de ${config.DATABASE_PATH} está em curso: uma de cada vez`);
    process.exitCode = 1;
  } else if (ehTravaOcupada(erro)) {
    // The switch waited for the live projection's write lock and never got it (a live projector
    // writing without a pause on a slow disk, or another process holding a transaction open).
    log.fatal({ code: (erro as { code?: string }).code, banco: config.DATABASE_PATH }, `a trava de escrita de ${config.DATABASE_PATH} não ficou livre para a troca: reconstrução descartada, rode-a de novo`);
    process.exitCode = 1;
  } else if (erro instanceof ProjecaoDaDemo) {
    log.fatal({ code: erro.code }, erro.message);
    process.exitCode = 1;
  } else if (ehFalhaDeArmazenamento(erro) || ehFalhaDeArquivo(erro)) {
    // The live file is no projection (a folder, a file of another kind: refused before any
    // replay), or the rebuild's own beside it cannot be written (a full disk).
    sairPorConfiguracao('DATABASE_PATH', `${config.DATABASE_PATH}: ${erro.message}`);
  } else if (erro instanceof TopicosDiferentesDaProjecao) {
    // Found before the replay, any file written: a setting to correct, nothing to clean up.
    const variaveis = erro.estranhos.map((e) => variavelDoTopico(e.qual));
    sairPorConfiguracao(
      variaveis.join(', '),
      `${erro.message} (${config.DATABASE_PATH}); uma reconstrução relê os tópicos da projeção viva: para passar a outros, mude-os antes no projetor`,
    );
  } else if (erro instanceof ReconstrucaoSemImoveis) {
    log.fatal({ code: erro.code, topico: erro.topico }, `${erro.message}; confira IMOVEIS_TOPIC e CONDOMINIOS_TOPIC (trocados?) e se o tópico tem os eventos do registro`);
    process.exitCode = 1;
  } else if (erro instanceof TopicosAusentes) {
    log.fatal({ code: erro.code, topicos: erro.topicos }, linhaTopicosAusentes(erro.topicos, config));
    process.exitCode = 1;
  } else if (ehKafkaInacessivel(erro)) {
    log.fatal({ brokers: config.KAFKA_BROKERS }, kafkaInacessivel(config.KAFKA_BROKERS, erro));
    process.exitCode = 1;
  } else {
    throw erro;
  }
} finally {
  await kafka.close();
}
// Interrupted during the first read of Kafka, that read may still be retrying brokers: nothing is
// left to do, and it must not hold the process open.
if (sinalRecebido !== null) process.exit();
