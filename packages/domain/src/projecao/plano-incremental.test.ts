import { describe, expect, it } from 'vitest';
import { escolherPlanoIncremental } from './plano-incremental.ts';

describe('escolherPlanoIncremental', () => {
  it('reads a narrow window by time: a few matches among a million', () => {
    expect(escolherPlanoIncremental({ naJanela: 100, listados: 1_000_000, pagina: 50 })).toBe('por-instante');
  });

  it('walks ids when half the projection is in the window', () => {
    expect(escolherPlanoIncremental({ naJanela: 500_000, listados: 1_000_000, pagina: 200 })).toBe('por-id');
  });

  it('reads by time when the window is empty', () => {
    expect(escolherPlanoIncremental({ naJanela: 0, listados: 10, pagina: 50 })).toBe('por-instante');
  });

  it('walks ids for a 1 % window: about 5,100 entries in order instead of sorting 10,000', () => {
    expect(escolherPlanoIncremental({ naJanela: 10_000, listados: 1_000_000, pagina: 50 })).toBe('por-id');
  });

  it('switches where both plans cost about as much', () => {
    // (51 × 1,000,000) / n < 2n  ⇔  n > √25,500,000 ≈ 5,050
    expect(escolherPlanoIncremental({ naJanela: 5_000, listados: 1_000_000, pagina: 50 })).toBe('por-instante');
    expect(escolherPlanoIncremental({ naJanela: 5_100, listados: 1_000_000, pagina: 50 })).toBe('por-id');
  });
});
