// The sliding-window arithmetic: the boundaries of the window and of Retry-After.
import { describe, expect, it } from 'vitest';
import { decidir, foraDaJanela, segundosAteLiberar } from './janela-deslizante.ts';

describe('segundosAteLiberar', () => {
  it('rounds up, so waiting exactly that long always finds the oldest request out of the window', () => {
    for (const decorrido of [0, 1, 999, 1000, 1001, 30_500, 58_999, 59_000, 59_001, 59_999]) {
      const espera = segundosAteLiberar(0, decorrido);
      const novoAgora = decorrido + espera * 1000;
      expect(novoAgora - 60_000).toBeGreaterThanOrEqual(0); // the entry at 0 is then <= agora - janela
      expect(espera).toBeLessThanOrEqual(Math.ceil((60_000 - decorrido) / 1000));
    }
  });

  it('is never 0, even when the oldest request is just leaving the window', () => {
    expect(segundosAteLiberar(0, 60_000)).toBe(1);
    expect(segundosAteLiberar(0, 59_999)).toBe(1);
    expect(segundosAteLiberar(0, 0)).toBe(60);
  });
});

describe('foraDaJanela', () => {
  it('counts an entry exactly one window old as out: the window is (agora - 60 s, agora]', () => {
    expect(foraDaJanela([0, 1, 2], 60_000)).toBe(1);
    expect(foraDaJanela([0, 1, 2], 60_001)).toBe(2);
    expect(foraDaJanela([0, 1, 2], 59_999)).toBe(0);
    expect(foraDaJanela([], 59_999)).toBe(0);
  });
});

describe('decidir', () => {
  it('gives the remaining requests and no Retry-After when admitted', () => {
    expect(decidir({ admitido: true, contagem: 3, maisAntigaMs: 1000, agoraMs: 2000, limite: 5 })).toEqual({
      admitido: true,
      limite: 5,
      restantes: 2,
      reinicioS: 59,
      retryAfterS: null,
    });
  });

  it('gives a Retry-After of at least one second when denied', () => {
    const d = decidir({ admitido: false, contagem: 5, maisAntigaMs: 0, agoraMs: 60_000, limite: 5 });
    expect(d).toMatchObject({ admitido: false, restantes: 0, retryAfterS: 1 });
  });
});
