// Command line: writes a generated scenario (initial load, then mutations) as NDJSON, or sends
// it to the register topics of a Kafka.
//   pnpm exec tsx packages/generator/src/cli.ts --seed 7 --imoveis 1000 --mutacoes 5000 --saida cenario.ndjson
//   KAFKA_BROKERS=127.0.0.1:9092 pnpm exec tsx packages/generator/src/cli.ts --imoveis 1000 --kafka
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { RegistroBruto } from '@imoveis/contracts';
import { CONDOMINIOS_TOPIC, IMOVEIS_TOPIC, KAFKA_BROKERS, lerConfiguracao } from '@imoveis/config';
import { criarClienteKafka, ehKafkaInacessivel, kafkaInacessivel } from '@imoveis/kafka';
import { gerarCargaInicial, gerarCenario } from './carga-inicial.ts';
import { enviarParaKafka } from './kafka-envio.ts';
import { gerarMutacoes } from './mutacoes.ts';
import { escreverNdjson } from './ndjson.ts';
import { OPCOES_PADRAO, normalizarOpcoes, type OpcoesGerador } from './opcoes.ts';

/** Partitions of a register topic the command creates: as docker-compose.yml creates them. */
const PARTICOES = 3;

const AJUDA = `Uso: cli.ts [opções]
  --seed N                 semente (padrão ${OPCOES_PADRAO.seed})
  --imoveis N              imóveis na carga inicial (padrão ${OPCOES_PADRAO.imoveis})
  --condominios N          condomínios (padrão ${OPCOES_PADRAO.condominios})
  --mutacoes N             registros do fluxo de mutações (padrão ${OPCOES_PADRAO.mutacoes})
  --taxa-valores-ruins X   chance de cada valor ruim por imóvel (padrão ${OPCOES_PADRAO.taxaValoresRuins})
  --taxa-venenos X         fração de venenos nas mutações (padrão ${OPCOES_PADRAO.taxaVenenos})
  --inicio DATA-HORA       relógio do cadastro no início (padrão ${OPCOES_PADRAO.inicio})
  --somente carga|mutacoes só uma das partes
  --saida ARQUIVO          arquivo NDJSON, ou - para a saída padrão (padrão -)
  --kafka                  envia aos tópicos do cadastro em vez de escrever NDJSON: KAFKA_BROKERS,
                           IMOVEIS_TOPIC e CONDOMINIOS_TOPIC como o projetor os lê (tópicos
                           ausentes são criados compactados, com ${PARTICOES} partições)`;

/** Where `--kafka` sends: the projector's own variables, with its defaults. */
const ConfigKafka = z.object({ KAFKA_BROKERS, IMOVEIS_TOPIC, CONDOMINIOS_TOPIC });

/** The records a compacted topic takes: the broker refuses one without a key (a poison some scenarios hold). */
function* comChave(fonte: Iterable<RegistroBruto>, semChave: { quantos: number }): Generator<RegistroBruto> {
  for (const registro of fonte) {
    if (registro.chave === null) semChave.quantos++;
    else yield registro;
  }
}

/** Sends the records to the register topics, creating those missing; resolves with how many were sent. */
async function enviarAoKafka(fonte: Iterable<RegistroBruto>): Promise<number> {
  const config = lerConfiguracao(ConfigKafka);
  const topicos = { imoveis: config.IMOVEIS_TOPIC, condominios: config.CONDOMINIOS_TOPIC };
  // A few retries: a wrong address is said in seconds, not after the services' minutes.
  const kafka = criarClienteKafka({ brokers: config.KAFKA_BROKERS, clientId: 'imoveis-gerador', tentativas: 3 });
  const semChave = { quantos: 0 };
  try {
    await kafka.criarTopicos(Object.values(topicos).map((nome) => ({ nome, particoes: PARTICOES, compactado: true })));
    // The client closes its producer with it.
    const { mensagens } = await enviarParaKafka(comChave(fonte, semChave), await kafka.criarProdutor(), topicos);
    if (semChave.quantos > 0) process.stderr.write(`${semChave.quantos} registros sem chave deixados de fora: um tópico compactado os recusa\n`);
    return mensagens;
  } catch (erro) {
    throw ehKafkaInacessivel(erro) ? new Error(kafkaInacessivel(config.KAFKA_BROKERS, erro), { cause: erro }) : erro;
  } finally {
    await kafka.close();
  }
}

