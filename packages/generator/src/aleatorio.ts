// Seeded PRNG (sfc32) and the random helpers built on it: the generator's only source of chance.
// Math.random and the clock are never used, so a seed gives byte-identical output everywhere.

/** Char codes of the lower-case hex digits. */
const CODIGOS_HEX: readonly number[] = Array.from({ length: 16 }, (_, i) => i.toString(16).charCodeAt(0));
const HIFEN = 45;

/** Char code of the hex digit of `w` at bit `deslocamento`. */
function n(w: number, deslocamento: number): number {
  return CODIGOS_HEX[(w >>> deslocamento) & 15]!;
}

const P2: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const P3: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** murmur3's 32-bit finaliser: spreads every input bit over the whole word. */
export function misturar(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes
 * PractRand, and costs a few integer operations per draw. Reseedable so one instance can be
 * reused for every aggregate instead of allocating a generator per event.
 */
export class Aleatorio {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 1;

  constructor(semente = 0, fluxo = 0, indice = 0) {
    this.semear(semente, fluxo, indice);
  }

  /**
   * Positions the generator on an independent stream named by (seed, stream, index): the same
   * triple always gives the same draws, whatever was drawn before. `semente` may be any safe
   * integer; its high word is mixed in too, so seeds 1 and 2^32+1 differ.
   */
  semear(semente: number, fluxo: number, indice: number): void {
    const lo = semente >>> 0;
    const hi = Math.floor(semente / 4294967296) >>> 0;
    const ia = indice >>> 0;
    const ib = Math.floor(indice / 4294967296) >>> 0;
    this.a = misturar(lo ^ 0x9e3779b9);
    this.b = misturar(hi ^ misturar(fluxo + 0x7f4a7c15));
    this.c = misturar(ia ^ misturar(this.a ^ 0x632be5ab));
    this.d = misturar(ib ^ misturar(this.b + fluxo));
    // The usual sfc32 warm-up: the first outputs of a fresh state are still correlated with it.
    for (let i = 0; i < 12; i++) this.proximo();
  }

  /** Next unsigned 32-bit integer. */
  proximo(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  real(): number {
    return this.proximo() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  inteiro(min: number, max: number): number {
    return min + Math.floor(this.real() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  entre(min: number, max: number): number {
    return min + this.real() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.real() < p;
  }

  escolher<T>(lista: readonly T[]): T {
    return lista[Math.floor(this.real() * lista.length)]!;
  }

  /** Picks by weight; `acumulados` holds the running totals of the weights (see acumular). */
  escolherPonderado<T>(lista: readonly T[], acumulados: Float64Array): T {
    const alvo = this.real() * acumulados[acumulados.length - 1]!;
    let i = 0;
    while (acumulados[i]! <= alvo) i++;
    return lista[i]!;
  }

  /** RFC 4122 version-4 uuid in lower case: version nibble 4, variant bits 10. */
  uuid(): string {
    const w0 = this.proximo();
    const w1 = ((this.proximo() & 0xffff0fff) | 0x00004000) >>> 0;
    const w2 = ((this.proximo() & 0x3fffffff) | 0x80000000) >>> 0;
    const w3 = this.proximo();
    // One flat string from char codes: concatenating 2-digit pieces builds a deep rope that
    // JSON.stringify must flatten later, which cost more than making the uuid (three per event).
    return String.fromCharCode(
      n(w0, 28), n(w0, 24), n(w0, 20), n(w0, 16), n(w0, 12), n(w0, 8), n(w0, 4), n(w0, 0), HIFEN,
      n(w1, 28), n(w1, 24), n(w1, 20), n(w1, 16), HIFEN,
      n(w1, 12), n(w1, 8), n(w1, 4), n(w1, 0), HIFEN,
      n(w2, 28), n(w2, 24), n(w2, 20), n(w2, 16), HIFEN,
      n(w2, 12), n(w2, 8), n(w2, 4), n(w2, 0),
      n(w3, 28), n(w3, 24), n(w3, 20), n(w3, 16), n(w3, 12), n(w3, 8), n(w3, 4), n(w3, 0),
    );
  }

  /** A string of `n` decimal digits (leading zeros kept), three digits per draw. */
  digitos(n: number): string {
    let s = '';
    let falta = n;
    for (; falta >= 3; falta -= 3) s += P3[Math.floor(this.real() * 1000)]!;
    if (falta === 2) s += P2[Math.floor(this.real() * 100)]!;
    else if (falta === 1) s += String(Math.floor(this.real() * 10));
    return s;
  }
}

/** Running totals of weights, for Aleatorio.escolherPonderado. */
export function acumular(pesos: readonly number[]): Float64Array {
  const acumulados = new Float64Array(pesos.length);
  let soma = 0;
  for (let i = 0; i < pesos.length; i++) {
    soma += pesos[i]!;
    acumulados[i] = soma;
  }
  return acumulados;
}
