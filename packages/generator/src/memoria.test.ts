// A long stream runs in bounded memory: records are produced one at a time, never held. (Its speed
// is measured by the benchmarks, not here.)
import { describe, expect, it } from 'vitest';
import { gerarCenario } from './carga-inicial.ts';

describe('memória', () => {
  it('streams 100k records without memory growing with the stream', { timeout: 60_000 }, () => {
    const inicioHeap = process.memoryUsage().heapUsed;
    let maiorHeap = inicioHeap;
    let quantidade = 0;
    let bytes = 0;
    for (const r of gerarCenario({ seed: 1, imoveis: 70_000, condominios: 1_400, mutacoes: 28_600 })) {
      quantidade++;
      bytes += r.valor?.length ?? 0;
      if ((quantidade & 0x3fff) === 0) maiorHeap = Math.max(maiorHeap, process.memoryUsage().heapUsed);
    }
    expect(quantidade).toBe(100_000);
    // ~280 MB of JSON went through; holding it would show up here.
    expect(bytes).toBeGreaterThan(200_000_000);
    expect(maiorHeap - inicioHeap).toBeLessThan(150 * 1024 * 1024);
  });
});
