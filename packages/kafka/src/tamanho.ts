// What a record takes on the wire, for a sender that must stay under a topic's
// `max.message.bytes`, which the broker checks against a whole record batch (format v2, as
// kafkajs writes it: uncompressed here).
import type { Mensagem } from './tipos.ts';

/** A record batch's fixed header: offset, length, epoch, magic, CRC, attributes, deltas, producer fields, count. */
export const BYTES_DO_LOTE = 61;
// Upper bounds of a record's own framing (length, attributes, timestamp and offset deltas, key and
// value lengths, header count: varints at their widest) and of a header's (name and value lengths).
const BYTES_DO_REGISTRO = 40;
const BYTES_DO_CABECALHO = 10;

const bytesDe = (valor: Buffer | string | null | undefined): number =>
  valor == null ? 0 : typeof valor === 'string' ? Buffer.byteLength(valor) : valor.length;

/** An upper bound of what `mensagem` takes in a record batch, beside {@link BYTES_DO_LOTE}. */
export function bytesNoLote(mensagem: Mensagem): number {
  let total = BYTES_DO_REGISTRO + bytesDe(mensagem.key) + bytesDe(mensagem.value);
  for (const [nome, valor] of Object.entries(mensagem.headers ?? {})) {
    for (const v of Array.isArray(valor) ? valor : [valor]) total += BYTES_DO_CABECALHO + Buffer.byteLength(nome) + bytesDe(v);
  }
  return total;
}
