// bench:projector — replays 1,000,000 property events (and 20,000 condominiums) from the real
// broker into an empty projection, beside a bare kafkajs consumer reading the same topics.
// Prints events/s, peak RSS and CPU time per event of both processes, and the ratio.
// Usage: pnpm bench:projector [--imoveis N] [--condominios N]
import { createInterface } from 'node:readline';
import { criarClienteKafka } from '@imoveis/kafka';
import { enviarParaKafka, gerarCargaInicial } from '@imoveis/generator';
import { EscritorProjecao } from '@imoveis/projection-store';
import { argumentoNumerico, cpuSegundos, encerrar, esperarAte, iniciarServico, iniciarTs, inteiro, picoRssMb, servicos, tabela } from './comum.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const imoveis = argumentoNumerico('imoveis', 1_000_000);
const condominios = argumentoNumerico('condominios', 20_000);
const infra = await servicos();
const kafka = criarClienteKafka({ brokers: infra.kafkaBrokers, clientId: 'bench-projector' });
const sufixo = Date.now().toString(36);
const topicos = { imoveis: `bench.imoveis.${sufixo}`, condominios: `bench.condominios.${sufixo}` };
const dir = mkdtempSync(join(tmpdir(), 'bench-projector-'));

try {
  await kafka.criarTopicos([
    { nome: topicos.imoveis, particoes: 3, compactado: true },
    { nome: topicos.condominios, particoes: 1, compactado: true },
  ]);
  console.log(`produzindo ${inteiro(imoveis)} imóveis e ${inteiro(condominios)} condomínios…`);
  const produtor = await kafka.criarProdutor();
  let inicio = performance.now();
  const envio = await enviarParaKafka(gerarCargaInicial({ seed: 42, imoveis, condominios, taxaValoresRuins: 0.01 }), produtor, topicos, { loteTamanho: 500 });
  await produtor.close();
  const total = imoveis + condominios;
  console.log(`produzidos em ${((performance.now() - inicio) / 1000).toFixed(1)} s`, envio);

  const env = {
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    IMOVEIS_TOPIC: topicos.imoveis,
    CONDOMINIOS_TOPIC: topicos.condominios,
    LOG_LEVEL: 'warn',
  };

  // Baseline: the bare consumer, from process start to its last message.
  inicio = performance.now();
  const nu = iniciarTs('bench/consumidor-nu.ts', { ...env, BENCH_TOTAL: String(total), KAFKA_GROUP_ID: `nu-${sufixo}` }, 'pipe');
  let rssNu: number | null = null;
  let cpuNu: number | null = null;
  await new Promise<void>((resolve) => {
    createInterface({ input: nu.stdout! }).once('line', () => {
      rssNu = picoRssMb(nu.pid);
      cpuNu = cpuSegundos(nu.pid);
      resolve();
    });
  });
  const segundosNu = (performance.now() - inicio) / 1000;
  await encerrar(nu);

  // The projector, the real process, from start until the projection holds every offset.
  const banco = join(dir, 'projecao.db');
  EscritorProjecao.abrir(banco).close();
  inicio = performance.now();
  const projetor = iniciarServico('projector', 'server.js', {
    ...env,
    KAFKA_GROUP_ID: `projetor-${sufixo}`,
    DATABASE_PATH: banco,
    PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
  }, 'pipe');
  // Each (re)join of the group logs its assignment: more than one means the replay rebalanced.
  let entradasNoGrupo = 0;
  createInterface({ input: projetor.stdout! }).on('line', (linha) => {
    const { level = 50, msg } = (linha.startsWith('{') ? JSON.parse(linha) : {}) as { level?: number; msg?: string };
    if (msg === 'partições atribuídas') entradasNoGrupo++;
    if (level >= 40) console.log(linha);
  });
  const escritor = EscritorProjecao.abrir(banco);
  const fins = [...(await kafka.fimDasParticoes(topicos.imoveis)).entries()].map(([p, f]) => [topicos.imoveis, p, BigInt(f)] as const)
    .concat([...(await kafka.fimDasParticoes(topicos.condominios)).entries()].map(([p, f]) => [topicos.condominios, p, BigInt(f)] as const));
  let rssProjetor: number | null = null;
  await esperarAte(() => {
    rssProjetor = picoRssMb(projetor.pid) ?? rssProjetor;
    return fins.every(([t, p, fim]) => BigInt(escritor.offsetDe(t, p) ?? '0') >= fim);
  }, 250);
  const segundosProjetor = (performance.now() - inicio) / 1000;
  rssProjetor = picoRssMb(projetor.pid) ?? rssProjetor;
  const cpuProjetor = cpuSegundos(projetor.pid);
  escritor.close();
  await encerrar(projetor);

  // The process's CPU time (every thread) per event: what a replay costs, whatever else ran.
  const microPorEvento = (cpu: number | null) => (cpu === null ? '?' : ((cpu * 1e6) / total).toFixed(0));
  const taxaNu = total / segundosNu;
  const taxaProjetor = total / segundosProjetor;
  console.log();
  console.log(
    tabela(
      ['processo', 'eventos', 'segundos', 'eventos/s', 'pico RSS (MB)', 'CPU µs/evento'],
      [
        ['consumidor kafkajs nu (linha de base)', inteiro(total), segundosNu.toFixed(1), inteiro(taxaNu), rssNu ?? '?', microPorEvento(cpuNu)],
        ['projetor', inteiro(total), segundosProjetor.toFixed(1), inteiro(taxaProjetor), rssProjetor ?? '?', microPorEvento(cpuProjetor)],
      ],
    ),
  );
  const razao = taxaProjetor / taxaNu;
  console.log();
  console.log(`razão projetor / consumidor nu: ${razao.toFixed(2)} (meta ≥ 0.5) ${razao >= 0.5 ? 'OK' : 'ABAIXO'}`);
  console.log(`projetor: ${inteiro(taxaProjetor)} eventos/s (meta ≥ 20,000) ${taxaProjetor >= 20_000 ? 'OK' : 'ABAIXO'}`);
  console.log(`pico RSS do projetor: ${rssProjetor ?? '?'} MB (meta < 400) ${(rssProjetor ?? Infinity) < 400 ? 'OK' : 'ACIMA'}`);
  console.log(`entradas do projetor no grupo: ${entradasNoGrupo} (1: nunca expulso durante a reprodução) ${entradasNoGrupo === 1 ? 'OK' : 'REBALANCEOU'}`);
} finally {
  await kafka.close();
  await infra.stop();
  rmSync(dir, { recursive: true, force: true });
}
