// The API as operators run it (`pnpm api`: server.ts built, run by node alone): a bad setting stops it with one line
// naming the variable; three processes sharing one Redis admit exactly the limit per credential
// over real HTTP, and keep answering when that Redis dies under them; a credential revoked or
// issued in the file under a running process counts within seconds; SIGTERM shuts a process down
// cleanly. Every partner answer is checked against the OpenAPI document the process serves.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as esperar } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Database, EscritorProjecao } from '@imoveis/projection-store';
import { imovelSalvo } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { emitirCredencial, revogarCredencial } from '../../services/api/src/index.ts';
import { nomeUnico, sqliteTemporario, type SqliteTemporario } from '../helpers.ts';
import { comandoServico } from '../infra/construir.ts';
import { criarDiretorioExecucao, esperarPronto, iniciarProcesso, portasLivres, removerDiretorio, type ProcessoServico } from '../infra/processo-servico.ts';
import { redisResponde, verificarRedis } from '../infra/redis-server.ts';
import { ValidadorOpenApi, criarProjecao, idsOrdenados, type ProjecaoDeTeste, type RespostaVista } from '../integration/api-suporte.ts';

const RAIZ = fileURLToPath(new URL('../../', import.meta.url));

interface Processo {
  readonly filho: ChildProcess;
  readonly saida: () => string;
  readonly fim: Promise<number | null>;
}

/** Every API started, stopped after each test: one a failing assertion left running kept its port. */
const iniciados: ChildProcess[] = [];

