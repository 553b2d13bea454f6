// Smoke suite: the real services the project depends on answer the way the code will use them.
// Kafka 4.x through the project's own wrapper (kafkajs predates KIP-896, so this proves admin,
// produce, group consume and commit still work), Redis' scripts as the request limit runs them, and SQLite in WAL
// mode shared by two processes (the projector writes, the API process reads).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, inject, it, onTestFailed, vi } from 'vitest';
import { enviarParaKafka, gerarCenario } from '@imoveis/generator';
import { criarClienteKafka, type MensagemRecebida, type LogKafka } from '@imoveis/kafka';
import { Database, caminhoDoModuloSqlite } from '@imoveis/projection-store';
import { criarRegistroTransacional } from '../infra/registro-transacional.ts';
import { nomeUnico, sqliteTemporario } from '../helpers.ts';

const executar = promisify(execFile);

describe('Redis', () => {
  const redis = new Redis(inject('redisUrl'), { lazyConnect: true, maxRetriesPerRequest: 1 });
  afterAll(async () => {
    await redis.quit();
  });

  it("runs a Lua script that reads the server's clock and keeps a sorted set with an expiry, as the request limit does", async () => {
    const chave = nomeUnico('smoke:limite');
    // TIME inside a script that then writes: allowed since Redis 5 (scripts replicated by effects).
    const script = `
      local t = redis.call('TIME')
      local agora = t[1] * 1000 + math.floor(t[2] / 1000)
      redis.call('ZADD', KEYS[1], agora, ARGV[1])
      redis.call('PEXPIRE', KEYS[1], 60000)
      return {agora, redis.call('ZCARD', KEYS[1])}`;
    const [agora, contagem] = (await redis.eval(script, 1, chave, 'a')) as [number, number];
    expect(Math.abs(agora - Date.now())).toBeLessThan(5_000);
    expect(contagem).toBe(1);
    expect(((await redis.eval(script, 1, chave, 'b')) as [number, number])[1]).toBe(2);
    const ttl = await redis.pttl(chave);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('SQLite in WAL mode', () => {
  // The binding the projection store loads for this Node (decision 0012), in both processes.
  const caminhoModulo = caminhoDoModuloSqlite();

  it('shows a row written by one process to another process that opened the file read-only', async () => {
    const arquivo = sqliteTemporario();
    const escritor = new Database(arquivo.caminho);
    try {
      expect(escritor.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
      escritor.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, valor TEXT NOT NULL) STRICT');
      const valor = randomUUID();
      escritor.prepare('INSERT INTO item (id, valor) VALUES (1, ?)').run(valor);
      // The writer stays open, so the row is in the WAL, not yet checkpointed into the main file.
      expect(existsSync(`${arquivo.caminho}-wal`)).toBe(true);

      const leitor = `
        const Database = require(process.env.MODULO);
        const db = new Database(process.env.ARQUIVO, { readonly: true, fileMustExist: true });
        const linha = db.prepare('SELECT valor FROM item WHERE id = 1').get();
        process.stdout.write(JSON.stringify({ valor: linha && linha.valor, modo: db.pragma('journal_mode', { simple: true }), pid: process.pid }));
        db.close();`;
      const { stdout } = await executar(process.execPath, ['-e', leitor], {
        env: { ...process.env, MODULO: caminhoModulo, ARQUIVO: arquivo.caminho },
        timeout: 20_000,
      });
      const lido = JSON.parse(stdout) as { valor: string; modo: string; pid: number };
      expect(lido).toEqual({ valor, modo: 'wal', pid: expect.any(Number) });
      expect(lido.pid).not.toBe(process.pid);
    } finally {
      escritor.close();
      arquivo.remover();
    }
  });
});

describe('Kafka through @imoveis/kafka', () => {
  const brokers = inject('kafkaBrokers');
  // The client's own warnings, shown only when a test fails (the broker's: .cache/logs/kafka-broker.log).
  const avisos: string[] = [];
  const anotar = (nivel: string) => (obj: object, msg?: string) => {
    avisos.push(`${new Date().toISOString()} ${nivel} ${msg ?? ''} ${JSON.stringify(obj)}`);
  };
  const log: LogKafka = { debug: () => undefined, info: anotar('info'), warn: anotar('warn'), error: anotar('error') };
  const cliente = criarClienteKafka({ brokers, clientId: nomeUnico('smoke'), log });
  beforeEach(() => {
    avisos.length = 0;
    onTestFailed(() => {
      console.error(`avisos do cliente Kafka:\n${avisos.join('\n')}`);
    });
  });
  afterAll(async () => {
    await cliente.close();
  });
  /** A consumer that only notes whether the group assigned it partitions. */
  const consumidorOcioso = (groupId: string, topico: string) => {
    let atribuido = false;
    const consumidor = cliente.criarConsumidor({
      groupId,
      topicos: [topico],
      aoAtribuir: () => {
        atribuido = true;
        return new Map();
      },
      aoLote: async () => {},
      aoFalhar: () => {},
    });
    return { consumidor, atribuido: () => atribuido };
  };

  it('creates the two compacted register topics, idempotently', async () => {
    const topicos = [
      { nome: nomeUnico('registro.imoveis.v1'), compactado: true },
      { nome: nomeUnico('registro.condominios.v1'), compactado: true, particoes: 3 },
    ];
    await cliente.criarTopicos(topicos);
    await cliente.criarTopicos(topicos);

    const [imoveis, condominios] = await Promise.all(topicos.map((t) => cliente.descreverTopico(t.nome)));
    expect(imoveis).toMatchObject({ particoes: 1, config: { 'cleanup.policy': 'compact' } });
    expect(condominios).toMatchObject({ particoes: 3, config: { 'cleanup.policy': 'compact' } });
  });

  it('delivers a produced register event to a consumer group, which commits past it', async () => {
    const topico = nomeUnico('registro.imoveis.v1');
    const grupo = nomeUnico('smoke-projector');
    await cliente.criarTopicos([{ nome: topico, compactado: true }]);

    const id = randomUUID();
    const evento = {
      evento_id: randomUUID(),
      tipo: 'imovel.salvo',
      versao_schema: 1,
      ocorrido_em: '2026-11-21T14:03:12.418-03:00',
      versao: 1,
      dados: { id, codigo: 'AP1234', ativo: true, publicar_no_site: true },
    };
    const produtor = await cliente.criarProdutor();
    try {
      await produtor.enviar(topico, [{ key: id, value: JSON.stringify(evento), headers: { origem: 'smoke' } }]);
    } finally {
      await produtor.close();
    }

    const recebidas: MensagemRecebida[] = [];
    let falha: Error | null = null;
    const consumidor = cliente.criarConsumidor({
      groupId: grupo,
      topicos: [topico],
      aoAtribuir: () => new Map(),
      aoLote: async (lote) => {
        recebidas.push(...lote.mensagens);
        const ultima = lote.mensagens.at(-1);
        if (ultima !== undefined) {
          await consumidor.commit([{ topico: lote.topico, particao: lote.particao, proximoOffset: String(BigInt(ultima.offset) + 1n) }]);
        }
      },
      aoFalhar: (erro) => {
        falha = erro;
      },
    });
    try {
      await consumidor.iniciar();
      // At least once: a rejoin of the group seeks back to the start (this reader keeps no offsets).
      await expect.poll(() => falha ?? Math.min(recebidas.length, 1), { timeout: 30_000 }).toBe(1);
      const [recebida] = recebidas;
      expect(recebida?.offset).toBe('0');
      expect(recebida?.key?.toString()).toBe(id);
      expect(JSON.parse(recebida?.value?.toString() ?? 'null')).toEqual(evento);
      expect(recebida?.headers).toEqual({ origem: Buffer.from('smoke') });

      const confirmado = async (): Promise<string | undefined> => (await cliente.offsetsDoGrupo(grupo, topico)).get(0);
      await expect.poll(confirmado, { timeout: 15_000 }).toBe('1');
    } finally {
      await consumidor.close();
    }
  });

  it('lets the batch in hand finish when the consumer is closed: it stays active and close waits for it', async () => {
    const topico = nomeUnico('registro.imoveis.v1');
    await cliente.criarTopicos([{ nome: topico, compactado: true }]);
    const produtor = await cliente.criarProdutor();
    try {
      await produtor.enviar(topico, [{ key: randomUUID(), value: '{}' }]);
    } finally {
      await produtor.close();
    }
    const parada: { fechamento: Promise<void> | null } = { fechamento: null };
    const visto: { ativoDepoisDoFechamento?: boolean; terminou?: boolean } = {};
    const consumidor = cliente.criarConsumidor({
      groupId: nomeUnico('smoke-parada'),
      topicos: [topico],
      aoAtribuir: () => new Map(),
      aoLote: async (lote) => {
        parada.fechamento ??= consumidor.close();
        await new Promise((resolve) => setTimeout(resolve, 300));
        visto.ativoDepoisDoFechamento = lote.ativo();
        visto.terminou = true;
      },
      aoFalhar: () => {},
    });
    await consumidor.iniciar();
    await expect.poll(() => parada.fechamento !== null, { timeout: 30_000 }).toBe(true);
    await parada.fechamento;
    expect(visto).toEqual({ ativoDepoisDoFechamento: true, terminou: true });
  });

  it('closed while it connects, goes no further: it joins no group and takes no partition', async () => {
    const topico = nomeUnico('registro.imoveis.v1');
    await cliente.criarTopicos([{ nome: topico, compactado: true }]);
    const grupo = nomeUnico('smoke-fechado-ao-conectar');
    const { consumidor, atribuido } = consumidorOcioso(grupo, topico);
    const iniciado = consumidor.iniciar();
    await consumidor.close();
    await iniciado.catch(() => {});
    // Time enough for a join that went on after the close (one takes a second or two here).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(atribuido()).toBe(false);
    expect(await cliente.grupos(grupo)).toEqual([]);
  });

  it('reads a topic to its end, past transaction markers, and an absent topic as empty', async () => {
    const topico = nomeUnico('marcadores');
    await cliente.criarTopicos([{ nome: topico, particoes: 2 }]);
    const registro = await criarRegistroTransacional(brokers, nomeUnico('registro'));
    try {
      await registro.enviar({ topico, particao: 0, chave: 'a', valor: 'confirmado' }, true);
      await registro.enviar({ topico, particao: 0, chave: 'b', valor: 'abortado' }, false);
      await registro.enviar({ topico, particao: 1, chave: 'c', valor: 'outro' }, true);
    } finally {
      await registro.close();
    }
    // Partition 0 ends on an abort marker, after a record never shown: the read still ends.
    await expect.poll(async () => Object.fromEntries(await cliente.fimDasParticoes(topico)), { timeout: 10_000 }).toEqual({ 0: '4', 1: '2' });
    const lidos: string[] = [];
    expect(await cliente.lerTopico(topico, (m) => void lidos.push(m.value!.toString()), { limiteMs: 20_000 })).toBe(2);
    expect(lidos.sort()).toEqual(['confirmado', 'outro']);
    expect(await cliente.lerTopico(nomeUnico('ausente'), () => {})).toBe(0);
    // A time limit that runs out while the group is still being joined rejects the read (it used
    // to be left unhandled, which ends a process).
    await expect(cliente.lerTopico(topico, () => {}, { limiteMs: 1 })).rejects.toThrow(/não terminou em 1 ms/);
  });

  it('leaves an idle connection without timers: kafkajs as patched here (kafkajs#1704) polls nothing while no request waits', async () => {
    const topico = nomeUnico('ocioso');
    await cliente.criarTopicos([{ nome: topico }]);
    const { consumidor, atribuido } = consumidorOcioso(nomeUnico('smoke-ocioso'), topico);
    try {
      await consumidor.iniciar();
      await expect.poll(atribuido, { timeout: 30_000 }).toBe(true);
      // Unpatched, every connection that ever had an answer re-armed a 1 ms timer for life: about
      // 700 timers in this half second, and 4–5 % of a core for an idle consumer.
      const original = globalThis.setTimeout;
      const pilhas: string[] = [];
      const espiao = vi.spyOn(globalThis, 'setTimeout').mockImplementation((...args: Parameters<typeof setTimeout>) => {
        pilhas.push(new Error().stack ?? '');
        return original(...args);
      });
      try {
        await new Promise((resolve) => original(resolve, 500));
      } finally {
        espiao.mockRestore();
      }
      expect(pilhas.filter((pilha) => pilha.includes('requestQueue')).length, 'timers armed by kafkajs request queues').toBeLessThan(5);
    } finally {
      await consumidor.close();
    }
  });

  it('takes the generator’s stream through the producer: each topic in order, tombstones as null values', async () => {
    const topicos = { imoveis: nomeUnico('gerados.imoveis'), condominios: nomeUnico('gerados.condominios') };
    await cliente.criarTopicos([{ nome: topicos.imoveis, particoes: 1 }, { nome: topicos.condominios, particoes: 1 }]);
    const opcoes = { seed: 11, imoveis: 200, condominios: 10, mutacoes: 800 };
    const produtor = await cliente.criarProdutor();
    try {
      expect(await enviarParaKafka(gerarCenario(opcoes), produtor, topicos, { loteTamanho: 64 })).toMatchObject({ mensagens: [...gerarCenario(opcoes)].length });
    } finally {
      await produtor.close();
    }
    const registros = [...gerarCenario(opcoes)];
    expect(registros.some((r) => r.valor === null)).toBe(true);
    for (const topico of ['imoveis', 'condominios'] as const) {
      const lidos: [string | null, string | null][] = [];
      await cliente.lerTopico(topicos[topico], (m) => void lidos.push([m.key?.toString() ?? null, m.value?.toString() ?? null]), { limiteMs: 30_000 });
      expect(lidos).toEqual(registros.filter((r) => r.topico === topico).map((r) => [r.chave, r.valor]));
    }
  });
});
