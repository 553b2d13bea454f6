import { setTimeout as esperar } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { criarExclusao } from './processar-lote.ts';

describe('criarExclusao', () => {
  it('runs one function at a time, in call order, whatever each awaits', async () => {
    const exclusivo = criarExclusao();
    const eventos: string[] = [];
    const tarefa = (nome: string, ms: number) =>
      exclusivo(async () => {
        eventos.push(`${nome}:inicio`);
        await esperar(ms);
        eventos.push(`${nome}:fim`);
        return nome;
      });
    const resultados = await Promise.all([tarefa('a', 30), tarefa('b', 1), tarefa('c', 10)]);
    expect(resultados).toEqual(['a', 'b', 'c']);
    expect(eventos).toEqual(['a:inicio', 'a:fim', 'b:inicio', 'b:fim', 'c:inicio', 'c:fim']);
  });

  it('goes on after a function fails, and hands the failure to its caller only', async () => {
    const exclusivo = criarExclusao();
    const falha = exclusivo(async () => {
      throw new Error('lote com defeito');
    });
    const seguinte = exclusivo(async () => 'seguinte');
    await expect(falha).rejects.toThrow('lote com defeito');
    await expect(seguinte).resolves.toBe('seguinte');
  });
});
