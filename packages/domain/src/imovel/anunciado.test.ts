import { describe, expect, it } from 'vitest';
import { estaAnunciado } from './anunciado.ts';
import { registro } from './registro-de-teste.ts';

describe('estaAnunciado', () => {
  it.each(['Disponível', 'Reservado', 'Em negociação'])('is advertised when active, published and %s', (situacao) => {
    expect(estaAnunciado(registro({ ativo: true, publicar_no_site: true, situacao }))).toBe(true);
  });

  it.each(['Vendido', 'Alugado', 'Suspenso', 'disponível', null])('is not advertised with situacao %s', (situacao) => {
    expect(estaAnunciado(registro({ situacao }))).toBe(false);
  });

  it('is advertised with a situacao whose accent is a combining mark (Unicode\'s decomposed form)', () => {
    expect(estaAnunciado(registro({ situacao: 'Disponi\u0301vel' }))).toBe(true);
  });

  it('is not advertised when inactivated', () => {
    expect(estaAnunciado(registro({ ativo: false }))).toBe(false);
  });

  it('is not advertised when the agency chose not to publish it', () => {
    expect(estaAnunciado(registro({ publicar_no_site: false }))).toBe(false);
  });
});
