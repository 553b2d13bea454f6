import { describe, expect, it } from 'vitest';
import { mapearCaracteristicas } from './caracteristicas.ts';

describe('mapearCaracteristicas', () => {
  it('trims entries and collapses inner whitespace', () => {
    expect(mapearCaracteristicas(['  Varanda   gourmet\t', 'Ar\ncondicionado'])).toEqual(['Ar condicionado', 'Varanda gourmet']);
  });

  it('drops empty entries', () => {
    expect(mapearCaracteristicas(['', '   ', 'Piscina'])).toEqual(['Piscina']);
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
