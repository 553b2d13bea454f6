// NDJSON round trip: what is written is read back record for record, tombstones and poison included.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gerarCenario } from './carga-inicial.ts';
import { escreverNdjson, lerNdjson } from './ndjson.ts';
import type { RegistroBruto } from '@imoveis/contracts';

const opcoes = { seed: 21, imoveis: 200, condominios: 10, mutacoes: 800, taxaVenenos: 0.1 };

async function lerTodos(fonte: AsyncIterable<RegistroBruto>): Promise<RegistroBruto[]> {
  const lista: RegistroBruto[] = [];
  for await (const r of fonte) lista.push(r);
  return lista;
}

describe('NDJSON', () => {
  let pasta = '';
  beforeAll(async () => {
    pasta = await mkdtemp(join(tmpdir(), 'gerador-ndjson-'));
  });
  afterAll(async () => {
    await rm(pasta, { recursive: true, force: true });
  });

  it('writes one {"topico","chave","valor"} object a line and reads the same records back', async () => {
    const caminho = join(pasta, 'cenario.ndjson');
    const esperados = [...gerarCenario(opcoes)];
    expect(await escreverNdjson(gerarCenario(opcoes), caminho)).toBe(esperados.length);

    const linhas = (await readFile(caminho, 'utf8')).split('\n');
    expect(linhas.at(-1)).toBe('');
    expect(linhas).toHaveLength(esperados.length + 1);
    expect(Object.keys(JSON.parse(linhas[0]!) as object)).toEqual(['topico', 'chave', 'valor']);

    const lidos = await lerTodos(lerNdjson(caminho));
    expect(lidos).toEqual(esperados);
    expect(lidos.some((r) => r.valor === null)).toBe(true);
    expect(lidos.some((r) => r.valor === '')).toBe(true);
  });

  it('writes to an open stream without closing it, from an async source too', async () => {
    const saida = new PassThrough();
    const pedacos: Buffer[] = [];
    saida.on('data', (b: Buffer) => pedacos.push(b));
    async function* fonte(): AsyncGenerator<RegistroBruto> {
      for (const r of gerarCenario({ ...opcoes, mutacoes: 10 })) yield await Promise.resolve(r);
    }
    const total = await escreverNdjson(fonte(), saida);
    expect(saida.writableEnded).toBe(false);
    saida.end();
    expect(total).toBe(220);
    expect(Buffer.concat(pedacos).toString('utf8').split('\n')).toHaveLength(221);
  });

  it("fails with the file's error when the file cannot be written, rather than never settling", async () => {
    const registros = [...gerarCenario({ ...opcoes, mutacoes: 0 })];
    const destino = join(pasta, 'nao-existe', 'saida.ndjson');
    // One record (a write the stream buffers), many (writes that wait for 'drain'), and an async
    // source (the stream fails while the source is awaited).
    await expect(escreverNdjson(registros.slice(0, 1), destino)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(escreverNdjson(Array.from({ length: 40 }, () => registros).flat(), destino)).rejects.toMatchObject({ code: 'ENOENT' });
    async function* aos(poucos: RegistroBruto[]) {
      for (const r of poucos) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield r;
      }
    }
    await expect(escreverNdjson(aos(registros.slice(0, 3)), destino)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a line that is not a record, naming the line', async () => {
    const caminho = join(pasta, 'ruim.ndjson');
    await writeFile(caminho, '{"topico":"imoveis","chave":null,"valor":null}\n\n{"topico":"outro","chave":null,"valor":null}\n');
    await expect(lerTodos(lerNdjson(caminho))).rejects.toThrow('linha 3');
  });
});
