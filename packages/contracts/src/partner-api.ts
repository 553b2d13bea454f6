// Partner resources and request parameters (partner-api.md, interface 1.0.0). These schemas are
// the types, the request validation and the served OpenAPI document at once.
import { z } from 'zod';
import { comDataDoCalendario, paraRfc3339, semHora24NemSegundo60 } from './data-hora.ts';
import { dataHoraComFuso, uuidMinusculo } from './formatos.ts';

/** The version prefix every partner address starts with (part of the partners' {base_url}). */
export const PREFIXO_API = '/api/v1';
export const POR_PAGINA = { minimo: 1, maximo: 200, padrao: 50 } as const;

export const CATEGORIAS = ['Residencial', 'Comercial'] as const;
export const FINALIDADES = ['Venda', 'Locação', 'Venda e Locação'] as const;
export const STATUS_COMERCIAIS = ['Disponível', 'Reservado', 'Em negociação'] as const;
export const PERIODICIDADES_IPTU = ['Mensal', 'Anual'] as const;
export const MOBILIADO = ['Mobiliado', 'Não'] as const;
export const EXIBIR_ENDERECO = ['rua', 'bairro'] as const;

export const Foto = z
  .object({
    url: z.url(),
    ordem: z.int().min(1),
    principal: z.boolean(),
  })
  .meta({ id: 'Foto' });
export type Foto = z.infer<typeof Foto>;

export const Imovel = z
  .object({
    id: z.guid(),
    codigo: z.string(),
    publicado: z.literal(true),
    tipo: z.string().nullable(),
    categoria: z.enum(CATEGORIAS).nullable(),
    finalidade: z.enum(FINALIDADES).nullable(),
    status_comercial: z.enum(STATUS_COMERCIAIS).nullable(),
    lancamento: z.boolean(),
    titulo: z.string().describe('Texto simples, digitado pelo corretor: escape-o ao exibi-lo em HTML.'),
    descricao: z
      .string()
      .nullable()
      .describe(
        'Texto simples, sem HTML, com quebras de linha. Um `<`, `>` ou `&` nele é texto do anúncio (o editor o escreveu como entidade: "&lt;3 quartos"), não marcação: escape-o ao exibi-lo em HTML.',
      ),
    logradouro: z.string().nullable().describe('`null` quando a imobiliária oculta o endereço.'),
    numero: z.null().describe('Sempre `null`: o número não é divulgado.'),
    complemento: z.null().describe('Sempre `null`.'),
    bairro: z.string().nullable(),
    cidade: z.string().nullable(),
    uf: z.string().nullable(),
    cep: z.string().regex(/^\d{8}$/).nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    exibir_endereco: z.enum(EXIBIR_ENDERECO),
    valor_venda: z.number().nullable(),
    valor_aluguel: z.number().nullable().describe('Mensal.'),
    valor_condominio: z.number().nullable(),
    valor_iptu: z.number().nullable(),
    periodicidade_iptu: z.enum(PERIODICIDADES_IPTU).nullable(),
    ocultar_preco: z.boolean(),
    aceita_financiamento: z.boolean().nullable(),
    aceita_permuta: z.boolean().nullable(),
    mobiliado: z.enum(MOBILIADO).nullable(),
    quartos: z.int().min(0).nullable(),
    suites: z.int().min(0).nullable(),
    banheiros: z.int().min(0).nullable(),
    vagas: z.int().min(0).nullable(),
    area_util: z.number().nullable(),
    area_total: z.number().nullable(),
    nome_condominio: z.string().nullable(),
    // "Without repeated entries": checked here, and stated in the OpenAPI document.
    caracteristicas: z
      .array(z.string())
      .refine((lista) => new Set(lista).size === lista.length, 'entradas repetidas')
      .meta({ uniqueItems: true }),
    fotos: z.array(Foto),
    video_url: z.url().nullable(),
    tour_virtual_url: z.string().nullable(),
    criado_em: dataHoraComFuso.nullable(),
    atualizado_em: dataHoraComFuso.nullable(),
  })
  .meta({ id: 'Imovel' });
export type Imovel = z.infer<typeof Imovel>;
/** The partner document as the projector stores it: everything but the commit instant. */
export type DocumentoImovel = Omit<Imovel, 'atualizado_em'>;

export const ImovelRetirado = z
  .object({
    id: z.guid(),
    codigo: z.string(),
    publicado: z.literal(false),
    atualizado_em: dataHoraComFuso.nullable(),
  })
  .meta({ id: 'ImovelRetirado' });
export type ImovelRetirado = z.infer<typeof ImovelRetirado>;

export const ItemRemovido = z
  .object({
    id: z.guid(),
    codigo: z.string(),
    removido_em: dataHoraComFuso,
  })
  .meta({ id: 'ItemRemovido' });
export type ItemRemovido = z.infer<typeof ItemRemovido>;

export const ListagemImoveis = z
  .object({
    dados: z.array(z.union([Imovel, ImovelRetirado])),
    por_pagina: z.int().min(POR_PAGINA.minimo).max(POR_PAGINA.maximo),
    proximo_cursor: z.guid().nullable(),
    total: z.int().min(0).nullable(),
  })
  .meta({ id: 'ListagemImoveis' });
