import type * as WorkerThreads from 'node:worker_threads';
import { gerarCenario } from '@imoveis/generator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALHAS_SEGUIDAS_MAXIMAS, PreparoFalhandoEmGeral, criarPreparador, prepararMensagens, type MensagemBruta, type Preparador } from './preparo-em-threads.ts';

// The real threads, recorded as the pool starts them, so a test can end one from outside.
const threads = vi.hoisted((): WorkerThreads.Worker[] => []);
vi.mock('node:worker_threads', async (original) => {
  const real = await original<typeof WorkerThreads>();
  class ThreadRegistrada extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      threads.push(this);
    }
  }
  return { ...real, Worker: ThreadRegistrada };
});

const contexto = { fotosBaseUrl: 'https://fotos.exemplo.com.br' };
const registros = [...gerarCenario({ seed: 11, imoveis: 300, condominios: 10, mutacoes: 300, taxaVenenos: 0.05, taxaValoresRuins: 0.05 })];
const doTopico = (topico: 'imoveis' | 'condominios'): MensagemBruta[] =>
  registros.filter((r) => r.topico === topico).map((r) => ({ chave: r.chave, valor: r.valor }));

/** A context whose photo base throws on the calls `falhar` picks (the mapping reads it once per property saved). */
const quebradoSe = (falhar: (chamada: number) => boolean) => {
  let chamadas = 0;
  return {
    get fotosBaseUrl(): string {
      if (falhar(++chamadas)) throw new URIError('URI malformed');
      return contexto.fotosBaseUrl;
    },
  };
};

let preparador: Preparador | null = null;
afterEach(async () => {
  await preparador?.close();
  preparador = null;
});

describe('prepararMensagens', () => {
  it('gives prepared events, rejections with their reason, and null for compaction tombstones', () => {
    const preparos = prepararMensagens('imovel', [...doTopico('imoveis'), { chave: 'x', valor: null }, { chave: null, valor: '{' }], contexto);
    expect(preparos.at(-2)).toBeNull();
    expect(preparos.at(-1)).toEqual({ ok: false, motivo: 'json-invalido', detalhe: expect.any(String) });
    const salvo = preparos.find((p) => p?.ok && p.evento.tipo === 'imovel.salvo');
    expect(salvo).toMatchObject({ ok: true, evento: { documento: expect.stringContaining('"nome_condominio":null') } });
  });

  it('turns an event whose preparing throws into a rejection of its own, and prepares the others', () => {
    const mensagens = doTopico('imoveis').slice(0, 20);
    // The mapping reads the photo base once per property saved: the third one throws.
    const preparos = prepararMensagens('imovel', mensagens, quebradoSe((chamada) => chamada === 3));
    const esperados = prepararMensagens('imovel', mensagens, contexto);
    const falhas = preparos.flatMap((p, i) => (p?.ok === false && p.motivo === 'falha-no-preparo' ? [i] : []));
    expect(falhas).toHaveLength(1);
    expect(preparos[falhas[0]!]).toEqual({ ok: false, motivo: 'falha-no-preparo', detalhe: expect.stringMatching(/^o preparo falhou: URIError at .*fotosBaseUrl/) });
    expect(preparos.filter((_, i) => i !== falhas[0])).toEqual(esperados.filter((_, i) => i !== falhas[0]));
  });

  it('says where preparing threw, never what the error quotes: V8 puts values in its messages', () => {
    const quebrado = {
      get fotosBaseUrl(): string {
        throw new TypeError("Cannot create property 'x' on string '516.666.977-02'");
      },
    };
    const [preparo] = prepararMensagens('imovel', doTopico('imoveis').slice(0, 1), quebrado);
    expect(preparo).toMatchObject({ ok: false, motivo: 'falha-no-preparo', detalhe: expect.stringMatching(/^o preparo falhou: TypeError at /) });
    expect(JSON.stringify(preparo)).not.toContain('516.666');
  });
});