function numero(nome: string, texto: string | undefined): number | undefined {
  if (texto === undefined) return undefined;
  const n = Number(texto);
  if (texto.trim() === '' || !Number.isFinite(n)) throw new RangeError(`--${nome}: número inválido ${JSON.stringify(texto)}`);
  return n;
}

async function principal(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      imoveis: { type: 'string' },
      condominios: { type: 'string' },
      mutacoes: { type: 'string' },
      'taxa-valores-ruins': { type: 'string' },
      'taxa-venenos': { type: 'string' },
      inicio: { type: 'string' },
      somente: { type: 'string' },
      saida: { type: 'string' },
      kafka: { type: 'boolean' },
      ajuda: { type: 'boolean', short: 'h' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.ajuda === true || values.help === true) {
    process.stdout.write(`${AJUDA}\n`);
    return;
  }
  const parciais: Partial<Record<keyof OpcoesGerador, number | string | undefined>> = {
    seed: numero('seed', values.seed),
    imoveis: numero('imoveis', values.imoveis),
    condominios: numero('condominios', values.condominios),
    mutacoes: numero('mutacoes', values.mutacoes),
    taxaValoresRuins: numero('taxa-valores-ruins', values['taxa-valores-ruins']),
    taxaVenenos: numero('taxa-venenos', values['taxa-venenos']),
    inicio: values.inicio,
  };
  // Only what was given: undefined would override a default under exactOptionalPropertyTypes.
  const opcoes = Object.fromEntries(Object.entries(parciais).filter(([, v]) => v !== undefined)) as Partial<OpcoesGerador>;
  const normalizadas = normalizarOpcoes(opcoes);
  const fonte =
    values.somente === 'carga' ? gerarCargaInicial(normalizadas)
    : values.somente === 'mutacoes' ? gerarMutacoes(normalizadas)
    : values.somente === undefined ? gerarCenario(normalizadas)
    : undefined;
  if (fonte === undefined) throw new RangeError(`--somente: esperado carga ou mutacoes, recebido ${JSON.stringify(values.somente)}`);
  if (values.kafka === true && values.saida !== undefined) throw new RangeError('--kafka e --saida: escolha um destino');

  const inicio = process.hrtime.bigint();
  const saida = values.saida ?? '-';
  const total = values.kafka === true ? await enviarAoKafka(fonte) : await escreverNdjson(fonte, saida === '-' ? process.stdout : saida);
  const segundos = Number(process.hrtime.bigint() - inicio) / 1e9;
  process.stderr.write(`${total} registros em ${segundos.toFixed(2)} s (${Math.round(total / segundos)} registros/s)\n`);
}

/** A mistyped command line, to which the usage is the answer (not Kafka or the environment). */
const ehErroDeUso = (erro: unknown): boolean =>
  erro instanceof RangeError || (erro instanceof TypeError && String((erro as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS'));

/**
 * The reader of stdout closed it (`| head`): it has what it wanted. Node ignores SIGPIPE, so the
 * write fails with EPIPE instead of ending the process; stop quietly, as a pipe's writer does.
 */
const leitorFechou = (erro: unknown): boolean => (erro as NodeJS.ErrnoException | null)?.code === 'EPIPE';
process.stdout.on('error', (erro) => {
  if (leitorFechou(erro)) process.exit(0);
  throw erro;
});

principal().catch((erro: unknown) => {
  if (leitorFechou(erro)) return;
  process.stderr.write(`${erro instanceof Error ? erro.message : String(erro)}\n${ehErroDeUso(erro) ? `${AJUDA}\n` : ''}`);
  process.exitCode = 1;
});