export type ListagemImoveis = z.infer<typeof ListagemImoveis>;

export const ListagemRemovidos = z.object({ dados: z.array(ItemRemovido) }).meta({ id: 'ListagemRemovidos' });
export type ListagemRemovidos = z.infer<typeof ListagemRemovidos>;

export const Erro = z.object({ mensagem: z.string() }).meta({ id: 'Erro' });
export type Erro = z.infer<typeof Erro>;

// ---- Request parameters ----------------------------------------------------------------------

/** A query parameter sent twice arrives as an array; the contract has no list parameters. */
function unico(valor: unknown, ctx: z.RefinementCtx): unknown {
  if (!Array.isArray(valor)) return valor;
  ctx.addIssue({ code: 'custom', message: 'enviado mais de uma vez', input: valor });
  return z.NEVER;
}

/**
 * The date-time a client meant, in the RFC 3339 form the schema checks: every form of ISO 8601
 * with an offset (the calendar forms `paraRfc3339` reads, ordinal and week dates, `24:00`, a leap
 * second), and a `+` in the offset that was not sent as `%2B` (so it arrived as a space:
 * `2026-11-21T10:00:00 03:00`) read as the `+` it was.
 */
export function normalizarDataHora(valor: string): string {
  const comMais = comDataDoCalendario(valor).replace(/^(\d{4}-?\d{2}-?\d{2}[Tt][0-9:.,]+) (\d{2}(?::?\d{2})?)$/, '$1+$2');
  return semHora24NemSegundo60(paraRfc3339(comMais));
}

/**
 * The instant a listing starts from, at the millisecond instants are stored with: a finer
 * fraction rounds up, since `…58.2459Z` comes after everything stored at `…58.245Z`. Truncated,
 * it would return what changed up to a millisecond before the instant asked for.
 */
function inicioAoMilissegundo(texto: string): Date {
  const data = new Date(texto);
  const alemDoMilissegundo = /\.\d{3}(\d+)/.exec(texto)?.[1];
  return alemDoMilissegundo !== undefined && /[1-9]/.test(alemDoMilissegundo) ? new Date(data.getTime() + 1) : data;
}

const parametroDataHora = () =>
  z.preprocess(
    (valor, ctx) => {
      const v = unico(valor, ctx);
      return typeof v === 'string' ? normalizarDataHora(v) : v;
    },
    z.iso
      .datetime({ offset: true, local: false })
      .transform(inicioAoMilissegundo)
      .meta({ format: 'date-time', example: '2026-11-21T10:00:00-03:00' }),
  );

// An id in either case, read as the projection keeps it; one of no RFC 9562 version is not found (404).
const parametroUuid = () => z.preprocess(unico, uuidMinusculo());

/**
 * A query of exactly these parameters: any other name gets a 400 that names it. Ignored, a
 * misspelt one would change the answer without a word (`alterado_desde`: a full scan; `curso`: the
 * first page again, for ever, to a client following cursors).
 */
function soEstes<Forma extends z.ZodRawShape>(forma: Forma) {
  const aceitos = Object.keys(forma);
  const motivo = `desconhecido (${aceitos.length === 0 ? 'esta operação não aceita parâmetros' : `aceitos: ${aceitos.join(', ')}`})`;
  return z.strictObject(forma, { error: (problema) => (problema.code === 'unrecognized_keys' ? motivo : undefined) });
}

export const ListarImoveisQuery = soEstes({
  // Digits only (a minus sign allowed, so -1 is told the minimum), so a whole number; z.int()
  // would check the safe-integer range first and name that maximum instead of 200.
  por_pagina: z
    .preprocess(unico, z.string().regex(/^-?\d+$/, 'esperado um número inteiro').transform(Number).pipe(z.number().min(POR_PAGINA.minimo).max(POR_PAGINA.maximo)).optional())
    .describe(`De ${POR_PAGINA.minimo} a ${POR_PAGINA.maximo}. Padrão ${POR_PAGINA.padrao}.`),
  cursor: parametroUuid().optional().describe('O `proximo_cursor` da página anterior.'),
  alterados_desde: parametroDataHora()
    .optional()
    .describe(
      'ISO 8601 com fuso, por exemplo com `Z` ou `-03:00`. Um `+` no fuso deve ser enviado como `%2B`. Inclusivo; os instantes têm milissegundos, e uma fração menor conta como o milissegundo seguinte.',
    ),
});
export type ListarImoveisQuery = z.output<typeof ListarImoveisQuery>;

export const ObterImovelParams = z.object({ id: parametroUuid() });
export type ObterImovelParams = z.output<typeof ObterImovelParams>;
export const ObterImovelQuery = soEstes({});

export const ListarRemovidosQuery = soEstes({
  desde: parametroDataHora().describe('Obrigatório. ISO 8601 com fuso. Inclusivo; os instantes têm milissegundos, e uma fração menor conta como o milissegundo seguinte.'),
});
export type ListarRemovidosQuery = z.output<typeof ListarRemovidosQuery>;
