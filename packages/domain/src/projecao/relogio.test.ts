import { describe, expect, it } from 'vitest';
import { relogioQueNaoRecua } from './relogio.ts';

/** A host's clocks the test moves: the wall clock may step, the monotonic one only runs. */
function relogios(inicio: number) {
  const estado = { parede: inicio, monotono: 500.25 };
  return {
    relogio: relogioQueNaoRecua(
      () => estado.parede,
      () => estado.monotono,
    ),
    passar(ms: number) {
      estado.parede += ms;
      estado.monotono += ms;
    },
    saltar(ms: number) {
      estado.parede += ms;
    },
  };
}

describe('relogioQueNaoRecua', () => {
  it('reads the wall clock while it runs forward', () => {
    const { relogio, passar } = relogios(1_000_000);
    expect(relogio()).toBe(1_000_000);
    passar(1_500);
    expect(relogio()).toBe(1_001_500);
  });

  it('goes on by the elapsed time after the wall clock steps back, until the wall clock passes it again', () => {
    const { relogio, passar, saltar } = relogios(1_000_000);
    expect(relogio()).toBe(1_000_000);
    saltar(-600_000);
    passar(240_000);
    // Four minutes after its last reading, not six minutes before it.
    expect(relogio()).toBe(1_240_000);
    passar(60_000);
    expect(relogio()).toBe(1_300_000);
    // The step corrected: the wall clock is right again, and leads from there.
    saltar(600_000);
    expect(relogio()).toBe(1_300_000);
    passar(5);
    saltar(2);
    expect(relogio()).toBe(1_300_007);
  });

  it('takes a step forward at once, and never goes back behind it', () => {
    const { relogio, passar, saltar } = relogios(1_000_000);
    relogio();
    saltar(3_600_000);
    expect(relogio()).toBe(4_600_000);
    saltar(-3_600_000);
    passar(10);
    expect(relogio()).toBe(4_600_010);
  });

  it('gives whole milliseconds, however the monotonic clock divides them', () => {
    const { relogio, passar, saltar } = relogios(1_000_000);
    relogio();
    saltar(-1_000);
    passar(0.4);
    expect(relogio()).toBe(1_000_000);
    passar(0.7);
    expect(relogio()).toBe(1_000_001);
  });
});
