import { describe, expect, it } from 'vitest';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import { criarMetricas } from './metricas.ts';

const idade = async (metricas: ReturnType<typeof criarMetricas>) =>
  /^projetor_em_dia_ha_segundos (\S+)$/m.exec(await metricas.registry.metrics())?.[1];

describe('projetor_em_dia_ha_segundos', () => {
  it('is +Inf while the projection has never been caught up: never fresh, so an alert on it fires', async () => {
    expect(await idade(criarMetricas({ emDiaEm: () => null }))).toBe('+Inf');
  });

  it('is read from the record at every scrape, so it grows while no freshness check succeeds', async () => {
    let agora = 100_000;
    const metricas = criarMetricas({ emDiaEm: () => 40_000, agora: () => agora });
    expect(await idade(metricas)).toBe('60');
    agora += 30_000;
    expect(await idade(metricas)).toBe('90');
  });
});

describe('projetor_regras_desatualizadas', () => {
  const valor = async (metricas: ReturnType<typeof criarMetricas>) =>
    /^projetor_regras_desatualizadas (\S+)$/m.exec(await metricas.registry.metrics())?.[1];

  it('is 1 while the stored documents were made by other rules (or before versions were recorded), 0 once rebuilt', async () => {
    let regras: number | null = null;
    const metricas = criarMetricas({ regras: () => regras });
    expect(await valor(metricas)).toBe('1');
    regras = VERSAO_DAS_REGRAS - 1;
    expect(await valor(metricas)).toBe('1');
    regras = VERSAO_DAS_REGRAS; // a rebuild was switched in: read again at the next scrape
    expect(await valor(metricas)).toBe('0');
  });

  it('is 0 before the projection is open', async () => {
    expect(await valor(criarMetricas())).toBe('0');
  });
});
