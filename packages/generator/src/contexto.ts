// The makers shared by the initial load and the mutation stream, built from the same options so
// that both regenerate exactly the same aggregates.
import { FabricaCondominios } from './condominio-gerador.ts';
import { PASSO_CARGA_MS } from './fluxos.ts';
import { FabricaImoveis } from './imovel-gerador.ts';
import type { OpcoesNormalizadas } from './opcoes.ts';

export interface Contexto {
  opcoes: OpcoesNormalizadas;
  imoveis: FabricaImoveis;
  condominios: FabricaCondominios;
  /** First instant of the mutation stream: a minute after the initial load ends. */
  inicioMutacoesMs: number;
}

export function criarContexto(opcoes: OpcoesNormalizadas): Contexto {
  const condominios = new FabricaCondominios(opcoes.seed, opcoes.inicioMs, opcoes.imoveis, opcoes.condominios);
  const imoveis = new FabricaImoveis({
    semente: opcoes.seed,
    taxaValoresRuins: opcoes.taxaValoresRuins,
    inicioMs: opcoes.inicioMs,
    condominios: opcoes.condominios,
    idCondominio: (j) => condominios.id(j),
  });
  return {
    opcoes,
    imoveis,
    condominios,
    inicioMutacoesMs: opcoes.inicioMs + (opcoes.imoveis + 1) * PASSO_CARGA_MS + 60_000,
  };
}
