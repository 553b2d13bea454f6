// `pnpm start` as a new user runs it: the embedded default answers the curl it prints, stops on
// Ctrl-C, and a second start reuses the projection and the token (one made by other rules is made again).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { emitirCredencial } from '@imoveis/api';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import { Database, EscritorProjecao, MIGRACOES, espiarEstado, travarEscritaDaProjecao } from '@imoveis/projection-store';
import { sqliteTemporario } from '../helpers.ts';

const RAIZ = new URL('../../', import.meta.url).pathname;
const banco = sqliteTemporario();
afterAll(() => banco.remover());

interface Iniciada {
  base: string;
  token: string;
  curl: string;
  readonly saida: string;
  parar(): Promise<number | null>;
}

async function iniciar(env: NodeJS.ProcessEnv = {}): Promise<Iniciada> {
  const processo = spawn(process.execPath, ['--import', 'tsx', 'services/demo/src/main.ts'], {
    cwd: RAIZ,
    env: { ...process.env, PORT: '0', DATABASE_PATH: banco.caminho, CREDENTIALS_FILE: `${banco.dir}/credenciais.json`, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let saida = '';
  await new Promise<void>((resolve, reject) => {
    processo.once('exit', (codigo) => reject(new Error(`a demo saiu com ${codigo}: ${saida}`)));
    createInterface({ input: processo.stdout }).on('line', (linha) => {
      saida += `${linha}\n`;
      if (linha.startsWith('Ctrl-C')) resolve();
    });
  });
  const valor = (rotulo: string) => saida.match(new RegExp(`${rotulo}: (\\S+)`))?.[1] ?? '';
  return {
    base: valor('base_url'),
    token: valor('token'),
    curl: saida.split('\n').find((l) => l.trim().startsWith('curl')) ?? '',
    // Read when asked: log lines keep coming after the banner.
    get saida() {
      return saida;
    },
    parar: () =>
      new Promise((resolve) => {
        // 'close', not 'exit': the log lines are read to their end first.
        processo.once('close', resolve);
        // Ctrl-C as `pnpm start` gets it: the terminal signals the process group, and pnpm relays
        // it to its child too, at once. Two at once are one request, not "the second Ctrl-C: exit
        // now". (Sent apart, a loaded machine could hold the child past the second's 1 s window;
        // the window itself is encerramento.e2e.test.ts's.)
        processo.kill('SIGINT');
        processo.kill('SIGINT');
      }),
  };
}

describe('pnpm start (the embedded default)', () => {
  it('projects the bundled sample, serves it with the printed token, and stops cleanly on Ctrl-C', async () => {
    const demo = await iniciar({ LOG_LEVEL: 'info' });
    expect(demo.saida).toMatch(/eventos de amostra lidos, \d+ deles enviados à lista de rejeitados/);
    expect(demo.token).toMatch(/^imv_/);
    expect(demo.curl).toContain(`Bearer ${demo.token}`);

    // The printed curl, as a partner would send it.
    const url = demo.curl.match(/'(http[^']+)'/)?.[1] ?? '';
    const resposta = await fetch(url, { headers: { authorization: `Bearer ${demo.token}` } });
    expect(resposta.status).toBe(200);
    const corpo = (await resposta.json()) as { dados: unknown[]; total: number; proximo_cursor: string | null };
    expect(corpo.dados).toHaveLength(2);
    expect(corpo.total).toBeGreaterThan(100);
    expect(corpo.proximo_cursor).not.toBeNull();

    expect((await fetch(`${demo.base}/imoveis`)).status).toBe(401);
    expect((await fetch(`${new URL(demo.base).origin}/health/ready`)).status).toBe(200);
    // A token put in the URL is refused and kept out of the demo's logs, as the API's.
    expect((await fetch(`${demo.base}/imoveis?access_token=${demo.token}`)).status).toBe(401);
    expect(await demo.parar()).toBe(0);
    const linhasDeLog = demo.saida.split('\n').filter((l) => l.startsWith('{'));
    expect(linhasDeLog.some((l) => l.includes('access_token=[REDACTED]'))).toBe(true);
    expect(linhasDeLog.filter((l) => l.includes(demo.token))).toEqual([]);

    const segunda = await iniciar({ LOG_LEVEL: undefined });
    expect(segunda.saida).toMatch(/reaproveitada/);
    // LOG_LEVEL's default is operations.md's `info` for the demo too: the API's start is logged
    // (pino's line may reach the pipe after the banner, which is written directly).
    await expect.poll(() => segunda.saida, { timeout: 5_000 }).toMatch(/^\{"level":30,.*"msg":"Server listening at /m);
    expect(segunda.token).toBe(demo.token);
    const total = ((await (await fetch(`${segunda.base}/imoveis`, { headers: { authorization: `Bearer ${segunda.token}` } })).json()) as { total: number }).total;
    expect(total).toBe(corpo.total);
    expect(await segunda.parar()).toBe(0);

    // A projection the earlier rules made (a developer's, before an upgrade) is made again.
    const antiga = EscritorProjecao.abrir(banco.caminho, { daDemo: true });
    antiga.gravarEstado('regras', VERSAO_DAS_REGRAS - 1);
    antiga.close();
    const terceira = await iniciar();
    expect(terceira.saida).not.toMatch(/reaproveitada/);
    expect(terceira.saida).toMatch(/eventos de amostra lidos/);
    const refeita = ((await (await fetch(`${terceira.base}/imoveis`, { headers: { authorization: `Bearer ${terceira.token}` } })).json()) as { total: number }).total;
    expect(refeita).toBe(corpo.total);
    expect(await terceira.parar()).toBe(0);
    expect(espiarEstado(banco.caminho, 'regras')).toBe(VERSAO_DAS_REGRAS);

    // Another photo address (or another sample): the documents it made would keep the old one,
    // and its offsets, positions in the old sample, would skip or misapply records. Made again.
    const quarta = await iniciar({ PHOTOS_BASE_URL: 'https://outras-fotos.exemplo.com.br' });
    expect(quarta.saida).not.toMatch(/reaproveitada/);
    const pagina = (await (await fetch(`${quarta.base}/imoveis?por_pagina=200`, { headers: { authorization: `Bearer ${quarta.token}` } })).json()) as { dados: { fotos: { url: string }[] }[] };
    const urls = pagina.dados.flatMap((imovel) => imovel.fotos.map((foto) => foto.url));
    expect(urls.length).toBeGreaterThan(0);
    // Before: reused, every photo still under the first address.
    expect(urls.every((url) => url.startsWith('https://outras-fotos.exemplo.com.br/'))).toBe(true);
    expect(await quarta.parar()).toBe(0);
  });

  it("bundles the sample the README's command makes with this generator", () => {
    // README, Sample data: the demo's sample is the generator's CLI with these options.
    const opcoes = ['--seed', '2026', '--imoveis', '300', '--condominios', '25', '--mutacoes', '400', '--taxa-venenos', '0.01'];
    const gerado = spawnSync(process.execPath, ['--import', 'tsx', 'packages/generator/src/cli.ts', ...opcoes], { cwd: RAIZ, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(gerado.status, gerado.stderr).toBe(0);
    const amostra = readFileSync(`${RAIZ}services/demo/amostra/registro.ndjson`, 'utf8');
    // Not compared with toBe: a diff of 725 long lines says less than this.
    expect(gerado.stdout === amostra, `services/demo/amostra/registro.ndjson is out of date: regenerate it with the generator's CLI, ${opcoes.join(' ')} --saida services/demo/amostra/registro.ndjson`).toBe(true);
  });

  it('makes its own projection again when it is of a schema this code does not open (a checkout of older code)', async () => {
    const dir = sqliteTemporario();
    try {
      const nova = EscritorProjecao.abrir(dir.caminho, { daDemo: true });
      nova.gravarEstado('demo', 1);
      nova.close();
      const db = new Database(dir.caminho);
      db.pragma(`user_version = ${MIGRACOES.length + 1}`);
      db.close();
      // Before: it stopped on the newer schema's error, with a stack trace.
      const demo = await iniciar({ DATABASE_PATH: dir.caminho, CREDENTIALS_FILE: `${dir.dir}/credenciais.json` });
      expect(demo.saida).toMatch(/eventos de amostra lidos/);
      const resposta = await fetch(`${demo.base}/imoveis`, { headers: { authorization: `Bearer ${demo.token}` } });
      expect(resposta.status).toBe(200);
      // Read to its end: a page left unread holds the demo's stop until its deadline (exit 1).
      expect(((await resposta.json()) as { total: number }).total).toBeGreaterThan(100);
      expect(await demo.parar()).toBe(0);
      expect(espiarEstado(dir.caminho, 'demo')).toBe(1);
    } finally {
      dir.remover();
    }
  });

  it('stopped by Ctrl-C at any moment of a first start, exits 0 and leaves what the next start takes up', async () => {
    // From the projection file's first byte: it is made, migrated and marked as the demo's in a few ms.
    for (const esperaMs of [0, 3, 8, 15]) {
      const dir = sqliteTemporario();
      try {
        const env = { ...process.env, PORT: '0', DATABASE_PATH: dir.caminho, CREDENTIALS_FILE: `${dir.dir}/credenciais.json`, LOG_LEVEL: 'silent' };
        const processo = spawn(process.execPath, ['--import', 'tsx', 'services/demo/src/main.ts'], { cwd: RAIZ, env, stdio: 'ignore' });
        const saiu = new Promise<number | null>((resolve) => processo.once('exit', resolve));
        while (!existsSync(dir.caminho) && processo.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 1));
        await new Promise((resolve) => setTimeout(resolve, esperaMs));
        processo.kill('SIGINT');
        expect(await saiu, `Ctrl-C ${esperaMs} ms after the file`).toBe(0);

        const segunda = await iniciar({ DATABASE_PATH: dir.caminho, CREDENTIALS_FILE: `${dir.dir}/credenciais.json` });
        const resposta = await fetch(`${segunda.base}/imoveis`, { headers: { authorization: `Bearer ${segunda.token}` } });
        expect(resposta.status).toBe(200);
        expect(((await resposta.json()) as { total: number }).total).toBeGreaterThan(100);
        expect(await segunda.parar()).toBe(0);
      } finally {
        dir.remover();
      }
    }
  }, 120_000);

  it('stops at start with one line naming the setting when a port, a file or a folder it names cannot be used', async () => {
    const ocupada = createServer();
    await new Promise<void>((resolve) => ocupada.listen(0, '127.0.0.1', resolve));
    const porta = (ocupada.address() as { port: number }).port;
    const dir = sqliteTemporario();
    mkdirSync(`${dir.dir}/pasta`);
    // More good records than one batch before the bad line: the first batch is committed before it is read.
    writeFileSync(`${dir.dir}/ruim.ndjson`, `${'{"topico":"imoveis","chave":null,"valor":null}\n'.repeat(600)}isto não é um registro\n`);
    // A projection the demo did not make (a DATABASE_PATH left in the environment): never touched.
    const real = EscritorProjecao.abrir(`${dir.dir}/real.db`);
    real.gravarOffset({ topico: 'registro.imoveis.v1', particao: 0, proximo: '42' });
    real.gravarEstado('regras', null);
    real.close();
    // …even one a projector made and has not written to yet, or one of an older schema (never migrated).
    EscritorProjecao.abrir(`${dir.dir}/vazia.db`).close();
    const antiga = new Database(`${dir.dir}/antiga.db`);
    antiga.exec(MIGRACOES[0]!);
    antiga.pragma('user_version = 1');
    antiga.close();
    // Its own, when an OS crash may have left it corrupt: refused with one line, as the projector does.
    const propria = EscritorProjecao.abrir(`${dir.dir}/sem-sincronia.db`);
    propria.gravarEstado('demo', 1);
    propria.close();
    writeFileSync(`${dir.dir}/sem-sincronia.db-sincronia-adiada`, 'outro-boot\n');
    // …nor one a killed projector left with its writes in the WAL (not folded into the file by a look).
    const viva = EscritorProjecao.abrir(`${dir.dir}/viva.db`);
    viva.gravarOffset({ topico: 'registro.imoveis.v1', particao: 0, proximo: '7' });
    for (const sufixo of ['', '-wal', '-shm']) copyFileSync(`${dir.dir}/viva.db${sufixo}`, `${dir.dir}/morta.db${sufixo}`);
    viva.close();
    expect(statSync(`${dir.dir}/morta.db-wal`).size).toBeGreaterThan(0);
    // Partners' credentials (a CREDENTIALS_FILE left in the environment): no demo token goes in.
    const credenciaisReais = `${dir.dir}/reais/credenciais.json`;
    mkdirSync(`${dir.dir}/reais`);
    emitirCredencial(credenciaisReais, 'parceiro-real');
    const intocados = ['real.db', 'vazia.db', 'antiga.db', 'sem-sincronia.db', 'morta.db', 'morta.db-wal', 'reais/credenciais.json'].map((nome) => `${dir.dir}/${nome}`);
    const antes = intocados.map((caminho) => readFileSync(caminho));
    // …nor one a projector is writing.
    const escrita = sqliteTemporario();
    const travada = travarEscritaDaProjecao(escrita.caminho);
    const casos: [Record<string, string>, string][] = [
      [{ PORT: String(porta) }, 'PORT'],
      [{ DATABASE_PATH: `${dir.dir}/pasta` }, 'DATABASE_PATH'],
      ...intocados.filter((caminho) => caminho.endsWith('.db')).map((caminho): [Record<string, string>, string] => [{ DATABASE_PATH: caminho }, 'DATABASE_PATH']),
      [{ DATABASE_PATH: escrita.caminho }, 'DATABASE_PATH'],
      [{ CREDENTIALS_FILE: `${dir.dir}/pasta` }, 'CREDENTIALS_FILE'],
      [{ CREDENTIALS_FILE: credenciaisReais }, 'CREDENTIALS_FILE'],
      [{ DEMO_EVENTS_FILE: `${dir.dir}/nada.ndjson` }, 'DEMO_EVENTS_FILE'],
      [{ DEMO_EVENTS_FILE: `${dir.dir}/pasta` }, 'DEMO_EVENTS_FILE'],
      [{ DEMO_EVENTS_FILE: `${dir.dir}/ruim.ndjson`, DATABASE_PATH: `${dir.dir}/ruim.db` }, 'DEMO_EVENTS_FILE'],
      // Shorter than three of the demo's freshness confirmations: readiness would flicker.
      [{ READY_MAX_LAG_SECONDS: '5' }, 'READY_MAX_LAG_SECONDS'],
    ];
    try {
      for (const [env, variavel] of casos) {
        const r = spawnSync(process.execPath, ['--import', 'tsx', 'services/demo/src/main.ts'], {
          cwd: RAIZ,
          env: { ...process.env, PORT: '0', DATABASE_PATH: `${dir.dir}/p.db`, CREDENTIALS_FILE: `${dir.dir}/c.json`, ...env },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(r.status, variavel).toBe(1);
        expect(r.stderr.trim().split('\n'), variavel).toEqual([expect.stringMatching(new RegExp(`^configuração inválida: ${variavel}: `))]);
      }
      intocados.forEach((caminho, i) => expect(readFileSync(caminho).equals(antes[i]!), caminho).toBe(true));
      expect(existsSync(escrita.caminho)).toBe(false);
      expect(existsSync(`${dir.dir}/reais/token-demo.txt`)).toBe(false);
      // Nothing half-started: no refusal (the port or the credentials file among them) left the
      // demo's own projection, credentials or token behind.
      for (const nome of ['p.db', 'c.json', 'token-demo.txt']) expect(existsSync(`${dir.dir}/${nome}`), nome).toBe(false);
      // …nor a sample that failed half-way its half-loaded projection, which the next start would take as loaded.
      expect(existsSync(`${dir.dir}/ruim.db`)).toBe(false);
    } finally {
      ocupada.close();
      travada.liberar();
      escrita.remover();
      dir.remover();
    }
  });
});
