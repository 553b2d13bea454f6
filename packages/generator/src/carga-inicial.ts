// The initial load: every condominium and property once, at its register revision, condominiums
// spread through the properties so some properties arrive before their condominium.
import { criarContexto, type Contexto } from './contexto.ts';
import { eventoCondominioSalvo, eventoImovelSalvo, registroCondominio, registroImovel } from './eventos.ts';
import { gerarMutacoes } from './mutacoes.ts';
import { normalizarOpcoes, type OpcoesGerador } from './opcoes.ts';
import type { RegistroBruto } from '@imoveis/contracts';

function registroCondominioInicial(ctx: Contexto, j: number): RegistroBruto {
  const c = ctx.condominios.gerar(j);
  return registroCondominio(eventoCondominioSalvo(c.eventoIdInicial, c.versaoInicial, c.ocorridoInicialMs, c.dados));
}

/** Streams the initial load: `imoveis` property events and `condominios` condominium events. */
export function* gerarCargaInicial(opcoes: Partial<OpcoesGerador> = {}): Generator<RegistroBruto, void, undefined> {
  const ctx = criarContexto(normalizarOpcoes(opcoes));
  const { imoveis, condominios } = ctx.opcoes;
  let j = 0;
  for (let i = 0; i < imoveis; i++) {
    while (j < condominios && ctx.condominios.posicaoNaCarga(j) <= i) yield registroCondominioInicial(ctx, j++);
    const p = ctx.imoveis.gerar(i);
    yield registroImovel(eventoImovelSalvo(p.eventoIdInicial, p.versaoInicial, p.ocorridoInicialMs, p.dados));
  }
  while (j < condominios) yield registroCondominioInicial(ctx, j++);
}

/** The initial load followed by the mutation stream, from the same options. */
export function* gerarCenario(opcoes: Partial<OpcoesGerador> = {}): Generator<RegistroBruto, void, undefined> {
  yield* gerarCargaInicial(opcoes);
  yield* gerarMutacoes(opcoes);
}
