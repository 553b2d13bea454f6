// Which topics a rebuild may replay in place of the live projection's.
import { describe, expect, it } from 'vitest';
import { ritmoDaReconstrucao, topicosEstranhos, topicosForaDoProjetor } from './reconstrucao.ts';

const topicos = { imoveis: 'registro.imoveis.v1', condominios: 'registro.condominios.v1' };

describe('topicosEstranhos', () => {
  it('accepts the topics the live projection reads, and any for a projection that has read none', () => {
    expect(topicosEstranhos(['registro.condominios.v1', 'registro.imoveis.v1'], topicos)).toEqual([]);
    expect(topicosEstranhos([], topicos)).toEqual([]);
  });

  it('accepts a topic the live projection has not read yet when it reads no other', () => {
    expect(topicosEstranhos(['registro.imoveis.v1'], topicos)).toEqual([]);
  });

  it('accepts the topics a live projection moved to, whatever it read before', () => {
    expect(topicosEstranhos(['registro.imoveis.v0', 'registro.imoveis.v1', 'registro.condominios.v1'], topicos)).toEqual([]);
  });

  it('names each topic that stands where the live projection reads another', () => {
    expect(topicosEstranhos(['registro.imoveis.v1', 'registro.condominios.v1'], { ...topicos, imoveis: 'vazio.imoveis' })).toEqual([
      { qual: 'imoveis', topico: 'vazio.imoveis' },
    ]);
    expect(topicosEstranhos(['registro.imoveis.v1'], { imoveis: 'homolog.imoveis', condominios: 'homolog.condominios' })).toEqual([
      { qual: 'imoveis', topico: 'homolog.imoveis' },
      { qual: 'condominios', topico: 'homolog.condominios' },
    ]);
  });
});

describe('topicosForaDoProjetor', () => {
  it('names the rebuild\'s topics the running projector does not read, and none when no projector runs', () => {
    const lidos = ['registro.condominios.v2', 'registro.imoveis.v2'];
    expect(topicosForaDoProjetor(lidos, { imoveis: 'registro.imoveis.v2', condominios: 'registro.condominios.v2' })).toEqual([]);
    expect(topicosForaDoProjetor(lidos, topicos)).toEqual([
      { qual: 'imoveis', topico: 'registro.imoveis.v1' },
      { qual: 'condominios', topico: 'registro.condominios.v1' },
    ]);
    expect(topicosForaDoProjetor(null, topicos)).toEqual([]);
  });
});

describe('ritmoDaReconstrucao', () => {
  it('gives the pace since the previous check and the seconds left at it', () => {
    expect(ritmoDaReconstrucao({ atraso: 1_000_000, em: 0 }, { atraso: 955_000, em: 5_000 })).toEqual({ mensagensPorSegundo: 9_000, restamSegundos: 107 });
  });

  it('rounds the time left up: never says done while messages remain', () => {
    expect(ritmoDaReconstrucao({ atraso: 10_001, em: 0 }, { atraso: 1, em: 1_000 })).toEqual({ mensagensPorSegundo: 10_000, restamSegundos: 1 });
  });

  it('gives none at the first check, or when the register sent as much as was consumed', () => {
    const nenhum = { mensagensPorSegundo: null, restamSegundos: null };
    expect(ritmoDaReconstrucao(null, { atraso: 500, em: 5_000 })).toEqual(nenhum);
    expect(ritmoDaReconstrucao({ atraso: 500, em: 0 }, { atraso: 500, em: 5_000 })).toEqual(nenhum);
    expect(ritmoDaReconstrucao({ atraso: 500, em: 0 }, { atraso: 700, em: 5_000 })).toEqual(nenhum);
    expect(ritmoDaReconstrucao({ atraso: 500, em: 5_000 }, { atraso: 400, em: 5_000 })).toEqual(nenhum);
  });
});
