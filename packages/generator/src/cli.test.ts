// The command line writes the same NDJSON as the library, to a file or to stdout.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gerarCenario } from './carga-inicial.ts';
import { escreverNdjson } from './ndjson.ts';

const executar = promisify(execFile);
const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

async function esperado(): Promise<string> {
  const saida = new PassThrough();
  const pedacos: Buffer[] = [];
  saida.on('data', (b: Buffer) => pedacos.push(b));
  await escreverNdjson(gerarCenario({ seed: 9, imoveis: 30, condominios: 3, mutacoes: 40 }), saida);
  return Buffer.concat(pedacos).toString('utf8');
}

describe('cli', () => {
  it('writes the scenario of the given options as NDJSON, to a file and to stdout', { timeout: 30_000 }, async () => {
    const pasta = await mkdtemp(join(tmpdir(), 'gerador-cli-'));
    try {
      const arquivo = join(pasta, 'saida.ndjson');
      const args = ['--import', 'tsx', CLI, '--seed', '9', '--imoveis', '30', '--condominios', '3', '--mutacoes', '40'];
      const [paraArquivo, paraStdout] = await Promise.all([
        executar(process.execPath, [...args, '--saida', arquivo]),
        executar(process.execPath, [...args, '--saida', '-'], { maxBuffer: 64 * 1024 * 1024 }),
      ]);
      expect(paraArquivo.stderr).toMatch(/^73 registros/);
      const texto = await esperado();
      expect(await readFile(arquivo, 'utf8')).toBe(texto);
      expect(paraStdout.stdout).toBe(texto);
    } finally {
      await rm(pasta, { recursive: true, force: true });
    }
  });

  it('stops quietly, exiting 0, when the reader of stdout closes it (`| head`)', { timeout: 30_000 }, async () => {
    const filho = spawn(process.execPath, ['--import', 'tsx', CLI, '--imoveis', '3000', '--mutacoes', '3000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let erros = '';
    filho.stderr.setEncoding('utf8').on('data', (t: string) => (erros += t));
    const [primeiro] = (await once(filho.stdout, 'data')) as [Buffer];
    filho.stdout.destroy();
    const [codigo] = (await once(filho, 'close')) as [number | null];
    expect(primeiro.toString('utf8')).toMatch(/^\{"topico":/);
    expect({ codigo, erros }).toEqual({ codigo: 0, erros: '' });
  });

  it('exits with an error naming a bad option', { timeout: 30_000 }, async () => {
    await expect(executar(process.execPath, ['--import', 'tsx', CLI, '--imoveis', 'muitos'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--imoveis'),
    });
  });
});