describe('the preparer as a whole', () => {
  const salvos = doTopico('imoveis').filter((m) => m.valor?.includes('"imovel.salvo"') && m.valor.includes('"fotos":[{'));

  it(`stops, failing the request, once ${FALHAS_SEGUIDAS_MAXIMAS} events in a row fail to prepare: a general defect, not one event's`, async () => {
    preparador = criarPreparador({ contexto: quebradoSe(() => true), threads: 0 });
    const primeiros = salvos.slice(0, FALHAS_SEGUIDAS_MAXIMAS - 1);
    expect((await preparador.preparar('imovel', primeiros)).every((p) => p?.ok === false && p.motivo === 'falha-no-preparo')).toBe(true);
    const seguinte = salvos.slice(FALHAS_SEGUIDAS_MAXIMAS - 1, FALHAS_SEGUIDAS_MAXIMAS);
    await expect(preparador.preparar('imovel', seguinte)).rejects.toThrow(PreparoFalhandoEmGeral);
    // Retried, the batch fails again: nothing was prepared since.
    await expect(preparador.preparar('imovel', seguinte)).rejects.toThrow(PreparoFalhandoEmGeral);
  });

  it('counts a failing event once, however often its batch is retried: one event never trips it alone', async () => {
    preparador = criarPreparador({ contexto: quebradoSe(() => true), threads: 0 });
    for (let tentativa = 0; tentativa < 3 * FALHAS_SEGUIDAS_MAXIMAS; tentativa++) {
      expect(await preparador.preparar('imovel', salvos.slice(0, 2))).toEqual([
        expect.objectContaining({ motivo: 'falha-no-preparo' }),
        expect.objectContaining({ motivo: 'falha-no-preparo' }),
      ]);
    }
  });

  it('lets isolated failures through to the dead letters: a property prepared between them starts the count again', async () => {
    preparador = criarPreparador({ contexto: quebradoSe((n) => n % 2 === 0), threads: 0 });
    const preparos = await preparador.preparar('imovel', salvos.slice(0, 4 * FALHAS_SEGUIDAS_MAXIMAS));
    expect(preparos.filter((p) => p?.ok === false && p.motivo === 'falha-no-preparo').length).toBeGreaterThanOrEqual(FALHAS_SEGUIDAS_MAXIMAS);
  });
});

describe('criarPreparador with threads', () => {
  it('prepares exactly what the main thread would, in order, across overlapping requests', async () => {
    preparador = criarPreparador({ contexto, threads: 2 });
    const imoveis = doTopico('imoveis');
    const condominios = doTopico('condominios');
    const metade = Math.floor(imoveis.length / 2);
    const [a, b, c] = await Promise.all([
      preparador.preparar('imovel', imoveis.slice(0, metade)),
      preparador.preparar('imovel', imoveis.slice(metade)),
      preparador.preparar('condominio', condominios),
    ]);
    expect([...a, ...b]).toEqual(prepararMensagens('imovel', imoveis, contexto));
    expect(c).toEqual(prepararMensagens('condominio', condominios, contexto));
    expect([...a, ...b].some((p) => p !== null && !p.ok)).toBe(true); // the poison is there too
  });

  it('prepares here what a dying thread held, says so, and puts a new thread in its place', async () => {
    threads.length = 0;
    const mortes: Error[] = [];
    preparador = criarPreparador({ contexto, threads: 1, aoMorrerThread: (erro) => void mortes.push(erro) });
    const imoveis = doTopico('imoveis');
    const emCurso = preparador.preparar('imovel', imoveis);
    await threads[0]!.terminate();
    await expect(emCurso).resolves.toEqual(prepararMensagens('imovel', imoveis, contexto));
    expect(mortes).toEqual([expect.objectContaining({ message: expect.stringContaining('thread de preparo saiu') })]);

    // The new thread does the next request.
    await expect(preparador.preparar('condominio', doTopico('condominios'))).resolves.toEqual(
      prepararMensagens('condominio', doTopico('condominios'), contexto),
    );
    expect(threads).toHaveLength(2);
  });

  it('refuses work once closed', async () => {
    preparador = criarPreparador({ contexto, threads: 1 });
    await preparador.close();
    await expect(preparador.preparar('imovel', doTopico('imoveis'))).rejects.toThrow('fechado');
  });
});
