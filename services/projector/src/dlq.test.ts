// How dead letters are split into sends a dead-letter topic's size limit accepts.
import { describe, expect, it } from 'vitest';
import { bytesNoLote, type Mensagem, type Produtor } from '@imoveis/kafka';
import { enviarRejeicoes, enviosDaDlq } from './dlq.ts';
import type { Rejeicao } from './processar-lote.ts';

const carta = (bytes: number, extra: Record<string, string> = {}) => ({
  key: 'chave',
  value: 'v'.repeat(bytes),
  headers: { origem: 'legado', 'dlq.motivo': 'json-invalido', 'dlq.offset': '7', ...extra },
});

describe('enviosDaDlq', () => {
  it('sends as many dead letters at once as fit, the rest in further sends, in order', () => {
    const cartas = [carta(400), carta(400), carta(400), carta(10)];
    const { envios, omitidos } = enviosDaDlq(cartas, 61 + bytesNoLote(cartas[0]!) * 2);
    expect(envios.map((e) => e.length)).toEqual([2, 2]);
    expect(envios.flat()).toEqual(cartas);
    expect(omitidos).toBe(0);
  });

  it('keeps every dead letter whole when the topic takes them all', () => {
    const cartas = [carta(400), carta(400)];
    expect(enviosDaDlq(cartas, 1_000_000)).toEqual({ envios: [cartas], omitidos: 0, descartados: [] });
  });

  it('sends one too large by itself without its value, saying so, in its place among the others', () => {
    const pequena = carta(10);
    const { envios, omitidos } = enviosDaDlq([pequena, carta(5_000), pequena], 2_000);
    expect(omitidos).toBe(1);
    const semValor = envios.flat()[1]!;
    expect(semValor).toMatchObject({ key: 'chave', value: null, headers: { origem: 'legado', 'dlq.motivo': 'json-invalido', 'dlq.offset': '7' } });
    expect(semValor.headers?.['dlq.omitido']).toMatch(/^valor: 5\d{3} bytes, mais que os 2000 do tópico; o original está na origem/);
    expect(envios.flat()).toEqual([pequena, semValor, pequena]);
    for (const envio of envios) expect(61 + envio.reduce((t, m) => t + bytesNoLote(m), 0)).toBeLessThanOrEqual(2_000);
  });

  it('drops the key, the record\'s own headers and the detail too when even those do not fit, keeping why, where from and when', () => {
    const cabecalhos = { 'dlq.detalhe': 'd'.repeat(1_500), 'dlq.topico': 'registro.imoveis.v1', 'dlq.particao': '0', 'dlq.rejeitado_em': '2026-11-23T10:00:00.000Z' };
    const { envios, omitidos } = enviosDaDlq([{ ...carta(10, { enorme: 'h'.repeat(5_000), ...cabecalhos }), key: 'k'.repeat(3_000) }], 1_000);
    const [semNada] = envios.flat();
    expect(omitidos).toBe(1);
    expect(semNada).toMatchObject({ key: null, value: null });
    expect(Object.keys(semNada!.headers ?? {}).sort()).toEqual(['dlq.motivo', 'dlq.offset', 'dlq.omitido', 'dlq.particao', 'dlq.rejeitado_em', 'dlq.topico']);
    expect(semNada!.headers?.['dlq.omitido']).toMatch(/^valor, chave, cabeçalhos do registro e detalhe: 9\d{3} bytes/);
  });

  it('leaves out, and hands back, one that fits in no way, sending the rest', () => {
    const pequena = carta(10);
    const { envios, omitidos, descartados } = enviosDaDlq([pequena, carta(5_000, { 'dlq.topico': 't'.repeat(300) }), pequena], 400);
    expect(envios.flat()).toEqual([pequena, pequena]);
    expect(omitidos).toBe(0);
    expect(descartados).toHaveLength(1);
  });
});

describe('enviarRejeicoes', () => {
  const rejeicao = (offset: string, bytes: number): Rejeicao => ({
    topico: 'registro.imoveis.v1',
    particao: 0,
    mensagem: { offset, key: Buffer.from('chave'), value: Buffer.alloc(bytes, 0x7b), headers: {} },
    motivo: 'json-invalido',
    detalhe: 'o valor não é JSON',
  });

  it('sends each topic\'s dead letters to its .dlq within its size, counting the incomplete ones', async () => {
    // Records what it is handed, as the broker would take it (the broker path: projetor.int.test.ts).
    const enviados: Array<{ topico: string; mensagens: readonly Mensagem[] }> = [];
    const produtor: Produtor = { enviar: async (topico, mensagens) => void enviados.push({ topico, mensagens }), close: async () => {} };
    const contadas: unknown[] = [];
    await enviarRejeicoes(produtor, [rejeicao('1', 100), rejeicao('2', 5_000), rejeicao('3', 100)], {
      agora: () => Date.parse('2026-11-23T10:00:00Z'),
      bytesPorMensagem: () => 1_000,
      contarIncompletas: (...args) => void contadas.push(args),
    });
    expect(enviados.map((e) => e.topico)).toEqual(enviados.map(() => 'registro.imoveis.v1.dlq'));
    const cartas = enviados.flatMap((e) => e.mensagens);
    expect(cartas.map((m) => m.headers?.['dlq.offset'])).toEqual(['1', '2', '3']);
    expect(cartas.map((m) => (m.value === null ? null : m.value.length))).toEqual([100, null, 100]);
    expect(cartas[0]?.headers).toMatchObject({ 'dlq.motivo': 'json-invalido', 'dlq.topico': 'registro.imoveis.v1', 'dlq.particao': '0', 'dlq.rejeitado_em': '2026-11-23T10:00:00.000Z' });
    for (const { mensagens } of enviados) expect(61 + mensagens.reduce((t, m) => t + bytesNoLote(m), 0)).toBeLessThanOrEqual(1_000);
    expect(contadas).toEqual([['registro.imoveis.v1.dlq', 'sem-valor', 1]]);
  });
});
