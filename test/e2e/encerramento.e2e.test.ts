// How the services stop (encerrarComGraca), in a real process: a Ctrl-C through pnpm arrives twice
// and is one request; a signal during a stop begun by an error exits at once, not a second stop.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

const FIXTURE = new URL('./encerramento.fixture.ts', import.meta.url).pathname;

function iniciar(...args: string[]) {
  const processo = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const linhas: string[] = [];
  const pronto = new Promise<void>((resolve) =>
    createInterface({ input: processo.stdout }).on('line', (linha) => {
      linhas.push(linha);
      if (linha === 'pronto') resolve();
    }),
  );
  const fim = new Promise<number | null>((resolve) => processo.once('close', resolve));
  return { processo, linhas, pronto, fim };
}

describe('encerrarComGraca', () => {
  it('takes two stop signals within a second as one, and stops once, exiting 0', async () => {
    const p = iniciar();
    await p.pronto;
    p.processo.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 100));
    p.processo.kill('SIGINT');
    expect(await p.fim).toBe(0);
    expect(p.linhas.filter((l) => l === 'fechar')).toHaveLength(1);
  });

  it('exits at once on a stop signal while a stop begun by an error is under way, without stopping twice', async () => {
    const p = iniciar('erro');
    // The error's stop has begun (it lasts 1 s), however late a loaded machine ran it.
    await expect.poll(() => p.linhas.includes('fechar'), { timeout: 10_000, interval: 10 }).toBe(true);
    p.processo.kill('SIGINT');
    expect(await p.fim).toBe(1);
    expect(p.linhas.filter((l) => l === 'fechar')).toHaveLength(1);
    expect(p.linhas.some((l) => l.includes('segundo sinal'))).toBe(true);
  });
});
