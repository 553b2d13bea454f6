import { describe, expect, it } from 'vitest';
import { mapearCaracteristicas } from './caracteristicas.ts';

describe('mapearCaracteristicas', () => {
  it('trims entries and collapses inner whitespace', () => {
    expect(mapearCaracteristicas(['  Varanda   gourmet\t', 'Ar\ncondicionado'])).toEqual(['Ar condicionado', 'Varanda gourmet']);
  });

  it('drops empty entries', () => {
    expect(mapearCaracteristicas(['', '   ', 'Piscina'])).toEqual(['Piscina']);
    // Entries of only invisible characters show nothing either.
    expect(mapearCaracteristicas(['\u200b', ' \u00ad\u2060 ', 'Piscina'])).toEqual(['Piscina']);
  });

  it('drops repeats that differ only by characters nobody sees, keeping the first spelling', () => {
    expect(mapearCaracteristicas(['Pisci\u00adna', 'Piscina\u200b', 'Sauna', 'Sa\u2060una'])).toEqual(['Pisci\u00adna', 'Sauna']);
  });

  it('drops repeats ignoring case and accents, keeping the first spelling', () => {
    expect(mapearCaracteristicas(['Salão de festas', 'SALAO DE FESTAS', 'salão de  festas', 'Piscina', 'piscína'])).toEqual([
      'Piscina',
      'Salão de festas',
    ]);
  });

  it('sorts with Brazilian Portuguese collation, accents and case not pushing entries to the end', () => {
    expect(mapearCaracteristicas(['Zelador', 'área de serviço', 'Elevador', 'Árvores', 'churrasqueira'])).toEqual([
      'área de serviço',
      'Árvores',
      'churrasqueira',
      'Elevador',
      'Zelador',
    ]);
  });

  it('gives the same list whatever the input order', () => {
    const entradas = ['Piscina', 'Academia', 'Quadra', 'Elevador'];
    expect(mapearCaracteristicas([...entradas].reverse())).toEqual(mapearCaracteristicas(entradas));
  });

  it('gives an empty list for no entries', () => {
    expect(mapearCaracteristicas([])).toEqual([]);
  });
});

describe('mapearCaracteristicas against the plain rule', () => {
  // The rule as first written: normalise, keep the first spelling of each key, sort with the collator.
  const collator = new Intl.Collator('pt-BR');
  function referencia(entradas: readonly string[]): string[] {
    const porChave = new Map<string, string>();
    for (const entrada of entradas) {
      const texto = entrada.trim().replace(/\s+/g, ' ');
      if (texto === '') continue;
      const chave = texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      if (!porChave.has(chave)) porChave.set(chave, texto);
    }
    return [...porChave.values()].sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  let semente = 20_261_120;
  const sorteio = (n: number): number => {
    semente = (Math.imul(semente, 1_103_515_245) + 12_345) >>> 0;
    return (semente >>> 8) % n;
  };
  const LETRAS = [...'aAbBcCçÇeEéÉêoOóÕãíIzZ09 1  -.ªºßøÆıİKÅ\u0301\u0903\t'];
  const palavra = (): string => Array.from({ length: 1 + sorteio(6) }, () => LETRAS[sorteio(LETRAS.length)]!).join('');

  it('gives the same list for random entries, accents, marks and odd letters included', () => {
    for (let i = 0; i < 5000; i++) {
      const entradas = Array.from({ length: sorteio(9) }, palavra);
      expect(mapearCaracteristicas(entradas), JSON.stringify(entradas)).toEqual(referencia(entradas));
    }
  });

  it('gives the same list for the features agents usually type', () => {
    const comuns = ['Piscina', 'piscina', 'Academia', 'Área de serviço', 'Salão de festas', 'Elevador', 'Depósito', 'Segurança 24h', 'Quadra poliesportiva', 'brinquedoteca', 'Ar condicionado', 'Churrasqueira', 'Varanda gourmet', 'Bicicletário', 'Interfone', 'Quintal', 'Zelador', 'Árvores', 'Portaria 24 h', 'Sauna', 'Spa'];
    for (let i = 0; i < 2000; i++) {
      const entradas = Array.from({ length: sorteio(12) }, () => comuns[sorteio(comuns.length)]!);
      expect(mapearCaracteristicas(entradas)).toEqual(referencia(entradas));
    }
  });
});
