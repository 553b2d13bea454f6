// The projector against the real broker: every exit of a message consumer — the new state, the
// offsets committed, poison messages, restarts from the checkpoint, a kill -9 at any moment.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as esperar } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { criarClienteKafka, textoDoCabecalho, type ClienteKafka, type MensagemRecebida, type OpcoesConsumidor, type Produtor } from '@imoveis/kafka';
import { Database, EscritorProjecao, MIGRACOES, VERSAO_ESQUEMA, espiarEstado, marcadorDe } from '@imoveis/projection-store';
import { itensDaPagina, itensRemovidos } from '../../packages/projection-store/src/eventos-de-teste.ts';
import type { RegistroBruto } from '@imoveis/contracts';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import { criarProjetor, projetarRegistros, topicoDlq, type Projetor } from '@imoveis/projector';
import { criarRegistroTransacional } from '../infra/registro-transacional.ts';
import { ler, nomeUnico, sqliteTemporario, type SqliteTemporario } from '../helpers.ts';
import { comandoServico } from '../infra/construir.ts';
import { portasLivres } from '../infra/processo-servico.ts';

const FOTOS = 'https://fotos.exemplo.com.br';
const RAIZ = new URL('../../', import.meta.url).pathname;
const silencioso = pino({ level: 'silent' });

// ---- register events as the register writes them (private fields included) -----------------

const envelope = (tipo: string, versao: number, dados: object) =>
  JSON.stringify({ evento_id: randomUUID(), tipo, versao_schema: 1, ocorrido_em: '2026-11-21T10:00:00.000-03:00', versao, dados });

function imovel(id: string, versao: number, sobre: Record<string, unknown> = {}): RegistroBruto {
  const dados = {
    id,
    codigo: `AP${id.slice(0, 5)}`,
    ativo: true,
    publicar_no_site: true,
    situacao: 'Disponível',
    tipo: 'Apartamento',
    categoria: 'Residencial',
    finalidade: 'Venda',
    titulo: `Apartamento ${versao}`,
    descricao_html: '<p>Sala ampla.<br>Ligue (11) 98888-7777</p>',
    endereco: { logradouro: 'Rua A', bairro: 'Centro', cidade: 'Curitiba', uf: 'pr', cep: '80010-000', exibicao: 'completo' },
    valores: { venda: 500_000 + versao, preco_sob_consulta: false },
    caracteristicas: ['Piscina', ' piscina '],
    fotos: [{ arquivo: `imoveis/${id}/1.jpg`, ordem: 1, principal: true, publica: true }],
    proprietario: { nome: 'Proprietária Sigilosa', cpf: '529.982.247-25', telefone: '(41) 99999-0000', email: 'dona@sigilo.example' },
    observacoes_internas: 'Observação interna sigilosa',
    valor_minimo_aceito: 123_456,
    ...sobre,
  };
  return { topico: 'imoveis', chave: id, valor: envelope('imovel.salvo', versao, dados) };
}
const exclusao = (id: string, versao: number): RegistroBruto => ({
  topico: 'imoveis',
  chave: id,
  valor: envelope('imovel.excluido', versao, { id, codigo: `AP${id.slice(0, 5)}` }),
});
const condominio = (id: string, versao: number, nome: string): RegistroBruto => ({
  topico: 'condominios',
  chave: id,
  valor: envelope('condominio.salvo', versao, { id, nome, administradora: null, sindico: { nome: 'Síndico Sigiloso' } }),
});
const exclusaoCondominio = (id: string, versao: number): RegistroBruto => ({
  topico: 'condominios',
  chave: id,
  valor: envelope('condominio.excluido', versao, { id }),
});
const PRIVADOS = ['Proprietária Sigilosa', '529.982.247-25', '99999-0000', 'dona@sigilo.example', 'Observação interna sigilosa', '123456', 'Síndico Sigiloso', '98888-7777'];

// ---- one isolated world per test: its own topics, group, database -----------------------------

interface Mundo {
  kafka: ClienteKafka;
  produtor: Produtor;
  topicos: { imoveis: string; condominios: string };
  banco: SqliteTemporario;
  publicar(registros: readonly RegistroBruto[]): Promise<void>;
  iniciarProjetor(opcoes?: {
    groupId?: string;
    banco?: SqliteTemporario;
    escritor?: EscritorProjecao;
    sessaoKafkaMs?: number;
    log?: Logger;
    aoFalhar?: (erro: Error) => void;
    /** The client the projector talks through (default: the world's). */
    kafka?: ClienteKafka;
  }): Promise<Projetor>;
  esperarEmDia(banco?: SqliteTemporario): Promise<void>;
}

const limpezas: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const limpar of limpezas.splice(0).reverse()) await limpar();
});

async function criarMundo(): Promise<Mundo> {
  const kafka = criarClienteKafka({ brokers: inject('kafkaBrokers'), clientId: nomeUnico('teste') });
  const topicos = { imoveis: nomeUnico('registro.imoveis'), condominios: nomeUnico('registro.condominios') };
  await kafka.criarTopicos([
    { nome: topicos.imoveis, particoes: 3, compactado: true },
    { nome: topicos.condominios, particoes: 1, compactado: true },
  ]);
  const produtor = await kafka.criarProdutor();
  const banco = sqliteTemporario();
  limpezas.push(() => kafka.close(), () => banco.remover());

  const mundo: Mundo = {
    kafka,
    produtor,
    topicos,
    banco,
    async publicar(registros) {
      // In order, a run of records of one topic per request.
      for (let i = 0; i < registros.length; ) {
        const topico = registros[i]!.topico;
        let fim = i;
        while (fim < registros.length && fim - i < 200 && registros[fim]!.topico === topico) fim++;
        await produtor.enviar(topicos[topico], registros.slice(i, fim).map((r) => ({ key: r.chave, value: r.valor })));
        i = fim;
      }
    },
    async iniciarProjetor(opcoes = {}) {
      const escritor = opcoes.escritor ?? EscritorProjecao.abrir((opcoes.banco ?? banco).caminho);
      const projetor = criarProjetor({
        kafka: opcoes.kafka ?? kafka,
        escritor,
        contexto: { fotosBaseUrl: FOTOS },
        // As in production: decoding and mapping in a thread, fsync deferred while far behind.
        threadsDePreparo: 1,
        atrasoParaAdiarSincronia: 100,
        groupId: opcoes.groupId ?? nomeUnico('grupo'),
        topicos,
        log: opcoes.log ?? silencioso,
        intervaloFrescorMs: 200,
        ...(opcoes.sessaoKafkaMs === undefined ? {} : { sessaoKafkaMs: opcoes.sessaoKafkaMs }),
        aoFalhar:
          opcoes.aoFalhar ??
          ((erro) => {
            throw erro;
          }),
      });
      await projetor.iniciar();
      limpezas.push(async () => {
        await projetor.parar();
        escritor.close();
      });
      return projetor;
    },
    async esperarEmDia(alvo = banco) {
      await expect
        .poll(async () => atrasoDoBanco(kafka, topicos, alvo.caminho), { timeout: 60_000, interval: 200 })
        .toBe(0);
    },
  };
  return mundo;
}

/** The client, its consumers made with options `mudar` changes (what they are handed, where they start). */
function comConsumidor(kafka: ClienteKafka, mudar: (opcoes: OpcoesConsumidor) => OpcoesConsumidor): ClienteKafka {
  return { ...kafka, criarConsumidor: (opcoes) => kafka.criarConsumidor(mudar(opcoes)) };
}

/** Messages not yet applied to the projection file, measured from outside the projector. */
async function atrasoDoBanco(kafka: ClienteKafka, topicos: Mundo['topicos'], caminho: string): Promise<number> {
  const escritor = EscritorProjecao.abrir(caminho);
  try {
    let atraso = 0;
    for (const topico of Object.values(topicos)) {
      for (const [particao, fim] of await kafka.fimDasParticoes(topico)) {
        atraso += Number(BigInt(fim) - BigInt(escritor.offsetDe(topico, particao) ?? '0'));
      }
    }
    return atraso;
  } finally {
    escritor.close();
  }
}

/** Messages applied to the projection file so far, over every partition (its stored offsets). */
function aplicadas(caminho: string): number {
  if (!existsSync(caminho)) return 0;
  const db = new Database(caminho, { readonly: true });
  try {
    return db.prepare<[], { proximo: string }>('SELECT proximo FROM offsets').all().reduce((n, o) => n + Number(o.proximo), 0);
  } catch {
    return 0; // not created or migrated yet
  } finally {
    db.close();
  }
}

/** The next offset of a partition the projection file holds (0: none yet), read without a writer. */
function lidoDe(caminho: string, topico: string, particao: number): number {
  const db = new Database(caminho, { readonly: true });
  try {
    return Number(db.prepare<[string, number], { proximo: string }>('SELECT proximo FROM offsets WHERE topico = ? AND particao = ?').get(topico, particao)?.proximo ?? 0);
  } finally {
    db.close();
  }
}

/**
 * Everything of a projection but the commit instants, which differ between runs by design; or,
 * `comInstantes`, its rows as they are, the instants partners filter on included.
 */
