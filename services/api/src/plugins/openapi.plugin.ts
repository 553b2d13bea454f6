// The partner OpenAPI 3.1 document, generated from the zod schemas of @imoveis/contracts and
// completed with what schemas cannot say: statuses with their Erro bodies and headers, the
// bearer scheme, the limits. Served at /api/v1/openapi.json and as a page at /api/v1/docs.
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { POR_PAGINA, PREFIXO_API } from '@imoveis/contracts';
import { JANELA_S } from './acesso.hook.ts';
import { JSON_UTF8 } from './erros.plugin.ts';

type Json = Record<string, unknown>;

const DESCRICOES: Record<string, string> = {
  '200': 'Sucesso.',
  '304': 'Não modificado desde a versão indicada em If-None-Match.',
  '400': 'Parâmetro inválido, ou que a operação não define; a mensagem nomeia o parâmetro. (Também uma requisição que o servidor HTTP não consegue ler, ou HTTP/1.1 sem `Host`: a mensagem o diz.)',
  '401': 'Credencial ausente, inválida ou revogada (ou enviada na URL, ou com o cabeçalho Authorization repetido). Com `Retry-After` quando o endereço do cliente passou do limite de requisições sem credencial válida.',
  '404': 'O imóvel não existe ou não está anunciado.',
  '406': 'O cabeçalho Accept exclui application/json.',
  '429': 'Mais requisições por minuto do que o limite da credencial. Repita a mesma requisição depois de `Retry-After` segundos.',
  '500': 'Falha temporária; tente novamente (depois de `Retry-After` segundos, quando enviado).',
  '503': 'Serviço sobrecarregado ou temporariamente indisponível; tente novamente depois de `Retry-After` segundos.',
};

function descricaoGeral(limite: number): string {
  return [
    'Interface somente leitura para portais parceiros: imóveis anunciados, um imóvel, e exclusões físicas do cadastro.',
    '',
    'Sincronização recomendada: carga inicial pela varredura completa de `/imoveis` seguindo `proximo_cursor` até `null`;',
    'depois, periodicamente, `/imoveis?alterados_desde=...` e `/imoveis/removidos?desde=...` com o início da execução anterior menos 1 a 2 minutos.',
    '',
    '**Autenticação**: `Authorization: Bearer <token>` em toda requisição; o token nunca vai na URL.',
    '',
    `**Limites**: ${limite} requisições por minuto (janela deslizante de ${JANELA_S} s) por credencial; acima disso, 429 com \`Retry-After\` em segundos inteiros.`,
    'Requisições sem credencial válida são contadas por endereço do cliente e recebem sempre 401; acima do limite, o 401 traz `Retry-After`.',
    'Toda resposta sob `/api/v1/imoveis` traz `RateLimit-Policy` e `RateLimit` (draft-ietf-httpapi-ratelimit-headers), exceto as que o servidor HTTP',
    'recusa antes de haver requisição (431 para cabeçalhos ou URL acima de 16 KiB, 408, 400 para uma requisição malformada), o 400 de uma requisição HTTP/1.1 sem `Host` e o 405 de um CONNECT; este documento e a página de documentação, que não pedem credencial, não os trazem.',
    `\`por_pagina\`: de ${POR_PAGINA.minimo} a ${POR_PAGINA.maximo}, padrão ${POR_PAGINA.padrao}.`,
    '',
    'Datas-horas: ISO 8601 com fuso; nas respostas, com milissegundos.',
    '',
    'Toda resposta traz `X-Request-Id`, o identificador da requisição nos registros do serviço (exceto as que o servidor HTTP recusa antes de haver requisição e o 405 de um CONNECT): cite-o ao relatar um problema.',
  ].join('\n');
}

