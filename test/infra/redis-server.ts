// A real Redis for tests and benchmarks: Debian's redis-server on a free loopback port, with no
// persistence, in a fresh temp directory, stopped (and its directory removed) by stop().
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  ProgramaAusente,
  ServicoNaoIniciou,
  criarDiretorioExecucao,
  esperarPronto,
  guardarLog,
  iniciarProcesso,
  localizarPrograma,
  portasLivres,
  removerDiretorio,
  type ServicoIniciado,
} from './processo-servico.ts';

export interface RedisIniciado extends ServicoIniciado {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
}

/** Fails with one line when redis-server is missing. Returns its path. */
export function verificarRedis(): string {
  // Debian puts it in /usr/bin; /usr/sbin covers PATHs of non-root users on other layouts.
  const redis = localizarPrograma('redis-server', ['/usr/sbin']);
  if (redis === null) {
    throw new ProgramaAusente('redis-server não encontrado: os testes de integração precisam dele (Debian: apt-get update && apt-get install -y redis-server, ou bash scripts/setup.sh --test)');
  }
  return redis;
}

export async function iniciarRedis(opcoes: { prazo?: number } = {}): Promise<RedisIniciado> {
  const redis = verificarRedis();
  for (let tentativa = 1; ; tentativa++) {
    try {
      return await iniciarUmaVez(redis, opcoes.prazo ?? 20_000);
    } catch (erro) {
      // A port taken between choosing and binding makes redis-server exit at start: try again.
      const portaOcupada = erro instanceof ServicoNaoIniciou && /Address already in use|bind/i.test(erro.message);
      if (!portaOcupada || tentativa >= 3) throw erro;
    }
  }
}

async function iniciarUmaVez(redis: string, prazo: number): Promise<RedisIniciado> {
  const [porta] = (await portasLivres(1)) as [number];
  const dir = criarDiretorioExecucao('redis-teste');
  const arquivoLog = join(dir, 'redis.log');
  const processo = iniciarProcesso(
    redis,
    [
      '--port', String(porta),
      '--bind', '127.0.0.1',
      '--save', '',
      '--appendonly', 'no',
      '--dir', dir,
      '--daemonize', 'no',
      '--loglevel', 'warning',
    ],
    { cwd: dir, arquivoLog, dirExecucao: dir },
  );
  let parado: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (parado ??= (async () => {
      await processo.parar(2_000);
      guardarLog(arquivoLog, 'redis-server.log');
      removerDiretorio(dir);
    })());
  try {
    await esperarPronto(processo, () => redisResponde('127.0.0.1', porta), {
      prazo,
      intervalo: 50,
      descricao: `redis-server em 127.0.0.1:${porta}`,
      arquivoLog,
    });
  } catch (erro) {
    await stop();
    throw erro;
  }
  return { url: `redis://127.0.0.1:${porta}`, stop };
}

/** True when a Redis at host:port answers PING with +PONG. */
export function redisResponde(host: string, porta: number, prazo = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    let recebido = '';
    const socket = connect({ host, port: porta });
    const terminar = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(prazo, () => terminar(false));
    socket.once('error', () => terminar(false));
    socket.once('close', () => terminar(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => {
      recebido += d.toString('latin1');
      if (recebido.includes('\r\n')) terminar(recebido.startsWith('+PONG'));
    });
  });
}
