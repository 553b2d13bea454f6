// Shared helpers of the benchmark scripts: infrastructure, child processes, peak memory, tables.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { comandoServico } from '../test/infra/construir.ts';
import { iniciarServicos, type Servicos } from '../test/infra/servicos.ts';

export const RAIZ = new URL('../', import.meta.url).pathname;

/** Kafka and Redis from the environment, or started here like the test suite does. */
export function servicos(): Promise<Servicos> {
  return iniciarServicos();
}

/** Peak resident memory (VmHWM) of a live process, in MB; null when it already exited. */
export function picoRssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const linha = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return linha ? Math.round(Number(linha.replace(/\D+/g, '')) / 1024) : null;
  } catch {
    return null;
  }
}

/** Runs a TypeScript entry point from source, as `node --import tsx <arquivo>`. */
export function iniciarTs(arquivo: string, env: NodeJS.ProcessEnv, saida: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  return iniciarNode(['--import', 'tsx', arquivo], env, saida);
}

/**
 * Builds a service and runs one of its entry points as `pnpm api` / `pnpm projector` run them:
 * `node [flags of that script] services/<servico>/dist/<entrada>`, with no TypeScript loader in the process.
 */
export function iniciarServico(servico: 'api' | 'projector', entrada: string, env: NodeJS.ProcessEnv, saida: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  const [, args] = comandoServico(servico, entrada);
  return iniciarNode(args, env, saida);
}

function iniciarNode(args: string[], env: NodeJS.ProcessEnv, saida: 'inherit' | 'pipe'): ChildProcess {
  // BENCH_PROFILE=<dir> writes a CPU profile of every measured process there, on exit.
  const perfil = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  return spawn(process.execPath, [...perfil, ...args], {
    cwd: RAIZ,
    env: { ...process.env, ...env },
    stdio: ['ignore', saida, 'inherit'],
  });
}

/** USER_HZ, the unit of /proc's CPU times: 100 on every Linux Node runs on. */
const TIQUES_POR_SEGUNDO = 100;

/**
 * CPU time (user + system, every thread) a live process has used so far, in seconds; null when it
 * already exited. Steadier than wall time on a shared machine: it counts work, not waiting.
 */
export function cpuSegundos(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(campos[11]) + Number(campos[12])) / TIQUES_POR_SEGUNDO;
  } catch {
    return null;
  }
}
export async function encerrar(processo: ChildProcess): Promise<void> {
  if (processo.exitCode !== null) return;
  const saiu = new Promise((resolve) => processo.once('exit', resolve));
  processo.kill('SIGTERM');
  await saiu;
}

export async function esperarAte(condicao: () => Promise<boolean> | boolean, intervaloMs = 100): Promise<void> {
  while (!(await condicao())) await new Promise((resolve) => setTimeout(resolve, intervaloMs));
}

export function argumentoNumerico(nome: string, padrao: number): number {
  const i = process.argv.indexOf(`--${nome}`);
  const valor = i >= 0 ? Number(process.argv[i + 1]) : padrao;
  if (!Number.isFinite(valor) || valor <= 0) throw new Error(`--${nome} deve ser um número positivo`);
  return valor;
}

export function tabela(cabecalho: readonly string[], linhas: readonly (readonly (string | number)[])[]): string {
  const celulas = [cabecalho, ...linhas].map((l) => l.map(String));
  return celulas.map((l, i) => `| ${l.join(' | ')} |${i === 0 ? `\n|${l.map(() => '---').join('|')}|` : ''}`).join('\n');
}

export const inteiro = (n: number): string => Math.round(n).toLocaleString('en-US');
