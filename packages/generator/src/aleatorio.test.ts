// The PRNG and the date-time text: determinism, uuid shape, and agreement with Date.
import { describe, expect, it } from 'vitest';
import { Aleatorio } from './aleatorio.ts';
import { formatarDataHora } from './data-hora.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function sequencia(rng: Aleatorio, n: number): number[] {
  return Array.from({ length: n }, () => rng.proximo());
}

describe('Aleatorio', () => {
  it('gives the same draws for the same (seed, stream, index) and different draws otherwise', () => {
    expect(sequencia(new Aleatorio(42, 1, 7), 50)).toEqual(sequencia(new Aleatorio(42, 1, 7), 50));
    expect(sequencia(new Aleatorio(42, 1, 7), 50)).not.toEqual(sequencia(new Aleatorio(43, 1, 7), 50));
    expect(sequencia(new Aleatorio(42, 1, 7), 50)).not.toEqual(sequencia(new Aleatorio(42, 2, 7), 50));
    expect(sequencia(new Aleatorio(42, 1, 7), 50)).not.toEqual(sequencia(new Aleatorio(42, 1, 8), 50));
    // The high word of the seed counts too.
    expect(sequencia(new Aleatorio(1, 1, 0), 10)).not.toEqual(sequencia(new Aleatorio(2 ** 32 + 1, 1, 0), 10));
  });

  it('reseeding forgets everything drawn before', () => {
    const a = new Aleatorio(9, 3, 5);
    sequencia(a, 1000);
    a.semear(9, 3, 5);
    expect(sequencia(a, 20)).toEqual(sequencia(new Aleatorio(9, 3, 5), 20));
  });

  it('pins the first draws of a seed, so output stays byte-identical across machines and releases', () => {
    expect(sequencia(new Aleatorio(1, 1, 0), 3)).toMatchInlineSnapshot(`
      [
        1497390494,
        344401750,
        894145946,
      ]
    `);
  });

  it('draws roughly uniform reals and integers within their bounds', () => {
    const rng = new Aleatorio(5, 0, 0);
    const caixas = new Array<number>(10).fill(0);
    let foraDosLimites = 0;
    for (let i = 0; i < 100_000; i++) {
      const r = rng.real();
      if (!(r >= 0 && r < 1)) foraDosLimites++;
      caixas[Math.floor(r * 10)]!++;
      const n = rng.inteiro(3, 7);
      if (!(n >= 3 && n <= 7 && Number.isInteger(n))) foraDosLimites++;
    }
    expect(foraDosLimites).toBe(0);
    for (const c of caixas) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('makes lower-case RFC 4122 version-4 uuids, all distinct', () => {
    const rng = new Aleatorio(77, 0, 0);
    const vistos = new Set<string>();
    const invalidos: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const u = rng.uuid();
      if (!UUID_V4.test(u)) invalidos.push(u);
      vistos.add(u);
    }
    expect(invalidos).toEqual([]);
    expect(vistos.size).toBe(20_000);
  });

  it('makes strings of decimal digits of the asked length', () => {
    const rng = new Aleatorio(3, 0, 0);
    for (let n = 0; n <= 8; n++) expect(rng.digitos(n)).toMatch(new RegExp(`^\\d{${n}}$`));
  });
});

describe('formatarDataHora', () => {
  it('writes the instant in -03:00 with milliseconds, as Date would', () => {
    expect(formatarDataHora(Date.parse('2026-01-01T09:00:00-03:00'))).toBe('2026-01-01T09:00:00.000-03:00');
    expect(formatarDataHora(Date.parse('2024-02-29T23:59:59.999-03:00'))).toBe('2024-02-29T23:59:59.999-03:00');
    const rng = new Aleatorio(11, 0, 0);
    const divergentes: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const ms = Math.floor(rng.entre(0, 4_000_000_000_000));
      const esperado = new Date(ms - 3 * 3_600_000).toISOString().slice(0, 23) + '-03:00';
      if (formatarDataHora(ms) !== esperado || Date.parse(formatarDataHora(ms)) !== ms) divergentes.push(ms);
    }
    expect(divergentes).toEqual([]);
  });
});
