// The API process: reads the environment (only here), opens the projection, Redis and the
// credentials, builds the app, listens, and shuts down cleanly on a signal.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { encerrarComGraca, escutarOuSair, lerConfiguracaoOuSair, sairPorConfiguracao } from '@imoveis/config';
import { ProjecaoDaDemo, bancoAlheio, ehProjecaoDaDemo } from '@imoveis/projection-store';
import { buildApp } from './app.ts';
import { ConfigApi, avisosDaConfiguracao } from './config.ts';
import { PARCEIRO_DA_DEMO } from './credenciais/arquivo-credenciais.ts';
import { CredenciaisStore } from './credenciais/credenciais-store.ts';
import { FonteReabrivel } from './fonte-projecao.ts';
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
/**
 * Why no projection can ever stand at `caminho`, or null. One not created yet is waited for (the
 * contract's "temporary failure", until the projector creates it); a folder or device at its path,
 * a file where one of its folders should be, or a folder this process may not enter never becomes one.
 */
function caminhoImpossivel(caminho: string): string | null {
  try {
    return statSync(caminho).isFile() ? null : `${caminho} existe e não é um arquivo`;
  } catch (erro) {
    const { code, message } = erro as NodeJS.ErrnoException;
    if (code === 'ENOENT') return null;
    return code === 'ENOTDIR' ? `${caminho}: uma das pastas do caminho é um arquivo` : message;
  }
}
const impossivel = caminhoImpossivel(config.DATABASE_PATH);
if (impossivel !== null) sairPorConfiguracao('DATABASE_PATH', impossivel);
// The demo's projection (`pnpm start`) holds sample listings, which partners must never be served.
if (ehProjecaoDaDemo(config.DATABASE_PATH)) sairPorConfiguracao('DATABASE_PATH', new ProjecaoDaDemo(config.DATABASE_PATH).message);
// Another application's database: no projector makes a projection of it (each refuses it too).
// A file SQLite cannot read is told below, as the reader finds it.
const alheio = ((): string | null => {
  try {
    return bancoAlheio(config.DATABASE_PATH);
  } catch {
    return null;
  }
})();
if (alheio !== null) sairPorConfiguracao('DATABASE_PATH', `${config.DATABASE_PATH} ${alheio}`);
// The reader refuses it at every open too (one made at the path after this start).
const fonte = new FonteReabrivel(config.DATABASE_PATH, {
  aoReabrir: () => logger.warn({ arquivo: config.DATABASE_PATH }, 'o arquivo da projeção foi apagado, substituído ou migrado: reaberto'),
});
try {
  fonte.atual();
} catch (erro) {
  const code = ((erro as Error).cause as { code?: unknown } | undefined)?.code;
  // A file that is no SQLite database never becomes a projection: the path is wrong.
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    sairPorConfiguracao('DATABASE_PATH', `${config.DATABASE_PATH} não é uma projeção (${String(code)})`);
  }
  const ate = 'a API responde 500 em /imoveis e 503 nas outras operações (falha temporária) e não fica pronta até o projetor';
  if (existsSync(config.DATABASE_PATH)) {
    // Another schema version (deploy both together), or a projection the projector is still making.
    avisos.push([{ arquivo: config.DATABASE_PATH, err: erro }, `projeção ainda não utilizável: ${ate} prepará-la`]);
  } else {
    avisos.push([{ arquivo: config.DATABASE_PATH }, `projeção ainda ausente: ${ate} criá-la`]);
  }
}
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
