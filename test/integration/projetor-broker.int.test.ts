// The projector survives a broker restart: it reconnects and goes on, it does not exit. This test
// owns its broker (the shared one must not go down under other tests).
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarClienteKafka, type ClienteKafka } from '@imoveis/kafka';
import { EscritorProjecao, LeitorSqlite } from '@imoveis/projection-store';
import { criarProjetor, type Projetor } from '@imoveis/projector';
import type { KafkaIniciado } from '../infra/kafka-broker.ts';
import { iniciarKafkaProprio } from '../infra/servicos.ts';
import { nomeUnico, sqliteTemporario } from '../helpers.ts';

const topicos = { imoveis: nomeUnico('imoveis'), condominios: nomeUnico('condominios') };
const banco = sqliteTemporario();
// Undefined until beforeAll gets that far: afterAll must not hide why it stopped.
let broker: KafkaIniciado | undefined;
let kafka: ClienteKafka | undefined;
let escritor: EscritorProjecao | undefined;
let projetor: Projetor | undefined;
const falhas: Error[] = [];

const evento = (id: string) =>
  JSON.stringify({
    evento_id: randomUUID(),
    tipo: 'imovel.salvo',
    versao_schema: 1,
    ocorrido_em: '2026-11-21T10:00:00.000-03:00',
    versao: 1,
    dados: {
      id,
      codigo: `AP${id.slice(0, 4)}`,
      ativo: true,
      publicar_no_site: true,
      situacao: 'Disponível',
      endereco: { exibicao: 'somente_bairro', bairro: 'Centro' },
      valores: { preco_sob_consulta: true },
      caracteristicas: [],
      fotos: [],
    },
  });

async function publicar(quantos: number): Promise<void> {
  const produtor = await kafka!.criarProdutor();
  try {
    const ids = Array.from({ length: quantos }, () => randomUUID());
    await produtor.enviar(topicos.imoveis, ids.map((id) => ({ key: id, value: evento(id) })));
  } finally {
    await produtor.close();
  }
}

const anunciados = () => {
  const leitor = LeitorSqlite.abrir(banco.caminho);
  try {
    return leitor.listarAnunciados({ aposId: null, limite: 1 }).total;
  } finally {
    leitor.close();
  }
};

beforeAll(async () => {
  broker = await iniciarKafkaProprio();
  const cliente = (kafka = criarClienteKafka({ brokers: broker.brokers, clientId: nomeUnico('reinicio') }));
  await cliente.criarTopicos([
    { nome: topicos.imoveis, particoes: 2, compactado: true },
    { nome: topicos.condominios, particoes: 1, compactado: true },
  ]);
  escritor = EscritorProjecao.abrir(banco.caminho);
  projetor = criarProjetor({
    kafka: cliente,
    escritor,
    contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' },
    groupId: nomeUnico('grupo'),
    topicos,
    log: pino({ level: 'silent' }),
    intervaloFrescorMs: 500,
    aoFalhar: (erro) => void falhas.push(erro),
  });
  await projetor.iniciar();
}, 120_000);

afterAll(async () => {
  await projetor?.parar();
  await kafka?.close();
  escritor?.close();
  await broker?.stop();
  banco.remover();
});

describe('projector and a broker restart', () => {
  it('reconnects after the broker restarts and applies what was produced after it', async () => {
    await publicar(40);
    await expect.poll(anunciados, { timeout: 30_000 }).toBe(40);

    await broker!.reiniciar!();
    await publicar(25);
    await expect.poll(anunciados, { timeout: 90_000, interval: 500 }).toBe(65);
    expect(falhas).toEqual([]);
    // And it keeps confirming its freshness against the restarted broker.
    await expect.poll(async () => (await projetor!.medirFrescor()).atraso, { timeout: 30_000 }).toBe(0);
  }, 180_000);

  it('stops within seconds once the broker is gone: leaving the group is not waited for past a bound', async () => {
    await broker!.stop();
    const inicio = Date.now();
    await projetor!.parar();
    // kafkajs alone waited for its request timeout and retries: past a supervisor's grace period.
    expect(Date.now() - inicio).toBeLessThan(12_000);
    expect(falhas).toEqual([]);
  }, 90_000);
});
