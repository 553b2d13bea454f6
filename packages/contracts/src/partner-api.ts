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
const EXIBIR_ENDERECO = ['rua', 'bairro'] as const;

/** Where an address is hidden (`exibir_endereco` `bairro`), a coordinate locates the neighbourhood, not the building. */
const COORDENADA = 'Com o endereço oculto (`exibir_endereco` `bairro`), arredondada a 2 casas decimais (cerca de 1 km).';
/** Free text an agent typed: contacts and private values in it read `[removido]`. */
const TEXTO_DO_CORRETOR = (oQue: string) => `${oQue}. Texto digitado pelo corretor, aparado; contatos e dados privados nele viram \`[removido]\`: escape-o ao exibi-lo em HTML.`;
/** A count of rooms or spaces, as the contract describes `quartos`. */
const contagem = (oQue: string) => z.int().min(0).nullable().describe(`${oQue}. \`0\` significa nenhum; \`null\`, não informado.`);

export const Foto = z
  .object({
    url: z.url().describe('Endereço HTTPS público e estável; a imagem leva marca d’água. Uma imagem substituída ganha outro endereço (`?v=`).'),
    ordem: z.int().min(1).describe('Mínimo 1: as fotos de um imóvel vêm numeradas de 1 a n, nesta ordem.'),
    principal: z.boolean().describe('Exatamente uma foto por imóvel tem `true`.'),
  })
  .meta({ id: 'Foto', description: 'Foto pública do imóvel. Os três campos são obrigatórios.' });
export type Foto = z.infer<typeof Foto>;

export const Imovel = z
  .object({
    id: z.guid().describe('Imutável, nunca reutilizado.'),
    codigo: z.string().describe('Código comercial do imóvel.'),
    publicado: z.literal(true).describe('Sempre `true` neste recurso.'),
    tipo: z.string().nullable().describe(TEXTO_DO_CORRETOR('Tipo do imóvel (lista aberta)')),
    categoria: z.enum(CATEGORIAS).nullable().describe('`Residencial`, `Comercial` ou `null`.'),
    finalidade: z.enum(FINALIDADES).nullable().describe('`Venda`, `Locação`, `Venda e Locação` ou `null`.'),
    status_comercial: z.enum(STATUS_COMERCIAIS).nullable().describe('Situação comercial: `Disponível`, `Reservado`, `Em negociação` (as de um imóvel anunciado) ou `null`.'),
    lancamento: z.boolean().describe('Se o imóvel é um lançamento.'),
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
    bairro: z.string().nullable().describe('Bairro.'),
    cidade: z.string().nullable().describe('Cidade.'),
    uf: z.string().nullable().describe('Sigla da unidade da federação, em maiúsculas.'),
    cep: z.string().regex(/^\d{8}$/).nullable().describe('8 dígitos; `null` quando o endereço está oculto.'),
    latitude: z.number().nullable().describe(COORDENADA),
    longitude: z.number().nullable().describe(COORDENADA),
    exibir_endereco: z.enum(EXIBIR_ENDERECO).describe('`rua` = rua e bairro podem ser exibidos; `bairro` = somente bairro e cidade.'),
    valor_venda: z.number().nullable().describe('Só para `Venda` e `Venda e Locação`.'),
    valor_aluguel: z.number().nullable().describe('Mensal. Só para `Locação` e `Venda e Locação`.'),
    valor_condominio: z.number().nullable().describe('Valor do condomínio.'),
    valor_iptu: z.number().nullable().describe('Valor do IPTU, na periodicidade de `periodicidade_iptu`.'),
    periodicidade_iptu: z.enum(PERIODICIDADES_IPTU).nullable().describe('`Mensal`, `Anual` ou `null`.'),
    ocultar_preco: z.boolean().describe('`true` significa preço sob consulta; `valor_venda` e `valor_aluguel` vêm então `null`.'),
    aceita_financiamento: z.boolean().nullable().describe('Se aceita financiamento; `null` quando não informado.'),
    aceita_permuta: z.boolean().nullable().describe('Se aceita permuta; `null` quando não informado.'),
    mobiliado: z.enum(MOBILIADO).nullable().describe('`Mobiliado`, `Não` ou `null`.'),
    quartos: contagem('Quartos'),
    suites: contagem('Suítes'),
    banheiros: contagem('Banheiros'),
    vagas: contagem('Vagas de garagem'),
    area_util: z.number().nullable().describe('Área útil, em metros quadrados.'),
    area_total: z.number().nullable().describe('Área total, em metros quadrados.'),
    nome_condominio: z.string().nullable().describe('Nome do condomínio do imóvel.'),
    // "Without repeated entries": checked here, and stated in the OpenAPI document.
    caracteristicas: z
      .array(z.string())
      .refine((lista) => new Set(lista).size === lista.length, 'entradas repetidas')
      .meta({ uniqueItems: true })
      .describe(TEXTO_DO_CORRETOR('Lista aberta, sem entradas repetidas, em ordem alfabética')),
    fotos: z.array(Foto).describe('Só as fotos públicas, em `ordem`.'),
    video_url: z.url().nullable().describe('Vídeo do imóvel, na forma `watch?v=` do YouTube.'),
    tour_virtual_url: z.string().nullable().describe('Endereço `https:` do tour virtual.'),
    criado_em: dataHoraComFuso.nullable().describe('Quando o imóvel foi cadastrado.'),
    atualizado_em: dataHoraComFuso
      .nullable()
      .describe(
        'Muda a cada mudança relevante: preço, situação, publicação, fotos, características, endereço, título, descrição ou nome do condomínio. É o instante em que a mudança passou a ser lida neste serviço: o que `alterados_desde` compara.',
      ),
  })
  .meta({
    id: 'Imovel',
    description: 'Imóvel anunciado. Todo campo está sempre presente; `null` significa não informado ou não aplicável.',
  });
