import { describe, expect, it } from 'vitest';
import { cep, coordenadas, exibirEndereco, mapearEndereco, uf } from './endereco.ts';
import { comEndereco } from './registro-de-teste.ts';

const enderecoDe = (alteracoes: Parameters<typeof comEndereco>[0]) => mapearEndereco(comEndereco(alteracoes).endereco);

describe('mapearEndereco', () => {
  it('shows the street, the CEP and the exact coordinates when the agency shows the full address', () => {
    expect(enderecoDe({ exibicao: 'completo' })).toEqual({
      logradouro: 'Rua das Acácias',
      numero: null,
      complemento: null,
      bairro: 'Vila Mariana',
      cidade: 'São Paulo',
      uf: 'SP',
      cep: '04101000',
      latitude: -23.587416,
      longitude: -46.638297,
      exibir_endereco: 'rua',
    });
  });

  it('hides the street and the CEP and rounds coordinates when the agency shows only the neighbourhood', () => {
    expect(enderecoDe({ exibicao: 'somente_bairro' })).toEqual({
      logradouro: null,
      numero: null,
      complemento: null,
      bairro: 'Vila Mariana',
      cidade: 'São Paulo',
      uf: 'SP',
      cep: null,
      latitude: -23.59,
      longitude: -46.64,
      exibir_endereco: 'bairro',
    });
  });

  it('rounds neighbourhood coordinates from the stored value, the same way on both hemispheres', () => {
    const rodadas = (latitude: number, longitude: number) => enderecoDe({ exibicao: 'somente_bairro', latitude, longitude });
    // -46.645 is stored as -46.64500000000000313 and -22.905 as -22.90500000000000114: × 100 lost that.
    expect(rodadas(-22.905, -46.645)).toMatchObject({ latitude: -22.91, longitude: -46.65 });
    expect(rodadas(-23.125, 23.125)).toMatchObject({ latitude: -23.13, longitude: 23.13 });
    expect(rodadas(-0.001, 0.004)).toMatchObject({ latitude: 0, longitude: 0 });
  });

  it('treats an unknown exibicao as somente_bairro, so a wrong value never discloses the street', () => {
    const endereco = enderecoDe({ exibicao: 'Completo' });
    expect(endereco.exibir_endereco).toBe('bairro');
    expect(endereco.logradouro).toBeNull();
    expect(endereco.cep).toBeNull();
    expect(endereco.latitude).toBe(-23.59);
  });

  it('never discloses the street number or the unit', () => {
    const endereco = enderecoDe({ exibicao: 'completo', numero: '1500', complemento: 'Apto 82' });
    expect(endereco.numero).toBeNull();
    expect(endereco.complemento).toBeNull();
  });

  it('trims the street, neighbourhood and city, and turns empty ones into null', () => {
    expect(enderecoDe({ logradouro: '  Rua A ', bairro: '  Centro ', cidade: ' Campinas  ' })).toMatchObject({
      logradouro: 'Rua A',
      bairro: 'Centro',
      cidade: 'Campinas',
    });
    expect(enderecoDe({ logradouro: ' ', bairro: '', cidade: '   ' })).toMatchObject({ logradouro: null, bairro: null, cidade: null });
    expect(enderecoDe({ logradouro: '\u200b', bairro: ' \ufeff\u200d ', cidade: '\u00ad' })).toMatchObject({ logradouro: null, bairro: null, cidade: null });
  });
});

describe('exibirEndereco', () => {
  it('maps completo to rua and anything else to bairro', () => {
    expect(exibirEndereco('completo')).toBe('rua');
    expect(exibirEndereco('somente_bairro')).toBe('bairro');
    expect(exibirEndereco('')).toBe('bairro');
  });
});

describe('uf', () => {
  it('upper-cases a state code typed in lower case', () => {
    expect(uf('sp')).toBe('SP');
    expect(uf(' rj ')).toBe('RJ');
  });

  it('accepts every one of the 27 state codes', () => {
    for (const codigo of 'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' ')) {
      expect(uf(codigo)).toBe(codigo);
    }
  });

  it('gives null for something that is not a state code', () => {
    expect(uf('XX')).toBeNull();
    expect(uf('São Paulo')).toBeNull();
    // Lookalikes that upper-case into a state's code: the long s, the dotless i.
    expect(uf('ſp')).toBeNull();
    expect(uf('pı')).toBeNull();
    expect(uf('')).toBeNull();
    expect(uf(null)).toBeNull();
  });
});

describe('cep', () => {
  it('keeps only the digits of a CEP with 8 digits', () => {
    expect(cep('04101-000')).toBe('04101000');
    expect(cep('04.101-000')).toBe('04101000');
    expect(cep('04101000')).toBe('04101000');
  });

  it('gives null for a CEP of "abc"', () => {
    expect(cep('abc')).toBeNull();
  });

  it('gives null for a CEP without exactly 8 digits', () => {
    expect(cep('0410-100')).toBeNull();
    expect(cep('041010000')).toBeNull();
    expect(cep(null)).toBeNull();
  });
});

describe('coordenadas', () => {
  it('copies coordinates within range', () => {
    expect(coordenadas(-90, 180, 'rua')).toEqual({ latitude: -90, longitude: 180 });
  });

  it('rounds coordinates to 2 decimal places when only the neighbourhood is shown', () => {
    expect(coordenadas(-23.587416, -46.633297, 'bairro')).toEqual({ latitude: -23.59, longitude: -46.63 });
  });

  it('gives 0 rather than -0 when a tiny negative coordinate is rounded', () => {
    expect(Object.is(coordenadas(-0.001, 10, 'bairro').latitude, 0)).toBe(true);
  });

  it('drops a latitude out of range and keeps the longitude, each being copied when within its range', () => {
    expect(coordenadas(91, -46.6, 'rua')).toEqual({ latitude: null, longitude: -46.6 });
  });

  it('drops a longitude out of range and keeps the latitude', () => {
    expect(coordenadas(-23.5, -180.5, 'rua')).toEqual({ latitude: -23.5, longitude: null });
  });

  it('drops non-finite or missing coordinates', () => {
    expect(coordenadas(Number.NaN, 10, 'rua')).toEqual({ latitude: null, longitude: 10 });
    expect(coordenadas(10, Number.POSITIVE_INFINITY, 'rua')).toEqual({ latitude: 10, longitude: null });
    expect(coordenadas(null, 10.123, 'bairro')).toEqual({ latitude: null, longitude: 10.12 });
  });
});
