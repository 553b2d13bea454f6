import { describe, expect, it } from 'vitest';
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
