// Sending to Kafka through a fake producer: topic mapping, batch sizes and order per topic.
import type { Mensagem } from '@imoveis/kafka';
import { describe, expect, it } from 'vitest';
import { gerarCenario } from './carga-inicial.ts';
import { enviarParaKafka, type Produtor } from './kafka-envio.ts';

type Chamada = { topico: string; mensagens: Mensagem[] };

function produtorFalso(): Produtor & { chamadas: Chamada[] } {
  const chamadas: Chamada[] = [];
  return {
    chamadas,
    enviar(topico, mensagens) {
      chamadas.push({ topico, mensagens: [...mensagens] });
      return Promise.resolve();
    },
  };
}

describe('enviarParaKafka', () => {
  const topicos = { imoveis: 'registro.imoveis.v1', condominios: 'registro.condominios.v1' };
  const opcoes = { seed: 5, imoveis: 300, condominios: 12, mutacoes: 500, taxaVenenos: 0.05 };

  it('sends every record to its topic in batches of at most loteTamanho, keeping each topic in order', async () => {
    const produtor = produtorFalso();
    const resultado = await enviarParaKafka(gerarCenario(opcoes), produtor, topicos, { loteTamanho: 64 });
    const registros = [...gerarCenario(opcoes)];
    expect(resultado.mensagens).toBe(registros.length);
    expect(resultado.lotes).toBe(produtor.chamadas.length);
    expect(produtor.chamadas.every((c) => c.mensagens.length >= 1 && c.mensagens.length <= 64)).toBe(true);
    for (const [topico, nome] of [['imoveis', topicos.imoveis], ['condominios', topicos.condominios]] as const) {
      const enviados = produtor.chamadas.filter((c) => c.topico === nome).flatMap((c) => c.mensagens);
      const esperados = registros.filter((r) => r.topico === topico).map((r) => ({ key: r.chave, value: r.valor }));
      expect(enviados).toEqual(esperados);
    }
  });

  it('stops at the first failed batch', async () => {
    let chamadas = 0;
    const produtor: Produtor = {
      enviar() {
        chamadas++;
        return chamadas === 2 ? Promise.reject(new Error('broker fora do ar')) : Promise.resolve();
      },
    };
    await expect(enviarParaKafka(gerarCenario(opcoes), produtor, topicos, { loteTamanho: 10 })).rejects.toThrow('broker fora do ar');
    expect(chamadas).toBe(2);
  });

  it('refuses a batch size below 1', async () => {
    await expect(enviarParaKafka([], produtorFalso(), topicos, { loteTamanho: 0 })).rejects.toThrow(RangeError);
  });
});
