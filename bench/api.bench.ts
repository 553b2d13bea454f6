// bench:api — the partner API over a projection of 1,000,000 properties built by the generator
// through the projector's code, beside a bare Fastify route answering the identical bytes from
// memory. Prints req/s, p50 and p99 per scenario, the ratios to the baseline, and the CPU time
// each server spent per request.
// Usage: pnpm bench:api [--imoveis N] [--segundos S] [--rodadas R] [--so <part of a scenario's name>]
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { emitirCredencial } from '@imoveis/api';
import { PREFIXO_API } from '@imoveis/contracts';
import { LeitorSqlite } from '@imoveis/projection-store';
import { portasLivres } from '../test/infra/processo-servico.ts';
import { DIRETORIO_BENCH as dir, projecaoDeBench } from './projecao.ts';
import { argumentoNumerico, cpuSegundos, encerrar, esperarAte, iniciarServico, iniciarTs, inteiro, picoRssMb, tabela } from './comum.ts';

const imoveis = argumentoNumerico('imoveis', 1_000_000);
const segundos = argumentoNumerico('segundos', 5);
const rodadas = argumentoNumerico('rodadas', 3);
const CONEXOES = 10;
const AQUECIMENTO_S = 2;
/** The incremental window start (epoch ms) whose listing holds closest to `fracao` of the listed items. */
function janela(leitor: LeitorSqlite, listados: number, fracao: number): string {
  let [baixo, alto] = [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z')];
  while (alto - baixo > 1) {
    const meio = Math.floor((baixo + alto) / 2);
    if (leitor.listarAlterados({ desdeMs: meio, aposId: null, limite: 1 }).total > fracao * listados) baixo = meio;
    else alto = meio;
  }
  return new Date(alto).toISOString();
}

/** A server under measurement: its base URL, the token it wants, its process (for CPU time). */
type Alvo = { base: string; token: string | null; pid: number | undefined };
type Medicao = { rps: number; p50: number; p99: number; requisicoes: number; cpuS: number | null };

/** One measured run on a URL (`segundos` unless told): req/s and latencies; every answer must be a 2xx. */
async function medir(url: string, token: string | null, duracao = segundos): Promise<Medicao> {
  const r = await autocannon({ url, connections: CONEXOES, duration: duracao, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} respostas não-2xx, ${r.errors} erros`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requisicoes: r.requests.total, cpuS: null };
}

/** As `medir`, with the CPU time (user + system, every thread) the server spent meanwhile. */
async function medirComCpu({ base, token, pid }: Alvo, url: string): Promise<Medicao> {
  const antes = cpuSegundos(pid);
  const m = await medir(base + url, token);
  const depois = cpuSegundos(pid);
  return { ...m, cpuS: antes === null || depois === null ? null : depois - antes };
}

const mediana = (xs: number[]): number => {
  const o = [...xs].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
};

/** CPU time per request over every round; null when a process could not be read. */
function cpuPorRequisicao(ms: Medicao[]): number | null {
  if (ms.some((m) => m.cpuS === null)) return null;
  return (ms.reduce((s, m) => s + m.cpuS!, 0) * 1e6) / ms.reduce((s, m) => s + m.requisicoes, 0);
}

/**
 * Both servers on one URL, side by side: first an unmeasured warm-up of each (the JIT warm on
 * this URL's path and the pages in the OS's cache, as in a service that has been up), then
 * `rodadas` rounds, the order flipped every round (API then baseline, baseline then API, …) so
 * that a machine getting busier or quieter weighs on both alike. The ratio is the median of the
 * rounds' ratios, each from two measurements taken seconds apart; the p99 is the worst round's.
 */
async function compararLadoALado(url: string, api: Alvo, linhaBase: Alvo) {
  for (const alvo of [api, linhaBase]) await medir(alvo.base + url, alvo.token, AQUECIMENTO_S);
  const daApi: Medicao[] = [];
  const daBase: Medicao[] = [];
  for (let i = 0; i < rodadas; i++) {
    const ordem = i % 2 === 0 ? [api, linhaBase] : [linhaBase, api];
    for (const alvo of ordem) (alvo === api ? daApi : daBase).push(await medirComCpu(alvo, url));
  }
  const razoes = daApi.map((m, i) => m.rps / daBase[i]!.rps);
  return {
    rps: mediana(daApi.map((m) => m.rps)),
    p50: mediana(daApi.map((m) => m.p50)),
    p99: Math.max(...daApi.map((m) => m.p99)),
    p99Base: Math.max(...daBase.map((m) => m.p99)),
    razao: mediana(razoes),
    razoes,
    cpuUs: cpuPorRequisicao(daApi),
    cpuUsBase: cpuPorRequisicao(daBase),
  };
}

async function iniciarServidor(iniciar: (env: NodeJS.ProcessEnv) => ChildProcess, sonda: string) {
  const [porta] = await portasLivres(1);
  const processo = iniciar({ PORT: String(porta) });
  const base = `http://127.0.0.1:${porta}`;
  await esperarAte(async () => (await fetch(base + sonda).catch(() => null))?.ok === true, 200);
  return { processo, base };
}

const caminho = await projecaoDeBench(imoveis);
const leitor = LeitorSqlite.abrir(caminho);
const listados = leitor.listarAlterados({ desdeMs: 0, aposId: null, limite: 1 }).total;
const meio = leitor.listarAnunciados({ aposId: '8', limite: 1 }).proximoCursor!;
const cenarios: [string, string][] = [
  ['varredura completa, página de 50', `${PREFIXO_API}/imoveis?por_pagina=50&cursor=${meio}`],
  ['varredura completa, página de 200', `${PREFIXO_API}/imoveis?por_pagina=200&cursor=${meio}`],
  ['um imóvel', `${PREFIXO_API}/imoveis/${meio}`],
  ['incremental, janela de 0,01 %', `${PREFIXO_API}/imoveis?alterados_desde=${janela(leitor, listados, 0.0001)}`],
  ['incremental, janela de 1 %', `${PREFIXO_API}/imoveis?alterados_desde=${janela(leitor, listados, 0.01)}`],
  ['incremental, janela de 50 %', `${PREFIXO_API}/imoveis?alterados_desde=${janela(leitor, listados, 0.5)}`],
];
leitor.close();
const so = process.argv.indexOf('--so');
if (so > 0) cenarios.splice(0, cenarios.length, ...cenarios.filter(([nome]) => nome.includes(process.argv[so + 1] ?? '')));

const credenciais = join(dir, 'credenciais.json');
rmSync(credenciais, { force: true });
const { token } = emitirCredencial(credenciais, 'bench');
const ambienteApi = { DATABASE_PATH: caminho, CREDENTIALS_FILE: credenciais, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', READY_MAX_LAG_SECONDS: '86400', REDIS_URL: '' };
// Built and started as `pnpm api` starts it, with its script's node flags (package.json).
const api = await iniciarServidor((env) => iniciarServico('api', 'server.js', { ...ambienteApi, ...env }), '/health/live');
const baseApi = api.base;

// Record the real answers, then serve them from memory in the baseline process.
const respostas: Record<string, string> = {};
for (const [, url] of cenarios) {
  const r = await fetch(baseApi + url, { headers: { authorization: `Bearer ${token}` } });
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  respostas[url] = await r.text();
}
const arquivoRespostas = join(dir, 'respostas.json');
writeFileSync(arquivoRespostas, JSON.stringify(respostas));
// The baseline runs from source: tsx's loader thread sits idle once the file is loaded.
const base = await iniciarServidor((env) => iniciarTs('bench/base-fastify.ts', { BENCH_RESPOSTAS: arquivoRespostas, ...env }), cenarios[0]![1]);
const baseUrl = base.base;

const alvoApi: Alvo = { base: baseApi, token, pid: api.processo.pid };
const alvoBase: Alvo = { base: baseUrl, token: null, pid: base.processo.pid };
const linhas: (string | number)[][] = [];
for (const [nome, url] of cenarios) {
  const m = await compararLadoALado(url, alvoApi, alvoBase);
  const itens = (JSON.parse(respostas[url]!) as { dados?: unknown[]; total?: number }).total;
  linhas.push([
    nome,
    itens === undefined ? '-' : inteiro(itens),
    inteiro(m.rps),
    m.razao.toFixed(2),
    m.razoes.map((r) => r.toFixed(2)).join(' / '),
    `${m.p50} / ${m.p99}`,
    m.p99Base,
    m.cpuUs?.toFixed(0) ?? '?',
    m.cpuUsBase?.toFixed(0) ?? '?',
  ]);
}
const rssApi = picoRssMb(api.processo.pid);
await encerrar(api.processo);
await encerrar(base.processo);

console.log(
  `\n${inteiro(imoveis)} imóveis, ${CONEXOES} conexões; por cenário, ${AQUECIMENTO_S} s de aquecimento de cada servidor e ` +
    `${rodadas} rodadas de ${segundos} s de cada, alternadas (razão: a mediana das rodadas; p99: a pior rodada)\n`,
);
console.log(tabela(['cenário', 'total', 'req/s', 'razão', 'razão por rodada', 'p50 / p99 ms', 'p99 ms linha de base', 'CPU µs/req', 'CPU µs/req linha de base'], linhas));
console.log(`\npico RSS da API: ${rssApi ?? '?'} MB (meta < 200)`);
