// The three partner operations. The reader hands over pages and properties as ready-made JSON
// bytes: documents are never parsed, re-serialised or even decoded here (the response schemas
// feed the OpenAPI document).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  Erro,
  ListagemImoveis,
  ListagemRemovidos,
  Imovel,
  ListarImoveisQuery,
  ListarRemovidosQuery,
  ObterImovelParams,
  ObterImovelQuery,
  POR_PAGINA,
} from '@imoveis/contracts';
import type { LeitorProjecao, PaginaItens } from '@imoveis/projection-store';
import { ImovelNaoEncontrado, ProjecaoIndisponivel } from '../erros.ts';
import type { FalhasDeLeitura, FonteProjecao } from '../fonte-projecao.ts';
import { JSON_UTF8, rotaNaoEncontrada } from '../plugins/erros.plugin.ts';

const ABRE_DADOS = Buffer.from('{"dados":[');

/** `{"dados":[...],"por_pagina":n,"proximo_cursor":..,"total":n}` around the page's ready-made items. */
export function montarListagem(pagina: PaginaItens, porPagina: number): Buffer {
  const cursor = pagina.proximoCursor === null ? 'null' : `"${pagina.proximoCursor}"`;
  const fecho = Buffer.from(`],"por_pagina":${porPagina},"proximo_cursor":${cursor},"total":${pagina.total}}`);
  return Buffer.concat([ABRE_DADOS, pagina.json, fecho], ABRE_DADOS.length + pagina.json.length + fecho.length);
}

const FECHA_DADOS = Buffer.from(']}');

/** `{"dados":[...]}` around the removal items the reader wrote. */
export function montarRemovidos(itens: Buffer): Buffer {
  return Buffer.concat([ABRE_DADOS, itens, FECHA_DADOS], ABRE_DADOS.length + itens.length + FECHA_DADOS.length);
}

/** Weak (compression changes the bytes, not the meaning); moves whenever `atualizado_em` does. */
export function etagImovel(id: string, atualizadoEm: number): string {
  return `W/"v1-${id}-${atualizadoEm.toString(36)}"`;
}

