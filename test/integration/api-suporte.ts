// Support for the API integration tests: a projection written by the real projector code in a
// temp dir, an app built like server.ts builds it (real Redis limiter, real credentials file),
// and a validator that checks every response body against the served OpenAPI document.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import type { EventoCondominio, EventoImovel } from '@imoveis/contracts';
import { EscritorProjecao, LeitorSqlite } from '../../packages/projection-store/src/index.ts';
import { FOTOS, prepararEAplicarTransacao } from '../../packages/projection-store/src/eventos-de-teste.ts';
import {
  CredenciaisStore,
  LimitadorComReserva,
  LimitadorLocal,
  LimitadorRedis,
  buildApp,
  criarLogger,
  criarMetricas,
  emitirCredencial,
  metricasDoLimitador,
  type ConfigApp,
  type FastifyInstance,
  type FonteProjecao,
  type InjectOptions,
  type LightMyRequestResponse,
  type Limitador,
  type Metricas,
} from '../../services/api/src/index.ts';
import { nomeUnico, sqliteTemporario, type SqliteTemporario } from '../helpers.ts';

// ---- Projection -----------------------------------------------------------------------------

export interface ProjecaoDeTeste {
  readonly arquivo: SqliteTemporario;
  readonly escritor: EscritorProjecao;
  /** Applies one batch stamped at `instanteMs` through the projector's own code. */
  aplicar(eventos: readonly (EventoImovel | EventoCondominio)[], instanteMs: number): void;
  /** Records the projector's freshness heartbeat, as the projector does when caught up. */
  emDia(emDiaEm: number | null, registradoEm?: number): void;
  abrirLeitor(): LeitorSqlite;
  remover(): void;
}

export function criarProjecao(): ProjecaoDeTeste {
  const arquivo = sqliteTemporario();
  const escritor = EscritorProjecao.abrir(arquivo.caminho);
  const leitores: LeitorSqlite[] = [];
  return {
    arquivo,
    escritor,
    aplicar(eventos, instanteMs) {
      prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => instanteMs);
    },
    emDia(emDiaEm, registradoEm = emDiaEm ?? Date.now()) {
      escritor.registrarFrescor({ emDiaEm, registradoEm, atraso: 0 });
    },
    abrirLeitor() {
      const leitor = LeitorSqlite.abrir(arquivo.caminho);
      leitores.push(leitor);
      return leitor;
    },
    remover() {
      for (const l of leitores) l.close();
      escritor.db.close();
      arquivo.remover();
    },
  };
}

/** Ids in ascending order, so tests know the stable order of pages. */
export function idsOrdenados(quantos: number): string[] {
  return Array.from({ length: quantos }, () => randomUUID()).sort();
}

// ---- OpenAPI validation -----------------------------------------------------------------------

interface FuncaoValidacao {
  (dados: unknown): boolean;
  errors?: unknown[] | null;
}
interface AjvMinimo {
  addSchema(schema: object, chave: string): unknown;
  compile(schema: object): FuncaoValidacao;
}

// CommonJS modules whose default exports TypeScript's NodeNext typing does not see as callable.
const require = createRequire(import.meta.url);
const Ajv2020 = (require('ajv/dist/2020.js') as { default: new (o: object) => AjvMinimo }).default;
const addFormats = (require('ajv-formats') as { default: (ajv: AjvMinimo) => void }).default;

type Json = Record<string, unknown>;

/** What the validator reads of a response (a decompressed body can be passed in its place). */
export interface RespostaVista {
  readonly statusCode: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

/** Documented headers an answer may lack, as the document's description of the status says. */
const CABECALHOS_CONDICIONAIS: Readonly<Record<string, readonly string[]>> = {
  // Only past the client address's limit without a valid credential.
  '401': ['Retry-After'],
  // "quando enviado".
  '500': ['Retry-After'],
};

export class ValidadorOpenApi {
  readonly documento: Json;
  readonly #ajv: AjvMinimo;
  readonly #cache = new Map<string, FuncaoValidacao>();

