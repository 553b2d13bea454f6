// The API as operators run it (`pnpm api`: server.ts built, run by node alone): a bad setting stops it with one line
// naming the variable; three processes sharing one Redis admit exactly the limit per credential
// over real HTTP; SIGTERM shuts a process down cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Database, EscritorProjecao } from '@imoveis/projection-store';
import { imovelSalvo } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { emitirCredencial, revogarCredencial } from '../../services/api/src/index.ts';
import { nomeUnico, sqliteTemporario, type SqliteTemporario } from '../helpers.ts';
import { comandoServico } from '../infra/construir.ts';
import { portasLivres } from '../infra/processo-servico.ts';
import { criarProjecao, idsOrdenados, type ProjecaoDeTeste } from '../integration/api-suporte.ts';

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
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${porta}/health/live`).catch(() => null))?.status, { timeout: 30_000, interval: 100 }).toBe(200);
      // `pnpm start` pointed at the same path makes its projection of sample listings there.
      const demo = EscritorProjecao.abrir(dir.caminho, { daDemo: true });
      demo.gravarEstado('demo', 1);
      demo.close();
      const status = async () => {
        const resposta = await fetch(`http://127.0.0.1:${porta}/api/v1/imoveis`, { headers: { authorization: `Bearer ${token}` } });
        await resposta.arrayBuffer();
        return resposta.status;
      };
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
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${porta}/health/live`).catch(() => null))?.status, { timeout: 30_000, interval: 100 }).toBe(200);
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
        expect(JSON.parse(resposta.slice(resposta.indexOf('\r\n\r\n') + 4))).toEqual({ mensagem: expect.any(String) });
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
      for (const porta of portas) {
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${porta}/health/ready`).catch(() => null))?.status, { timeout: 30_000, interval: 100 })
          .toBe(200);
      }
      const status: number[] = [];
      for (let onda = 0; onda < 24; onda++) {
        const respostas = await Promise.all(
          portas.map((porta) =>
            Promise.all(
              Array.from({ length: 5 }, () =>
                fetch(`http://127.0.0.1:${porta}/api/v1/imoveis?por_pagina=1`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
                  await r.arrayBuffer();
                  return r.status;
                }),
              ),
            ),
          ),
        );
        status.push(...respostas.flat());
      }
      expect(status.filter((s) => s === 200)).toHaveLength(120);
      expect(status.filter((s) => s === 429)).toHaveLength(240);
    } finally {
      const codigos = await Promise.all(processos.map(parar));
      expect(codigos).toEqual([0, 0, 0]);
    }
  });
});
