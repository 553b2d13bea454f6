import { describe, expect, it } from 'vitest';
import { emDiaEmSeguinte, particoesRecuadas, ultimaAlcancada, type AmostraDeFins } from './em-dia.ts';

const amostra = (instante: number, fins: Record<string, number>): AmostraDeFins => ({
  instante,
  fins: new Map(Object.entries(fins).map(([k, v]) => [k, BigInt(v)])),
});
const lidos = (offsets: Record<string, number>) => (chave: string) => BigInt(offsets[chave] ?? 0);

describe('ultimaAlcancada', () => {
  it('is the latest sample whose ends every partition has reached, keeping the later ones', () => {
    const amostras = [amostra(1_000, { a: 5, b: 2 }), amostra(6_000, { a: 9, b: 3 }), amostra(11_000, { a: 12, b: 3 })];
    // A steady stream: never at the very end, but past what existed 5 s ago.
    expect(ultimaAlcancada(amostras, lidos({ a: 10, b: 3 }))).toEqual({ alcancadaEm: 6_000, pendentes: [amostras[2]] });
    expect(ultimaAlcancada(amostras, lidos({ a: 12, b: 3 }))).toEqual({ alcancadaEm: 11_000, pendentes: [] });
  });

  it('needs every partition: one behind holds the sample back', () => {
    const amostras = [amostra(1_000, { a: 5, b: 2 })];
    expect(ultimaAlcancada(amostras, lidos({ a: 5, b: 1 }))).toEqual({ alcancadaEm: null, pendentes: amostras });
  });

  it('keeps at most the newest samples while none is reached', () => {
    const amostras = [1, 2, 3, 4].map((i) => amostra(i, { a: 100 }));
    expect(ultimaAlcancada(amostras, lidos({ a: 0 }), 2).pendentes.map((a) => a.instante)).toEqual([3, 4]);
  });

  it('counts a sample of no partitions (no topics yet) as reached', () => {
    expect(ultimaAlcancada([amostra(7, {})], lidos({})).alcancadaEm).toBe(7);
  });
});

describe('particoesRecuadas', () => {
  it('names the partitions whose stored offset is past their end (a topic created anew)', () => {
    const fins = new Map([['a', 10n], ['b', 3n]]);
    expect(particoesRecuadas(fins, lidos({ a: 10, b: 7 }))).toEqual(['b']);
    expect(particoesRecuadas(fins, lidos({ a: 4, b: 3 }))).toEqual([]);
  });
});

describe('emDiaEmSeguinte', () => {
  it('takes the later of the recorded instant and the one reached, and keeps the record when none was reached', () => {
    expect(emDiaEmSeguinte(null, null)).toBeNull();
    expect(emDiaEmSeguinte(null, 1_000)).toBe(1_000);
    expect(emDiaEmSeguinte(1_000, 2_000)).toBe(2_000);
    // An older sample reached (its ends were met late): the record does not move back.
    expect(emDiaEmSeguinte(2_000, 1_000)).toBe(2_000);
    expect(emDiaEmSeguinte(2_000, null)).toBe(2_000);
  });
});
