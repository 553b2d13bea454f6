// The generator's command line with --kafka: a scenario sent to the register topics the projector
// reads (KAFKA_BROKERS, IMOVEIS_TOPIC, CONDOMINIOS_TOPIC), created as docker-compose.yml creates them.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { TopicoRegistro } from '@imoveis/contracts';
import { gerarCenario } from '@imoveis/generator';
import { criarClienteKafka } from '@imoveis/kafka';
import { nomeUnico } from '../helpers.ts';

const executar = promisify(execFile);
const CLI = fileURLToPath(new URL('../../packages/generator/src/cli.ts', import.meta.url));

/** A record as text, to compare what the topic holds with what the generator made. */
const linha = (chave: string | null, valor: string | null): string => JSON.stringify([chave, valor]);

describe('generator command line --kafka', () => {
  const brokers = inject('kafkaBrokers');
  const kafka = criarClienteKafka({ brokers, clientId: nomeUnico('gerador-cli') });
  afterAll(async () => {
    await kafka.close();
  });

  it('sends every keyed record to its register topic, creating the topics compacted with 3 partitions', { timeout: 60_000 }, async () => {
    const topicos: Record<TopicoRegistro, string> = { imoveis: nomeUnico('gerador.imoveis'), condominios: nomeUnico('gerador.condominios') };
    const { stderr } = await executar(
      process.execPath,
      ['--import', 'tsx', CLI, '--seed', '5', '--imoveis', '40', '--condominios', '4', '--mutacoes', '80', '--taxa-venenos', '0.3', '--kafka'],
      { env: { ...process.env, KAFKA_BROKERS: brokers.join(','), IMOVEIS_TOPIC: topicos.imoveis, CONDOMINIOS_TOPIC: topicos.condominios } },
    );

    const esperados: Record<TopicoRegistro, string[]> = { imoveis: [], condominios: [] };
    let semChave = 0;
    for (const r of gerarCenario({ seed: 5, imoveis: 40, condominios: 4, mutacoes: 80, taxaVenenos: 0.3 })) {
      // A poison without a key, which a compacted topic refuses, is left out and counted.
      if (r.chave === null) semChave++;
      else esperados[r.topico].push(linha(r.chave, r.valor));
    }
    expect(semChave).toBeGreaterThan(0);
    expect(stderr).toContain(`${semChave} registros sem chave deixados de fora`);
    expect(stderr).toMatch(new RegExp(`^${esperados.imoveis.length + esperados.condominios.length} registros em`, 'm'));

    for (const topico of ['imoveis', 'condominios'] as const) {
      expect(await kafka.descreverTopico(topicos[topico])).toMatchObject({ particoes: 3, config: { 'cleanup.policy': 'compact' } });
      const lidos: string[] = [];
      await kafka.lerTopico(topicos[topico], (m) => lidos.push(linha(m.key?.toString('utf8') ?? null, m.value?.toString('utf8') ?? null)));
      // Partitions interleave on reading; each key's order is Kafka's to keep.
      expect(lidos.sort()).toEqual(esperados[topico].sort());
    }
  });

  it('says in one line which brokers it could not reach, without the usage', { timeout: 60_000 }, async () => {
    const falha = await executar(process.execPath, ['--import', 'tsx', CLI, '--imoveis', '1', '--kafka'], {
      env: { ...process.env, KAFKA_BROKERS: '127.0.0.1:1' },
    }).catch((erro: { code: number; stderr: string }) => erro);
    expect(falha).toMatchObject({ code: 1 });
    expect((falha as { stderr: string }).stderr.trim()).toMatch(/^Kafka inacessível em 127\.0\.0\.1:1 \(KAFKA_BROKERS\): [^\n]+$/);
  });
});
