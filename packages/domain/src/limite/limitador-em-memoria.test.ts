// The per-process limiter: exact sliding window, never more than the limit in any 60 s span.
import { describe, expect, it } from 'vitest';
import { LimitadorEmMemoria } from './limitador-em-memoria.ts';

describe('LimitadorEmMemoria', () => {
  it('admits the limit, denies the next one with a Retry-After that is exactly enough', () => {
    const limitador = new LimitadorEmMemoria({ limite: 3 });
    expect(limitador.tentar('a', 1_000).restantes).toBe(2);
    expect(limitador.tentar('a', 2_000).restantes).toBe(1);
    expect(limitador.tentar('a', 2_500).restantes).toBe(0);
    const negado = limitador.tentar('a', 30_000);
    expect(negado).toMatchObject({ admitido: false, retryAfterS: 31 });
    // Waiting exactly Retry-After seconds is enough: the request at 1 000 ms has left the window.
    expect(limitador.tentar('a', 30_000 + 31_000).admitido).toBe(true);
  });

  it('consults a window without counting in it', () => {
    const limitador = new LimitadorEmMemoria({ limite: 2 });
    expect(limitador.consultar('c', 0)).toMatchObject({ admitido: true, restantes: 2, reinicioS: 0 });
    limitador.tentar('c', 1_000);
    limitador.tentar('c', 2_500);
    expect(limitador.consultar('c', 3_000)).toMatchObject({ admitido: false, restantes: 0, retryAfterS: 58 });
    expect(limitador.consultar('c', 3_000)).toEqual(limitador.tentar('c', 3_000));
    expect(limitador.consultar('c', 61_000)).toMatchObject({ admitido: true, restantes: 1 });
  });

  it('reads the window at the earliest bound of an instant known within bounds and writes the entry at the latest', () => {
    const limitador = new LimitadorEmMemoria({ limite: 1 });
    expect(limitador.tentar('a', 10_000, 10_090).admitido).toBe(true);
    // The entry stands at 10 090: it leaves the window at 70 090, not at 70 000.
    expect(limitador.tentar('a', 70_050).admitido).toBe(false);
    expect(limitador.tentar('a', 70_090).admitido).toBe(true);
  });

  it('counts keys apart', () => {
    const limitador = new LimitadorEmMemoria({ limite: 1 });
    expect(limitador.tentar('a', 0).admitido).toBe(true);
    expect(limitador.tentar('b', 0).admitido).toBe(true);
    expect(limitador.tentar('a', 1).admitido).toBe(false);
  });

  it('never admits more than the limit in any 60 s span, unlike a fixed window at its edge', () => {
    const limite = 120;
    const limitador = new LimitadorEmMemoria({ limite });
    const admitidos: number[] = [];
    // A burst just before and just after what would be a fixed window's edge, then steady traffic.
    for (let t = 59_000; t < 200_000; t += 97) {
      if (limitador.tentar('k', t).admitido) admitidos.push(t);
    }
    for (let i = 0; i < admitidos.length; i++) {
      const inicio = admitidos[i] as number;
      const naJanela = admitidos.filter((t) => t >= inicio && t < inicio + 60_000).length;
      expect(naJanela).toBeLessThanOrEqual(limite);
    }
    expect(admitidos.length).toBeGreaterThan(2 * limite);
  });

  it('forgets idle keys, so many client addresses do not grow memory without bound', () => {
    const limitador = new LimitadorEmMemoria({ limite: 5, maxChaves: 10 });
    for (let i = 0; i < 10; i++) limitador.tentar(`ip-${i}`, 0);
    expect(limitador.chaves).toBe(10);
    limitador.tentar('outro', 60_001);
    expect(limitador.chaves).toBe(1);
  });

  it('does not sweep every key at every call while more keys than its bound are live', () => {
    const limitador = new LimitadorEmMemoria({ limite: 5, maxChaves: 1_000 });
    const chaves = 40_000;
    // CPU time, not the clock's: on a loaded machine the clock also counts the time it ran others.
    const inicio = process.cpuUsage();
    for (let i = 0; i < chaves; i++) limitador.tentar(`ip:${i}`, 1_000 + i);
    for (let i = 0; i < chaves; i++) limitador.tentar(`ip:${i}`, 50_000 + i);
    // Sweeping all keys at every call past the bound took a minute here; a sweep per doubling,
    // 0.1 s. The bound leaves room twenty times over.
    const { user, system } = process.cpuUsage(inicio);
    expect((user + system) / 1_000).toBeLessThan(2_000);
    expect(limitador.chaves).toBe(chaves);
    // Once they leave the window, the keys go at the next sweep.
    limitador.tentar('ip:novo', 50_000 + chaves + 60_000);
    expect(limitador.chaves).toBe(1);
  });

  it('decides as a plain sliding-window log would, whatever the limit, as old entries are cut off', () => {
    // A reference that keeps every admitted instant and filters the window at each request.
    for (const limite of [1, 7, 120, 2_000]) {
      const limitador = new LimitadorEmMemoria({ limite });
      let admitidos: number[] = [];
      let t = 0;
      let semente = limite;
      for (let i = 0; i < 20_000; i++) {
        semente = (semente * 1_103_515_245 + 12_345) % 2 ** 31;
        t += semente % 40; // bursts in the same millisecond and gaps
        const naJanela = admitidos.filter((a) => a > t - 60_000);
        const esperado = naJanela.length < limite;
        admitidos = esperado ? [...naJanela, t] : naJanela;
        const decisao = limitador.tentar('k', t);
        expect({ i, admitido: decisao.admitido, restantes: decisao.restantes, reinicioS: decisao.reinicioS }).toEqual({
          i,
          admitido: esperado,
          restantes: Math.max(0, limite - naJanela.length - (esperado ? 1 : 0)),
          reinicioS: Math.max(1, Math.ceil(((esperado && naJanela.length === 0 ? t : naJanela[0]!) + 60_000 - t) / 1000)),
        });
      }
    }
  });
});
