// Builds the API from explicit dependencies and never listens: server.ts (and the tests) do.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import { compile as compilarConfianca } from '@fastify/proxy-addr';
import fastifyUnderPressure from '@fastify/under-pressure';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { PREFIXO_API } from '@imoveis/contracts';
import type { LeitorProjecao } from '@imoveis/projection-store';
import { PADROES_API } from './config.ts';
import type { FonteCredenciais } from './credenciais/credenciais-store.ts';
import { HostAusente, MetodoNaoPermitido } from './erros.ts';
import { FalhasDeLeitura, NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS, ehFonteProjecao, fonteFixa, type FonteProjecao } from './fonte-projecao.ts';
import type { Limitador } from './limite/limitador.ts';
import { criarMetricas, registrarCredenciais, type Metricas } from './metricas.ts';
import { criarPorteiro } from './plugins/acesso.hook.ts';
import errosPlugin, { recusarConnect, responderErroDeCliente, responderErroDoFramework, rotaNaoEncontrada } from './plugins/erros.plugin.ts';
import openApiPlugin from './plugins/openapi.plugin.ts';
import { rotaDeParceiro, rotasImoveis } from './routes/imoveis.routes.ts';
import { ehRotaOperacional, rotasSaude } from './routes/saude.routes.ts';

export interface OpcoesPressao {
  maxEventLoopDelayMs?: number;
  maxHeapUsedBytes?: number;
  intervaloAmostraMs?: number;
}

/**
 * How long a connection may hold the server without progress (a slow or stalled client). Tests
 * shorten them; server.ts keeps the defaults (PADROES_API).
 */
export interface PrazosConexao {
  /** The whole request (headers: no operation takes a body) must arrive within this; else 408 and close. */
  readonly requisicaoMs?: number;
  /** A connection in the middle of a request or its answer with nothing sent or read for this long is closed. */
  readonly inatividadeMs?: number;
  /** How often Node looks for requests past `requisicaoMs` (its default, 30 s, would hold them that much longer). */
  readonly verificacaoMs?: number;
  /** A stop answers on the open connections for up to this long before closing the idle ones. */
  readonly drenagemMs?: number;
  /** Then, answers still being sent this long after (a client that stopped reading) are cut. */
  readonly envioAposParadaMs?: number;
}

export interface ConfigApp {
  /** Readiness fails when the projector last confirmed being caught up longer ago than this. */
  readonly atrasoMaximoMs: number;
  /**
   * Trusted proxies in front, by count (`true`: one) or by address: the client address is the
   * X-Forwarded-For entry past the trusted hops, never one a client wrote; and a gateway's
   * X-Request-Id is kept.
   */
  readonly trustProxy?: boolean | number | readonly string[];
  readonly pressao?: OpcoesPressao;
  readonly prazos?: PrazosConexao;
}

export interface DependenciasApp {
  readonly config: ConfigApp;
  /** The projection reader, or a provider of the current one. */
  readonly leitor: LeitorProjecao | FonteProjecao;
  readonly limitador: Limitador;
  readonly credenciais: FonteCredenciais;
  readonly logger?: FastifyBaseLogger;
  readonly metricas?: Metricas;
  readonly agora?: () => number;
}

/** The partner route (with the prefix) of `/api/v1/imoveis`, `…/removidos` or `…/{id}`, query string or not; else null. */
const rotaDeParceiroNaApi = (url: string): string | null => {
  if (!url.startsWith(PREFIXO_API)) return null;
  const rota = rotaDeParceiro(url.slice(PREFIXO_API.length));
  return rota === null ? null : PREFIXO_API + rota;
};

const ID_RECEBIDO = /^[\w.:@-]{1,128}$/;

/**
 * The request's id, in every log line of it and in its `X-Request-Id` answer header: a new uuid
 * (unique across processes, so a partner quoting it finds the one request), or, behind a trusted
 * proxy only, the id the gateway sent when it looks like one. A client's own would let it choose
 * or copy another request's id.
 */
