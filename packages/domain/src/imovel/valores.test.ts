import { describe, expect, it } from 'vitest';
import { mapearValores, periodicidadeIptu } from './valores.ts';
import { comValores } from './registro-de-teste.ts';

const valores = comValores({ venda: 950000, aluguel: 4800, condominio: 1200.5, iptu: 3600 }).valores;

describe('mapearValores', () => {
  it('shows only the sale price for a property for sale', () => {
    expect(mapearValores(valores, 'Venda')).toMatchObject({ valor_venda: 950000, valor_aluguel: null });
  });

  it('shows only the rent for a property for rent', () => {
    expect(mapearValores(valores, 'Locação')).toMatchObject({ valor_venda: null, valor_aluguel: 4800 });
  });

  it('shows both prices for a property for sale and rent', () => {
    expect(mapearValores(valores, 'Venda e Locação')).toMatchObject({ valor_venda: 950000, valor_aluguel: 4800 });
  });

  it('shows neither price when the purpose is unknown', () => {
    expect(mapearValores(valores, null)).toMatchObject({ valor_venda: null, valor_aluguel: null });
  });

  it('hides both prices when the price is on request, but keeps the fees', () => {
    expect(mapearValores({ ...valores, preco_sob_consulta: true }, 'Venda e Locação')).toEqual({
      valor_venda: null,
      valor_aluguel: null,
      valor_condominio: 1200.5,
      valor_iptu: 3600,
      periodicidade_iptu: 'Anual',
      ocultar_preco: true,
    });
  });

  it('copies the sale and rent prices unrounded', () => {
    expect(mapearValores({ ...valores, venda: 1_234_567.89, aluguel: 2_499.995 }, 'Venda e Locação')).toMatchObject({
      valor_venda: 1_234_567.89,
      valor_aluguel: 2_499.995,
    });
  });

  it('copies the condominium fee and the IPTU unrounded', () => {
    expect(mapearValores({ ...valores, condominio: 1234.567, iptu: 0.1 }, 'Venda')).toMatchObject({
      valor_condominio: 1234.567,
      valor_iptu: 0.1,
      ocultar_preco: false,
    });
  });

  it('turns negative money values into null', () => {
    expect(mapearValores({ ...valores, venda: -1, aluguel: -4800, condominio: -10, iptu: -0.01 }, 'Venda e Locação')).toMatchObject({
      valor_venda: null,
      valor_aluguel: null,
      valor_condominio: null,
      valor_iptu: null,
    });
  });

  it('turns non-finite money values into null', () => {
    expect(
      mapearValores({ ...valores, venda: Number.POSITIVE_INFINITY, aluguel: Number.NaN, condominio: Number.NEGATIVE_INFINITY }, 'Venda e Locação'),
    ).toMatchObject({ valor_venda: null, valor_aluguel: null, valor_condominio: null });
  });

  it('keeps a zero value', () => {
    expect(mapearValores({ ...valores, condominio: 0 }, 'Venda')).toMatchObject({ valor_condominio: 0 });
  });
});

describe('periodicidadeIptu', () => {
  it('maps mensal and anual to Mensal and Anual', () => {
    expect(periodicidadeIptu('mensal')).toBe('Mensal');
    expect(periodicidadeIptu('anual')).toBe('Anual');
  });

  it('gives null for any other value', () => {
    expect(periodicidadeIptu('semestral')).toBeNull();
    expect(periodicidadeIptu('Mensal')).toBeNull();
    expect(periodicidadeIptu(null)).toBeNull();
  });
});
