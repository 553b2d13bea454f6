import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { gerarCargaInicial } from '@imoveis/generator';
import type { Lote } from '@imoveis/kafka';
import { Database, EscritorProjecao, LIMITE_PROPAGACAO_NA_TRANSACAO } from '@imoveis/projection-store';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { avancarOffset, criarExclusao, processarLote, TAMANHO_PEDACO, type Rejeicao } from './processar-lote.ts';
import { criarMetricas, type MetricasProjetor } from './metricas.ts';
import { criarPreparador } from './preparo-em-threads.ts';
import { medirPausas, travaDeOutroProcesso } from '../../../test/esperas.ts';
import { FOTOS, condominioSalvo, imovelSalvo, prepararEAplicarTransacao } from '../../../packages/projection-store/src/eventos-de-teste.ts';

const TOPICO = 'registro.imoveis.v1';
let dir: string;
let escritor: EscritorProjecao;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lote-'));
  escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
});
afterEach(() => {
  escritor.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 1,200 property saves at offsets 0…1199, as one fetched batch. */
function lote(sobre: Partial<Lote> = {}): Lote {
  const registros = [...gerarCargaInicial({ seed: 3, imoveis: 1_200 })].filter((r) => r.topico === 'imoveis');
  const mensagens = registros.map((r, i) => ({ offset: String(i), key: Buffer.from(r.chave!), value: Buffer.from(r.valor!), headers: {} }));
  const fim = String(mensagens.length);
  return { topico: TOPICO, particao: 0, mensagens, fimDaParticao: fim, proximoOffset: fim, heartbeat: async () => {}, ativo: () => true, parando: () => false, ...sobre };
}

const processar = (l: Lote, metricas?: MetricasProjetor, aindaNaTransacao?: () => boolean, enviarParaDlq = async (_: readonly Rejeicao[]) => {}) =>
  processarLote(l, {
    ...(aindaNaTransacao ? { aindaNaTransacao } : {}),
    escritor,
    preparador: criarPreparador({ contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' }, threads: 0 }),
    agora: () => Date.parse('2026-11-22T12:00:00Z'),
    agregados: new Map([[TOPICO, 'imovel']]),
    enviarParaDlq,
    log: pino({ level: 'silent' }),
    ...(metricas ? { metricas } : {}),
  });

const imoveis = () => escritor.db.prepare('SELECT count(*) FROM imoveis').pluck().get();

/** Properties read per transaction by condominium fan-outs, the largest. */
function medirLeituras(): () => number {
  let nesta = 0;
  let maior = 0;
  const transacao = escritor.transacao.bind(escritor);
  escritor.transacao = (fn) => {
    nesta = 0;
    return transacao(fn);
  };
  const ler = escritor.imoveisDoCondominio.bind(escritor);
  escritor.imoveisDoCondominio = (...args) => {
    const lidos = ler(...args);
    maior = Math.max(maior, (nesta += lidos.length));
    return lidos;
  };
  return () => maior;
}

const CONDOMINIOS = 'registro.condominios.v1';

/** A condominium saved with `nome`, as the register sends it, at `offset`. */
const condominioRecebido = (id: string, versao: number, nome: string, offset = 0) => ({
  offset: String(offset),
  key: Buffer.from(id),
  value: Buffer.from(
    JSON.stringify({
      evento_id: randomUUID(),
      tipo: 'condominio.salvo',
      versao_schema: 1,
      ocorrido_em: '2026-11-22T10:00:00.000-03:00',
      versao,
      dados: { id, nome, administradora: null, sindico: null },
    }),
  ),
  headers: {},
});

/** Messages of the condominiums' topic from offset 0, as one fetched batch. */
const loteDeCondominios = (mensagens: ReturnType<typeof condominioRecebido>[]): Lote => {
  const fim = String(mensagens.length);
  return { topico: CONDOMINIOS, particao: 0, mensagens, fimDaParticao: fim, proximoOffset: fim, heartbeat: async () => {}, ativo: () => true, parando: () => false };
};

const processarCondominios = (l: Lote, aindaNaTransacao = () => true) =>
  processarLote(l, {
    aindaNaTransacao,
    escritor,
    preparador: criarPreparador({ contexto: { fotosBaseUrl: FOTOS }, threads: 0 }),
    agora: () => Date.parse('2026-11-22T12:00:00Z'),
    agregados: new Map([[CONDOMINIOS, 'condominio']]),
    enviarParaDlq: async () => {},
    log: pino({ level: 'silent' }),
  });

describe('processarLote', () => {
  it('stops between transactions once the batch is no longer its own (partition lost, rebuild switched in)', async () => {
    let ativo = true;
    // Lost right after the first chunk's transaction (a heartbeat follows each one).
    const resultado = await processar(lote({ ativo: () => ativo, heartbeat: async () => void (ativo = false) }));
    expect(resultado.proximoOffset).toBe(String(TAMANHO_PEDACO));
    expect(escritor.offsetDe(TOPICO, 0)).toBe(String(TAMANHO_PEDACO));
    expect(imoveis()).toBe(TAMANHO_PEDACO);
  });

  it('writes nothing once the batch is no longer its own when the write lock is held (a switch committed while it waited)', async () => {
    const metricas = criarMetricas();
    const base = lote();
    const mensagens = base.mensagens.map((m, i) => (i === 3 ? { ...m, value: null } : m));
    // The switch is seen only under the write lock.
    const resultado = await processar({ ...base, mensagens }, metricas, () => !escritor.db.inTransaction);
    expect(resultado.proximoOffset).toBeNull();
    expect(escritor.offsetDe(TOPICO, 0)).toBeNull();
    expect(imoveis()).toBe(0);
    // Nothing counted either: the redelivered batch will count its tombstone once.
    expect((await metricas.eventosAplicados.get()).values).toEqual([]);
  });

  it('commits past the dead letters it sent even when the batch went stale meanwhile, so its redelivery does not send them again', async () => {
    const base = lote();
    const mensagens = base.mensagens.map((m, i) => (i === 7 ? { ...m, value: Buffer.from('isto não é json {') } : m));
    let ativo = true;
    const enviados: string[] = [];
    // A rebalance lands while the dead letters are being sent.
    const enviar = async (rejeicoes: readonly Rejeicao[]) => {
      enviados.push(...rejeicoes.map((r) => r.mensagem.offset));
      ativo = false;
    };
    const primeira = await processar({ ...base, mensagens, ativo: () => ativo }, undefined, undefined, enviar);
    expect(enviados).toEqual(['7']);
    expect(primeira.proximoOffset).toBe(String(TAMANHO_PEDACO));
    expect(imoveis()).toBe(TAMANHO_PEDACO - 1);

    ativo = true;
    const redelivery = await processar({ ...base, mensagens, ativo: () => ativo }, undefined, undefined, enviar);
    expect(enviados).toEqual(['7']);
    expect(redelivery.proximoOffset).toBe('1200');
    expect(imoveis()).toBe(1_199);
  });

  it('counts what a transaction applied as soon as it commits, even when the heartbeat after it fails', async () => {
    const metricas = criarMetricas();
    const falhando = lote({ heartbeat: async () => Promise.reject(new Error('rebalanceando')) });
    await expect(processar(falhando, metricas)).rejects.toThrow('rebalanceando');
    const aplicados = (await metricas.eventosAplicados.get()).values.reduce((n, v) => n + v.value, 0);
    expect(imoveis()).toBe(TAMANHO_PEDACO);
    expect(aplicados).toBe(TAMANHO_PEDACO);
  });

  it('waits, heartbeating, while another process holds the write lock longer than SQLite waits, then applies the batch', async () => {
    const trava = travaDeOutroProcesso(join(dir, 'projecao.db'));
    // Heartbeats before the first row is written are the waiting ones (the others follow
    // commits): the lock is let go at the second, so the batch waits through at least two.
    let batimentosEsperando = 0;
    const batimento = async () => {
      if (imoveis() !== 0) return;
      if (++batimentosEsperando === 2) trava.soltar();
    };
    try {
      const resultado = await processar(lote({ heartbeat: batimento }));
      expect(resultado.proximoOffset).toBe('1200');
      expect(imoveis()).toBe(1_200);
      expect(batimentosEsperando).toBe(2);
    } finally {
      trava.soltar();
    }
  });

  /**
   * Processes `l` while another process holds the write lock for 1.5 s: its result, and the
   * event loop's longest pause meanwhile (the batch is built before, outside the measure).
   */
  async function processarComATravaTomada(l: Lote) {
    const trava = travaDeOutroProcesso(join(dir, 'projecao.db'));
    const pausas = medirPausas();
    try {
      const resultado = processar(l);
      await esperar(1_500);
      const maiorPausa = pausas.parar();
      trava.soltar();
      return { ...(await resultado), maiorPausa };
    } finally {
      pausas.parar();
      trava.soltar();
    }
  }

  it("keeps its event loop free while it waits for another process's write lock, not blocked in SQLite's 5 s wait", async () => {
    const { proximoOffset, maiorPausa } = await processarComATravaTomada(lote());
    expect(proximoOffset).toBe('1200');
    // Before: 5 s at a time, SQLite's wait (room left for a loaded machine's pauses).
    expect(maiorPausa).toBeLessThan(2_500);
  });

  it("stores a redelivered batch's end past a commit marker once another process lets go of the write lock, its event loop free meanwhile", async () => {
    await processar(lote());
    // Every message is applied already: only the offset past the marker is left to write.
    const { proximoOffset, maiorPausa } = await processarComATravaTomada(lote({ proximoOffset: '1201' }));
    expect(proximoOffset).toBe('1201');
    expect(escritor.offsetDe(TOPICO, 0)).toBe('1201');
    // Before: blocked in SQLite's 5 s wait, then SQLITE_BUSY failed the batch.
    expect(maiorPausa).toBeLessThan(2_500);
  });

  it("stops waiting for another process's write lock once the consumer is closing, writing nothing of the batch", async () => {
    const trava = travaDeOutroProcesso(join(dir, 'projecao.db'));
    let parando = false;
    try {
      const resultado = await processar(lote({ heartbeat: async () => void (parando = true), parando: () => parando }));
      expect(resultado.proximoOffset).toBeNull();
      expect(escritor.offsetDe(TOPICO, 0)).toBeNull();
    } finally {
      trava.soltar();
    }
    expect(imoveis()).toBe(0);
  });

  it('stores the batch’s own end, past a commit marker after its last message', async () => {
    const resultado = await processar(lote({ proximoOffset: '1201' }));
    expect(imoveis()).toBe(1_200);
    expect(resultado.proximoOffset).toBe('1201');
    expect(escritor.offsetDe(TOPICO, 0)).toBe('1201');
  });

  it('never moves an end back to one another writer passed while this one waited for the lock', () => {
    escritor.gravarOffset({ topico: TOPICO, particao: 0, proximo: '5' });
    // Another connection commits a later end between this one's first reading and its transaction.
    const transacao = escritor.transacao.bind(escritor);
    escritor.transacao = (fn) => {
      const outro = EscritorProjecao.abrir(join(dir, 'projecao.db'));
      outro.gravarOffset({ topico: TOPICO, particao: 0, proximo: '20' });
      outro.close();
      return transacao(fn);
    };
    expect(avancarOffset(escritor, TOPICO, 0, '10')).toBe(false);
    // Before: '10', so the consumer would fetch and apply ten records a second time.
    expect(escritor.offsetDe(TOPICO, 0)).toBe('20');
  });

  describe('a condominium renamed on more properties than one transaction holds', () => {
    const c = randomUUID();
    const renomeado = (versao: number, nome = 'Torre Nova'): Lote => loteDeCondominios([condominioRecebido(c, versao, nome)]);
    const nomes = () => escritor.db.prepare("SELECT DISTINCT json_extract(documento, '$.nome_condominio') FROM imoveis").pluck().all();

    beforeEach(() => {
      const ids = Array.from({ length: 2 * LIMITE_PROPAGACAO_NA_TRANSACAO + 500 }, () => randomUUID());
      const eventos = [condominioSalvo(c, 1, 'Torre Antiga'), ...ids.map((id) => imovelSalvo(id, 1, { condominio_id: c }))];
      prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => Date.parse('2026-11-22T11:00:00Z'));
    });

    it('reads no more than a page of properties in any transaction, the condominium row included', async () => {
      const maiorLeitura = medirLeituras();
      const resultado = await processarCondominios(renomeado(2));
      expect(resultado).toMatchObject({ proximoOffset: '1', efeitos: ['aplicado'] });
      expect(nomes()).toEqual(['Torre Nova']);
      expect(escritor.obterCondominio(c)).toMatchObject({ nome: 'Torre Nova', versao: 2 });
      expect(maiorLeitura()).toBe(LIMITE_PROPAGACAO_NA_TRANSACAO);
    });

    it('finds the rename a repeat when redelivered after its last page committed but before its offset did', async () => {
      let transacoes = 0;
      // Three pages, then the empty one that writes the row; the offset's transaction finds the batch stale.
      const cortado = await processarCondominios(renomeado(2), () => ++transacoes <= 4);
      expect(cortado.proximoOffset).toBeNull();
      expect(escritor.offsetDe(CONDOMINIOS, 0)).toBeNull();
      expect(escritor.obterCondominio(c)).toMatchObject({ nome: 'Torre Nova', versao: 2 });

      const maiorLeitura = medirLeituras();
      expect(await processarCondominios(renomeado(2))).toMatchObject({ proximoOffset: '1', efeitos: ['repetido'] });
      expect(maiorLeitura()).toBe(0);
      expect(nomes()).toEqual(['Torre Nova']);
    });

    it('puts the name back on properties a fan-out cut short had renamed, when the next revision keeps the old name', async () => {
      // Cut short after its first page; compaction then drops it, and the next revision comes.
      const cortado = await processarCondominios(renomeado(2), ((n) => () => ++n <= 1)(0));
      expect(cortado.proximoOffset).toBeNull();
      expect(nomes()).toEqual(expect.arrayContaining(['Torre Antiga', 'Torre Nova']));
      await processarCondominios(renomeado(3, 'Torre Antiga'));
      expect(nomes()).toEqual(['Torre Antiga']);
      expect(escritor.obterCondominio(c)).toMatchObject({ nome: 'Torre Antiga', versao: 3 });
    });

    it('waits while another process holds the write lock between two pages, then takes up the walk where it was', async () => {
      const outro = new Database(join(dir, 'projecao.db'));
      // Taken at the heartbeat after the first page, let go at the second heartbeat after that
      // (the fan-out heartbeats while it waits): the second page waits at least one busy timeout.
      const renomeados = escritor.db.prepare("SELECT count(*) FROM imoveis WHERE json_extract(documento, '$.nome_condominio') = 'Torre Nova'").pluck();
      const aCada: unknown[] = [];
      const batimento = async () => {
        aCada.push(renomeados.get());
        if (aCada.length === 1) outro.exec('BEGIN IMMEDIATE');
        if (aCada.length === 3) outro.exec('COMMIT');
      };
      const maiorLeitura = medirLeituras();
      try {
        expect(await processarCondominios({ ...renomeado(2), heartbeat: batimento })).toMatchObject({ proximoOffset: '1', efeitos: ['aplicado'] });
      } finally {
        outro.close();
      }
      // Renamed so far at each heartbeat: the first page's, twice more while it waited; then each
      // page's, the empty last one's (the row) and the offset's transaction's.
      expect(aCada).toEqual([1_000, 1_000, 1_000, 2_000, 2_500, 2_500, 2_500]);
      expect(nomes()).toEqual(['Torre Nova']);
      expect(escritor.obterCondominio(c)).toMatchObject({ nome: 'Torre Nova', versao: 2 });
      expect(maiorLeitura()).toBe(LIMITE_PROPAGACAO_NA_TRANSACAO);
    });

    it('keeps to a page per transaction when a new revision keeps the name, and writes the row', async () => {
      await processarCondominios(renomeado(2));
      const maiorLeitura = medirLeituras();
      const lote = renomeado(3);
      expect(await processarCondominios({ ...lote, mensagens: lote.mensagens.map((m) => ({ ...m, offset: '1' })), fimDaParticao: '2', proximoOffset: '2' })).toMatchObject({
        proximoOffset: '2',
        efeitos: ['sem-mudanca'],
      });
      expect(maiorLeitura()).toBe(LIMITE_PROPAGACAO_NA_TRANSACAO);
      expect(escritor.obterCondominio(c)).toMatchObject({ nome: 'Torre Nova', versao: 3 });
    });
  });
});

describe('renames of several condominiums in one fetched batch', () => {
  it('share a transaction only up to a page of properties in all, so that none commits long after its instant', async () => {
    const condominios = Array.from({ length: 4 }, () => randomUUID());
    const porCondominio = Math.floor(LIMITE_PROPAGACAO_NA_TRANSACAO * 0.6);
    const eventos = condominios.flatMap((c, i) => [
      condominioSalvo(c, 1, `Torre ${i}`),
      ...Array.from({ length: porCondominio }, () => imovelSalvo(randomUUID(), 1, { condominio_id: c })),
    ]);
    prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => Date.parse('2026-11-22T11:00:00Z'));
    const maiorLeitura = medirLeituras();
    const resultado = await processarCondominios(loteDeCondominios(condominios.map((c, i) => condominioRecebido(c, 2, `Torre ${i} renomeada`, i))));
    expect(resultado).toMatchObject({ proximoOffset: '4', efeitos: ['aplicado', 'aplicado', 'aplicado', 'aplicado'] });
    expect(maiorLeitura()).toBe(porCondominio);
    const nomes = escritor.db.prepare("SELECT json_extract(documento, '$.nome_condominio') AS nome, count(*) AS n FROM imoveis GROUP BY 1 ORDER BY 1").all();
    expect(nomes).toEqual(condominios.map((_, i) => ({ nome: `Torre ${i} renomeada`, n: porCondominio })));
  });
});

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