function iniciarApi(env: Record<string, string>): Processo {
  const filho = spawn(...comandoServico('api'), {
    cwd: RAIZ,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  iniciados.push(filho);
  let saida = '';
  filho.stdout?.on('data', (d: Buffer) => (saida += d.toString()));
  filho.stderr?.on('data', (d: Buffer) => (saida += d.toString()));
  const fim = new Promise<number | null>((resolve) => filho.once('close', (codigo) => resolve(codigo)));
  return { filho, saida: () => saida, fim };
}

async function parar(p: Processo): Promise<number | null> {
  if (p.filho.exitCode === null && p.filho.signalCode === null) p.filho.kill('SIGTERM');
  return p.fim;
}

const vivo = (p: Processo): boolean => p.filho.exitCode === null && p.filho.signalCode === null;

/** The OpenAPI document each running process serves, by port: its answers are checked against their own process's. */
const contratos = new Map<number, ValidadorOpenApi>();

/**
 * Waits until the process on `porta` answers `rota` with 200, then fetches the document it serves.
 * The health routes are the operators', hidden from the partners' document: nothing in it to check them against.
 */
async function esperarApi(porta: number, rota: '/health/live' | '/health/ready' = '/health/live'): Promise<ValidadorOpenApi> {
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${porta}${rota}`).catch(() => null))?.status, { timeout: 30_000, interval: 100 }).toBe(200);
  const documento = (await (await fetch(`http://127.0.0.1:${porta}/api/v1/openapi.json`)).json()) as Record<string, unknown>;
  const validador = new ValidadorOpenApi(documento);
  contratos.set(porta, validador);
  return validador;
}

/** A GET to a running process (with a token, when given), its answer checked against the document that process serves. */
async function pedir(porta: number, url: string, token?: string): Promise<RespostaVista & { readonly headers: Record<string, string> }> {
  const validador = contratos.get(porta);
  if (validador === undefined) throw new Error(`sem o documento da API em ${porta}: esperarApi antes`);
  const r = await fetch(`http://127.0.0.1:${porta}${url}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }).catch((erro: unknown) => {
    throw new Error(`a API em ${porta} não respondeu a GET ${url}`, { cause: erro });
  });
  // fetch decompresses what came br or gzip: the body is the document's JSON either way.
  const resposta = { statusCode: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
  validador.validar('GET', url, resposta);
  return resposta;
}

/** A value of the process's Prometheus metrics (a sample without labels). */
async function metrica(porta: number, nome: string): Promise<number> {
  const texto = await (await fetch(`http://127.0.0.1:${porta}/metrics`)).text();
  const valor = new RegExp(`^${nome} (\\S+)$`, 'm').exec(texto)?.[1];
  if (valor === undefined) throw new Error(`${nome} ausente das métricas de ${porta}`);
  return Number(valor);
}

/** A redis-server of the test's own on a fixed port, so it can be killed and started again at the same address. */
async function iniciarRedisProprio(porta: number, dir: string): Promise<ProcessoServico> {
  const arquivoLog = join(dir, 'redis.log');
  const processo = iniciarProcesso(
    verificarRedis(),
    ['--port', String(porta), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'],
    { cwd: dir, arquivoLog, dirExecucao: dir },
  );
  await esperarPronto(processo, () => redisResponde('127.0.0.1', porta), { prazo: 10_000, intervalo: 50, descricao: `redis-server em 127.0.0.1:${porta}`, arquivoLog });
  return processo;
}

interface Respondida {
  readonly porta: number;
  readonly status: number;
  readonly inicio: number;
  readonly fim: number;
}

/**
 * Requests sent by `porProcesso` clients to each process, each client sending its next one as soon
 * as the last is answered (a short pause between them keeps the 2-core machine usable), until
 * `parar()`. An answer the document does not allow, or a request with no answer, stops the load
 * and is kept in `erros`.
 */
function iniciarCarga(portas: readonly number[], token: string, porProcesso = 3) {
  const respondidas: Respondida[] = [];
  const erros: unknown[] = [];
  let ativa = true;
  let emVoo = 0;
  const clientes = portas.flatMap((porta) =>
    Array.from({ length: porProcesso }, async () => {
      while (ativa) {
        const inicio = performance.now();
        emVoo++;
        try {
          const { statusCode } = await pedir(porta, '/api/v1/imoveis?por_pagina=1', token);
          respondidas.push({ porta, status: statusCode, inicio, fim: performance.now() });
        } catch (erro) {
          erros.push(erro);
          ativa = false;
        } finally {
          emVoo--;
        }
        await esperar(5);
      }
    }),
  );
  return {
    respondidas,
    erros,
    /** Requests sent and not answered yet. */
    get emVoo(): number {
      return emVoo;
    },
    /** Answers from `porta` to requests sent at or after `desde` (performance.now()); throws the load's first error. */
    desde(porta: number, desde: number): number {
      if (erros.length > 0) throw erros[0];
      return respondidas.filter((r) => r.porta === porta && r.inicio >= desde).length;
    },
    async parar(): Promise<void> {
      ativa = false;
      await Promise.all(clientes);
    },
  };
}

let projecao: ProjecaoDeTeste;
let credenciais: SqliteTemporario;

beforeAll(() => {
  projecao = criarProjecao();
  projecao.aplicar(idsOrdenados(3).map((id) => imovelSalvo(id, 1)), Date.parse('2026-11-21T10:00:00Z'));
  projecao.emDia(Date.now());
  credenciais = sqliteTemporario('credenciais.json');
});

afterEach(() => {
  for (const filho of iniciados.splice(0)) if (filho.exitCode === null && filho.signalCode === null) filho.kill('SIGKILL');
  contratos.clear();
});

afterAll(() => {
  projecao.remover();
  credenciais.remover();
});

describe('pnpm api', () => {
  it('stops at start with one line naming a bad variable', async () => {
    const p = iniciarApi({ RATE_LIMIT_PER_MINUTE: 'muitos', DATABASE_PATH: projecao.arquivo.caminho });
    expect(await p.fim).toBe(1);
    const linhas = p.saida().trim().split('\n');
    expect(linhas).toHaveLength(1);
    expect(linhas[0]).toContain('RATE_LIMIT_PER_MINUTE');
  });

  it('stops with one line naming the setting when it parses but cannot be used', async () => {
    const naoJson = sqliteTemporario('credenciais.json');
    writeFileSync(naoJson.caminho, 'isto não é JSON');
    const ocupada = createServer();
    await new Promise<void>((resolve) => ocupada.listen(0, '127.0.0.1', resolve));
    const portaOcupada = String((ocupada.address() as AddressInfo).port);
    // The demo's projection (pnpm start): sample listings, never served to partners.
    const daDemo = sqliteTemporario();
    const escritorDaDemo = EscritorProjecao.abrir(daDemo.caminho, { daDemo: true });
    escritorDaDemo.gravarEstado('demo', 1);
    escritorDaDemo.close();
    // A file the demo issued its credential into (pnpm start run with the partners' file's path
    // in its environment, before any partner's was issued): its token lies in plain text beside
    // it. Revoked, the file is the partners' again.
    const comDemo = sqliteTemporario('credenciais.json');
    const credencialDaDemo = emitirCredencial(comDemo.caminho, 'demo').credencial;
    // Another application's database (tables, a schema version of its own): no projector makes it one.
    const alheio = sqliteTemporario('clientes.db');
    const outro = new Database(alheio.caminho);
    outro.exec('CREATE TABLE clientes (nome TEXT); PRAGMA user_version = 3');
    outro.close();
    try {
      const casos: [Record<string, string>, string][] = [
        [{ CREDENTIALS_FILE: credenciais.caminho, DATABASE_PATH: daDemo.caminho }, 'DATABASE_PATH'],
        [{ CREDENTIALS_FILE: comDemo.caminho }, 'CREDENTIALS_FILE'],
        [{ CREDENTIALS_FILE: credenciais.caminho, DATABASE_PATH: alheio.caminho }, 'DATABASE_PATH'],
        [{ CREDENTIALS_FILE: naoJson.caminho }, 'CREDENTIALS_FILE'],
        [{ CREDENTIALS_FILE: RAIZ }, 'CREDENTIALS_FILE'],
        [{ CREDENTIALS_FILE: credenciais.caminho, DATABASE_PATH: RAIZ }, 'DATABASE_PATH'],
        // A file where a folder of the path should be: no projector can ever make one there.
        [{ CREDENTIALS_FILE: credenciais.caminho, DATABASE_PATH: `${naoJson.caminho}/projecao.db` }, 'DATABASE_PATH'],
        // A file that is no SQLite database (it was taken for a projection not made yet).
        [{ CREDENTIALS_FILE: credenciais.caminho, DATABASE_PATH: naoJson.caminho }, 'DATABASE_PATH'],
        [{ CREDENTIALS_FILE: credenciais.caminho, PORT: portaOcupada }, 'PORT'],
        [{ CREDENTIALS_FILE: credenciais.caminho, HOST: 'nao-existe.invalid' }, 'HOST'],
      ];
      for (const [env, variavel] of casos) {
        const p = iniciarApi({ LOG_LEVEL: 'error', REDIS_URL: inject('redisUrl'), DATABASE_PATH: projecao.arquivo.caminho, ...env });
        expect(await p.fim, variavel).toBe(1);
        const linhas = p.saida().trim().split('\n');
        expect(linhas, p.saida()).toEqual([expect.stringContaining(`configuração inválida: ${variavel}:`)]);
      }
      // The warnings of a running API (no REDIS_URL, a proxy count on an open HOST, a projection
      // not made yet) are not printed by one that does not start.
      const semProjecao = `${naoJson.dir}/ainda-nao.db`;
      // Nor what the credentials say at start: a file read (info), a folder not made yet (warn).
      const comCredencial = sqliteTemporario('credenciais.json');
      emitirCredencial(comCredencial.caminho, 'Portal Partida');
      for (const [env, variavel] of [
        [{ CREDENTIALS_FILE: naoJson.caminho }, 'CREDENTIALS_FILE'],
        [{ CREDENTIALS_FILE: credenciais.caminho, PORT: portaOcupada }, 'PORT'],
        [{ CREDENTIALS_FILE: comCredencial.caminho, PORT: portaOcupada }, 'PORT'],
        [{ CREDENTIALS_FILE: `${naoJson.dir}/ainda-nao/credenciais.json`, PORT: portaOcupada }, 'PORT'],
      ] as const) {
        const comAvisos = iniciarApi({ DATABASE_PATH: semProjecao, TRUST_PROXY: '1', HOST: '0.0.0.0', ...env });
        expect(await comAvisos.fim, variavel).toBe(1);
        expect(comAvisos.saida().trim().split('\n'), comAvisos.saida()).toEqual([expect.stringContaining(`configuração inválida: ${variavel}:`)]);
      }
      comCredencial.remover();
      revogarCredencial(comDemo.caminho, { id: credencialDaDemo.id });
      const revogada = iniciarApi({ LOG_LEVEL: 'error', CREDENTIALS_FILE: comDemo.caminho, DATABASE_PATH: projecao.arquivo.caminho, PORT: portaOcupada });
      expect(await revogada.fim).toBe(1);
      expect(revogada.saida().trim().split('\n')).toEqual([expect.stringContaining('configuração inválida: PORT:')]);
    } finally {
      ocupada.close();
      naoJson.remover();
      daDemo.remover();
      comDemo.remover();
      alheio.remover();
    }
  });

  it('warns at start that the request limit is per process when REDIS_URL is unset, and that no credentials file exists yet, and serves', async () => {
    const [porta] = await portasLivres(1);
    const p = iniciarApi({ PORT: String(porta), DATABASE_PATH: projecao.arquivo.caminho, CREDENTIALS_FILE: credenciais.caminho });
    try {
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${porta}/health/live`).catch(() => null))?.status, { timeout: 30_000, interval: 100 }).toBe(200);
      // Logged once listening, by pino's asynchronous writes: they may reach the pipe after the answer.
      const avisos = () =>
        p
          .saida()
          .split('\n')
          .slice(0, -1)
          .filter((linha) => linha.startsWith('{'))
          .map((linha) => JSON.parse(linha) as { level: number; msg: string });
      await expect.poll(avisos, { timeout: 5_000 }).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('REDIS_URL ausente') }));
      await expect.poll(avisos, { timeout: 5_000 }).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringMatching(/^arquivo de credenciais ausente: toda requisição recebe 401/) }));
    } finally {
      expect(await parar(p)).toBe(0);
    }
  });

  it("never serves a demo's projection made at its path after it started", async () => {
    const [porta] = await portasLivres(1);
    const dir = sqliteTemporario();
    const arquivoCredenciais = `${dir.dir}/credenciais.json`;
    const { token } = emitirCredencial(arquivoCredenciais, 'Portal Demo Depois');
    // Started before any projection exists there: waiting for a projector is allowed.
    const p = iniciarApi({ PORT: String(porta), DATABASE_PATH: dir.caminho, CREDENTIALS_FILE: arquivoCredenciais });
    try {
      await esperarApi(porta!);
      // `pnpm start` pointed at the same path makes its projection of sample listings there.
      const demo = EscritorProjecao.abrir(dir.caminho, { daDemo: true });
      demo.gravarEstado('demo', 1);
      demo.close();
      const status = async () => (await pedir(porta!, '/api/v1/imoveis', token)).statusCode;
      // Past the source's check of the file (once a second): still refused. Before: served, 200.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await status()).toBe(500);
    } finally {
      expect(await parar(p)).toBe(0);
      dir.remover();
    }
  });

  it('answers what the HTTP parser of Node refuses (a URL over 16 KiB, a malformed request) with an Erro', async () => {
    const [porta] = await portasLivres(1);
    const p = iniciarApi({ PORT: String(porta), DATABASE_PATH: projecao.arquivo.caminho, CREDENTIALS_FILE: credenciais.caminho, REDIS_URL: inject('redisUrl') });
    try {
      const validador = await esperarApi(porta!);
      const cru = (pedido: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(porta!, '127.0.0.1', () => socket.write(pedido));
          let resposta = '';
          socket.on('data', (d: Buffer) => (resposta += d.toString()));
          socket.on('close', () => resolve(resposta));
          socket.on('error', reject);
        });
      for (const [pedido, status] of [
        [`GET /api/v1/imoveis/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, '431'],
        ['ISTO NÃO É HTTP\r\n\r\n', '400'],
      ] as const) {
        const resposta = await cru(pedido);
        expect(resposta.split('\r\n')[0], pedido.slice(0, 30)).toContain(` ${status} `);
        expect(resposta).toContain('Content-Type: application/json; charset=utf-8');
        const corpo = resposta.slice(resposta.indexOf('\r\n\r\n') + 4);
        expect(JSON.parse(corpo)).toEqual({ mensagem: expect.any(String) });
        // Refused before there is a request (the document says so), these belong to no operation:
        // checked as every answer outside the operations is, an Erro (the empty path matches none).
        const [linhaDeStatus = '', ...linhas] = resposta.slice(0, resposta.indexOf('\r\n\r\n')).split('\r\n');
        const headers = Object.fromEntries(linhas.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        validador.validar('GET', '', { statusCode: Number(linhaDeStatus.split(' ')[1]), headers, body: corpo });
      }
    } finally {
      await parar(p);
    }
  });

  it('runs as three processes sharing one Redis that admit exactly 120 requests per credential in total, and stop cleanly on SIGTERM', async () => {
    const { token } = emitirCredencial(credenciais.caminho, 'Portal Três Processos');
    const portas = await portasLivres(3);
    const prefixo = `${nomeUnico('e2e')}:`;
    const processos = portas.map((porta) =>
      iniciarApi({
        PORT: String(porta),
        DATABASE_PATH: projecao.arquivo.caminho,
        CREDENTIALS_FILE: credenciais.caminho,
        REDIS_URL: inject('redisUrl'),
        RATE_LIMIT_KEY_PREFIX: prefixo,
        // Exactness is the script's; a loaded test machine must not push a process to its fallback.
        REDIS_COMMAND_TIMEOUT_MS: '2000',
        // The projection's freshness was recorded once, before this file's first process.
        READY_MAX_LAG_SECONDS: '3600',
        MAX_EVENT_LOOP_DELAY_MS: '60000',
      }),
    );
    try {
      for (const porta of portas) await esperarApi(porta, '/health/ready');
      const respostas: RespostaVista[] = [];
      for (let onda = 0; onda < 24; onda++) {
        // Each answer (200 or 429: status, Erro or listing, RateLimit, Retry-After, X-Request-Id) checked against its process's document.
        // The whole wave answered before a failure is thrown: a SIGTERM with requests still in flight is another test's matter.
        const daOnda = await Promise.allSettled(portas.flatMap((porta) => Array.from({ length: 5 }, () => pedir(porta, '/api/v1/imoveis?por_pagina=1', token))));
        for (const r of daOnda) {
          if (r.status === 'rejected') throw r.reason;
          respostas.push(r.value);
        }
      }
      const status = respostas.map((r) => r.statusCode);
      expect(status.filter((s) => s === 200)).toHaveLength(120);
      expect(status.filter((s) => s === 429)).toHaveLength(240);
      // Ids unique across the processes: a partner quoting one names one request of the three logs.
      expect(new Set(respostas.map((r) => r.headers['x-request-id'])).size).toBe(360);
    } finally {
      const codigos = await Promise.all(processos.map(parar));
      expect(codigos).toEqual([0, 0, 0]);
    }
  });

  it('keeps answering as three processes, never with a 5xx, while their shared Redis is killed under load, and goes back to it once it is back', async () => {
    const { token } = emitirCredencial(credenciais.caminho, 'Portal Redis Morto');
    const [portaRedis, ...portas] = (await portasLivres(4)) as [number, ...number[]];
    // A Redis of this test's own: killed and started again empty at the same address, as a
    // restarted server or a failed-over one would be.
    const dirRedis = criarDiretorioExecucao('redis-e2e');
    let redis = await iniciarRedisProprio(portaRedis, dirRedis);
    let codigos: (number | null)[] | undefined;
    const processos = portas.map((porta) =>
      iniciarApi({
        PORT: String(porta),
        DATABASE_PATH: projecao.arquivo.caminho,
        CREDENTIALS_FILE: credenciais.caminho,
        REDIS_URL: `redis://127.0.0.1:${portaRedis}`,
        // Far above what the load sends: every answer is to be a 200, so neither a 429 nor a 5xx hides.
        RATE_LIMIT_PER_MINUTE: '1000000',
        READY_MAX_LAG_SECONDS: '3600',
        MAX_EVENT_LOOP_DELAY_MS: '60000',
      }),
    );
    try {
      for (const porta of portas) await esperarApi(porta, '/health/ready');
      const carga = iniciarCarga(portas, token);
      let morto = 0;
      try {
        await expect.poll(() => portas.every((porta) => carga.desde(porta, 0) >= 5), { timeout: 15_000, interval: 50 }).toBe(true);
        // Killed with requests in flight (the clients pause between requests, and might all be pausing).
        await expect.poll(() => carga.emVoo, { timeout: 5_000, interval: 1 }).toBeGreaterThanOrEqual(3);
        morto = performance.now();
        redis.filho.kill('SIGKILL');
        await redis.saida;
        // Each process is on its own limiter, and answers there: the load goes on meanwhile.
        for (const porta of portas) await expect.poll(() => metrica(porta, 'limitador_em_reserva'), { timeout: 10_000, interval: 100, message: `limitador_em_reserva em ${porta} sem o Redis` }).toBe(1);
        await expect.poll(() => portas.every((porta) => carga.desde(porta, morto) >= 5), { timeout: 10_000, interval: 50 }).toBe(true);
        redis = await iniciarRedisProprio(portaRedis, dirRedis);
        // Back to the shared limit: the client reconnects on its own (backoff up to 2 s), then the next decision goes to Redis.
        for (const porta of portas) await expect.poll(() => metrica(porta, 'limitador_em_reserva'), { timeout: 15_000, interval: 200, message: `limitador_em_reserva em ${porta} com o Redis de volta` }).toBe(0);
        const voltou = performance.now();
        await expect.poll(() => portas.every((porta) => carga.desde(porta, voltou) >= 5), { timeout: 10_000, interval: 50 }).toBe(true);
      } finally {
        await carga.parar();
      }
      expect(carga.erros).toEqual([]);
      const porStatus: Record<number, number> = {};
      for (const { status } of carga.respondidas) porStatus[status] = (porStatus[status] ?? 0) + 1;
      expect(porStatus).toEqual({ 200: carga.respondidas.length });
      // Requests were in flight when Redis died, and answered.
      expect(carga.respondidas.filter((r) => r.inicio < morto && r.fim > morto).length).toBeGreaterThan(0);
      for (const [i, porta] of portas.entries()) {
        expect(vivo(processos[i]!), processos[i]!.saida()).toBe(true);
        // Decided here while Redis was away (the gauge alone could have flipped between two requests).
        expect(await metrica(porta, 'limitador_decisoes_reserva_total'), `limitador_decisoes_reserva_total em ${porta}`).toBeGreaterThan(0);
        expect((await pedir(porta, '/api/v1/imoveis?por_pagina=1', token)).statusCode).toBe(200);
      }
    } finally {
      codigos = await Promise.all(processos.map(parar));
      await redis.parar(2_000);
      removerDiretorio(dirRedis);
    }
    // Outside the finally: a failure above is the one to read, not the exit codes it led to.
    expect(codigos).toEqual([0, 0, 0]);
  });

  it('refuses a credential revoked in the file under a running process within seconds, and accepts one issued there, without a restart', async () => {
    const [porta] = (await portasLivres(1)) as [number];
    // A file of its own: the process watches its folder, where nothing else is written.
    const arquivo = sqliteTemporario('credenciais.json');
    const primeira = emitirCredencial(arquivo.caminho, 'Portal Revogado');
    const p = iniciarApi({ LOG_LEVEL: 'error', PORT: String(porta), DATABASE_PATH: projecao.arquivo.caminho, CREDENTIALS_FILE: arquivo.caminho, READY_MAX_LAG_SECONDS: '3600' });
    // The store sees the file change through its folder's watcher at once, or at its periodic
    // check every 2 s when the watcher misses it: twice that, and room for a loaded machine.
    const prazo = 5_000;
    const status = async (token: string) => (await pedir(porta, '/api/v1/imoveis?por_pagina=1', token)).statusCode;
    try {
      await esperarApi(porta);
      expect(await status(primeira.token)).toBe(200);

      revogarCredencial(arquivo.caminho, { id: primeira.credencial.id });
      const vistos = new Set<number>();
      // The poll's deadline is the bound under test.
      await expect.poll(async () => vistos.add(await status(primeira.token)).has(401), { timeout: prazo, interval: 50, message: 'a credencial revogada recusada' }).toBe(true);
      // Served until then, never failed: the file is replaced whole, never read half-written.
      expect([...vistos].filter((s) => s !== 200 && s !== 401)).toEqual([]);
      const recusa = await pedir(porta, '/api/v1/imoveis?por_pagina=1', primeira.token);
      expect(JSON.parse(recusa.body)).toEqual({ mensagem: 'credencial revogada' });

      const segunda = emitirCredencial(arquivo.caminho, 'Portal Emitido Depois');
      vistos.clear();
      await expect.poll(async () => vistos.add(await status(segunda.token)).has(200), { timeout: prazo, interval: 50, message: 'a credencial emitida aceita' }).toBe(true);
      expect([...vistos].filter((s) => s !== 200 && s !== 401)).toEqual([]);
      // The file written again brings no revoked credential back.
      expect(await status(primeira.token)).toBe(401);
    } finally {
      expect(await parar(p)).toBe(0);
      arquivo.remover();
    }
  });
});
