// The embedded default: the bundled sample register events go through the projector's own code
// into a local SQLite file, a demo credential is issued, and the API serves it with the
// per-process request limiter. Nothing outside this machine is needed.
import { hash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ArquivoCredenciaisInvalido, buildApp, CredenciaisStore, emitirCredencial, FonteReabrivel, lerArquivoCredenciais, LimitadorLocal, PARCEIRO_DA_DEMO, type FastifyInstance } from '@imoveis/api';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import { LinhaNdjsonInvalida, lerNdjson } from '@imoveis/generator';
import { INTERVALO_FRESCOR_PADRAO_MS, projetarRegistros } from '@imoveis/projector';
import { ArquivoTravado, EscritorProjecao, LeitorSqlite, ProjecaoComIdsMaiusculos, ProjecaoDeVersaoMaisNova, ProjecaoNaoConfiavel, apagarProjecao, ehFalhaDeArmazenamento, espiarEstado, travarEscritaDaProjecao } from '@imoveis/projection-store';
import { ConfiguracaoInvalida, ehFalhaDeArquivo, garantirPastaDe } from '@imoveis/config';
import type { Logger } from 'pino';
import type { ConfigDemo } from './config.ts';

export interface Demo {
  app: FastifyInstance;
  token: string;
  /** Records read from the sample, and how many of them went to the dead-letter list. */
  carga: { registros: number; rejeitados: number; jaCarregada: boolean };
  close(): Promise<void>;
}

/**
 * Runs `fazer`; a failure of the path the setting names (the file system's, SQLite's storage, a
 * file that is no credentials file, a projection left unsynced by an OS crash) becomes that
 * setting's {@link ConfiguracaoInvalida}.
 */
function pelaConfiguracao<T>(variavel: string, fazer: () => T): T {
  try {
    return fazer();
  } catch (erro) {
    const doArquivo =
      ehFalhaDeArquivo(erro) || ehFalhaDeArmazenamento(erro) || erro instanceof ArquivoCredenciaisInvalido || erro instanceof ProjecaoNaoConfiavel;
    if (doArquivo) {
      throw new ConfiguracaoInvalida(variavel, erro.message);
    }
    if (erro instanceof ArquivoTravado) throw new ConfiguracaoInvalida(variavel, 'outro processo (um projetor, outra demonstração) grava esta projeção');
    throw erro;
  }
}