function cabecalhos(limite: number): Json {
  return {
    RateLimitPolicy: {
      description: `A política de limite: \`"credencial";q=${limite};w=${JANELA_S}\` (ou \`"endereco"\` sem credencial válida).`,
      schema: { type: 'string', example: `"credencial";q=${limite};w=${JANELA_S}` },
    },
    RateLimit: {
      description: 'Requisições restantes na janela (`r`) e segundos até a mais antiga sair da janela (`t`).',
      schema: { type: 'string', example: `"credencial";r=${limite - 1};t=${JANELA_S}` },
    },
    RetryAfter: {
      description: 'Segundos inteiros (no mínimo 1) até a próxima tentativa ser aceita.',
      schema: { type: 'integer', minimum: 1 },
    },
    ETag: { description: 'Versão do imóvel, para `If-None-Match`.', schema: { type: 'string' } },
    WWWAuthenticate: { description: 'Esquema exigido: Bearer.', schema: { type: 'string' } },
    Allow: { description: 'Métodos aceitos: GET.', schema: { type: 'string' } },
    XRequestId: {
      description: 'Identificador da requisição nos registros do serviço (atrás de um proxy confiável, o `X-Request-Id` que ele enviou, quando parece um identificador).',
      schema: { type: 'string' },
    },
  };
}

const ref = (nome: string): Json => ({ $ref: `#/components/headers/${nome}` });

/** Schemas reachable from the paths, so components list only what the partner API uses. */
function referenciados(doc: Json): Set<string> {
  const schemas = ((doc['components'] as Json | undefined)?.['schemas'] ?? {}) as Json;
  const vistos = new Set<string>();
  const pendentes = [doc['paths']];
  while (pendentes.length > 0) {
    const texto = JSON.stringify(pendentes.pop());
    for (const [, nome] of texto.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (nome !== undefined && !vistos.has(nome)) {
        vistos.add(nome);
        pendentes.push(schemas[nome]);
      }
    }
  }
  return vistos;
}

/**
 * zod names each component with `$id: "#/components/schemas/X"` and a `$schema`: a fragment is
 * not a valid `$id` in JSON Schema 2020-12 (validators refuse the document), and the dialect is
 * the document's own. Both go.
 */
function semIdsDeSchema(valor: unknown): unknown {
  if (Array.isArray(valor)) return valor.map(semIdsDeSchema);
  if (valor === null || typeof valor !== 'object') return valor;
  return Object.fromEntries(Object.entries(valor).filter(([chave]) => chave !== '$id' && chave !== '$schema').map(([chave, v]) => [chave, semIdsDeSchema(v)]));
}

/** Completes the generated document: what zod's schemas cannot say (shared headers, 304, 406, 500, 503). */
function completarDocumento(gerado: Json, limite: number): Json {
  const caminhos: Json = {};
  for (const [caminho, operacoes] of Object.entries((gerado['paths'] ?? {}) as Record<string, Json>)) {
    if (!caminho.startsWith(`${PREFIXO_API}/`)) continue;
    for (const operacao of Object.values(operacoes) as Json[]) {
      const respostas = (operacao['responses'] ?? {}) as Record<string, Json>;
      if (operacao['operationId'] === 'obterImovel') {
        respostas['304'] = { description: '', headers: { ETag: ref('ETag') } };
      }
      for (const [status, resposta] of Object.entries(respostas)) {
        resposta['description'] = DESCRICOES[status] ?? 'Resposta.';
        const h: Json = {
          ...((resposta['headers'] as Json | undefined) ?? {}),
          'RateLimit-Policy': ref('RateLimitPolicy'),
          RateLimit: ref('RateLimit'),
          'X-Request-Id': ref('XRequestId'),
        };
        // A 401 past the client address's limit says when to come back too (decision 0017).
        if (['401', '429', '500', '503'].includes(status)) h['Retry-After'] = ref('RetryAfter');
        if (status === '401') h['WWW-Authenticate'] = ref('WWWAuthenticate');
        if (status === '200' && operacao['operationId'] === 'obterImovel') h['ETag'] = ref('ETag');
        resposta['headers'] = h;
      }
      operacao['security'] = [{ bearer: [] }];
      for (const parametro of (operacao['parameters'] ?? []) as Json[]) {
        // The schema validates the raw query text (digits); partners need the number it stands for.
        if (parametro['name'] === 'por_pagina') {
          parametro['schema'] = { type: 'integer', minimum: POR_PAGINA.minimo, maximum: POR_PAGINA.maximo, default: POR_PAGINA.padrao };
        }
        // The pattern is RFC 3339's; the API reads every ISO 8601 form with an offset (normalizarDataHora).
        if (parametro['name'] === 'alterados_desde' || parametro['name'] === 'desde') {
          parametro['schema'] = { type: 'string', format: 'date-time', example: '2026-11-21T10:00:00-03:00' };
        }
      }
    }
    caminhos[caminho.slice(PREFIXO_API.length)] = operacoes;
  }
  const doc: Json = { ...gerado, paths: semIdsDeSchema(caminhos), servers: [{ url: PREFIXO_API, description: 'Este servidor (a versão vai no caminho).' }] };
  const componentes = { ...((gerado['components'] ?? {}) as Json) };
  const schemas = (componentes['schemas'] ?? {}) as Json;
  const usados = referenciados(doc);
  componentes['schemas'] = semIdsDeSchema(Object.fromEntries(Object.entries(schemas).filter(([nome]) => usados.has(nome))));
  componentes['headers'] = cabecalhos(limite);
  componentes['securitySchemes'] = {
    bearer: { type: 'http', scheme: 'bearer', description: 'Credencial emitida pelo operador do serviço, no cabeçalho Authorization; nunca na URL.' },
  };
  doc['components'] = componentes;
  doc['security'] = [{ bearer: [] }];
  return doc;
}

