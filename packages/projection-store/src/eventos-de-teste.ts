// Test support: register events built the way they arrive on Kafka, parsed by the contracts;
// applied without the projector, and pages read back as objects.
import { randomUUID } from 'node:crypto';
import { EventoCondominio, EventoImovel, decodificarEvento, type EventoCondominio as TEventoCondominio, type EventoImovel as TEventoImovel } from '@imoveis/contracts';
import type { EscritorProjecao } from './escritor-sqlite.ts';
import type { LeitorProjecao, PaginaItens } from './leitor.ts';
import { prepararEvento, type ContextoProjecao, type EventoPreparado } from '@imoveis/domain';
import { aplicarTransacaoSeAinda, type Efeito, type TransacaoProjecao } from './projecao.ts';

export const FOTOS = 'https://fotos.exemplo.com.br';

type Parcial = Record<string, unknown>;

export function registroImovel(id: string, sobre: Parcial = {}): Parcial {
  return {
    id,
    codigo: `AP${id.slice(0, 4).toUpperCase()}`,
    ativo: true,
    publicar_no_site: true,
    situacao: 'Disponível',
    tipo: 'Apartamento',
    categoria: 'Residencial',
    finalidade: 'Venda',
    titulo: 'Apartamento no centro',
    descricao_html: '<p>Sala ampla.</p>',
    endereco: { logradouro: 'Rua A', bairro: 'Centro', cidade: 'Curitiba', uf: 'PR', cep: '80010-000', exibicao: 'completo' },
    valores: { venda: 500_000, preco_sob_consulta: false },
    caracteristicas: ['Piscina'],
    fotos: [{ arquivo: 'imoveis/1.jpg', ordem: 1, principal: true, publica: true }],
    proprietario: { nome: 'Dona Privada', cpf: '529.982.247-25' },
    ...sobre,
  };
}

export function imovelSalvo(id: string, versao: number, sobre: Parcial = {}): TEventoImovel {
  return EventoImovel.parse(imovelSalvoBruto(id, versao, sobre));
}

/** The save as the register writes it, private fields included. */
function imovelSalvoBruto(id: string, versao: number, sobre: Parcial = {}): Parcial {
  return {
    evento_id: randomUUID(),
    tipo: 'imovel.salvo',
    versao_schema: 1,
    ocorrido_em: '2026-11-21T10:00:00.000-03:00',
    versao,
    dados: registroImovel(id, sobre),
  };
}

/** A save prepared as the projector prepares it: decoded from its JSON, its private values kept aside and masked in its text. */
export function imovelSalvoPreparado(id: string, versao: number, sobre: Parcial = {}, contexto: ContextoProjecao = { fotosBaseUrl: FOTOS }): EventoPreparado {
  const decodificado = decodificarEvento('imovel', id, JSON.stringify(imovelSalvoBruto(id, versao, sobre)));
  if (!decodificado.ok) throw new Error(decodificado.detalhe);
  return prepararEvento(decodificado.evento, contexto, decodificado.privados);
}

export function imovelExcluido(id: string, versao: number, codigo = 'AP0000'): TEventoImovel {
  return EventoImovel.parse({
    evento_id: randomUUID(),
    tipo: 'imovel.excluido',
    versao_schema: 1,
    ocorrido_em: '2026-11-21T10:00:00.000-03:00',
    versao,
    dados: { id, codigo },
  });
}

export function condominioSalvo(id: string, versao: number, nome: string): TEventoCondominio {
  return EventoCondominio.parse({
    evento_id: randomUUID(),
    tipo: 'condominio.salvo',
    versao_schema: 1,
    ocorrido_em: '2026-11-21T10:00:00.000-03:00',
    versao,
    dados: { id, nome, administradora: null, sindico: { nome: 'Síndico Privado' } },
  });
}

export function condominioExcluido(id: string, versao: number): TEventoCondominio {
  return EventoCondominio.parse({
    evento_id: randomUUID(),
    tipo: 'condominio.excluido',
    versao_schema: 1,
    ocorrido_em: '2026-11-21T10:00:00.000-03:00',
    versao,
    dados: { id },
  });
}

/** Events not prepared yet, applied as the projector applies them (one transaction, one instant). */
export function prepararEAplicarTransacao(
  escritor: EscritorProjecao,
  transacao: TransacaoProjecao<TEventoImovel | TEventoCondominio>,
  contexto: ContextoProjecao,
  agora: () => number,
): Efeito[] {
  return aplicarTransacaoSeAinda(escritor, { eventos: transacao.eventos.map((e) => prepararEvento(e, contexto)), offsets: transacao.offsets }, agora, () => true)!;
}

/** The removal items since `desdeMs` parsed, `removido_em` back in epoch milliseconds (tests compare instants). */
export function itensRemovidos(leitor: LeitorProjecao, desdeMs: number): { id: string; codigo: string; removidoEm: number }[] {
  const itens = JSON.parse(`[${leitor.listarRemovidos(desdeMs).toString()}]`) as { id: string; codigo: string; removido_em: string }[];
  return itens.map((item) => ({ id: item.id, codigo: item.codigo, removidoEm: Date.parse(item.removido_em) }));
}

/** The page's items parsed (the API never parses documents). */
export function itensDaPagina(pagina: PaginaItens): ({ id: string } & Record<string, unknown>)[] {
  return JSON.parse(`[${pagina.json.toString()}]`) as ({ id: string } & Record<string, unknown>)[];
}