function conteudo(caminho: string, comInstantes = false) {
  const colunas = comInstantes
    ? { imoveis: '*', removidos: '*', condominios: '*' }
    : { imoveis: 'id, codigo, versao, anunciado, ja_anunciado, documento', removidos: 'id, codigo', condominios: 'id, nome, versao, excluido' };
  const db = new Database(caminho, { readonly: true });
  try {
    return {
      imoveis: db.prepare(`SELECT ${colunas.imoveis} FROM imoveis ORDER BY id`).all(),
      removidos: db.prepare(`SELECT ${colunas.removidos} FROM removidos ORDER BY id`).all(),
      condominios: db.prepare(`SELECT ${colunas.condominios} FROM condominios ORDER BY id`).all(),
    };
  } finally {
    db.close();
  }
}

// ---- the tests -----------------------------------------------------------------------------------

describe('projector against a real Kafka broker', () => {
  it('applies every event type from both topics, commits the offsets, and records that it caught up', async () => {
    const mundo = await criarMundo();
    const [c, extinto, anunciado, noExtinto, nunca, apagado] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [nuncaApagado, retiradoApagado] = [randomUUID(), randomUUID()];
    await mundo.publicar([
      imovel(anunciado, 1, { condominio_id: c }),
      imovel(noExtinto, 1, { condominio_id: extinto }),
      imovel(nunca, 1, { publicar_no_site: false }),
      imovel(apagado, 1),
      exclusao(apagado, 2),
      // A deletion is listed whether the property was advertised, withdrawn or never advertised.
      imovel(nuncaApagado, 1, { publicar_no_site: false }),
      exclusao(nuncaApagado, 1),
      imovel(retiradoApagado, 1),
      imovel(retiradoApagado, 2, { situacao: 'Vendido' }),
      exclusao(retiradoApagado, 2),
      condominio(c, 1, 'Edifício Aurora'),
      condominio(extinto, 1, 'Edifício Extinto'),
      exclusaoCondominio(extinto, 2),
    ]);
    const projetor = await mundo.iniciarProjetor({ groupId: 'grupo-' + c });
    await mundo.esperarEmDia();

    ler(mundo.banco.caminho, (leitor) => {
      const cheia = leitor.listarAnunciados({ aposId: null, limite: 50 });
      const esperados: Record<string, unknown> = {
        [anunciado]: expect.objectContaining({ id: anunciado, nome_condominio: 'Edifício Aurora', uf: 'PR', caracteristicas: ['Piscina'] }),
        // Its condominium deleted: no condominium name.
        [noExtinto]: expect.objectContaining({ id: noExtinto, nome_condominio: null }),
      };
      expect(itensDaPagina(cheia)).toEqual([anunciado, noExtinto].sort().map((id) => esperados[id]));
      expect(leitor.obterAnunciado(nunca)).toBeNull();
      expect(itensRemovidos(leitor, 0).map((r) => r.id).sort()).toEqual([apagado, nuncaApagado, retiradoApagado].sort());
      for (const id of [nuncaApagado, retiradoApagado]) expect(leitor.obterAnunciado(id)).toBeNull();
    });
    // No private value, nor a contact typed in the description, is anywhere in the projection.
    const texto = JSON.stringify(conteudo(mundo.banco.caminho));
    for (const privado of PRIVADOS) expect(texto).not.toContain(privado);

    const { atraso } = await projetor.medirFrescor();
    expect(atraso).toBe(0);
    ler(mundo.banco.caminho, (leitor) => expect(leitor.frescor()).toMatchObject({ atraso: 0, emDiaEm: expect.any(Number) }));
    // Kafka's own committed offsets follow the projection's, for lag tooling.
    await expect
      .poll(async () => Object.fromEntries(await mundo.kafka.offsetsDoGrupo('grupo-' + c, mundo.topicos.condominios)), { timeout: 15_000 })
      .toEqual({ 0: '3' });
  });

  it('names a condominium that arrives after its properties (moving their atualizado_em) and one that arrived before', async () => {
    const mundo = await criarMundo();
    const [depois, antes, imovelDepois, imovelAntes] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const documento = (id: string) =>
      ler(mundo.banco.caminho, (leitor) => JSON.parse(leitor.obterAnunciado(id)!.json.toString()) as { nome_condominio: string | null; atualizado_em: string });
    await mundo.iniciarProjetor();

    await mundo.publicar([imovel(imovelDepois, 1, { condominio_id: depois })]);
    await mundo.esperarEmDia();
    const semNome = documento(imovelDepois);
    expect(semNome.nome_condominio).toBeNull();
    await mundo.publicar([condominio(depois, 1, 'Edifício Tardio')]);
    await mundo.esperarEmDia();
    const comNome = documento(imovelDepois);
    expect(comNome.nome_condominio).toBe('Edifício Tardio');
    expect(Date.parse(comNome.atualizado_em)).toBeGreaterThan(Date.parse(semNome.atualizado_em));

    await mundo.publicar([condominio(antes, 1, 'Edifício Pontual')]);
    await mundo.esperarEmDia();
    await mundo.publicar([imovel(imovelAntes, 1, { condominio_id: antes })]);
    await mundo.esperarEmDia();
    expect(documento(imovelAntes).nome_condominio).toBe('Edifício Pontual');
  });

  it('leaves the document and its atualizado_em as they were after an edit of private fields only, even of a value masked in its text', async () => {
    const mundo = await criarMundo();
    const a = randomUUID();
    // imovel() derives the title and the price from versao: revision 2 keeps revision 1's.
    const publicos = { titulo: 'Apartamento 1', valores: { venda: 500_001, preco_sob_consulta: false }, descricao_html: '<p>Visitas com Renata Vieira.</p>' };
    await mundo.publicar([imovel(a, 1, { ...publicos, proprietario: { nome: 'Renata Vieira' } })]);
    await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    const antes = ler(mundo.banco.caminho, (leitor) => leitor.obterAnunciado(a));
    expect(JSON.parse(antes!.json.toString())).toMatchObject({ descricao: 'Visitas com [removido].' });

    await mundo.publicar([imovel(a, 2, { ...publicos, proprietario: { nome: 'Joaquim Barbosa' } })]);
    await mundo.esperarEmDia();
    expect(ler(mundo.banco.caminho, (leitor) => leitor.obterAnunciado(a))).toEqual(antes);
    expect(conteudo(mundo.banco.caminho).imoveis).toEqual([expect.objectContaining({ id: a, versao: 2 })]);
  });

  it('sends poison messages to the dead-letter topic with the reason and source, and goes on', async () => {
    const mundo = await criarMundo();
    const bom = randomUUID();
    const outro = randomUUID();
    const venenos: RegistroBruto[] = [
      { topico: 'imoveis', chave: outro, valor: 'isto não é json {' },
      { topico: 'imoveis', chave: outro, valor: envelope('imovel.reformado', 1, { id: outro }) },
      { topico: 'imoveis', chave: outro, valor: JSON.stringify({ ...JSON.parse(imovel(outro, 1).valor!), versao_schema: 2 }) },
      { topico: 'imoveis', chave: outro, valor: envelope('imovel.salvo', 1, { id: outro }) },
      { topico: 'imoveis', chave: randomUUID(), valor: imovel(outro, 1).valor },
    ];
    // Bytes that are not UTF-8 (Latin-1 from an old client), with headers a string copy would
    // spoil: binary, and one name sent twice.
    const latin1 = Buffer.from(imovel(outro, 1, { titulo: 'Sala comercial ###' }).valor!.replace('###', '\u00e7\u00e3'), 'latin1');
    const cabecalhos = { origem: Buffer.from([0xff, 0x00, 0x80]), repetido: ['a', 'b'] };
    await mundo.produtor.enviar(mundo.topicos.imoveis, [{ key: outro, value: latin1, headers: cabecalhos }]);
    // All on one partition (same key, but for the last), then a good event after them.
    await mundo.publicar([...venenos, imovel(bom, 1)]);
    const linhas: string[] = [];
    await mundo.iniciarProjetor({ log: pino({ level: 'debug' }, { write: (linha: string) => void linhas.push(linha) }) });
    await mundo.esperarEmDia();
    ler(mundo.banco.caminho, (leitor) => expect(leitor.obterAnunciado(bom)).not.toBeNull());
    // Each rejection logged (again if a rejoin of the group fetches it again: counted by offset),
    // and no private value of the records (all of them carry some) with it.
    const rejeitados = linhas.filter((l) => l.includes('evento rejeitado')).map((l) => JSON.parse(l) as { particao: number; offset: string });
    expect(new Set(rejeitados.map((r) => `${r.particao}/${r.offset}`)).size).toBe(6);
    for (const privado of PRIVADOS) expect(linhas.join('')).not.toContain(privado);
    // Created by the projector, kept for ever: not the broker's default week.
    expect((await mundo.kafka.descreverTopico(topicoDlq(mundo.topicos.imoveis))).config).toMatchObject({ 'cleanup.policy': 'delete', 'retention.ms': '-1' });

    // Dead letters are at least once (a failure between sending and committing repeats them),
    // and this reader re-reads from the start if its group rejoins: counted by source.
    const porOrigem = new Map<string, MensagemRecebida>();
    const repeticoesDiferentes: string[] = [];
    const dlq = mundo.kafka.criarConsumidor({
      groupId: nomeUnico('dlq'),
      topicos: [topicoDlq(mundo.topicos.imoveis)],
      aoAtribuir: () => new Map(),
      aoLote: async (lote) => {
        for (const m of lote.mensagens) {
          const cabecalho = (nome: string) => textoDoCabecalho(m.headers, nome);
          const origem = `${cabecalho('dlq.topico')}/${cabecalho('dlq.particao')}/${cabecalho('dlq.offset')}`;
          // A repeat must be the same record: same reason, same bytes.
          const antes = porOrigem.get(origem);
          if (antes && (textoDoCabecalho(antes.headers, 'dlq.motivo') !== cabecalho('dlq.motivo') || !antes.value?.equals(m.value ?? Buffer.alloc(0)))) repeticoesDiferentes.push(origem);
          porOrigem.set(origem, m);
        }
      },
      aoFalhar: () => {},
    });
    limpezas.push(() => dlq.close());
    await dlq.iniciar();
    await expect.poll(() => porOrigem.size, { timeout: 30_000 }).toBe(6);
    const recebidos = [...porOrigem.values()];
    expect(repeticoesDiferentes).toEqual([]);
    const enviados = [{ chave: outro, valor: latin1 }, ...venenos.map((v) => ({ chave: v.chave, valor: Buffer.from(v.valor!) }))];

    const motivos = recebidos.map((m) => textoDoCabecalho(m.headers, 'dlq.motivo')).sort();
    expect(motivos).toEqual(['chave-divergente', 'contrato-invalido', 'json-invalido', 'json-invalido', 'tipo-desconhecido', 'versao-schema-desconhecida']);
    for (const m of recebidos) {
      expect(['dlq.topico', 'dlq.particao', 'dlq.offset'].map((nome) => textoDoCabecalho(m.headers, nome))).toEqual([
        mundo.topicos.imoveis,
        expect.stringMatching(/^\d$/),
        expect.stringMatching(/^\d+$/),
      ]);
      // Copied unchanged: the exact bytes the register sent, key and headers too.
      const enviado = enviados.find((e) => e.valor.equals(m.value ?? Buffer.alloc(0)));
      expect(enviado).toBeDefined();
      expect(m.key?.toString()).toBe(enviado?.chave);
    }
    const doLatin1 = recebidos.find((m) => m.value!.equals(latin1))!;
    expect(textoDoCabecalho(doLatin1.headers, 'dlq.detalhe')).toBe('o valor não é UTF-8 válido');
    expect(doLatin1.headers).toMatchObject({ origem: Buffer.from([0xff, 0x00, 0x80]), repetido: [Buffer.from('a'), Buffer.from('b')] });
  });

  it('dead-letters events at their topic\'s size limit whole, and without the value one a smaller dead-letter topic cannot take; goes on', async () => {
    const mundo = await criarMundo();
    // A dead-letter topic made with less room than its source topic (as before dead letters had room for their headers).
    const antigo = 20_000;
    await mundo.kafka.criarTopicos([{ nome: topicoDlq(mundo.topicos.condominios), bytesPorMensagem: antigo }]);
    const id = randomUUID();
    // Near the source topic's limit (1048588, the broker's default): the copy gains its headers.
    const enorme = `{${'x'.repeat(1_048_399)}`;
    const grande = `{${'y'.repeat(700_000)}`;
    const condominioEnorme = `{${'z'.repeat(30_000)}`;
    await mundo.produtor.enviar(mundo.topicos.imoveis, [{ key: id, value: enorme }]);
    await mundo.produtor.enviar(mundo.topicos.imoveis, [{ key: id, value: grande }]);
    const idCondominio = randomUUID();
    await mundo.produtor.enviar(mundo.topicos.condominios, [{ key: idCondominio, value: condominioEnorme, headers: { origem: 'legado' } }]);
    await mundo.publicar([imovel(id, 1), condominio(idCondominio, 1, 'Edifício Aurora')]);
    await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    ler(mundo.banco.caminho, (leitor) => expect(leitor.obterAnunciado(id)).not.toBeNull());
    expect((await mundo.kafka.descreverTopico(topicoDlq(mundo.topicos.imoveis))).config['max.message.bytes']).toBe(String(1_048_588 + 64 * 1024));

    const imoveis: MensagemRecebida[] = [];
    await mundo.kafka.lerTopico(topicoDlq(mundo.topicos.imoveis), (m) => imoveis.push(m));
    expect(imoveis.map((m) => m.value?.length).sort()).toEqual([grande.length, enorme.length].sort());
    expect(imoveis.map((m) => textoDoCabecalho(m.headers, 'dlq.omitido'))).toEqual([undefined, undefined]);

    const condominios: MensagemRecebida[] = [];
    await mundo.kafka.lerTopico(topicoDlq(mundo.topicos.condominios), (m) => condominios.push(m));
    expect(condominios).toHaveLength(1);
    const [semValor] = condominios;
    expect(semValor!.value ?? Buffer.alloc(0)).toHaveLength(0);
    expect(semValor!.key?.toString()).toBe(idCondominio);
    expect(textoDoCabecalho(semValor!.headers, 'origem')).toBe('legado');
    expect(textoDoCabecalho(semValor!.headers, 'dlq.omitido')).toMatch(new RegExp(`^valor: \\d+ bytes, mais que os ${antigo} do tópico`));
    expect(['dlq.motivo', 'dlq.topico', 'dlq.offset'].map((nome) => textoDoCabecalho(semValor!.headers, nome))).toEqual(['json-invalido', mundo.topicos.condominios, '0']);
  }, 120_000);

  it('starts and dead-letters as usual when the broker refuses to describe the topics\' configuration, saying so', async () => {
    const mundo = await criarMundo();
    const bom = randomUUID();
    await mundo.publicar([{ topico: 'imoveis', chave: bom, valor: 'isto não é json {' }, imovel(bom, 1)]);
    const linhas: string[] = [];
    const recusa = Object.assign(new Error('Topic authorization failed'), { type: 'TOPIC_AUTHORIZATION_FAILED' });
    await mundo.iniciarProjetor({
      kafka: { ...mundo.kafka, descreverTopico: () => Promise.reject(recusa) },
      log: pino({ level: 'warn' }, { write: (linha: string) => void linhas.push(linha) }),
    });
    await mundo.esperarEmDia();
    ler(mundo.banco.caminho, (leitor) => expect(leitor.obterAnunciado(bom)).not.toBeNull());
    expect(await mundo.kafka.lerTopico(topicoDlq(mundo.topicos.imoveis), () => {})).toBe(1);
    const avisos = linhas.map((l) => JSON.parse(l) as { msg: string; topico: string }).filter((l) => l.msg.startsWith('não foi possível ler max.message.bytes'));
    expect(avisos.map((a) => a.topico).sort()).toEqual(
      [mundo.topicos.imoveis, mundo.topicos.condominios, topicoDlq(mundo.topicos.imoveis), topicoDlq(mundo.topicos.condominios)].sort(),
    );
  });

  it('restarts from the offsets in the projection, even under a group that never committed', async () => {
    const mundo = await criarMundo();
    const ids = Array.from({ length: 20 }, () => randomUUID());
    await mundo.publicar(ids.map((id) => imovel(id, 1)));
    const primeiro = await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    await primeiro.parar();
    const antes = ler(mundo.banco.caminho, (l) => l.listarAlterados({ desdeMs: 0, aposId: null, limite: 200 }));

    await mundo.publicar([imovel(ids[0]!, 2, { situacao: 'Vendido' })]);
    // A new group id has no offsets in Kafka: only the projection's offsets keep it from replaying.
    // (Replayed, the old records would be skipped as applied: what is fetched tells the two apart.)
    const entregues: string[] = [];
    const kafka = comConsumidor(mundo.kafka, (opcoes) => ({
      ...opcoes,
      aoLote: (lote) => {
        for (const m of lote.mensagens) entregues.push(`${lote.topico}/${lote.particao}/${m.offset}`);
        return opcoes.aoLote(lote);
      },
    }));
    await mundo.iniciarProjetor({ groupId: nomeUnico('outro-grupo'), kafka });
    await mundo.esperarEmDia();
    expect(entregues).toHaveLength(1);
    const depois = ler(mundo.banco.caminho, (l) => l.listarAlterados({ desdeMs: 0, aposId: null, limite: 200 }));
    expect(depois.total).toBe(20);
    const itensAntes = itensDaPagina(antes).map((item) => JSON.stringify(item));
    const mudados = itensDaPagina(depois).filter((item, i) => JSON.stringify(item) !== itensAntes[i]);
    expect(mudados).toEqual([expect.objectContaining({ id: ids[0], publicado: false })]);
  });

  it('changes nothing when everything is delivered again: skipped by offset, and then, with the offsets lost, by versao', async () => {
    const mundo = await criarMundo();
    const [c, a, b, apagado, nunca] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await mundo.publicar([
      condominio(c, 1, 'Edifício Aurora'),
      imovel(a, 1, { condominio_id: c }),
      imovel(b, 1),
      imovel(b, 2, { situacao: 'Vendido' }),
      imovel(nunca, 1, { publicar_no_site: false }),
      imovel(apagado, 1),
      exclusao(apagado, 1),
      condominio(c, 2, 'Edifício Aurora Boreal'),
      { topico: 'imoveis', chave: a, valor: 'isto não é json {' },
    ]);
    const primeiro = await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    await primeiro.parar();
    const dlq = topicoDlq(mundo.topicos.imoveis);
    expect(await mundo.kafka.lerTopico(dlq, () => {})).toBe(1);
    const antes = conteudo(mundo.banco.caminho, true);
    expect(antes.imoveis).toHaveLength(3);
    expect(antes.removidos).toHaveLength(1);

    // Kafka's commit behind the projection's: every partition fetched again from its start.
    let entregues = 0;
    const desdeOInicio = comConsumidor(mundo.kafka, (opcoes) => ({
      ...opcoes,
      aoAtribuir: (particoes) => {
        opcoes.aoAtribuir(particoes);
        return new Map();
      },
      aoLote: (lote) => {
        entregues += lote.mensagens.length;
        return opcoes.aoLote(lote);
      },
    }));
    const segundo = await mundo.iniciarProjetor({ kafka: desdeOInicio });
    await expect.poll(() => entregues, { timeout: 30_000 }).toBe(9);
    await mundo.esperarEmDia();
    await segundo.parar();
    expect(conteudo(mundo.banco.caminho, true)).toEqual(antes);
    expect(await mundo.kafka.lerTopico(dlq, () => {})).toBe(1);

    // The projection's offsets lost too (rewound to 0): each event is applied again, and versao
    // alone makes each a repeat or an older revision. The bad one is dead-lettered again.
    const db = new Database(mundo.banco.caminho);
    db.prepare("UPDATE offsets SET proximo = '0'").run();
    db.close();
    await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    expect(conteudo(mundo.banco.caminho, true)).toEqual(antes);
    expect(await mundo.kafka.lerTopico(dlq, () => {})).toBe(2);
  });

  it('measures its freshness one check at a time, however long a check waits on the brokers', async () => {
    const mundo = await criarMundo();
    await mundo.publicar([imovel(randomUUID(), 1)]);
    // Each check asks for the ends of both topics; each answer here takes five check intervals.
    let emCurso = 0;
    let maximo = 0;
    let chamadas = 0;
    const lento: ClienteKafka = {
      ...mundo.kafka,
      fimDasParticoes: async (topico) => {
        chamadas++;
        maximo = Math.max(maximo, ++emCurso);
        try {
          await esperar(1_000);
          return await mundo.kafka.fimDasParticoes(topico);
        } finally {
          emCurso--;
        }
      },
    };
    await mundo.iniciarProjetor({ kafka: lento });
    await expect.poll(() => chamadas, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(6);
    expect(maximo).toBe(1);
    await mundo.esperarEmDia();
  });

  it('reports nothing of a freshness check a stop overtook, once the writer is closed under it', async () => {
    const mundo = await criarMundo();
    let liberar!: () => void;
    const brokersDeVolta = new Promise<void>((resolve) => (liberar = resolve));
    let chamadas = 0;
    let respondidas = 0;
    const lento: ClienteKafka = {
      ...mundo.kafka,
      fimDasParticoes: async (topico) => {
        chamadas++;
        await brokersDeVolta;
        try {
          return await mundo.kafka.fimDasParticoes(topico);
        } finally {
          respondidas++;
        }
      },
    };
    const linhas: string[] = [];
    const escritor = EscritorProjecao.abrir(mundo.banco.caminho);
    const projetor = await mundo.iniciarProjetor({ kafka: lento, escritor, log: pino({ level: 'warn' }, { write: (linha: string) => void linhas.push(linha) }) });
    await expect.poll(() => chamadas, { timeout: 10_000 }).toBeGreaterThan(0);
    // As server.ts stops: the projector, then the writer; the check answers only after both.
    await projetor.parar();
    escritor.close();
    liberar();
    // The check goes on once the brokers answer, and meets the closed writer at once.
    await expect.poll(() => respondidas, { timeout: 10_000 }).toBeGreaterThan(0);
    await esperar(100);
    expect(linhas).toEqual([]);
  });

  it('consumes a partition added to a topic while it runs within seconds, and only then counts itself caught up', async () => {
    const mundo = await criarMundo();
    // The new partition's batches wait here until the freshness check below has run.
    let liberar = () => {};
    const liberada = new Promise<void>((resolve) => (liberar = resolve));
    let novaEntregue = false;
    const kafka = comConsumidor(mundo.kafka, (opcoes) => ({
      ...opcoes,
      aoLote: async (lote) => {
        if (lote.topico === mundo.topicos.imoveis && lote.particao === 3) {
          novaEntregue = true;
          await liberada;
        }
        return opcoes.aoLote(lote);
      },
    }));
    const projetor = await mundo.iniciarProjetor({ kafka });
    limpezas.push(() => liberar()); // after a failed assertion, before the stop waits for the held batch
    await mundo.publicar([imovel(randomUUID(), 1)]);
    await mundo.esperarEmDia();

    await mundo.kafka.aumentarParticoes(mundo.topicos.imoveis, 4);
    // A producer started now knows the new partition; one key in four lands in it by its hash.
    const produtor = await mundo.kafka.criarProdutor();
    const ids = Array.from({ length: 60 }, () => randomUUID());
    await produtor.enviar(mundo.topicos.imoveis, ids.map((id) => ({ key: id, value: imovel(id, 1).valor })));
    await produtor.close();
    const naNova = Number((await mundo.kafka.fimDasParticoes(mundo.topicos.imoveis)).get(3) ?? 0);
    expect(naNova).toBeGreaterThan(0);

    // The freshness check reads every partition's end: until the new one is read, there is lag,
    // whether the consumer has noticed the partition yet (within 10 s) or holds its first batch.
    const { atraso } = await projetor.medirFrescor();
    expect(lidoDe(mundo.banco.caminho, mundo.topicos.imoveis, 3)).toBe(0);
    expect(atraso).toBeGreaterThanOrEqual(naNova);
    liberar();
    // Read well within kafkajs's default of 5 minutes.
    await expect.poll(() => ler(mundo.banco.caminho, (l) => ids.filter((id) => l.obterAnunciado(id) !== null).length), { timeout: 30_000, interval: 200 }).toBe(60);
    await expect.poll(async () => (await projetor.medirFrescor()).atraso, { timeout: 10_000 }).toBe(0);
    expect(ler(mundo.banco.caminho, (l) => l.frescor())).toMatchObject({ atraso: 0, emDiaEm: expect.any(Number) });
    expect(novaEntregue).toBe(true);
  });

  it('after a rebuild of other mapping rules is switched in, says so and marks the projection as mixed', async () => {
    const mundo = await criarMundo();
    const linhas: string[] = [];
    await mundo.iniciarProjetor({ log: pino({ level: 'warn' }, { write: (l: string) => void linhas.push(l) }) });
    await mundo.publicar([imovel(randomUUID(), 1)]);
    await mundo.esperarEmDia();
    const regras = () => {
      const db = new Database(mundo.banco.caminho, { readonly: true });
      try {
        return (db.prepare("SELECT valor FROM estado WHERE chave = 'regras'").get() as { valor: number | null } | undefined)?.valor;
      } finally {
        db.close();
      }
    };
    expect(regras()).toBe(VERSAO_DAS_REGRAS);

    // What the switch of a rebuild made by newer code leaves: its rules, a new generation.
    const outro = EscritorProjecao.abrir(mundo.banco.caminho);
    outro.transacao(() => {
      outro.gravarEstado('regras', VERSAO_DAS_REGRAS + 1);
      outro.gravarEstado('geracao', outro.geracao() + 1);
    });
    outro.close();
    await expect.poll(regras, { timeout: 10_000, interval: 50 }).toBeNull();
    expect(linhas.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain(
      'documentos gravados por regras de mapeamento mais novas que as deste código: uma reconstrução com ele os refaria pelas antigas',
    );
  });

  it('checks the rules again before its first batch when a switch lands between its start\'s check and its join', async () => {
    const mundo = await criarMundo();
    // A projection with a document in it, made by this code.
    await mundo.publicar([imovel(randomUUID(), 1)]);
    const primeiro = await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    await primeiro.parar();

    // The switch of a rebuild made by newer code lands while the next start checks the topics,
    // after it has checked the rules (this code's) and before the consumer joins.
    const kafka: ClienteKafka = {
      ...mundo.kafka,
      topicosAusentes: async (topicos) => {
        const outro = EscritorProjecao.abrir(mundo.banco.caminho);
        outro.transacao(() => {
          outro.gravarEstado('regras', VERSAO_DAS_REGRAS + 1);
          outro.gravarEstado('geracao', outro.geracao() + 1);
        });
        outro.close();
        return mundo.kafka.topicosAusentes(topicos);
      },
    };
    const linhas: string[] = [];
    await mundo.iniciarProjetor({ kafka, log: pino({ level: 'warn' }, { write: (l: string) => void linhas.push(l) }) });
    await mundo.publicar([imovel(randomUUID(), 1)]);
    await mundo.esperarEmDia();
    // Before: the newer rules stayed recorded beside this code's documents.
    expect(espiarEstado(mundo.banco.caminho, 'regras')).toBeNull();
    expect(linhas.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain(
      'documentos gravados por regras de mapeamento mais novas que as deste código: uma reconstrução com ele os refaria pelas antigas',
    );
  });

  it('after kill -9 at any moment and a restart, ends with the same documents and tombstones as an uninterrupted run', async () => {
    const mundo = await criarMundo();
    const condominios = Array.from({ length: 5 }, () => randomUUID());
    const ids = Array.from({ length: 2_000 }, () => randomUUID());
    const registros: RegistroBruto[] = [
      ...condominios.slice(0, 3).map((c, i) => condominio(c, 1, `Condomínio ${i}`)),
      ...ids.map((id, i) => imovel(id, 1, { condominio_id: condominios[i % 5] })),
      ...ids.slice(0, 1_000).map((id, i) => imovel(id, 2, { condominio_id: condominios[i % 5], situacao: i % 3 === 0 ? 'Vendido' : 'Reservado' })),
      ...condominios.map((c, i) => condominio(c, 2, `Condomínio renomeado ${i}`)),
      // Half the deletions carry their last save's versao (only saves raise it).
      ...ids.slice(0, 150).map((id, i) => exclusao(id, i % 2 === 0 ? 3 : 2)),
      ...ids.slice(500, 750).map((id) => imovel(id, 1, { titulo: 'revisão antiga' })),
    ];
    await mundo.publicar(registros);

    // Reference: the same records through the same code, without Kafka, in one go.
    const referencia = sqliteTemporario();
    limpezas.push(() => referencia.remover());
    const escritorReferencia = EscritorProjecao.abrir(referencia.caminho);
    await projetarRegistros(escritorReferencia, registros, { contexto: { fotosBaseUrl: FOTOS } });
    escritorReferencia.close();

    // An uninterrupted replay from Kafka into an empty database.
    const inteira = sqliteTemporario();
    limpezas.push(() => inteira.remover());
    await mundo.iniciarProjetor({ banco: inteira });
    await mundo.esperarEmDia(inteira);

    // The real process, killed with SIGKILL up to three times while it applies the replay, then
    // left to finish. Each kill follows that process's first transaction (watched with one SQLite
    // read): at once for the first, by a random few milliseconds for the others (in the middle of
    // a transaction, between two, or after the last). Each process joins a group of its own, so it
    // starts at once (a killed member holds its group for its session) and only the projection's
    // offsets say where to resume. Random, so runs cover different moments; named in the
    // assertion, so a failure can be replayed.
    const atrasos = [0, Math.floor(Math.random() * 150), Math.floor(Math.random() * 150)];
    const atrasosAposMorte: number[] = [];
    for (const atraso of atrasos) {
      if (atrasosAposMorte.at(-1) === 0) break; // killed after the last transaction: nothing left
      const antes = aplicadas(mundo.banco.caminho);
      const processo = iniciarProcessoProjetor(mundo, nomeUnico('morto'));
      await expect.poll(() => aplicadas(mundo.banco.caminho), { timeout: 60_000, interval: 10 }).toBeGreaterThan(antes);
      await esperar(atraso);
      processo.kill('SIGKILL');
      await new Promise((resolve) => processo.once('exit', resolve));
      atrasosAposMorte.push(await atrasoDoBanco(mundo.kafka, mundo.topicos, mundo.banco.caminho));
    }
    const momentos = `mortos ${atrasos.join(', ')} ms após a primeira transação de cada processo, faltando ${atrasosAposMorte.join(', ')} mensagens`;
    // The first at least was killed in the middle of the replay: the rest is several transactions away.
    expect(atrasosAposMorte[0], momentos).toBeGreaterThan(0);
    const final = iniciarProcessoProjetor(mundo, nomeUnico('morto'));
    limpezas.push(() => void final.kill('SIGKILL'));
    await mundo.esperarEmDia();

    const esperado = conteudo(referencia.caminho);
    expect(esperado.imoveis).toHaveLength(1_850);
    expect(esperado.removidos).toHaveLength(150);
    expect(conteudo(inteira.caminho)).toEqual(esperado);
    const projetada = conteudo(mundo.banco.caminho);
    expect(projetada, momentos).toEqual(esperado);
    // And what the rules give, checked apart from the reference (the same code): the older
    // revisions (v1 after v2) left no trace, and every deleted property is a tombstone only.
    const porId = new Map((projetada.imoveis as { id: string; versao: number; documento: string }[]).map((i) => [i.id, i]));
    for (const id of ids.slice(500, 750)) {
      expect(porId.get(id)?.versao, id).toBe(2);
      expect(porId.get(id)?.documento, id).not.toContain('revisão antiga');
    }
    expect((projetada.removidos as { id: string }[]).map((r) => r.id)).toEqual(ids.slice(0, 150).sort());
    for (const id of ids.slice(0, 150)) expect(porId.has(id), id).toBe(false);
    // In step again, every write is durable and the deferred-fsync marker is gone.
    await expect.poll(() => existsSync(marcadorDe(mundo.banco.caminho)), { timeout: 20_000 }).toBe(false);
    expect(existsSync(marcadorDe(inteira.caminho))).toBe(false);
  }, 150_000);

  it('counts itself caught up behind a transactional register: commit and abort markers take offsets too', async () => {
    const mundo = await criarMundo();
    const registro = await criarRegistroTransacional(inject('kafkaBrokers'), nomeUnico('registro'));
    limpezas.push(() => registro.close());
    // Everything on partition 0, in order.
    const emTransacao = (r: RegistroBruto, confirmar: boolean) =>
      registro.enviar({ topico: mundo.topicos.imoveis, particao: 0, chave: r.chave, valor: r.valor }, confirmar);
    const [confirmado, abortado] = [randomUUID(), randomUUID()];
    // The markers are written after the transaction ends; until then the end of the partition
    // stops before the open transaction.
    const fimDaParticao = async (fim: string) =>
      expect.poll(async () => (await mundo.kafka.fimDasParticoes(mundo.topicos.imoveis)).get(0), { timeout: 10_000 }).toBe(fim);

    // A batch whose last record is a commit marker.
    await emTransacao(imovel(confirmado, 1), true);
    await fimDaParticao('2');
    const projetor = await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    // A fetch of nothing but an aborted record and its marker: kafkajs shows no batch for it.
    await emTransacao(imovel(abortado, 1), false);
    await fimDaParticao('4');
    await mundo.esperarEmDia();

    expect((await projetor.medirFrescor()).atraso).toBe(0);
    ler(mundo.banco.caminho, (leitor) => {
      expect(leitor.obterAnunciado(confirmado)).not.toBeNull();
      expect(leitor.obterAnunciado(abortado)).toBeNull();
    });
  });

  it("moves past an aborted transaction's markers once another process lets go of the write lock, and a stop ends that wait", async () => {
    const mundo = await criarMundo();
    const registro = await criarRegistroTransacional(inject('kafkaBrokers'), nomeUnico('registro'));
    limpezas.push(() => registro.close());
    const abortar = () => registro.enviar({ topico: mundo.topicos.imoveis, particao: 0, chave: randomUUID(), valor: imovel(randomUUID(), 1).valor }, false);
    const fimDaParticao = async (fim: string) =>
      expect.poll(async () => (await mundo.kafka.fimDasParticoes(mundo.topicos.imoveis)).get(0), { timeout: 10_000 }).toBe(fim);
    const linhas: string[] = [];
    const projetor = await mundo.iniciarProjetor({ log: pino({ level: 'warn' }, { write: (l: string) => void linhas.push(l) }) });
    await mundo.esperarEmDia();

    // A rebuild's switch holds the write lock while a fetch brings nothing but an aborted record and its marker.
    let outro = new Database(mundo.banco.caminho);
    outro.exec('BEGIN IMMEDIATE');
    await abortar();
    await fimDaParticao('2');
    const esperando = () => linhas.filter((l) => (JSON.parse(l) as { msg: string }).msg.includes('esperando para avançar sobre marcadores de transação')).length;
    await expect.poll(esperando, { timeout: 10_000 }).toBe(1);
    await esperar(500);
    expect(lidoDe(mundo.banco.caminho, mundo.topicos.imoveis, 0)).toBe(0);
    outro.exec('COMMIT');
    outro.close();
    // Before: dropped after SQLite's 5 s wait, the partition one message behind until the next one.
    await expect.poll(() => lidoDe(mundo.banco.caminho, mundo.topicos.imoveis, 0), { timeout: 10_000 }).toBe(2);

    // Again, and the projector is stopped while it waits: the stop does not wait the switch out.
    outro = new Database(mundo.banco.caminho);
    outro.exec('BEGIN IMMEDIATE');
    try {
      await abortar();
      await fimDaParticao('4');
      await expect.poll(esperando, { timeout: 10_000 }).toBe(2);
      const inicio = performance.now();
      await projetor.parar();
      expect(performance.now() - inicio).toBeLessThan(10_000);
    } finally {
      outro.exec('COMMIT');
      outro.close();
    }
    expect(lidoDe(mundo.banco.caminho, mundo.topicos.imoveis, 0)).toBe(2);
    const avisos = linhas.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(avisos.filter((m) => m.startsWith('não foi possível avançar'))).toEqual([]);
  });

  it('says so when a second projector shares its group and takes partitions from it, and when it has them all again', async () => {
    const mundo = await criarMundo();
    const linhas: { level: number; msg: string; particoes?: string[] }[] = [];
    const log = pino({ level: 'info' }, { write: (linha: string) => void linhas.push(JSON.parse(linha) as (typeof linhas)[number]) });
    const grupo = nomeUnico('grupo');
    await mundo.iniciarProjetor({ groupId: grupo, sessaoKafkaMs: 10_000, log });
    const outroBanco = sqliteTemporario();
    limpezas.push(() => outroBanco.remover());
    // Another host's projector, left with the same KAFKA_GROUP_ID: each gets part of the partitions.
    const outro = await mundo.iniciarProjetor({ groupId: grupo, sessaoKafkaMs: 10_000, banco: outroBanco });
    const avisos = () => linhas.filter((l) => l.level === 50 && l.msg.includes('KAFKA_GROUP_ID'));
    // Past twice the session timeout, so a member killed with -9 (gone once its session expires) is not mistaken for one.
    await expect.poll(() => avisos().length, { timeout: 45_000, interval: 500 }).toBe(1);
    expect(avisos()[0]!.particoes!.length).toBeGreaterThan(0);
    await outro.parar();
    await expect.poll(() => linhas.some((l) => l.msg === 'o projetor voltou a ler todas as partições'), { timeout: 45_000, interval: 500 }).toBe(true);
    expect(avisos()).toHaveLength(1);
  }, 120_000);

  it('fans a rename out to 10,000 properties in bounded transactions, without leaving its group', async () => {
    const mundo = await criarMundo();
    const c = randomUUID();
    const ids = Array.from({ length: 10_000 }, () => randomUUID());
    await mundo.publicar([condominio(c, 1, 'Torre Antiga'), ...ids.map((id) => imovel(id, 1, { condominio_id: c }))]);
    const atribuicoes: string[] = [];
    const log = pino({ level: 'info' }, { write: (linha: string) => void (linha.includes('partições atribuídas') && atribuicoes.push(linha)) });
    await mundo.iniciarProjetor({ log, sessaoKafkaMs: 10_000 });
    await mundo.esperarEmDia();
    const antes = ler(mundo.banco.caminho, (l) => l.frescor().registradoEm!);
    // A group may rejoin while it starts (the broker's doing); the rename's long batch must not make it.
    const atribuicoesAntes = atribuicoes.length;

    await mundo.publicar([condominio(c, 2, 'Torre Nova')]);
    await mundo.esperarEmDia();
    const instantes = ler(mundo.banco.caminho, (leitor) => {
      const vistos = new Set<string>();
      let nomes = 0;
      let pagina = leitor.listarAlterados({ desdeMs: antes + 1, aposId: null, limite: 200 });
      expect(pagina.total).toBe(ids.length);
      for (;;) {
        for (const doc of itensDaPagina(pagina)) {
          if (doc['nome_condominio'] === 'Torre Nova') nomes++;
          vistos.add(doc['atualizado_em'] as string);
        }
        if (pagina.proximoCursor === null) break;
        pagina = leitor.listarAlterados({ desdeMs: antes + 1, aposId: pagina.proximoCursor, limite: 200 });
      }
      expect(nomes).toBe(ids.length);
      return vistos.size;
    });
    // A transaction per thousand properties, each stamped with its own commit instant.
    expect(instantes).toBeGreaterThanOrEqual(ids.length / 1_000);
    // No assignment since: the group never had to rebalance around the long batch.
    expect(atribuicoes).toHaveLength(atribuicoesAntes);
  }, 90_000);

  it('reports a projection file it cannot write (a full disk) once, for the process to exit, and applies nothing of the batch', async () => {
    const mundo = await criarMundo();
    const antes = Array.from({ length: 20 }, () => randomUUID());
    await mundo.publicar(antes.map((id) => imovel(id, 1)));
    const escritor = EscritorProjecao.abrir(mundo.banco.caminho);
    const falhas: Error[] = [];
    await mundo.iniciarProjetor({ escritor, aoFalhar: (erro) => void falhas.push(erro) });
    await mundo.esperarEmDia();
    const offsets = escritor.offsets();

    // The file may not grow any more: what SQLite answers when the disk is full.
    escritor.db.pragma(`max_page_count = ${escritor.db.pragma('page_count', { simple: true }) as number}`);
    await mundo.publicar(Array.from({ length: 300 }, () => imovel(randomUUID(), 1)));
    await expect.poll(() => falhas.length, { timeout: 30_000 }).toBe(1);
    expect(falhas[0]).toMatchObject({ code: 'SQLITE_FULL' });

    // kafkajs keeps retrying the batch until the process exits; it is reported only once, and
    // nothing of it (documents or offsets) was written.
    let tentativas = 0;
    const transacao = escritor.transacao.bind(escritor);
    escritor.transacao = (fn) => {
      try {
        return transacao(fn);
      } catch (erro) {
        if ((erro as { code?: string }).code === 'SQLITE_FULL') tentativas++;
        throw erro;
      }
    };
    await expect.poll(() => tentativas, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(falhas).toHaveLength(1);
    expect(escritor.offsets()).toEqual(offsets);
    expect(ler(mundo.banco.caminho, (l) => l.listarAnunciados({ aposId: null, limite: 1 }).total)).toBe(20);
  });

  it('reports a consumer crash kafkajs does not restart from, for the process to exit rather than hang', async () => {
    const mundo = await criarMundo();
    const falhas: Error[] = [];
    // The broker refuses to let a member join with a session shorter than its minimum (6 s by
    // default): kafkajs treats that as fatal and stops the consumer for good.
    await mundo.iniciarProjetor({ sessaoKafkaMs: 1_000, aoFalhar: (erro) => void falhas.push(erro) });
    await expect.poll(() => falhas.length, { timeout: 30_000 }).toBe(1);
    expect(falhas[0]?.message).toMatch(/session timeout/i);
  });

  it('exits 1 with one fatal line naming the SQLite error when the projection file cannot grow, losing nothing', async () => {
    const mundo = await criarMundo();
    const ids = Array.from({ length: 1_500 }, () => randomUUID());
    await mundo.publicar(ids.map((id) => imovel(id, 1)));
    // About 4 MB of documents against files capped at 2 MB: like a disk filling up mid-replay.
    const processo = iniciarProcessoProjetor(mundo, nomeUnico('cheio'), { limiteArquivoKb: 2_048, saida: 'pipe' });
    const { codigo, linhas } = await fimComLog(processo);
    expect(codigo).toBe(1);
    expect(linhas.filter((l) => l.level >= 60)).toEqual([
      expect.objectContaining({ code: expect.stringMatching(/^SQLITE_(FULL|IOERR)/), msg: expect.stringContaining('não pode ser gravada') }),
    ]);
    const aplicados = ler(mundo.banco.caminho, (l) => l.listarAnunciados({ aposId: null, limite: 1 }).total);
    expect(aplicados).toBeLessThan(ids.length);

    // Room again: a plain restart goes on from what was committed and ends with every property.
    await mundo.iniciarProjetor();
    await mundo.esperarEmDia();
    expect(ler(mundo.banco.caminho, (l) => l.listarAnunciados({ aposId: null, limite: 1 }).total)).toBe(ids.length);
  }, 120_000);

  it('refuses a second projector on the same projection with one line naming it, and lets the file go when the first is killed', async () => {
    const mundo = await criarMundo();
    const [um, dois] = [randomUUID(), randomUUID()];
    await mundo.publicar([imovel(um, 1)]);
    const primeiro = iniciarProcessoProjetor(mundo, nomeUnico('primeiro'));
    limpezas.push(() => void primeiro.kill('SIGKILL'));
    await mundo.esperarEmDia();

    const segundo = iniciarProcessoProjetor(mundo, nomeUnico('segundo'), { saida: 'pipe' });
    const { codigo, linhas } = await fimComLog(segundo);
    expect(codigo).toBe(1);
    expect(linhas.filter((l) => l.level >= 60)).toEqual([expect.objectContaining({ code: 'ARQUIVO_TRAVADO', msg: expect.stringContaining('DATABASE_PATH') })]);

    // The kernel drops the lock with its process, however it ends.
    const morto = new Promise((resolve) => primeiro.once('exit', resolve));
    primeiro.kill('SIGKILL');
    await morto;
    const terceiro = iniciarProcessoProjetor(mundo, nomeUnico('terceiro'));
    limpezas.push(() => void terceiro.kill('SIGKILL'));
    await mundo.publicar([imovel(dois, 1)]);
    await mundo.esperarEmDia();
    ler(mundo.banco.caminho, (leitor) => expect(leitor.obterAnunciado(dois)).not.toBeNull());
  }, 120_000);

  it('stops at once on a signal while still joining its group (a killed predecessor still a member), not when the join ends', async () => {
    const mundo = await criarMundo();
    await mundo.publicar([imovel(randomUUID(), 1)]);
    const grupo = nomeUnico('juntando');
    // The group holds a member for its session: the next one's join waits out a killed one's. Long
    // enough that the next one, started on a loaded machine, still finds the group waiting.
    const sessaoMs = 45_000;
    const primeiro = iniciarProcessoProjetor(mundo, grupo, { sessaoMs });
    limpezas.push(() => void primeiro.kill('SIGKILL'));
    await mundo.esperarEmDia();
    const morto = new Promise((resolve) => primeiro.once('exit', resolve));
    primeiro.kill('SIGKILL');
    await morto;

    const segundo = iniciarProcessoProjetor(mundo, grupo, { sessaoMs });
    limpezas.push(() => void segundo.kill('SIGKILL'));
    // In its join: the group waits for the killed member, which holds it until its session ends.
    const estado = async () => (await mundo.kafka.grupos(grupo)).find((g) => g.id === grupo)?.estado;
    await expect.poll(estado, { timeout: 30_000, interval: 100 }).toBe('PreparingRebalance');
    const sinalEm = performance.now();
    const saiu = new Promise<number | null>((resolve) => segundo.once('exit', resolve));
    segundo.kill('SIGTERM');
    expect(await saiu).toBe(0);
    // Not when the join ends, tens of seconds later.
    expect(performance.now() - sinalEm).toBeLessThan(10_000);
  }, 120_000);

  it('stopped at any point of its start, consumes nothing after its stop', async () => {
    const mundo = await criarMundo();
    await mundo.publicar([imovel(randomUUID(), 1)]);
    const escritor = EscritorProjecao.abrir(mundo.banco.caminho);
    limpezas.push(() => escritor.close());
    // From before the first wait on the brokers to the middle of joining the group.
    for (const esperaMs of [0, 5, 20, 60, 150, 400]) {
      const projetor = criarProjetor({
        kafka: mundo.kafka,
        escritor,
        contexto: { fotosBaseUrl: FOTOS },
        threadsDePreparo: 1,
        groupId: nomeUnico(`parado-${esperaMs}`),
        topicos: mundo.topicos,
        log: silencioso,
        aoFalhar: (erro) => {
          throw erro;
        },
      });
      const iniciado = projetor.iniciar();
      await esperar(esperaMs);
      await projetor.parar();
      await iniciado;
    }
    // A start that went on past its stop would join its group and apply this one: watched for a
    // while, on a machine slow to join too. (Not the groups: a member whose join the stop cut
    // short stays in its group, consuming nothing, until its session ends.)
    const antes = aplicadas(mundo.banco.caminho);
    await mundo.publicar([imovel(randomUUID(), 1)]);
    for (const fim = performance.now() + 8_000; performance.now() < fim; await esperar(250)) {
      expect(aplicadas(mundo.banco.caminho)).toBe(antes);
    }
  }, 60_000);

  it("stopped during its start, ends a killed predecessor's deferred fsync when its writer closes (no marker left)", async () => {
    const mundo = await criarMundo();
    // A predecessor killed while it deferred fsync: its marker stays beside the file.
    const morto = EscritorProjecao.abrir(mundo.banco.caminho);
    morto.adiarSincronia(true);
    const marcador = readFileSync(marcadorDe(mundo.banco.caminho), 'utf8');
    morto.close();
    writeFileSync(marcadorDe(mundo.banco.caminho), marcador);

    const escritor = EscritorProjecao.abrir(mundo.banco.caminho);
    const projetor = criarProjetor({
      kafka: mundo.kafka,
      escritor,
      contexto: { fotosBaseUrl: FOTOS },
      groupId: nomeUnico('sucessor'),
      topicos: mundo.topicos,
      log: silencioso,
      aoFalhar: (erro) => {
        throw erro;
      },
    });
    const iniciado = projetor.iniciar();
    await projetor.parar();
    await iniciado;
    escritor.close();
    expect(existsSync(marcadorDe(mundo.banco.caminho))).toBe(false);
  });

  it('stops cleanly (exit 0) on SIGTERM while it still waits for the brokers to make a new projection, leaving none', async () => {
    const [porta] = (await portasLivres(1)) as [number];
    const banco = sqliteTemporario();
    limpezas.push(() => banco.remover());
    const processo = spawn(...comandoServico('projector'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: banco.caminho, METRICS_PORT: '0', KAFKA_BROKERS: `127.0.0.1:${porta}`, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    limpezas.push(() => void processo.kill('SIGKILL'));
    let saida = '';
    processo.stdout.on('data', (d: Buffer) => (saida += d.toString()));
    // Trying to connect: kafkajs logs each refused attempt.
    await expect.poll(() => saida.includes('ECONNREFUSED'), { timeout: 30_000, interval: 50 }).toBe(true);
    // 'close', not 'exit': the line is the last the process writes, and may still be in the pipe.
    const saiu = new Promise<number | null>((resolve) => processo.once('close', resolve));
    processo.kill('SIGTERM');
    expect(await saiu).toBe(0);
    expect(saida).toContain('encerrando antes de abrir a projeção');
    expect(existsSync(banco.caminho)).toBe(false);
  });

  it('stops cleanly (exit 0) on SIGTERM while it migrates the projection, once the migrations are done', async () => {
    const mundo = await criarMundo();
    // A version 1 projection large enough that opening it (the migrations copy its table twice)
    // takes seconds, synchronously: the signal waits in Node for the graceful stop to take it.
    const v1 = new Database(mundo.banco.caminho);
    v1.exec(MIGRACOES[0]!);
    v1.pragma('user_version = 1');
    const inserir = v1.prepare('INSERT INTO imoveis VALUES (?, ?, 1, NULL, 1, 1, ?, ?)');
    v1.transaction(() => {
      for (let i = 0; i < 60_000; i++) {
        const id = randomUUID();
        inserir.run(id, `C${i}`, `{"id":"${id}","descricao":"${'x'.repeat(400)}"}`, 1_000 + i);
      }
    })();
    // In WAL mode, as the projector leaves it, so that a write lock held here lets it read.
    v1.pragma('journal_mode = WAL');
    v1.close();
    // Another writer holds the lock as the projector starts: its first migration waits for it
    // (SQLite's busy wait, 5 s), so the migrations are surely under way when the signal comes.
    const trava = new Database(mundo.banco.caminho);
    limpezas.push(() => void (trava.open && trava.close()));
    trava.exec('BEGIN IMMEDIATE');
    const processo = spawn(...comandoServico('projector'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: mundo.banco.caminho, METRICS_PORT: '0', KAFKA_BROKERS: inject('kafkaBrokers').join(','), IMOVEIS_TOPIC: mundo.topicos.imoveis, CONDOMINIOS_TOPIC: mundo.topicos.condominios, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    limpezas.push(() => void processo.kill('SIGKILL'));
    let saida = '';
    processo.stdout.on('data', (d: Buffer) => (saida += d.toString()));
    // 'close', not 'exit': what the process wrote last may still be in the pipe at its exit.
    const saiu = new Promise<number | null>((resolve) => processo.once('close', resolve));
    // Said before the migrations, so while they run (before: no line said why a start took minutes).
    await expect.poll(() => saida, { timeout: 30_000, interval: 5 }).toContain(`migrando a projeção do esquema 1 ao ${VERSAO_ESQUEMA}: numa projeção grande, pode levar minutos`);
    processo.kill('SIGTERM');
    trava.exec('ROLLBACK');
    trava.close();
    expect(await saiu).toBe(0);
    expect(saida).toContain('encerrando');
    const depois = new Database(mundo.banco.caminho, { readonly: true });
    try {
      expect(depois.pragma('user_version', { simple: true })).toBe(VERSAO_ESQUEMA);
      expect(depois.prepare('SELECT count(*) AS n FROM imoveis').get()).toEqual({ n: 60_000 });
    } finally {
      depois.close();
    }
  }, 120_000);

  it('serves /health/live, /health/ready once caught up with Kafka, and /metrics on METRICS_PORT (stale rules flagged)', async () => {
    const mundo = await criarMundo();
    await mundo.publicar([imovel(randomUUID(), 1), { topico: 'imoveis', chave: randomUUID(), valor: 'isto não é json {' }]);
    // A projection whose documents an earlier version of the rules made.
    const antiga = EscritorProjecao.abrir(mundo.banco.caminho);
    antiga.gravarEstado('regras', VERSAO_DAS_REGRAS - 1);
    antiga.close();
    const [porta] = (await portasLivres(1)) as [number];
    const processo = iniciarProcessoProjetor(mundo, nomeUnico('http'), { portaMetricas: porta });
    limpezas.push(() => void processo.kill('SIGKILL'));
    const get = async (caminho: string) => fetch(`http://127.0.0.1:${porta}${caminho}`).catch(() => null);
    await expect.poll(async () => (await get('/health/live'))?.status, { timeout: 30_000, interval: 100 }).toBe(200);
    // The API's bodies: an orchestrator's probe reads both processes alike.
    expect(await (await get('/health/live'))!.json()).toEqual({ vivo: true });
    await expect.poll(async () => (await get('/health/ready'))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
    expect(await (await get('/health/ready'))!.json()).toMatchObject({ pronto: true, motivos: [] });
    const metricas = await (await get('/metrics'))!.text();
    expect(metricas).toMatch(new RegExp(`^projetor_eventos_total\\{[^}]*topico="${mundo.topicos.imoveis}"[^}]*\\} 1$`, 'm'));
    expect(metricas).toMatch(new RegExp(`^projetor_eventos_rejeitados_total\\{[^}]*motivo="json-invalido"[^}]*\\} 1$`, 'm'));
    expect(metricas).toMatch(/^projetor_em_dia_ha_segundos \d+(\.\d+)?$/m);
    expect(metricas).toMatch(/^projetor_regras_desatualizadas 1$/m);
    // Its own rules now write beside the old ones: the projection's are mixed until a rebuild.
    const db = new Database(mundo.banco.caminho, { readonly: true });
    expect(db.prepare("SELECT valor FROM estado WHERE chave = 'regras'").get()).toEqual({ valor: null });
    db.close();
  });

  it('stops at start with one line naming a bad setting', async () => {
    const processo = spawn(...comandoServico('projector'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: 'http://fotos.exemplo.com.br', DATABASE_PATH: sqliteTemporario().caminho },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { codigo, stderr } = await fimComStderr(processo);
    expect(codigo).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('PHOTOS_BASE_URL')]);
  });

  it('the rebuild (pnpm run rebuild) stops at start with one line naming DATABASE_PATH when its folder cannot be made', async () => {
    const arquivo = sqliteTemporario();
    limpezas.push(() => arquivo.remover());
    writeFileSync(arquivo.caminho, '');
    const processo = spawn(...comandoServico('projector', 'rebuild.js'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: `${arquivo.caminho}/projecao.db` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { codigo, stderr } = await fimComStderr(processo);
    expect(codigo).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^configuração inválida: DATABASE_PATH: /)]);
  });

  it('stops at start with one line naming DATABASE_PATH when the projection cannot be opened for writing, and leaves no lock beside what is no projection', async () => {
    const pasta = sqliteTemporario();
    limpezas.push(() => pasta.remover());
    mkdirSync(pasta.caminho); // a folder where the file should be
    writeFileSync(`${pasta.caminho}-arquivo`, '');
    writeFileSync(`${pasta.caminho}-texto`, 'um arquivo de outra coisa');
    limpezas.push(() => rmSync(`${pasta.caminho}-texto`, { force: true }));
    // Another application's database: left as it was, its journal mode too.
    const alheio = new Database(`${pasta.caminho}-alheio`);
    alheio.exec('CREATE TABLE clientes (nome TEXT)');
    alheio.close();
    limpezas.push(() => rmSync(`${pasta.caminho}-alheio`, { force: true }));
    const alheioAntes = readFileSync(`${pasta.caminho}-alheio`);
    for (const [caminho, codigo] of [
      [pasta.caminho, /^EISDIR$/],
      [`${pasta.caminho}-texto`, /^SQLITE_NOTADB$/],
      [`${pasta.caminho}-alheio`, /^SQLITE_NOTADB$/],
      [`${pasta.caminho}-arquivo/projecao.db`, /^(ENOTDIR|EEXIST)$/], // its folder is a file
    ] as const) {
      const processo = spawn(...comandoServico('projector'), {
        cwd: RAIZ,
        env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: caminho, METRICS_PORT: '0', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { codigo: saiuCom, linhas } = await fimComLog(processo);
      expect(saiuCom).toBe(1);
      expect(linhas).toEqual([expect.objectContaining({ level: 60, code: expect.stringMatching(codigo), msg: expect.stringContaining('DATABASE_PATH') })]);
    }
    expect(existsSync(`${pasta.caminho}.projetor.lock`)).toBe(false);
    expect(existsSync(`${pasta.caminho}-texto.projetor.lock`)).toBe(false);
    expect(readFileSync(`${pasta.caminho}-alheio`).equals(alheioAntes)).toBe(true);
    expect(existsSync(`${pasta.caminho}-alheio-wal`)).toBe(false);

    // The rebuild likewise, at once, before it looks for any broker.
    const rebuild = spawn(...comandoServico('projector', 'rebuild.js'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: `${pasta.caminho}-texto`, KAFKA_BROKERS: '127.0.0.1:1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { codigo, stderr } = await fimComStderr(rebuild);
    expect(codigo).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([`configuração inválida: DATABASE_PATH: ${pasta.caminho}-texto: file is not a database`]);
    expect(existsSync(`${pasta.caminho}-texto.reconstrucao.lock`)).toBe(false);
  });

  it('stops at start with one line naming IMOVEIS_TOPIC when that topic is not on the brokers, leaving no dead-letter topic for it and no projection', async () => {
    const [ausente, existente] = [nomeUnico('ausente'), nomeUnico('condominios')];
    const kafka = criarClienteKafka({ brokers: inject('kafkaBrokers'), clientId: 'teste-topicos' });
    limpezas.push(() => kafka.close());
    await kafka.criarTopicos([{ nome: existente }]);
    const banco = sqliteTemporario();
    limpezas.push(() => banco.remover());
    const processo = spawn(...comandoServico('projector'), {
      cwd: RAIZ,
      env: {
        ...process.env,
        KAFKA_BROKERS: inject('kafkaBrokers').join(','),
        IMOVEIS_TOPIC: ausente,
        CONDOMINIOS_TOPIC: existente,
        PHOTOS_BASE_URL: FOTOS,
        DATABASE_PATH: banco.caminho,
        METRICS_PORT: '0',
        // Silent keeps the line it exits with.
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { codigo, linhas } = await fimComLog(processo);
    expect(codigo).toBe(1);
    expect(linhas).toEqual([expect.objectContaining({ level: 60, code: 'TOPICOS_AUSENTES', msg: expect.stringContaining(`${ausente} (IMOVEIS_TOPIC)`) })]);
    expect(await kafka.topicosAusentes([topicoDlq(ausente), topicoDlq(existente)])).toEqual([topicoDlq(ausente), topicoDlq(existente)]);
    // The API would serve an empty one, 200 with nothing in it, rather than its temporary failure.
    expect(existsSync(banco.caminho)).toBe(false);
  });

  it("refuses, with one line naming DATABASE_PATH, the demo's projection, and leaves it as it was", async () => {
    const banco = sqliteTemporario();
    limpezas.push(() => banco.remover());
    const demo = EscritorProjecao.abrir(banco.caminho, { daDemo: true });
    demo.gravarEstado('demo', 1);
    demo.close();
    const antes = readFileSync(banco.caminho);
    for (const [entrada, ambiente] of [
      ['server.js', { METRICS_PORT: '0', LOG_LEVEL: 'info' }],
      ['rebuild.js', { LOG_LEVEL: 'info' }],
    ] as const) {
      const processo = spawn(...comandoServico('projector', entrada), {
        cwd: RAIZ,
        env: { ...process.env, KAFKA_BROKERS: inject('kafkaBrokers').join(','), PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: banco.caminho, ...ambiente },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { codigo, linhas } = await fimComLog(processo);
      expect(codigo, entrada).toBe(1);
      expect(linhas, entrada).toEqual([expect.objectContaining({ level: 60, code: 'PROJECAO_DA_DEMO', msg: expect.stringContaining('DATABASE_PATH') })]);
    }
    expect(readFileSync(banco.caminho).equals(antes)).toBe(true);
    expect(existsSync(`${banco.caminho}.reconstrucao`)).toBe(false);
  });

  it('stops with one line naming METRICS_PORT when the port is taken, before the projection is created', async () => {
    const ocupante = createServer();
    await new Promise<void>((resolve) => ocupante.listen(0, '127.0.0.1', resolve));
    limpezas.push(() => void ocupante.close());
    const banco = sqliteTemporario();
    limpezas.push(() => banco.remover());
    const processo = spawn(...comandoServico('projector'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: banco.caminho, METRICS_PORT: String((ocupante.address() as AddressInfo).port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { codigo, stderr } = await fimComStderr(processo);
    expect(codigo).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^configuração inválida: METRICS_PORT: /)]);
    expect(existsSync(banco.caminho)).toBe(false);
  });

  it('refuses, with one line naming it, a projection left writing without fsync when the OS restarted', async () => {
    const banco = sqliteTemporario();
    limpezas.push(() => banco.remover());
    EscritorProjecao.abrir(banco.caminho).close();
    writeFileSync(marcadorDe(banco.caminho), 'um-boot-anterior\n');
    const processo = spawn(...comandoServico('projector'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: FOTOS, DATABASE_PATH: banco.caminho, METRICS_PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { codigo, linhas } = await fimComLog(processo);
    expect(codigo).toBe(1);
    expect(linhas).toEqual([expect.objectContaining({ level: 60, code: 'PROJECAO_NAO_CONFIAVEL', msg: expect.stringContaining(marcadorDe(banco.caminho)) })]);
  });
});

/** The real projector process; `limiteArquivoKb` caps the size of any file it writes (`ulimit -f`). */
function iniciarProcessoProjetor(
  mundo: Mundo,
  groupId: string,
  opcoes: { limiteArquivoKb?: number; saida?: 'inherit' | 'pipe'; portaMetricas?: number; sessaoMs?: number } = {},
): ChildProcess {
  const [node, args] = comandoServico('projector');
  const comando = [node, ...args];
  // bash's ulimit -f counts 1024-byte blocks; past it, a write fails with EFBIG, as on a full disk.
  const [programa, ...argumentos] =
    opcoes.limiteArquivoKb === undefined ? comando : ['bash', '-c', `ulimit -f ${opcoes.limiteArquivoKb} && exec "$@"`, 'bash', ...comando];
  return spawn(programa!, argumentos, {
    cwd: RAIZ,
    env: {
      ...process.env,
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      KAFKA_GROUP_ID: groupId,
      IMOVEIS_TOPIC: mundo.topicos.imoveis,
      CONDOMINIOS_TOPIC: mundo.topicos.condominios,
      DATABASE_PATH: mundo.banco.caminho,
      PHOTOS_BASE_URL: FOTOS,
      METRICS_PORT: String(opcoes.portaMetricas ?? 0),
      LOG_LEVEL: 'error',
      // A killed member is noticed after this; the restarted one gets its partitions back then.
      KAFKA_SESSION_TIMEOUT_MS: String(opcoes.sessaoMs ?? 6_000),
      // Far enough behind to write without fsync: a killed one leaves the marker the next takes over.
      DEFER_FSYNC_ABOVE_LAG: '100',
    },
    stdio: ['ignore', opcoes.saida ?? 'inherit', 'inherit'],
  });
}

type LinhaDeLog = { level: number; code?: string; msg: string };

/** How a process that should stop at once ended: its exit code and what it wrote to stderr. */
async function fimComStderr(processo: ChildProcess): Promise<{ codigo: number | null; stderr: string }> {
  let stderr = '';
  processo.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const codigo = await new Promise<number | null>((resolve) => processo.once('close', resolve));
  return { codigo, stderr };
}

/** Waits for a process started with stdout piped to exit: its exit code and its JSON log lines. */
async function fimComLog(processo: ChildProcess): Promise<{ codigo: number | null; linhas: LinhaDeLog[] }> {
  let saida = '';
  processo.stdout!.on('data', (d: Buffer) => (saida += d.toString()));
  const codigo = await new Promise<number | null>((resolve) => processo.once('close', resolve));
  return { codigo, linhas: saida.trim().split('\n').map((l) => JSON.parse(l) as LinhaDeLog) };
}