/** If-None-Match per RFC 9110 §13.1.2: weak comparison, a list, or `*`. */
export function etagCorresponde(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaca = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((item) => {
    const t = item.trim();
    return t === '*' || t.replace(/^W\//, '') === opaca;
  });
}

// The typed reply only accepts the schema's object shapes; ready-made JSON text goes untyped.
const bruto = (reply: unknown): FastifyReply => reply as FastifyReply;
function enviarJson(reply: unknown, json: string | Buffer): void {
  bruto(reply).type(JSON_UTF8).send(json);
}

// Beside the contract's statuses, the two every route may also answer: 406 (an Accept that rules
// out JSON) and 503 (overload, or a projection not there yet where the contract lists no 500:
// decision 0013). The contract documents its 500 for /imoveis only.
const ERROS_COMUNS = { 400: Erro, 401: Erro, 406: Erro, 429: Erro, 503: Erro } as const;

/**
 * What `ler` reads from the projection. A projection not there yet, or a read its file fails
 * (corrupt, an I/O error, locked past SQLite's wait: `falhas`), is the contract's temporary
 * failure: a 500 on `/imoveis`, a 503 where the contract lists no 500 (`sem500`, decision 0013).
 */
function lerDaProjecao<T>(fonte: FonteProjecao, falhas: FalhasDeLeitura, sem500: boolean, ler: (leitor: LeitorProjecao) => T): T {
  const indisponivel = (erro: ProjecaoIndisponivel) => (sem500 ? erro.naOperacaoSem500() : erro);
  let leitor: LeitorProjecao;
  try {
    leitor = fonte.atual();
  } catch (erro) {
    throw erro instanceof ProjecaoIndisponivel ? indisponivel(erro) : erro;
  }
  try {
    return ler(leitor);
  } catch (erro) {
    if (!falhas.registrar(erro)) throw erro;
    throw indisponivel(new ProjecaoIndisponivel({ cause: erro }));
  }
}

/** The partner routes' paths, relative to the API prefix. */
export const CAMINHOS = { listagem: '/imoveis', removidos: '/imoveis/removidos', imovel: '/imoveis/:id' } as const;

// A fragment (`#`) ends the path as a query does: the router reads it so.
const CAMINHO_DE_PARCEIRO = /^\/imoveis(?:\/([^/?#]+))?(?:[?#]|$)/;

/**
 * The partner route a URL relative to the prefix belongs to, whatever its method, or null: what
 * a method other than GET is refused on with 405, and what the metrics count that 405 under.
 */
export function rotaDeParceiro(url: string): string | null {
  const casamento = CAMINHO_DE_PARCEIRO.exec(url);
  if (casamento === null) return null;
  const segmento = casamento[1];
  return segmento === undefined ? CAMINHOS.listagem : segmento === 'removidos' ? CAMINHOS.removidos : CAMINHOS.imovel;
}

export function rotasImoveis(fonte: FonteProjecao, falhas: FalhasDeLeitura) {
  return function imoveisRoutes(app: FastifyInstance, _opcoes: unknown, pronto: () => void): void {
    const rotas = app.withTypeProvider<ZodTypeProvider>();

    rotas.get(
      CAMINHOS.listagem,
      {
        schema: {
          operationId: 'listarImoveis',
          summary: 'Lista imóveis anunciados (varredura completa) ou alterados desde um instante (incremental)',
          description: [
            'Paginada por cursor, em ordem estável por `id`.',
            '',
            '1. Sem `alterados_desde` (varredura completa), só imóveis anunciados, todos como Imovel. Um imóvel da sua cópia ausente da varredura não está mais anunciado: remova-o.',
            '2. Com `alterados_desde` (incremental), tudo o que foi criado ou alterado desde esse instante (inclusivo), inclusive imóveis que deixaram de estar anunciados, que vêm como ImovelRetirado (`publicado: false`: remova-os do portal).',
            '3. `proximo_cursor` só não é `null` quando existe outra página com dados. Uma página intermediária nunca é vazia.',
            '4. `total` é o total de todo o filtro.',
            '5. A listagem incremental é paginada por cursor da mesma forma que a varredura completa.',
          ].join('\n'),
          tags: ['imoveis'],
          querystring: ListarImoveisQuery,
          response: { 200: ListagemImoveis, ...ERROS_COMUNS, 500: Erro },
        },
      },
      (request, reply) => {
        const { por_pagina: porPagina = POR_PAGINA.padrao, cursor, alterados_desde: desde } = request.query;
        const aposId = cursor ?? null;
        const pagina = lerDaProjecao(fonte, falhas, false, (leitor) =>
          desde === undefined
            ? leitor.listarAnunciados({ aposId, limite: porPagina })
            : leitor.listarAlterados({ desdeMs: desde.getTime(), aposId, limite: porPagina }),
        );
        enviarJson(reply, montarListagem(pagina, porPagina));
      },
    );

    // Registered before `/imoveis/:id` for readability; the router prefers static segments anyway.
    rotas.get(
      CAMINHOS.removidos,
      {
        schema: {
          operationId: 'listarRemovidos',
          summary: 'Lista exclusões físicas do cadastro desde um instante',
          description:
            'Exclusões físicas do cadastro desde `desde` (inclusivo), da mais antiga à mais recente; remova do portal cada imóvel retornado. Despublicar ou inativar não é exclusão: esses vêm na listagem incremental de `/imoveis`.',
          tags: ['imoveis'],
          querystring: ListarRemovidosQuery,
          response: { 200: ListagemRemovidos, ...ERROS_COMUNS },
        },
      },
      (request, reply) => {
        enviarJson(reply, montarRemovidos(lerDaProjecao(fonte, falhas, true, (leitor) => leitor.listarRemovidos(request.query.desde.getTime()))));
      },
    );

    rotas.get(
      CAMINHOS.imovel,
      {
        schema: {
          operationId: 'obterImovel',
          summary: 'Obtém um imóvel anunciado',
          description:
            'Um Imovel com os mesmos campos da listagem, sem envelope. 404 quando o imóvel não existe ou não está anunciado. Traz `ETag`: com `If-None-Match` igual, 304 sem corpo.',
          tags: ['imoveis'],
          params: ObterImovelParams,
          querystring: ObterImovelQuery,
          response: { 200: Imovel, 404: Erro, ...ERROS_COMUNS },
        },
        // `/imoveis/` (the listing with a trailing slash) is no request for a property: a 404, as
        // every other partner path with one, not a 400 naming an `id` the client never sent.
        preValidation: async (request) => {
          if (request.params.id === '') rotaNaoEncontrada(request);
        },
      },
      (request, reply) => {
        const achado = lerDaProjecao(fonte, falhas, true, (leitor) => leitor.obterAnunciado(request.params.id));
        if (achado === null) throw new ImovelNaoEncontrado();
        const etag = etagImovel(request.params.id, achado.atualizadoEm);
        reply.header('ETag', etag);
        if (etagCorresponde(request.headers['if-none-match'], etag)) bruto(reply).code(304).send();
        else enviarJson(reply, achado.json);
      },
    );
    pronto();
  };
}
