// What the Kafka and Redis starters share: finding a program, free loopback ports, and running a
// server as a child process that cannot outlive this one (stop(), an exit hook, and a watchdog
// for the case where this process is killed without running its exit hooks).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** Where a run's log is kept after its directory goes (`guardarLog`). */
const DIR_LOGS = fileURLToPath(new URL('../../.cache/logs/', import.meta.url));

/** A service this process started; `stop()` is idempotent and resolves once the process is gone. */
export interface ServicoIniciado {
  stop(): Promise<void>;
}

/** A required program is missing or unusable. The message is the one line the user should read. */
export class ProgramaAusente extends Error {
  override readonly name = 'ProgramaAusente';
  readonly code = 'PROGRAMA_AUSENTE';
  constructor(mensagem: string) {
    super(mensagem);
    // The line says what to install; a stack trace would only bury it.
    this.stack = `${this.name}: ${mensagem}`;
  }
}

/** The service did not come up; the message carries the tail of its log. */
export class ServicoNaoIniciou extends Error {
  override readonly name = 'ServicoNaoIniciou';
  readonly code = 'SERVICO_NAO_INICIOU';
}

/** Absolute path of `programa` on PATH, or null. */
export function localizarPrograma(programa: string, caminhosExtras: readonly string[] = []): string | null {
  const diretorios = [...caminhosExtras, ...(process.env['PATH'] ?? '').split(delimiter)].filter((d) => d !== '');
  for (const dir of diretorios) {
    const candidato = join(dir, programa);
    try {
      accessSync(candidato, constants.X_OK);
      return candidato;
    } catch {
      // not here; keep looking
    }
  }
  return null;
}

/** The first port Linux gives outgoing connections (`ip_local_port_range`; 32768 unless widened). */
function inicioDasPortasDeSaida(): number {
  try {
    const inicio = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(inicio) ? inicio : 32_768;
  } catch {
    return 32_768; // not Linux
  }
}

/**
 * Ports free on 127.0.0.1 right now, for servers a test starts (and may stop and start again at
 * the same address), taken below the range for outgoing connections (32768–60999 by default; a
 * range widened below 32000 leaves no room, and they come from inside it then). Between
 * the pick and the bind, or while a stopped server's clients keep reconnecting, an outgoing
 * connection could otherwise be given the port as its own source port (one to the server's own
 * address then connects to itself: TCP's simultaneous open), and the server would find it taken.
 * Another process may still take one meanwhile; the range makes that unlikely, not impossible.
 */
export async function portasLivres(quantas: number): Promise<number[]> {
  // 12,000 ports just below that range; from 20000 where a widened one leaves no room below it.
  const fim = Math.max(inicioDasPortasDeSaida(), 32_000);
  const portas: number[] = [];
  while (portas.length < quantas) {
    const porta = fim - 12_000 + Math.floor(Math.random() * 12_000);
    if (!portas.includes(porta) && (await portaLivre(porta))) portas.push(porta);
  }
  return portas;
}

function portaLivre(porta: number): Promise<boolean> {
  return new Promise((resolve) => {
    const servidor = createServer();
    servidor.once('error', () => resolve(false));
    servidor.listen(porta, '127.0.0.1', () => servidor.close(() => resolve(true)));
  });
}

/** A fresh directory under the OS temp dir for one service run. */
export function criarDiretorioExecucao(prefixo: string): string {
  return mkdtempSync(join(tmpdir(), `${prefixo}-`));
}

/** The last `linhas` lines of a text file, or '' when it cannot be read. */
export function finalDoArquivo(caminho: string, linhas = 20): string {
  try {
    return readFileSync(caminho, 'utf8').trimEnd().split('\n').slice(-linhas).join('\n');
  } catch {
    return '';
  }
}

export interface ProcessoServico {
  readonly filho: ChildProcess;
  /** Resolves with the exit code (or signal name) when the process has exited. */
  readonly saida: Promise<string>;
  /** True once the process has exited. */
  terminou(): boolean;
  /** SIGTERM, then SIGKILL after `graca` ms; resolves when the process is gone. */
  parar(graca?: number): Promise<void>;
}

export interface OpcoesProcesso {
  readonly cwd: string;
  readonly arquivoLog: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The run directory: removed as well if this process ends without stopping the service. */
  readonly dirExecucao?: string;
}

