// A long stream runs fast and in bounded memory: records are produced one at a time, never held.
import { describe, expect, it } from 'vitest';
import { gerarCenario } from './carga-inicial.ts';

describe('desempenho', () => {
  it('streams 100k records quickly without memory growing with the stream', { timeout: 60_000 }, () => {
    const inicioHeap = process.memoryUsage().heapUsed;
    let maiorHeap = inicioHeap;
    let quantidade = 0;
    let bytes = 0;
    const inicio = performance.now();
    for (const r of gerarCenario({ seed: 1, imoveis: 70_000, condominios: 1_400, mutacoes: 28_600 })) {
      quantidade++;
      bytes += r.valor?.length ?? 0;
      if ((quantidade & 0x3fff) === 0) maiorHeap = Math.max(maiorHeap, process.memoryUsage().heapUsed);
    }
    const segundos = (performance.now() - inicio) / 1000;
    expect(quantidade).toBe(100_000);
    // ~280 MB of JSON went through; holding it would show up here.
    expect(bytes).toBeGreaterThan(200_000_000);
    expect(maiorHeap - inicioHeap).toBeLessThan(150 * 1024 * 1024);
    // Generous for a shared 2-core CI machine; the unloaded rate is several times this.
    expect(quantidade / segundos).toBeGreaterThan(10_000);
  });
});