/** Throws {@link ConfiguracaoInvalida} naming the setting when a file it names cannot be used. */
export async function iniciarDemo(config: ConfigDemo, logger: Logger): Promise<Demo> {
  if (!existsSync(config.DEMO_EVENTS_FILE) || !statSync(config.DEMO_EVENTS_FILE).isFile()) {
    throw new ConfiguracaoInvalida('DEMO_EVENTS_FILE', `${config.DEMO_EVENTS_FILE} não existe ou não é um arquivo`);
  }
  const amostraFeita = pelaConfiguracao('DEMO_EVENTS_FILE', () => digestoDaAmostra(config));

  // Whose the credentials file is, before anything is written: a partners' file would stop the
  // demo after its projection was made.
  pelaConfiguracao('CREDENTIALS_FILE', () => {
    garantirPastaDe(config.CREDENTIALS_FILE);
    exigirCredenciaisDaDemo(config.CREDENTIALS_FILE);
  });

  // 1. The sample, through the projector. Offsets in the file make a second start a no-op. Like a
  // projector, the demo holds the projection's lock while it writes it.
  const { escritor, trava } = pelaConfiguracao('DATABASE_PATH', () => {
    garantirPastaDe(config.DATABASE_PATH);
    const trava = travarEscritaDaProjecao(config.DATABASE_PATH);
    try {
      return { escritor: abrirProjecaoDaDemo(config.DATABASE_PATH, amostraFeita, logger), trava };
    } catch (erro) {
      trava.liberar();
      throw erro;
    }
  });
  const jaCarregada = escritor.offsets().length > 0;
  const resumo = await projetarRegistros(escritor, lerNdjson(config.DEMO_EVENTS_FILE), {
    contexto: { fotosBaseUrl: config.PHOTOS_BASE_URL },
    log: logger,
  }).catch((erro: unknown) => {
    // A sample that fails half-way leaves no half-loaded projection: the next start, with the
    // file fixed, would skip as many of its records as this one committed. It is the demo's own,
    // made again from the sample in a second.
    escritor.close();
    apagarProjecao(config.DATABASE_PATH);
    trava.liberar();
    if (erro instanceof LinhaNdjsonInvalida) throw new ConfiguracaoInvalida('DEMO_EVENTS_FILE', `${config.DEMO_EVENTS_FILE}: ${erro.message}`);
    throw erro;
  });
  // No Kafka to lag behind: the projection is as fresh as it gets; say so, as the projector does.
  const confirmarFrescor = () => escritor.registrarFrescor({ registradoEm: Date.now(), emDiaEm: Date.now(), atraso: 0 });
  confirmarFrescor();
  const temporizador = setInterval(confirmarFrescor, INTERVALO_FRESCOR_PADRAO_MS);

  // 2. A credential, kept beside the demo's files so every start prints one that works.
  const { credenciais, token } = pelaConfiguracao('CREDENTIALS_FILE', () => {
    garantirPastaDe(config.CREDENTIALS_FILE);
    const store = CredenciaisStore.abrir(config.CREDENTIALS_FILE, { logger });
    return { credenciais: store, token: tokenDaDemo(config.CREDENTIALS_FILE, store) };
  });

  // 3. The API as `pnpm api` builds it without Redis: the per-process limiter, the default
  // overload and proxy settings.
  const fonte = new FonteReabrivel(config.DATABASE_PATH, { abrir: (caminho) => LeitorSqlite.abrir(caminho, { daDemo: true }) });
  const limitador = new LimitadorLocal({ limite: config.RATE_LIMIT_PER_MINUTE });
  const app = await buildApp({
    config: { atrasoMaximoMs: config.READY_MAX_LAG_SECONDS * 1000 },
    leitor: fonte,
    limitador,
    credenciais,
    logger,
  });

  return {
    app,
    token,
    carga: { registros: resumo.registros, rejeitados: resumo.rejeicoes.length, jaCarregada },
    async close() {
      clearInterval(temporizador);
      await app.close();
      await limitador.close();
      credenciais.close();
      fonte.close();
      escritor.close();
      trava.liberar();
    },
  };
}

/**
 * What a demo projection is made from: the sample's bytes and the photos' address. Its offsets are
 * positions in the sample, so one made from another sample would skip or misapply records.
 * A number (48 bits of a SHA-256), as `estado` holds numbers.
 */
function digestoDaAmostra(config: ConfigDemo): number {
  const amostra = readFileSync(config.DEMO_EVENTS_FILE);
  return Number.parseInt(hash('sha256', Buffer.concat([amostra, Buffer.from(`\0${config.PHOTOS_BASE_URL}`)]), 'hex').slice(0, 12), 16);
}

/**
 * The demo's own projection: a new one, or one it made (marked so). One made by other mapping rules,
 * or from another sample or photo address, is made again from the sample, which is small. Anything
 * else (a real projection, named by a DATABASE_PATH left in the environment, even an empty one or one
 * of an older schema) is refused before it is opened to write: never migrated, written to or deleted.
 */
