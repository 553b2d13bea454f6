import { describe, expect, it } from 'vitest';
import { escolherPlanoIncremental, type PlanoIncremental } from './plano-incremental.ts';

describe('escolherPlanoIncremental', () => {
  it('reads an empty window by instant', () => {
    expect(escolherPlanoIncremental({ naJanela: 0, listados: 10, pagina: 50 })).toBe('por-instante');
  });

  // Measured on the bench's million-property projection (one page from a fixed cursor, µs, best
  // of three): only the cases where one plan won by more than 15 %.
  const medidos: [pagina: number, naJanela: number, vencedor: PlanoIncremental][] = [
    [10, 200, 'por-instante'], // 48 against 190 by range
    [10, 500, 'por-instante'], // 67 / 85
    [10, 1_000, 'por-faixa'], // 49 / 99 by instant
    [10, 5_000, 'por-faixa'], // 32 / 166 by id
    [10, 10_000, 'por-faixa'], // 43 / 65 by id
    [10, 80_000, 'por-id'], // 44 / 96 by range
    [10, 160_000, 'por-id'], // 31 / 96
    [50, 200, 'por-instante'], // 140 / 651 by range
    [50, 1_000, 'por-instante'], // 232 / 304 by range
    [50, 2_000, 'por-faixa'], // 190 / 295 by instant
    [50, 5_000, 'por-faixa'], // 249 / 592 by instant, 868 by id
    [50, 20_000, 'por-faixa'], // 151 / 267 by id
    [50, 80_000, 'por-id'], // 214 / 273 by range
    [50, 160_000, 'por-id'], // 184 / 331
    [200, 1_000, 'por-instante'], // 687 / 1,291 by range
    [200, 3_000, 'por-instante'], // 1,012 / 1,479 by range
    [200, 5_000, 'por-faixa'], // 1,234 / 1,621 by instant
    [200, 20_000, 'por-faixa'], // 670 / 932 by id
    [200, 40_000, 'por-faixa'], // 711 / 919 by id
    [200, 160_000, 'por-id'], // 531 / 759 by range
  ];
  it.each(medidos)('a page of %i in a window of %i items of a million: %s', (pagina, naJanela, vencedor) => {
    expect(escolherPlanoIncremental({ naJanela, listados: 1_000_000, pagina })).toBe(vencedor);
  });

  it('walks ids when most of a small projection is in the window', () => {
    expect(escolherPlanoIncremental({ naJanela: 900, listados: 1_000, pagina: 50 })).toBe('por-id');
  });
});
