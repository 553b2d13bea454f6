import { describe, expect, it } from 'vitest';
import { avaliarProntidao, idadeDaProjecaoS } from './prontidao.ts';

const AGORA = Date.parse('2026-11-22T12:00:00Z');
const avaliar = (frescor: { emDiaEm: number | null } | null, sobPressao = false) => avaliarProntidao({ frescor, agoraMs: AGORA, atrasoMaximoMs: 60_000, doProcesso: sobPressao ? ['processo sob pressão'] : [] });

describe('avaliarProntidao', () => {
  it('is ready when the projector confirmed being caught up within the allowed lag, whatever the register did since', () => {
    expect(avaliar({ emDiaEm: AGORA - 60_000 })).toEqual({ pronto: true, motivos: [], idade_projecao_s: 60 });
  });

  it('is not ready without a projection, before the first catch-up, past the allowed lag, or under pressure', () => {
    expect(avaliar(null)).toEqual({ pronto: false, motivos: ['projeção ausente'], idade_projecao_s: null });
    expect(avaliar({ emDiaEm: null }).motivos).toEqual(['o projetor ainda não alcançou o fim dos tópicos']);
    expect(avaliar({ emDiaEm: AGORA - 60_001 }).motivos).toEqual(['projeção atrasada: em dia pela última vez há 60 s']);
    expect(avaliar({ emDiaEm: AGORA }, true)).toMatchObject({ pronto: false, motivos: ['processo sob pressão'] });
  });

  it('gives no negative age for a confirmation stamped ahead of this clock', () => {
    expect(avaliar({ emDiaEm: AGORA + 2_000 }).idade_projecao_s).toBe(0);
  });
});

describe('idadeDaProjecaoS', () => {
  it('is the seconds since the confirmation, never negative, and null when there was none', () => {
    expect(idadeDaProjecaoS(AGORA - 1_500, AGORA)).toBe(1.5);
    expect(idadeDaProjecaoS(AGORA + 2_000, AGORA)).toBe(0);
    expect(idadeDaProjecaoS(null, AGORA)).toBeNull();
  });
});
