// NDJSON files of records, one {"topico","chave","valor"} object a line: a scenario saved once
// and replayed many times, or piped to another tool.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { RegistroBruto } from '@imoveis/contracts';

/** Lines are gathered into chunks of about this many characters: one write per chunk, not per line. */
const TAMANHO_BLOCO = 1 << 20;

function ehIteravelSincrono<T>(fonte: Iterable<T> | AsyncIterable<T>): fonte is Iterable<T> {
  return Symbol.iterator in fonte;
}

async function escrever(destino: Writable, bloco: string): Promise<void> {
  // A stream that failed drains no more: its error, now.
  if (destino.errored) throw destino.errored;
  // Honour backpressure: a million events must not pile up in the stream's buffer. (`once`
  // rejects on an 'error' emitted meanwhile.)
  if (!destino.write(bloco)) await once(destino, 'drain');
}

/**
 * Writes the records as NDJSON to a file path (created or truncated) or to an open stream
 * (left open, so stdout can be used). Resolves with the number of records written.
 */
export async function escreverNdjson(
  registros: Iterable<RegistroBruto> | AsyncIterable<RegistroBruto>,
  caminhoOuStream: string | Writable,
): Promise<number> {
  const proprio = typeof caminhoOuStream === 'string';
  const destino = proprio ? createWriteStream(caminhoOuStream, { encoding: 'utf8' }) : caminhoOuStream;
  // Its error (a folder that is not there, a full disk) is kept by the stream and thrown below, not
  // emitted with no listener while an async source is awaited (which would end the process).
  if (proprio) destino.on('error', () => {});
  let bloco = '';
  let total = 0;
  // Same text as JSON.stringify of the record, without building an object per line.
  const linha = (r: RegistroBruto): string =>
    `{"topico":${JSON.stringify(r.topico)},"chave":${JSON.stringify(r.chave)},"valor":${JSON.stringify(r.valor)}}\n`;
  try {
    if (ehIteravelSincrono(registros)) {
      // A plain loop: for-await over a sync generator would cost a promise per record.
      for (const r of registros) {
        bloco += linha(r);
        total++;
        if (bloco.length >= TAMANHO_BLOCO) {
          await escrever(destino, bloco);
          bloco = '';
        }
      }
    } else {
      for await (const r of registros) {
        bloco += linha(r);
        total++;
        if (bloco.length >= TAMANHO_BLOCO) {
          await escrever(destino, bloco);
          bloco = '';
        }
      }
    }
    if (bloco.length > 0) await escrever(destino, bloco);
  } finally {
    if (proprio) {
      destino.end();
      // Rejects with the stream's error, even one emitted before: 'finish' would never come.
      await finished(destino);
    }
  }
  return total;
}

/** A line of an NDJSON file that is no record as escreverNdjson writes them. */
export class LinhaNdjsonInvalida extends Error {
  override readonly name = 'LinhaNdjsonInvalida';
  readonly code = 'LINHA_NDJSON_INVALIDA';
}

function paraRegistro(linha: string, numero: number): RegistroBruto {
  const erro = (): Error => new LinhaNdjsonInvalida(`linha ${numero}: não é um registro {"topico","chave","valor"}`);
  let bruto: unknown;
  try {
    bruto = JSON.parse(linha);
  } catch {
    throw erro();
  }
  if (typeof bruto !== 'object' || bruto === null) throw erro();
  const { topico, chave, valor } = bruto as Record<string, unknown>;
  if (topico !== 'imoveis' && topico !== 'condominios') throw erro();
  if (chave !== null && typeof chave !== 'string') throw erro();
  if (valor !== null && typeof valor !== 'string') throw erro();
  return { topico, chave, valor };
}

/** Reads an NDJSON file (or stream) written by escreverNdjson back into records. Blank lines are skipped. */
export async function* lerNdjson(caminhoOuStream: string | Readable): AsyncGenerator<RegistroBruto, void, undefined> {
  const entrada = typeof caminhoOuStream === 'string' ? createReadStream(caminhoOuStream, { encoding: 'utf8' }) : caminhoOuStream;
  const linhas = createInterface({ input: entrada, crlfDelay: Infinity });
  let numero = 0;
  try {
    for await (const linha of linhas) {
      numero++;
      if (linha.trim() === '') continue;
      yield paraRegistro(linha, numero);
    }
  } finally {
    linhas.close();
    if (typeof caminhoOuStream === 'string') entrada.destroy();
  }
}
