// The benchmarks' projection of N properties, made by the generator through the projector's code.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RegistroBruto } from '@imoveis/contracts';
import { gerarCargaInicial, gerarMutacoes } from '@imoveis/generator';
import { projetarRegistros } from '@imoveis/projector';
import { EscritorProjecao, apagarProjecao } from '@imoveis/projection-store';
import { RAIZ, inteiro } from './comum.ts';

export const DIRETORIO_BENCH = join(RAIZ, '.cache', 'bench');

/**
 * The projection, built once and cached: the initial load one batch per simulated second, then
 * 1 % of the properties changed in later batches and 0.01 % in the very last one, so that
 * bench:api's incremental windows hold those shares.
 */
export async function projecaoDeBench(n: number): Promise<string> {
  mkdirSync(DIRETORIO_BENCH, { recursive: true });
  const caminho = join(DIRETORIO_BENCH, `projecao-${n}.db`);
  if (existsSync(caminho)) {
    EscritorProjecao.abrir(caminho).close(); // migrates one built by an older schema
    return caminho;
  }
  const temporario = `${caminho}.construindo`;
  apagarProjecao(temporario);
  console.log(`construindo a projeção de ${inteiro(n)} imóveis (uma vez; fica em ${caminho})…`);
  const escritor = EscritorProjecao.abrir(temporario);
  let relogio = Date.parse('2026-01-01T12:00:00Z');
  const contexto = { fotosBaseUrl: 'https://fotos.exemplo.com.br' };
  const inicio = performance.now();
  const opcoes = { seed: 7, imoveis: n, condominios: Math.max(1, Math.round(n / 50)), taxaValoresRuins: 0.01 };
  await projetarRegistros(escritor, gerarCargaInicial(opcoes), { contexto, agora: () => (relogio += 1_000) });
  // Changes: price, photos, withdrawals… (poison and deletions included) over later batches.
  const mutacoes = [...gerarMutacoes({ ...opcoes, mutacoes: Math.round(n * 0.012), taxaVenenos: 0 })] as RegistroBruto[];
  await projetarRegistros(escritor, mutacoes.slice(0, -Math.round(n * 0.0001)), { contexto, agora: () => (relogio += 60_000) });
  await projetarRegistros(escritor, mutacoes.slice(-Math.round(n * 0.0001)), { contexto, agora: () => (relogio += 3_600_000) });
  escritor.registrarFrescor({ registradoEm: Date.now(), emDiaEm: Date.now(), atraso: 0 });
  escritor.checkpoint();
  escritor.close();
  for (const sufixo of ['-wal', '-shm']) rmSync(temporario + sufixo, { force: true });
  renameSync(temporario, caminho);
  console.log(`  pronta em ${((performance.now() - inicio) / 1000).toFixed(0)} s`);
  return caminho;
}