async function openApiPlugin(app: FastifyInstance, opcoes: { limite: number }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Imóveis para portais parceiros',
        version: '1.0.0',
        description: descricaoGeral(opcoes.limite),
      },
      tags: [{ name: 'imoveis', description: 'Imóveis anunciados e exclusões' }],
    },
    transform: createJsonSchemaTransform({ skipList: [] }),
    transformObject: (documento) => completarDocumento(jsonSchemaTransformObject(documento) as Json, opcoes.limite) as ReturnType<typeof jsonSchemaTransformObject>,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: `${PREFIXO_API}/docs`,
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The page runs scripts: its CSP keeps them to the page's own files. Less two of the plugin's
    // defaults: `upgrade-insecure-requests` would have a browser ask for the page's files over
    // HTTPS from a service on plain HTTP (the demo's), and the page asks no outside validator.
    staticCSP: true,
    transformStaticCSP: (politica) => politica.replace(' validator.swagger.io', '').replace(/ ?upgrade-insecure-requests;/, ''),
  });
  // The document cannot change after start: built once, and compressed once per encoding. Asked
  // for without a credential, and so without a limit, it cost 1.5 ms of CPU a request compressed
  // anew each time (@fastify/compress), against 0.3 for a 401.
  let texto: string | null = null;
  const comprimidos = new Map<string, Buffer>();
  const negociador = new Negotiator({ supportedValues: ['br', 'gzip'] });
  const comprimir = { br: (t: string) => brotliCompressSync(t), gzip: (t: string) => gzipSync(t) };
  // Served even under pressure (under-pressure lets a route through when its handler returns
  // nothing): it is one cached answer, and clients need the contract to understand a 503.
  app.get(`${PREFIXO_API}/openapi.json`, { schema: { hide: true }, compress: false, config: { pressureHandler: () => undefined } }, (request, reply) => {
    texto ??= JSON.stringify(app.swagger());
    reply.type(JSON_UTF8).header('Vary', 'accept-encoding');
    const aceitas = request.headers['accept-encoding'];
    const codificacao = aceitas === undefined ? null : negociador.negotiate(aceitas);
    if (codificacao === null) return reply.send(texto);
    let corpo = comprimidos.get(codificacao);
    if (corpo === undefined) comprimidos.set(codificacao, (corpo = comprimir[codificacao](texto)));
    return reply.header('Content-Encoding', codificacao).send(corpo);
  });
}

export default fp(openApiPlugin, { name: 'openapi', fastify: '5.x', dependencies: ['erros'] });