export type Imovel = z.infer<typeof Imovel>;
/** The partner document as the projector stores it: everything but the commit instant. */
export type DocumentoImovel = Omit<Imovel, 'atualizado_em'>;

export const ImovelRetirado = z
  .object({
    id: z.guid().describe('O `id` do imóvel.'),
    codigo: z.string().describe('Código comercial do imóvel.'),
    publicado: z.literal(false).describe('Sempre `false`: remova o imóvel do portal.'),
    atualizado_em: dataHoraComFuso.nullable().describe('Quando deixou de estar anunciado.'),
  })
  .meta({
    id: 'ImovelRetirado',
    description:
      'Imóvel que deixou de estar anunciado (despublicado, inativado ou numa situação comercial que não se anuncia, como vendido; nada disso é exclusão). Só aparece nas listagens incrementais. Os quatro campos são obrigatórios.',
  });
export type ImovelRetirado = z.infer<typeof ImovelRetirado>;

export const ItemRemovido = z
  .object({
    id: z.guid().describe('O `id` do imóvel excluído.'),
    codigo: z.string().describe('Código comercial do imóvel.'),
    removido_em: dataHoraComFuso.describe('Quando a exclusão passou a ser lida neste serviço: o que `desde` compara.'),
  })
  .meta({ id: 'ItemRemovido', description: 'Exclusão física do cadastro: remova o imóvel do portal.' });
export type ItemRemovido = z.infer<typeof ItemRemovido>;

export const ListagemImoveis = z
  .object({
    dados: z.array(z.union([Imovel, ImovelRetirado])).describe('Cada elemento é um Imovel ou, só na listagem incremental, um ImovelRetirado.'),
    por_pagina: z.int().min(POR_PAGINA.minimo).max(POR_PAGINA.maximo).describe('Tamanho de página em vigor.'),
    proximo_cursor: z.guid().nullable().describe('Valor a enviar como `cursor` para a próxima página; `null` significa o fim.'),
    total: z.int().min(0).nullable().describe('Total de todo o filtro, não da página.'),
  })
  .meta({ id: 'ListagemImoveis', description: 'Uma página da listagem. Os quatro campos são obrigatórios.' });
export type ListagemImoveis = z.infer<typeof ListagemImoveis>;

export const ListagemRemovidos = z
  .object({ dados: z.array(ItemRemovido).describe('As exclusões, da mais antiga à mais recente.') })
  .meta({ id: 'ListagemRemovidos', description: 'Sem cursor, tamanho de página ou total.' });
export type ListagemRemovidos = z.infer<typeof ListagemRemovidos>;

export const Erro = z
  .object({ mensagem: z.string().describe('Mensagem legível; num 400 por parâmetro inválido, nomeia o parâmetro.') })
  .meta({ id: 'Erro', description: 'O corpo de toda resposta de erro.' });
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
