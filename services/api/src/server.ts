// The API process: reads the environment (only here), opens the projection, Redis and the
// credentials, builds the app, listens, and shuts down cleanly on a signal.
import { resolve } from 'node:path';
import { encerrarComGraca, escutarOuSair, lerConfiguracaoOuSair, sairPorConfiguracao } from '@imoveis/config';
import { buildApp } from './app.ts';
import { ConfigApi, avisosDaConfiguracao } from './config.ts';
import { PARCEIRO_DA_DEMO } from './credenciais/arquivo-credenciais.ts';
import { CredenciaisStore } from './credenciais/credenciais-store.ts';
import { FonteReabrivel, examinarProjecaoAoIniciar } from './fonte-projecao.ts';
import { LimitadorComReserva } from './limite/limitador-com-reserva.ts';
import { LimitadorRedis } from './limite/limitador-redis.ts';
import { LimitadorLocal, type Limitador } from './limite/limitador.ts';
import { criarLogger } from './logger.ts';
import { criarMetricas, metricasDoLimitador, type Metricas } from './metricas.ts';

const config = lerConfiguracaoOuSair(ConfigApi);
const logger = criarLogger({ nivel: config.LOG_LEVEL });
const metricas = criarMetricas();

function criarLimitador(m: Metricas): Limitador {
  const local = new LimitadorLocal({ limite: config.RATE_LIMIT_PER_MINUTE });
  if (config.REDIS_URL === undefined) return local;
  const redis = new LimitadorRedis({
    redis: config.REDIS_URL,
    limite: config.RATE_LIMIT_PER_MINUTE,
    prefixo: config.RATE_LIMIT_KEY_PREFIX,
    comandoTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
  });
  return new LimitadorComReserva({ redis, local, logger, ...metricasDoLimitador(m) });
}

// What the credentials say while the process starts waits until it listens, with the warnings
// below; from then on it is logged as it comes.
const ditasAoEscutar: Array<() => void> = [];
let escutando = false;
const dizerAoEscutar = (nivel: 'info' | 'warn' | 'error') => (contexto: object, mensagem: string) => {
  if (escutando) logger[nivel](contexto, mensagem);
  else ditasAoEscutar.push(() => logger[nivel](contexto, mensagem));
};

function abrirCredenciaisOuSair(): CredenciaisStore {
  try {
    return CredenciaisStore.abrir(config.CREDENTIALS_FILE, {
      logger: { info: dizerAoEscutar('info'), warn: dizerAoEscutar('warn'), error: dizerAoEscutar('error') },
      semDemo: true,
    });
  } catch (erro) {
    return sairPorConfiguracao('CREDENTIALS_FILE', erro instanceof Error ? erro.message : String(erro));
  }
}

// Said once listening: a start stopped by a setting prints its one line and nothing else.
const avisos: Array<[object, string]> = avisosDaConfiguracao(config).map((aviso) => [{}, aviso]);
const credenciais = abrirCredenciaisOuSair();
// The demo's credential (`pnpm start` run with this file's path in its environment) would open
// the partners' API to a token kept in plain text beside the file: never accepted (a file that
// comes to hold it later is said in the log), and refused at start.
if (credenciais.demoAtiva) {
  sairPorConfiguracao(
    'CREDENTIALS_FILE',
    `${config.CREDENTIALS_FILE} guarda uma credencial ativa da demonstração (pnpm start), cujo token fica em texto ao lado do arquivo: revogue-a (pnpm credentials revoke --partner ${PARCEIRO_DA_DEMO}) ou aponte CREDENTIALS_FILE para o arquivo dos parceiros`,
  );
}
if (credenciais.semArquivo) {
  avisos.push([{ arquivo: config.CREDENTIALS_FILE }, 'arquivo de credenciais ausente: toda requisição recebe 401 até que uma credencial seja emitida']);
}
const fonte = new FonteReabrivel(config.DATABASE_PATH, {
  aoReabrir: () => logger.warn({ arquivo: config.DATABASE_PATH }, 'o arquivo da projeção foi apagado, substituído ou migrado: reaberto'),
});
const projecao = examinarProjecaoAoIniciar(config.DATABASE_PATH, fonte);
if (projecao.tipo === 'recusada') sairPorConfiguracao('DATABASE_PATH', projecao.motivo);
if (projecao.tipo === 'aguardada') avisos.push([projecao.contexto, projecao.aviso]);
const limitador = criarLimitador(metricas);

const app = await buildApp({
  config: {
    atrasoMaximoMs: config.READY_MAX_LAG_SECONDS * 1000,
    trustProxy: config.TRUST_PROXY,
    pressao: { maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS },
  },
  leitor: fonte,
  limitador,
  credenciais,
  logger,
  metricas,
});

encerrarComGraca(10_000, logger, async () => {
  await app.close();
  await limitador.close();
  credenciais.close();
  fonte.close();
});

await escutarOuSair(() => app.listen({ host: config.HOST, port: config.PORT }), { host: 'HOST', porta: 'PORT' }, { host: config.HOST, porta: config.PORT });
escutando = true;
for (const dizer of ditasAoEscutar) dizer();
for (const [contexto, aviso] of avisos) logger.warn(contexto, aviso);
// The files' absolute paths: a projector started from another folder must name the same projection.
logger.info(
  { banco: resolve(config.DATABASE_PATH), credenciais: resolve(config.CREDENTIALS_FILE), limite: config.REDIS_URL === undefined ? 'por processo' : 'compartilhado (Redis)' },
  'API servindo',
);
