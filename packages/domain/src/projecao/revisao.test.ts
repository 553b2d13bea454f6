import { describe, expect, it } from 'vitest';
import { revisaoAplicavel } from './revisao.ts';

describe('revisaoAplicavel', () => {
  it('applies the first event of an aggregate, whatever its versao', () => {
    expect(revisaoAplicavel({ versao: 7, exclusao: false }, null)).toBe(true);
    expect(revisaoAplicavel({ versao: 1, exclusao: true }, null)).toBe(true);
  });

  it('applies a save only with a higher versao: a repeat or an older revision changes nothing', () => {
    expect(revisaoAplicavel({ versao: 6, exclusao: false }, 5)).toBe(true);
    expect(revisaoAplicavel({ versao: 5, exclusao: false }, 5)).toBe(false);
    expect(revisaoAplicavel({ versao: 4, exclusao: false }, 5)).toBe(false);
  });

  it("applies a deletion that carries its last save's versao, since only saves raise it", () => {
    expect(revisaoAplicavel({ versao: 5, exclusao: true }, 5)).toBe(true);
    expect(revisaoAplicavel({ versao: 6, exclusao: true }, 5)).toBe(true);
    expect(revisaoAplicavel({ versao: 4, exclusao: true }, 5)).toBe(false);
  });
});
