// How dead letters are split into sends a dead-letter topic's size limit accepts.
import { describe, expect, it } from 'vitest';
import { bytesNoLote, enviosDaDlq } from './dlq.ts';

const carta = (bytes: number, extra: Record<string, string> = {}) => ({
  key: 'chave',
  value: 'v'.repeat(bytes),
  headers: { origem: 'legado', 'dlq.motivo': 'json-invalido', 'dlq.offset': '7', ...extra },
});

describe('enviosDaDlq', () => {
  it('sends as many dead letters at once as fit, the rest in further sends, in order', () => {
    const cartas = [carta(400), carta(400), carta(400), carta(10)];
    const { envios, omitidos } = enviosDaDlq(cartas, 61 + bytesNoLote(cartas[0]!) * 2);
    expect(envios.map((e) => e.length)).toEqual([2, 2]);
    expect(envios.flat()).toEqual(cartas);
    expect(omitidos).toBe(0);
  });

  it('keeps every dead letter whole when the topic takes them all', () => {
    const cartas = [carta(400), carta(400)];
    expect(enviosDaDlq(cartas, 1_000_000)).toEqual({ envios: [cartas], omitidos: 0 });
  });

  it('sends one too large by itself without its value, saying so, alone', () => {
    const pequena = carta(10);
    const { envios, omitidos } = enviosDaDlq([pequena, carta(5_000), pequena], 2_000);
    expect(omitidos).toBe(1);
    const semValor = envios.flat()[1]!;
    expect(semValor).toMatchObject({ key: 'chave', value: null, headers: { origem: 'legado', 'dlq.motivo': 'json-invalido', 'dlq.offset': '7' } });
    expect(semValor.headers?.['dlq.omitido']).toMatch(/^valor: 5\d{3} bytes, mais que os 2000 do tópico; o original está na origem/);
    expect(envios.flat()).toEqual([pequena, semValor, pequena]);
    for (const envio of envios) expect(61 + envio.reduce((t, m) => t + bytesNoLote(m), 0)).toBeLessThanOrEqual(2_000);
  });

  it('drops the key and the record\'s own headers too when even those do not fit, keeping its own', () => {
    const { envios } = enviosDaDlq([{ ...carta(10, { enorme: 'h'.repeat(5_000) }), key: 'k'.repeat(3_000) }], 2_000);
    const [semNada] = envios.flat();
    expect(semNada).toMatchObject({ key: null, value: null });
    expect(Object.keys(semNada!.headers ?? {}).sort()).toEqual(['dlq.motivo', 'dlq.offset', 'dlq.omitido']);
    expect(semNada!.headers?.['dlq.omitido']).toMatch(/^valor, chave e cabeçalhos do registro: 8\d{3} bytes/);
  });
});
