// One error handler and one not-found handler for the whole app: every failure becomes an
// `Erro` body with the right status; 5xx messages never carry internals.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErroApi, MetodoNaoPermitido, ParametroInvalido, RotaNaoEncontrada, type CodigoErro } from '../erros.ts';
import { urlParaLog } from '../logger.ts';

export const JSON_UTF8 = 'application/json; charset=utf-8';

interface Resposta {
  status: number;
  mensagem: string;
  cabecalhos: Readonly<Record<string, string>>;
}

interface ProblemaValidacao {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** The partner message for one zod issue on a parameter, given what was sent. */
function descreverProblema(problema: ProblemaValidacao, enviado: unknown): string {
  const p = problema.params;
  if (enviado === undefined) return 'obrigatório';
  switch (problema.keyword) {
    case 'too_big':
      return `deve ser no máximo ${String(p['maximum'])}`;
    case 'too_small':
      return `deve ser no mínimo ${String(p['minimum'])}`;
    case 'invalid_format':
      if (p['format'] === 'guid' || p['format'] === 'uuid') return 'esperado um uuid';
      if (p['format'] === 'datetime') return 'esperada uma data-hora ISO 8601 com fuso horário, por exemplo 2026-11-21T10:00:00-03:00 (um + no fuso vai como %2B)';
      return problema.message ?? 'formato inválido';
    case 'custom':
      return problema.message ?? 'inválido';
    case 'invalid_type':
      return p['expected'] === 'int' || p['expected'] === 'number' ? 'esperado um número inteiro' : 'valor inválido';
    default:
      return problema.message ?? 'inválido';
  }
}

/** "parâmetro 'x' inválido: ..." for each offending parameter, in the order zod found them. */
function mensagemDeValidacao(problemas: readonly ProblemaValidacao[], enviados: Record<string, unknown>): string {
  // null: a problem of the whole query, no parameter to name.
  const porParametro = new Map<string | null, string>();
  for (const problema of problemas) {
    // Names the query does not define: each named (`?=3` too, as ''), with the schema's own reason.
    if (problema.keyword === 'unrecognized_keys') {
      for (const nome of problema.params['keys'] as string[]) if (!porParametro.has(nome)) porParametro.set(nome, problema.message ?? 'desconhecido');
      continue;
    }
    const nome = problema.instancePath.split('/')[1] ?? null;
    if (porParametro.has(nome)) continue;
    porParametro.set(nome, descreverProblema(problema, nome === null ? undefined : enviados[nome]));
  }
  return [...porParametro].map(([nome, motivo]) => (nome === null ? `parâmetros inválidos: ${motivo}` : `parâmetro '${nome}' inválido: ${motivo}`)).join('; ');
}

const MENSAGENS_FRAMEWORK: Record<number, string> = {
  400: 'requisição inválida',
  404: 'rota não encontrada',
  405: 'método não permitido',
  406: 'formato de resposta não aceitável',
  408: 'tempo esgotado ao receber a requisição',
  413: 'corpo da requisição grande demais (a interface não aceita corpo)',
  414: 'URL longa demais',
  415: 'tipo de conteúdo não suportado (a interface não aceita corpo)',
  431: 'cabeçalhos grandes demais',
};

/** A parameter zod refused, as the API's own failure. */
function comoErroDaApi(erro: FastifyError | Error, request: FastifyRequest): FastifyError | Error {
  if (!hasZodFastifySchemaValidationErrors(erro)) return erro;
  const enviados = ((erro as unknown as FastifyError).validationContext === 'params' ? request.params : request.query) as Record<string, unknown> | undefined;
  return new ParametroInvalido(mensagemDeValidacao(erro.validation, enviados ?? {}), {}, { cause: erro });
}

function paraResposta(erro: FastifyError | Error): Resposta {
  if (erro instanceof ErroApi) return { status: erro.statusCode, mensagem: erro.message, cabecalhos: erro.cabecalhos };
  const { statusCode } = erro as FastifyError;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    const mensagem = MENSAGENS_FRAMEWORK[statusCode] ?? 'requisição recusada';
    return { status: statusCode, mensagem, cabecalhos: {} };
  }
  return { status: 500, mensagem: 'falha temporária; tente novamente', cabecalhos: {} };
}