function geradorDeIdDaRequisicao(confiavel: Confianca | null): (req: IncomingMessage) => string {
  if (confiavel === null) return () => randomUUID();
  return (req) => {
    const recebido = req.headers['x-request-id'];
    const doProxy = confiavel(req.socket.remoteAddress ?? '', 0);
    return doProxy && typeof recebido === 'string' && ID_RECEBIDO.test(recebido) ? recebido : randomUUID();
  };
}

/** Whether the hop `salto` away (0: the peer) at `endereco` is a trusted proxy, as Fastify reads X-Forwarded-For with it. */
type Confianca = (endereco: string, salto: number) => boolean;

function confianca(trustProxy: ConfigApp['trustProxy']): Confianca | null {
  if (typeof trustProxy === 'object') return trustProxy.length === 0 ? null : compilarConfianca([...trustProxy]);
  const proxies = trustProxy === true ? 1 : Number(trustProxy ?? 0);
  return proxies > 0 ? (_endereco, salto) => salto < proxies : null;
}

/**
 * A path the router cannot decode (`/imoveis/%ZZ`, a `%` escape that is no UTF-8) with its `%`
 * taken literally, so that it reaches its route like any other bad value: the gate checks the
 * credential and the limit first, then the 400 names the parameter (`id`). The router would
 * refuse it before any hook, credential or not.
 */
function comCaminhoDecodificavel(url: string): string {
  if (!url.includes('%')) return url;
  const interrogacao = url.indexOf('?');
  const fimDoCaminho = interrogacao === -1 ? url.length : interrogacao;
  const caminho = url.slice(0, fimDoCaminho);
  try {
    decodeURIComponent(caminho);
    return url;
  } catch {
    return caminho.replaceAll('%', '%25') + url.slice(fimDoCaminho);
  }
}

/**
 * A stop (`app.close()`) answers what was asked and leaves no connection open behind it.
 * - From the stop on, every answer says `Connection: close` (Node then closes its connection once
 *   sent), the requests in flight included. One of those went back to keep-alive after its answer
 *   and held the stop for its keep-alive timeout (72 s), past the process's 10 s of grace.
 * - For up to `drenagemMs`, until every connection is gone, the open ones are still read: a
 *   request a client had already sent on a kept-alive connection is answered (with that header),
 *   where Node, closing the connections idle when the stop begins, dropped it unread.
 * - Then every connection without an answer under way is closed, and so is one that comes to be
 *   without (an answer already being sent when the stop began) as it does. Not only Node's idle
 *   ones: a connection on which no request ever began (a client that connected and sent
 *   nothing, or half a request) held the stop until its request deadline, 10 s, the grace itself.
 *   And not those Node calls idle: its `server.close()` also closed a connection whose answer
 *   was ended but still being sent (a large page to a slow client), cutting it short.
 * - What is still being sent `envioMs` later (a client that stopped reading) is cut: the stop
 *   ends within the process's grace, not at the connection's inactivity deadline.
 */
function fecharConexoesAoParar(app: FastifyInstance, prazos: { drenagemMs: number; envioMs: number }): void {
  let fechando = false;
  let fecharOciosas: NodeJS.Timeout | null = null;
  let cortar: NodeJS.Timeout | null = null;
  const conexoes = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    conexoes.add(socket);
    socket.once('close', () => conexoes.delete(socket));
  });
  // Node assigns a request's response to its socket as soon as the request is read.
  const semResposta = (socket: Socket): boolean => (socket as Socket & { _httpMessage?: unknown })._httpMessage == null;
  const fecharSemResposta = (): void => {
    for (const socket of conexoes) if (semResposta(socket)) socket.destroy();
  };
  app.addHook('preClose', async () => {
    fechando = true;
    // The monotonic clock: a wall clock stepped back would stretch the drain past the grace.
    for (const fim = performance.now() + prazos.drenagemMs; performance.now() < fim && conexoes.size > 0; ) await new Promise((resolve) => setTimeout(resolve, 20));
    // What Node's server.close() calls next: only those with no answer at all.
    app.server.closeIdleConnections = fecharSemResposta;
    fecharSemResposta();
    fecharOciosas = setInterval(fecharSemResposta, 100).unref();
    cortar = setTimeout(() => {
      app.log.warn({ conexoes: conexoes.size }, 'conexões ainda abertas ao fim do prazo da parada (uma resposta sendo enviada, ou ainda por dar): cortadas');
      for (const socket of conexoes) socket.destroy();
    }, prazos.envioMs).unref();
  });
  app.addHook('onClose', (_app, feito) => {
    if (fecharOciosas !== null) clearInterval(fecharOciosas);
    if (cortar !== null) clearTimeout(cortar);
    feito();
  });
  app.addHook('onSend', (_request, reply, payload, feito) => {
    if (fechando) reply.header('Connection', 'close');
    feito(null, payload);
  });
}