function abrirProjecaoDaDemo(caminho: string, fonte: number, logger: Logger): EscritorProjecao {
  const marca = espiarEstado(caminho, 'demo');
  if (marca !== undefined && marca !== 1) {
    throw new ConfiguracaoInvalida(
      'DATABASE_PATH',
      `${caminho} não foi feita pela demonstração, que só grava na sua própria projeção (aponte DATABASE_PATH para outro arquivo; se for a de uma demonstração antiga, apague-a)`,
    );
  }
  if (marca === undefined) return criarProjecaoDaDemo(caminho, fonte);
  let escritor: EscritorProjecao | null = null;
  let refazer: string | null;
  try {
    escritor = EscritorProjecao.abrir(caminho, { daDemo: true });
    refazer =
      escritor.regras() !== VERSAO_DAS_REGRAS ? 'feita por outras regras de mapeamento'
      : !escritor.vazia() && escritor.lerEstado('demo_fonte') !== fonte ? 'feita de outra amostra ou com outro PHOTOS_BASE_URL'
      : null;
  } catch (erro) {
    // Its own, of a schema this code does not open: a newer one (a checkout of older code), or an
    // old one holding ids in capitals.
    if (!(erro instanceof ProjecaoDeVersaoMaisNova || erro instanceof ProjecaoComIdsMaiusculos)) throw erro;
    refazer = 'de um esquema que este código não abre';
  }
  if (escritor !== null && refazer === null) {
    escritor.gravarEstado('demo_fonte', fonte);
    return escritor;
  }
  escritor?.close();
  apagarProjecao(caminho);
  logger.info({ banco: caminho }, `projeção da demonstração ${refazer}: refeita a partir da amostra`);
  return criarProjecaoDaDemo(caminho, fonte);
}

/**
 * A new demo projection, made and marked under another name and then renamed into place: a start
 * killed half-way never leaves at `caminho` a projection without the mark, which the next start
 * would refuse as someone else's. What is at `caminho` holds no projection (nothing, or an empty
 * file): it goes first, with any -wal and -shm left beside it, which SQLite would otherwise read
 * as the new file's. Through a symbolic link, the file it names is made.
 */
function criarProjecaoDaDemo(caminho: string, fonte: number): EscritorProjecao {
  const destino = existsSync(caminho) ? realpathSync(caminho) : caminho;
  const provisoria = `${destino}.criando`;
  apagarProjecao(provisoria);
  try {
    const nova = EscritorProjecao.abrir(provisoria, { daDemo: true });
    try {
      nova.gravarEstado('demo', 1);
      nova.gravarEstado('demo_fonte', fonte);
    } finally {
      nova.close();
    }
    // The last connection to close folds the WAL into the file, unless that failed (a full disk):
    // then the rename would move the file without its mark.
    if (existsSync(`${provisoria}-wal`)) throw new Error(`${provisoria}: o WAL não foi incorporado ao arquivo ao fechá-lo`);
    apagarProjecao(destino);
    renameSync(provisoria, destino);
  } catch (erro) {
    apagarProjecao(provisoria);
    throw erro;
  }
  return EscritorProjecao.abrir(caminho, { daDemo: true });
}


/**
 * The demo's credentials file: a new one, or one holding the demo's credentials alone. Any other
 * (a CREDENTIALS_FILE left in the environment) holds partners' credentials, and a demo token
 * issued into it would open the live API: refused, never written.
 */
function exigirCredenciaisDaDemo(caminho: string): void {
  const parceiros = new Set(lerArquivoCredenciais(caminho).credenciais.map((c) => c.parceiro));
  parceiros.delete(PARCEIRO_DA_DEMO);
  if (parceiros.size === 0) return;
  throw new ConfiguracaoInvalida(
    'CREDENTIALS_FILE',
    `${caminho} guarda credenciais de parceiros (${[...parceiros].join(', ')}), e a demonstração só emite o seu token num arquivo só seu: aponte CREDENTIALS_FILE para outro arquivo`,
  );
}

/** The demo token: the one saved by an earlier start while it still authenticates, else a new one. */
function tokenDaDemo(arquivoCredenciais: string, credenciais: CredenciaisStore): string {
  const arquivoToken = join(dirname(arquivoCredenciais), 'token-demo.txt');
  if (existsSync(arquivoToken)) {
    const salvo = readFileSync(arquivoToken, 'utf8').trim();
    if (credenciais.autenticar(salvo).tipo === 'valida') return salvo;
  }
  const { token } = emitirCredencial(arquivoCredenciais, PARCEIRO_DA_DEMO);
  writeFileSync(arquivoToken, `${token}\n`, { mode: 0o600 });
  credenciais.recarregarSeMudou();
  return token;
}