function enviarErro(reply: FastifyReply, resposta: Resposta): FastifyReply {
  return reply.code(resposta.status).headers(resposta.cabecalhos).type(JSON_UTF8).send(JSON.stringify({ mensagem: resposta.mensagem }));
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request (a
 * URL or headers over 16 KiB, a malformed request line, a client too slow to send its headers).
 * Fastify's own handler, with an `Erro` body.
 */
export function responderErroDeCliente(erro: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (erro.code === 'ECONNRESET' || socket.destroyed) return;
  const status = erro.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : erro.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  escreverErroNoSocket(socket, status, MENSAGENS_FRAMEWORK[status]!);
  socket.destroy(erro);
}

/**
 * A CONNECT request (a proxy's tunnel): Node hands it over outside the routes, and closes the
 * socket unanswered when no one takes it. A 405 with its `Erro`, as for any method but GET.
 */
export function recusarConnect(_request: unknown, socket: Duplex): void {
  escreverErroNoSocket(socket, 405, new MetodoNaoPermitido('CONNECT').message, 'Allow: GET\r\nConnection: close\r\n');
  socket.end();
}

/** An answer written straight to the connection, for what comes before any request or route. */
function escreverErroNoSocket(socket: Duplex, status: number, mensagem: string, cabecalhos = ''): void {
  if (!socket.writable) return;
  const corpo = JSON.stringify({ mensagem });
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${cabecalhos}Content-Length: ${Buffer.byteLength(corpo)}\r\nContent-Type: ${JSON_UTF8}\r\n\r\n${corpo}`);
}

/**
 * The not-found handler: of the app, and of the partner prefix (where the gate runs first). It names
 * the path as sent, not as `comCaminhoDecodificavel` rewrote it.
 */
export function rotaNaoEncontrada(request: FastifyRequest): never {
  throw new RotaNaoEncontrada(request.method, urlParaLog(request.originalUrl.split('?')[0] ?? '/'));
}

/** Fastify's `frameworkErrors`: what the router refuses before any route or hook runs. */
export function responderErroDoFramework(erro: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const resposta = paraResposta(erro);
  if (resposta.status >= 500) request.log.error({ err: erro }, 'falha ao rotear a requisição');
  else request.log.debug({ code: erro.code, motivo: resposta.mensagem }, 'requisição recusada');
  // Refused before any hook ran: the id the hooks would have sent goes out here.
  reply.header('X-Request-Id', request.id);
  void enviarErro(reply, resposta);
}

/** Failures of the moment, not of the code: a warning, not an error, in the log. */
const INDISPONIBILIDADES: ReadonlySet<CodigoErro> = new Set(['PROJECAO_INDISPONIVEL', 'SERVICO_SOBRECARREGADO']);

function errosPlugin(app: FastifyInstance, _opcoes: unknown, pronto: () => void): void {
  app.setErrorHandler((recebido: FastifyError | Error, request, reply) => {
    const erro = comoErroDaApi(recebido, request);
    const resposta = paraResposta(erro);
    if (erro instanceof ErroApi && INDISPONIBILIDADES.has(erro.code)) request.log.warn({ err: erro }, 'serviço indisponível');
    else if (resposta.status >= 500) request.log.error({ err: erro }, 'falha ao atender a requisição');
    else request.log.debug({ code: (erro as FastifyError).code, motivo: resposta.mensagem }, 'requisição recusada');
    return enviarErro(reply, resposta);
  });

  app.setNotFoundHandler(rotaNaoEncontrada);
  pronto();
}

export default fp(errosPlugin, { name: 'erros', fastify: '5.x' });
