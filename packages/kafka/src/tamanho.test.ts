// The size bound against kafkajs's own encoding of a record batch: an underestimate would let the
// broker refuse a send (MESSAGE_TOO_LARGE) that was meant to fit.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cabecalhosParaEnvio } from './cabecalhos.ts';
import { BYTES_DO_LOTE, bytesNoLote } from './tamanho.ts';
import type { Mensagem } from './tipos.ts';

// Internal modules of kafkajs (no types): the encoders its producer uses.
const exigir = createRequire(import.meta.url);
const { RecordBatch } = exigir('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (opcoes: object) => Promise<{ buffer: Buffer }>;
};
const Record = exigir('kafkajs/src/protocol/recordBatch/record/v0') as (opcoes: object) => unknown;

/** Bytes of the batch as the broker measures it: past the first offset and the length (12 bytes), plus them. */
async function bytesCodificados(mensagens: readonly Mensagem[], deltaMaximoMs: number): Promise<number> {
  const registros = mensagens.map((m, i) =>
    Record({
      offsetDelta: i,
      timestampDelta: deltaMaximoMs,
      key: m.key,
      value: m.value,
      headers: cabecalhosParaEnvio(m.headers ?? {}),
    }),
  );
  const lote = await RecordBatch({ records: registros, lastOffsetDelta: mensagens.length - 1, producerId: 123_456_789, producerEpoch: 3, firstSequence: 99 });
  return lote.buffer.length;
}

describe('bytesNoLote', () => {
  it('bounds from above what kafkajs writes, however large the parts and the timestamp delta', async () => {
    const casos: Mensagem[][] = [
      [{ key: null, value: null }],
      [{ key: 'k', value: '' }],
      [{ key: 'a8f5f167-f44f-4964-b6ab-7a2a6e9a5a11', value: 'x'.repeat(1_048_400), headers: { 'dlq.motivo': 'json-invalido', origem: Buffer.from([0xff, 0]) } }],
      [{ key: Buffer.alloc(200), value: 'ç'.repeat(70_000), headers: { repetido: ['a', 'b', null], vazio: null } }],
      Array.from({ length: 300 }, (_, i) => ({ key: `chave-${i}`, value: 'v'.repeat(i * 37), headers: { n: String(i) } })),
    ];
    for (const mensagens of casos) {
      for (const delta of [0, 1e12]) {
        const estimado = BYTES_DO_LOTE + mensagens.reduce((t, m) => t + bytesNoLote(m), 0);
        expect(estimado, `${mensagens.length} registros, delta ${delta}`).toBeGreaterThanOrEqual(await bytesCodificados(mensagens, delta));
        // And not so loose that sends are split for nothing.
        expect(estimado - (await bytesCodificados(mensagens, delta))).toBeLessThanOrEqual(40 * mensagens.length + 10 * 3 * mensagens.length);
      }
    }
  });
});