  constructor(documento: Json) {
    this.documento = documento;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: 'openapi.json', components: documento['components'] }, 'openapi.json');
  }

  /** The operation a request path matches, as documented (paths are relative to servers[0]). */
  operacao(metodo: string, caminho: string): { chave: string; operacao: Json } | null {
    const base = ((this.documento['servers'] as Json[] | undefined)?.[0]?.['url'] as string | undefined) ?? '';
    if (!caminho.startsWith(base)) return null;
    const relativo = caminho.slice(base.length);
    for (const [modelo, operacoes] of Object.entries(this.documento['paths'] as Record<string, Json>)) {
      const regex = new RegExp(`^${modelo.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (regex.test(relativo) && !(modelo.includes('{') && this.#estaticoCorresponde(relativo))) {
        const operacao = operacoes[metodo.toLowerCase()] as Json | undefined;
        if (operacao) return { chave: modelo, operacao };
      }
    }
    return null;
  }

  #estaticoCorresponde(relativo: string): boolean {
    return Object.keys(this.documento['paths'] as Json).some((m) => !m.includes('{') && m === relativo);
  }

  /** Asserts the status, the body (and content type) and the headers are what the document says for this status. */
  validar(metodo: string, url: string, resposta: RespostaVista): void {
    // A HEAD answer has no body to check.
    if (metodo === 'HEAD') return;
    const caminho = url.split('?')[0] ?? url;
    const achada = this.operacao(metodo, caminho);
    if (achada === null) {
      // Outside the partner paths (unknown routes, other methods): every error is still an Erro.
      if (resposta.statusCode >= 400) this.#validarComSchema({ $ref: 'openapi.json#/components/schemas/Erro' }, 'Erro', resposta);
      return;
    }
    const { operacao } = achada;
    const status = String(resposta.statusCode);
    const respostas = operacao['responses'] as Record<string, Json>;
    const documentada = respostas[status];
    expect(documentada, `status ${status} de ${String(operacao['operationId'])} está no OpenAPI`).toBeDefined();
    this.#validarCabecalhos(`${String(operacao['operationId'])} ${status}`, (documentada?.['headers'] ?? {}) as Record<string, Json>, resposta);
    const conteudo = (documentada?.['content'] as Record<string, Json> | undefined)?.['application/json'];
    if (conteudo === undefined) {
      expect(resposta.body).toBe('');
      return;
    }
    const schema = JSON.parse(JSON.stringify(conteudo['schema']).replaceAll('"#/components/', '"openapi.json#/components/')) as Json;
    this.#validarComSchema(schema, `${String(operacao['operationId'])} ${status}`, resposta);
  }

  /**
   * Every header the document lists for the status is there (but those its description makes
   * conditional), with a value its schema allows.
   */
  #validarCabecalhos(nome: string, documentados: Record<string, Json>, resposta: RespostaVista): void {
    const componentes = ((this.documento['components'] as Json)['headers'] ?? {}) as Record<string, Json>;
    const status = String(resposta.statusCode);
    for (const [cabecalho, descrito] of Object.entries(documentados)) {
      const ref = descrito['$ref'] as string | undefined;
      const schema = ((ref === undefined ? descrito : componentes[ref.replace('#/components/headers/', '')])?.['schema'] ?? {}) as Json;
      const valor = resposta.headers[cabecalho.toLowerCase()];
      const rotulo = `${cabecalho} de ${nome}`;
      if (valor === undefined) {
        expect(CABECALHOS_CONDICIONAIS[status] ?? [], `${rotulo} ausente`).toContain(cabecalho);
        continue;
      }
      expect(typeof valor, rotulo).toBe('string');
      if (schema['type'] === 'integer') {
        expect(valor, rotulo).toMatch(/^\d+$/);
        expect(Number(valor), rotulo).toBeGreaterThanOrEqual(Number(schema['minimum'] ?? 0));
      } else {
        expect(valor, rotulo).not.toBe('');
      }
    }
  }

  #validarComSchema(schema: Json, nome: string, resposta: RespostaVista): void {
    expect(resposta.headers['content-type']).toBe('application/json; charset=utf-8');
    const chave = JSON.stringify(schema);
    let validar = this.#cache.get(chave);
    if (validar === undefined) {
      validar = this.#ajv.compile(schema);
      this.#cache.set(chave, validar);
    }
    const corpo: unknown = JSON.parse(resposta.body);
    const ok = validar(corpo);
    expect(ok, `${nome}: ${JSON.stringify(validar.errors)} em ${resposta.body.slice(0, 500)}`).toBe(true);
  }
}

// ---- App --------------------------------------------------------------------------------------

export interface ApiDeTeste {
  readonly app: FastifyInstance;
  readonly credenciaisArquivo: string;
  /** The app's credentials, which check their file every 500 ms (tests may check it at once). */
  readonly credenciais: CredenciaisStore;
  readonly metricas: Metricas;
  readonly logs: string[];
  readonly validador: ValidadorOpenApi;
  /** A token issued for this app's credentials file. */
  readonly token: string;
  /** GET (or another method) with the token, validating the answer against the OpenAPI document. */
  get(
    url: string,
    opcoes?: { token?: string | null; headers?: Record<string, string | string[]>; metodo?: InjectOptions['method'] },
  ): Promise<LightMyRequestResponse>;
  fechar(): Promise<void>;
}

export interface OpcoesApiDeTeste {
  readonly leitor: LeitorSqlite | FonteProjecao;
  /** Redis URL for the shared limiter; omitted: the per-process limiter. */
  readonly redisUrl?: string;
  /** Keys in Redis are prefixed with this, so tests never share a window. */
  readonly prefixo?: string;
  readonly limite?: number;
  /** An existing credentials file (several apps sharing one), else a fresh one. */
  readonly credenciaisArquivo?: string;
  readonly config?: Partial<ConfigApp>;
  readonly agora?: () => number;
  readonly limitador?: Limitador;
  /** Redis command timeout; the default is the production 100 ms. */
  readonly comandoTimeoutMs?: number;
}

export async function criarApi(opcoes: OpcoesApiDeTeste): Promise<ApiDeTeste> {
  const limite = opcoes.limite ?? 120;
  const logs: string[] = [];
  const destino = new Writable({
    write(pedaco: Buffer, _enc, feito) {
      logs.push(pedaco.toString('utf8'));
      feito();
    },
  });
  const logger = criarLogger({ nivel: 'debug', destino });
  const metricas = criarMetricas({ padraoDoProcesso: false });
  let arquivoTemporario: SqliteTemporario | null = null;
  const credenciaisArquivo = opcoes.credenciaisArquivo ?? (arquivoTemporario = sqliteTemporario('credenciais.json')).caminho;
  const { token } = emitirCredencial(credenciaisArquivo, nomeUnico('parceiro'));
  const credenciais = CredenciaisStore.abrir(credenciaisArquivo, { logger, intervaloMs: 500 });

  let limitador: Limitador;
  if (opcoes.limitador) limitador = opcoes.limitador;
  else if (opcoes.redisUrl === undefined) limitador = new LimitadorLocal({ limite });
  else {
    const redis = new LimitadorRedis({
      redis: opcoes.redisUrl,
      limite,
      prefixo: opcoes.prefixo ?? `${nomeUnico('teste')}:`,
      ...(opcoes.comandoTimeoutMs === undefined ? {} : { comandoTimeoutMs: opcoes.comandoTimeoutMs }),
    });
    redis.redis.on('error', () => {});
    await expect.poll(() => redis.conectado, { timeout: 10_000 }).toBe(true);
    limitador = new LimitadorComReserva({ redis, local: new LimitadorLocal({ limite }), logger, ...metricasDoLimitador(metricas) });
  }

  const app = await buildApp({
    // A loaded test machine can stall the event loop for a second: only the pressure tests
    // (which set their own thresholds) are to see 503s.
    config: { atrasoMaximoMs: 60_000, pressao: { maxEventLoopDelayMs: 60_000 }, ...opcoes.config },
    leitor: opcoes.leitor,
    limitador,
    credenciais,
    logger,
    metricas,
    ...(opcoes.agora ? { agora: opcoes.agora } : {}),
  });
  await app.ready();
  const documento = JSON.parse((await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body) as Json;
  const validador = new ValidadorOpenApi(documento);

  return {
    app,
    credenciaisArquivo,
    credenciais,
    metricas,
    logs,
    validador,
    token,
    async get(url, o = {}) {
      const headers: Record<string, string | string[]> = { ...o.headers };
      const t = o.token === undefined ? token : o.token;
      if (t !== null && headers['authorization'] === undefined) headers['authorization'] = `Bearer ${t}`;
      const metodo = o.metodo ?? 'GET';
      const resposta = await app.inject({ method: metodo, url, headers });
      const comprimida = resposta.headers['content-encoding'] !== undefined;
      if (!comprimida) validador.validar(metodo, url, resposta);
      return resposta;
    },
    async fechar() {
      await app.close();
      await limitador.close();
      credenciais.close();
      arquivoTemporario?.remover();
    },
  };
}