export async function buildApp(deps: DependenciasApp): Promise<FastifyInstance> {
  const agora = deps.agora ?? Date.now;
  const confiavel = confianca(deps.config.trustProxy);
  const metricas = deps.metricas ?? criarMetricas();
  registrarCredenciais(metricas, () => deps.credenciais.desatualizadas ?? false);
  const fonte = ehFonteProjecao(deps.leitor) ? deps.leitor : fonteFixa(deps.leitor);
  const pressao = deps.config.pressao ?? {};
  const prazos = deps.config.prazos ?? {};

  const app = Fastify({
    // A client cannot hold a connection for nothing (Node's defaults: 60 s to send headers, no
    // limit on reading the answer): a gateway in front may cap this too, but nothing depends on it.
    requestTimeout: prazos.requisicaoMs ?? PADROES_API.PRAZO_REQUISICAO_MS,
    connectionTimeout: prazos.inatividadeMs ?? PADROES_API.PRAZO_INATIVIDADE_MS,
    // A request without Host is refused below, with an Erro: Node's own refusal has no body.
    http: { connectionsCheckingInterval: prazos.verificacaoMs ?? PADROES_API.VERIFICACAO_DE_PRAZOS_MS, requireHostHeader: false },
    ...(deps.logger ? { loggerInstance: deps.logger } : {}),
    // A hop count (what proxy-addr makes of a number) or the proxies' addresses, never `true`:
    // Fastify would then take the leftmost entry, the client's own.
    trustProxy: confiavel ?? false,
    // Read-only: no operation takes a body, so a large one is refused early.
    bodyLimit: 16 * 1024,
    exposeHeadRoutes: false,
    // While closing, a request already on an open connection is answered as usual: Fastify's own
    // 503 would carry neither an Erro nor the RateLimit headers. Idle connections are closed.
    return503OnClosing: false,
    genReqId: geradorDeIdDaRequisicao(confiavel),
    // One line per request, written on response below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Above any URL Node accepts (16 KiB of headers): a long id gets the 400 naming `id`.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 64 * 1024 },
    rewriteUrl: (req) => comCaminhoDecodificavel(req.url ?? '/'),
    // A request Node's parser or the router refuses gets an Erro body like every other failure.
    frameworkErrors: responderErroDoFramework,
    clientErrorHandler: responderErroDeCliente,
  });
  // An `Expect` other than 100-continue: Node would answer a bare 417 itself, before any hook.
  // The expectation is ignored instead (RFC 9110 allows it): the request is answered as any other,
  // credential first, every refusal with an Erro.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => app.server.emit('request', req, res));
  app.server.on('connect', recusarConnect);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('credencial', null);
  app.decorateRequest('motivoNaoAutenticado', null);
  app.decorateRequest('sobPressao', false);

  await app.register(errosPlugin);
  const falhasDeLeitura = new FalhasDeLeitura({
    fonte,
    // The tests' stopped clock when given; else the monotonic one.
    ...(deps.agora ? { agora: deps.agora } : {}),
    aoComecar: (erro) => app.log.error({ err: erro }, `falha ao ler a projeção: respondida como indisponível, e o processo não pronto por ${NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS / 1000} s`),
    aoFalhar: () => metricas.falhasDeLeitura.inc(),
  });
  fecharConexoesAoParar(app, {
    drenagemMs: prazos.drenagemMs ?? PADROES_API.DRENAGEM_MS,
    envioMs: prazos.envioAposParadaMs ?? PADROES_API.ENVIO_APOS_PARADA_MS,
  });

  // A callback hook, not an async one: no promise on every request for two headers. nosniff: a
  // browser must take every answer as the type it is sent as (JSON, not a page or a script).
  app.addHook('onRequest', (request, reply, feito) => {
    reply.header('X-Request-Id', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    feito(request.raw.httpVersion === '1.1' && request.headers.host === undefined ? new HostAusente() : undefined);
  });

  // Under pressure a request is only marked here: the gate refuses a partner's with 503, Erro
  // and Retry-After once it has set the RateLimit headers, rather than queuing it. Health,
  // metrics and documentation keep answering.
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: pressao.maxEventLoopDelayMs ?? PADROES_API.MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: pressao.maxHeapUsedBytes ?? 0,
    sampleInterval: pressao.intervaloAmostraMs ?? 1_000,
    pressureHandler: (request) => {
      request.sobPressao = true;
    },
  });

  // The documentation page and its files (1.5 MB of script) would be compressed anew on every
  // request, about 100 ms of CPU each, for anyone who asks: sent as they are, they cost next to
  // nothing, and browsers revalidate the files by ETag (the contract's own document is sent
  // compressed once: openapi.plugin.ts). Marked before compression's own onRoute hook reads it.
  app.addHook('onRoute', (rota) => {
    if (rota.url.startsWith(`${PREFIXO_API}/docs`)) rota.compress = false;
  });

  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Brotli's default quality (11) costs more CPU than the bytes it saves here.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  app.addHook('onResponse', async (request, reply) => {
    // Only GET is routed: another method on a partner path (its 405, or the 401 or 429 the gate
    // answers first) counts under the route its path belongs to.
    const rota = request.routeOptions.url ?? rotaDeParceiroNaApi(request.url) ?? 'nao-encontrada';
    const rotulos = { rota, metodo: request.method, status: String(reply.statusCode) };
    metricas.requisicoes.inc(rotulos);
    metricas.duracao.observe(rotulos, reply.elapsedTime / 1000);
    // The credential's id and partner (never its token): a partner quoting X-Request-Id is found by them.
    // One line a request, a refused one too (a 401 says why: `motivo`), so a flood of bad tokens doubles no log.
    const credencial = request.credencial === null ? undefined : { id: request.credencial.id, parceiro: request.credencial.parceiro };
    const motivo = request.motivoNaoAutenticado ?? undefined;
    // Probes and scrapes every few seconds would drown partners' lines: at debug, unless one failed.
    const nivel = ehRotaOperacional(rota) && reply.statusCode < 500 ? 'debug' : 'info';
    request.log[nivel]({ req: request, res: reply, ms: Math.round(reply.elapsedTime * 10) / 10, credencial, motivo }, 'requisição atendida');
  });

  // The limit the document states is the one the limiter enforces.
  await app.register(openApiPlugin, { limite: deps.limitador.limite });

  await app.register(
    async (api) => {
      // Every answer under the prefix passes the gate first (401, 429 and the RateLimit headers),
      // the 405s and 404s included.
      api.addHook('onRequest', criarPorteiro({ credenciais: deps.credenciais, limitador: deps.limitador, metricas }));
      // Every method but GET on a partner path answers 405 (HEAD too: the interface exposes only
      // GET), whatever the method and before any body is read.
      api.addHook('onRequest', async (request) => {
        if (request.method !== 'GET' && rotaDeParceiroNaApi(request.url) !== null) throw new MetodoNaoPermitido(request.method);
      });
      api.setNotFoundHandler(rotaNaoEncontrada);
      await api.register(rotasImoveis(fonte, falhasDeLeitura));
    },
    { prefix: PREFIXO_API },
  );

  await app.register(rotasSaude({ fonte, falhasDeLeitura, metricas, atrasoMaximoMs: deps.config.atrasoMaximoMs, agora }));

  // The caller owns the reader, the limiter and the credentials, and closes them (server.ts).
  return app;
}
