import { describe, expect, it } from 'vitest';
import { instanteDaTransacao, mudancaRelevante, soCamposPrivados, type LadoPublico, type Visibilidade } from './mudanca-relevante.ts';

const anunciado: Visibilidade = { codigo: 'AP1', documento: '{"a":1}', anunciado: true, jaAnunciado: true };
const retirado: Visibilidade = { ...anunciado, anunciado: false };
const nuncaAnunciado: Visibilidade = { ...anunciado, anunciado: false, jaAnunciado: false };

describe('mudancaRelevante', () => {
  it('a new property is relevant only when it arrives advertised', () => {
    expect(mudancaRelevante(null, { codigo: 'AP1', documento: '{}', anunciado: true })).toBe(true);
    expect(mudancaRelevante(null, { codigo: 'AP1', documento: '{}', anunciado: false })).toBe(false);
  });

  it('re-sending the same advertised document is not relevant', () => {
    expect(mudancaRelevante(anunciado, { codigo: 'AP1', documento: '{"a":1}', anunciado: true })).toBe(false);
  });

  it('a different document of an advertised property is relevant', () => {
    expect(mudancaRelevante(anunciado, { codigo: 'AP1', documento: '{"a":2}', anunciado: true })).toBe(true);
  });

  it('withdrawing and re-publishing are relevant even with the same document', () => {
    expect(mudancaRelevante(anunciado, { codigo: 'AP1', documento: '{"a":1}', anunciado: false })).toBe(true);
    expect(mudancaRelevante(retirado, { codigo: 'AP1', documento: '{"a":1}', anunciado: true })).toBe(true);
  });

  it('a withdrawn property changing its hidden document stays where it is', () => {
    expect(mudancaRelevante(retirado, { codigo: 'AP1', documento: '{"a":9}', anunciado: false })).toBe(false);
  });

  it('a withdrawn property whose codigo changes moves, since the Withdrawn item shows codigo', () => {
    expect(mudancaRelevante(retirado, { codigo: 'AP2', documento: '{"a":1}', anunciado: false })).toBe(true);
  });

  it('a property never advertised never becomes relevant while it stays unadvertised', () => {
    expect(mudancaRelevante(nuncaAnunciado, { codigo: 'AP9', documento: '{"b":1}', anunciado: false })).toBe(false);
    expect(mudancaRelevante(nuncaAnunciado, { codigo: 'AP1', documento: '{"a":1}', anunciado: true })).toBe(true);
  });
});

describe('instanteDaTransacao', () => {
  it('uses the clock when it moves forward', () => {
    expect(instanteDaTransacao(2_000, 1_000)).toBe(2_000);
    expect(instanteDaTransacao(2_000, null)).toBe(2_000);
  });

  it('moves on past the previous stamp when the clock steps back or stands still', () => {
    expect(instanteDaTransacao(900, 1_000)).toBe(1_001);
    expect(instanteDaTransacao(1_000, 1_000)).toBe(1_001);
  });
});

describe('soCamposPrivados', () => {
  const salvo: LadoPublico = { publico: 'digesto-a', condominioId: 'c1', anunciado: true };

  it('is true when the public fields gave the same document, under the same condominium and advertised state', () => {
    expect(soCamposPrivados(salvo, { ...salvo })).toBe(true);
  });

  it('is false when any of the three differs, or the stored digest is unknown (a row from before it was kept)', () => {
    expect(soCamposPrivados(salvo, { ...salvo, publico: 'digesto-b' })).toBe(false);
    expect(soCamposPrivados(salvo, { ...salvo, condominioId: 'c2' })).toBe(false);
    expect(soCamposPrivados(salvo, { ...salvo, condominioId: null })).toBe(false);
    expect(soCamposPrivados(salvo, { ...salvo, anunciado: false })).toBe(false);
    expect(soCamposPrivados({ ...salvo, publico: null }, { ...salvo, publico: null })).toBe(false);
  });
});
