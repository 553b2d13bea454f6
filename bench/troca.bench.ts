// bench:troca — a rebuild's switch (decision 0006) on the benchmarks' projection of N properties,
// switched onto a copy of itself as rebuilds come out: identical, with 1 % of the documents
// different (a fix for a few), and with all of them different (new mapping rules, a new
// PHOTOS_BASE_URL). Prints how long each switch held the write lock, the rows it wrote, what
// partners see changed, and how far the instant it stamped is from its end (negative: before it,
// which partners' 1–2 minute margin must cover; decision 0005). No Kafka: the switch is SQLite alone. Needs free disk for two copies of
// the projection.
// Usage: pnpm bench:troca [--imoveis N] [--so igual|poucos|todos]
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database, EscritorProjecao, apagarProjecao, trocarProjecao } from '@imoveis/projection-store';
import { argumentoNumerico, inteiro, tabela } from './comum.ts';
import { DIRETORIO_BENCH, projecaoDeBench } from './projecao.ts';

const imoveis = argumentoNumerico('imoveis', 1_000_000);
const so = process.argv.includes('--so') ? process.argv[process.argv.indexOf('--so') + 1] : undefined;
const CENARIOS = [
  { nome: 'igual', documentos: 'nenhum documento diferente', filtro: 'false' },
  { nome: 'poucos', documentos: '1 % dos documentos diferentes', filtro: 'rowid % 100 = 0' },
  { nome: 'todos', documentos: 'todos os documentos diferentes', filtro: 'true' },
].filter((c) => so === undefined || c.nome === so);

const origem = await projecaoDeBench(imoveis);
const live = join(DIRETORIO_BENCH, 'troca-live.db');
const novo = join(DIRETORIO_BENCH, 'troca-novo.db');
const apagar = () => {
  for (const caminho of [live, novo]) apagarProjecao(caminho);
};

const linhas: (string | number)[][] = [];
try {
  for (const cenario of CENARIOS) {
    apagar();
    copyFileSync(origem, live);
    copyFileSync(origem, novo);
    // The rebuilt documents that differ: a character more in the title, the same size otherwise.
    const db = new Database(novo);
    db.exec(`UPDATE imoveis SET documento = replace(documento, '"titulo":"', '"titulo":"~') WHERE ${cenario.filtro}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();

    const escritor = EscritorProjecao.abrir(live);
    const inicio = performance.now();
    const resumo = trocarProjecao(escritor, novo, Date.now);
    const segundos = (performance.now() - inicio) / 1000;
    const instanteMenosFim = (resumo.instante - Date.now()) / 1000;
    escritor.close();
    console.log(`${cenario.nome}: ${segundos.toFixed(1)} s`);
    linhas.push([cenario.documentos, segundos.toFixed(1), instanteMenosFim.toFixed(1), inteiro(resumo.imoveis), inteiro(resumo.escritos), inteiro(resumo.mantidos), inteiro(resumo.alterados)]);
  }
} finally {
  apagar();
}
console.log(`\nTroca de ${inteiro(imoveis)} imóveis sobre uma cópia da projeção:\n`);
console.log(tabela(['reconstrução', 'troca (s)', 'instante − fim (s)', 'imóveis', 'linhas escritas', 'mantidos', 'alterados'], linhas));