/**
 * Starts `comando` with its stdout and stderr appended to `arquivoLog`. Until it exits, an exit
 * hook kills it if this process ends, and a detached shell watchdog kills it if this process
 * dies without running exit hooks (SIGKILL, OOM).
 */
export function iniciarProcesso(comando: string, args: readonly string[], opcoes: OpcoesProcesso): ProcessoServico {
  const fd = openSync(opcoes.arquivoLog, 'a');
  let filho: ChildProcess;
  try {
    filho = spawn(comando, args, { cwd: opcoes.cwd, env: opcoes.env ?? process.env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let acabou = false;
  const matarAoSair = (): void => {
    if (acabou) return;
    filho.kill('SIGKILL');
    if (opcoes.dirExecucao !== undefined) removerDiretorio(opcoes.dirExecucao);
  };
  process.on('exit', matarAoSair);
  const saida = new Promise<string>((resolve) => {
    filho.once('error', (erro) => {
      acabou = true;
      process.off('exit', matarAoSair);
      resolve(`erro ao iniciar: ${erro.message}`);
    });
    filho.once('exit', (codigo, sinal) => {
      acabou = true;
      process.off('exit', matarAoSair);
      resolve(sinal ?? String(codigo));
    });
  });
  if (filho.pid !== undefined) vigiar(filho.pid, opcoes.dirExecucao);
  return {
    filho,
    saida,
    terminou: () => acabou,
    async parar(graca = 5_000) {
      if (acabou) return;
      filho.kill('SIGTERM');
      const parou = await Promise.race([saida.then(() => true), esperar(graca, false)]);
      if (!parou) {
        filho.kill('SIGKILL');
        await saida;
      }
    },
  };
}

/**
 * Kills `pid` once this process is gone, then removes `dir` (the run directory, when given); the
 * watchdog itself ends as soon as `pid` does.
 */
function vigiar(pid: number, dir: string | undefined): void {
  const script = 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; ' +
    'if ! kill -0 "$1" 2>/dev/null; then kill -9 "$2" 2>/dev/null; [ -n "$3" ] && sleep 1 && rm -rf -- "$3"; fi; exit 0';
  const vigia = spawn('/bin/sh', ['-c', script, 'vigia', String(process.pid), String(pid), dir ?? ''], { detached: true, stdio: 'ignore' });
  vigia.on('error', () => undefined); // no /bin/sh: the exit hook still covers normal exits
  vigia.unref();
}

/** Polls `condicao` every `intervalo` ms until it returns true; throws once `prazo` ms pass. */
export async function esperarAte(
  condicao: () => Promise<boolean>,
  opcoes: { prazo: number; intervalo?: number; descricao: string; desistir?: () => Promise<Error | null> },
): Promise<void> {
  const limite = Date.now() + opcoes.prazo;
  for (;;) {
    const erro = opcoes.desistir ? await opcoes.desistir() : null;
    if (erro !== null) throw erro;
    if (await condicao().catch(() => false)) return;
    if (Date.now() > limite) throw new ServicoNaoIniciou(`${opcoes.descricao} não respondeu em ${opcoes.prazo} ms`);
    await esperar(opcoes.intervalo ?? 100);
  }
}

/** As {@link esperarAte}, but fails at once if the process exits, and shows the tail of its log. */
export async function esperarPronto(
  processo: ProcessoServico,
  pronto: () => Promise<boolean>,
  opcoes: { prazo: number; intervalo?: number; descricao: string; arquivoLog: string },
): Promise<void> {
  try {
    await esperarAte(pronto, {
      ...opcoes,
      desistir: async () =>
        processo.terminou() ? new ServicoNaoIniciou(`${opcoes.descricao} terminou ao iniciar (${await processo.saida})`) : null,
    });
  } catch (erro) {
    if (erro instanceof ServicoNaoIniciou) erro.message += `; final de ${opcoes.arquivoLog}:\n${finalDoArquivo(opcoes.arquivoLog)}`;
    throw erro;
  }
}

/** Removes a run directory, ignoring errors (it is under the OS temp dir anyway). */
export function removerDiretorio(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // best effort
  }
}

/** Copies a run's log to .cache/logs as `nome` before the run directory goes, for reading after a failure. */
export function guardarLog(origem: string, nome: string): void {
  try {
    if (!existsSync(origem)) return;
    mkdirSync(DIR_LOGS, { recursive: true });
    copyFileSync(origem, join(DIR_LOGS, nome));
  } catch {
    // best effort
  }
}
