// The gate of every partner route, in this order: the bearer credential (a 401 without a valid
// one, whatever else), the request limit counted on it, then the overload 503, then Accept.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { JANELA_PADRAO_MS } from '@imoveis/domain';
import { PARAMETROS_DE_TOKEN, temToken, type Credencial } from '../credenciais/arquivo-credenciais.ts';
import type { FonteCredenciais } from '../credenciais/credenciais-store.ts';
import { FormatoNaoAceitavel, LimiteExcedido, NaoAutenticado, ServicoSobrecarregado, type MotivoNaoAutenticado } from '../erros.ts';
import type { DecisaoLimite, Limitador } from '../limite/limitador.ts';
import type { Metricas } from '../metricas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner's credential, set by the gate on every partner route it lets through. */
    credencial: Credencial | null;
    /** Why the gate answered 401: named in the request's log line. */
    motivoNaoAutenticado: MotivoNaoAutenticado | null;
    /** Set by under-pressure when the process is overloaded; the gate then answers 503. */
    sobPressao: boolean;
  }
}

/** The limit's window, in the seconds RateLimit-Policy states. */
export const JANELA_S = JANELA_PADRAO_MS / 1000;
// RFC 6750 b64token after "Bearer" and exactly one space.
const CABECALHO_BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

type Identificacao = { tipo: 'credencial'; credencial: Credencial } | { tipo: 'anonima'; motivo: MotivoNaoAutenticado };

/** True when the query string carries something that is or looks like a credential. */
export function tokenNaUrl(query: unknown): boolean {
  if (query === null || typeof query !== 'object') return false;
  for (const [nome, valor] of Object.entries(query as Record<string, unknown>)) {
    // A name the parser could not decode (`acc%65ss_token%ZZ`) comes as sent.
    if (PARAMETROS_DE_TOKEN.has(nome.toLowerCase()) || temToken(nome)) return true;
    const valores = Array.isArray(valor) ? valor : [valor];
    if (valores.some((v) => typeof v === 'string' && temToken(v))) return true;
  }
  return false;
}

const caminhoDe = (url: string): string => {
  const fim = url.indexOf('?');
  return fim === -1 ? url : url.slice(0, fim);
};

function identificar(request: FastifyRequest, credenciais: FonteCredenciais): Identificacao {
  if (tokenNaUrl(request.query) || temToken(caminhoDe(request.url))) return { tipo: 'anonima', motivo: 'na-url' };
  const cabecalho = request.headers.authorization;
  if (cabecalho === undefined || cabecalho === '') return { tipo: 'anonima', motivo: 'ausente' };
  const token = CABECALHO_BEARER.exec(cabecalho)?.[1];
  if (token === undefined) return { tipo: 'anonima', motivo: 'malformada' };
  const resultado = credenciais.autenticar(token);
  if (resultado.tipo === 'valida') return { tipo: 'credencial', credencial: resultado.credencial };
  return { tipo: 'anonima', motivo: resultado.tipo };
}

/**
 * True unless Accept excludes JSON. The most specific matching range decides (RFC 9110
 * §12.5.1), so `application/json;q=0, *\/*` refuses JSON.
 */
export function aceitaJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let melhor: { especificidade: number; q: number } | null = null;
  for (const faixa of accept.split(',')) {
    const [tipo = '', ...parametros] = faixa.split(';').map((p) => p.trim().toLowerCase());
    const especificidade = tipo === 'application/json' ? 3 : tipo === 'application/*' ? 2 : tipo === '*/*' ? 1 : 0;
    if (especificidade === 0) continue;
    const qTexto = parametros.find((p) => p.startsWith('q='))?.slice(2);
    const q = qTexto === undefined ? 1 : Number(qTexto);
    if (melhor === null || especificidade > melhor.especificidade) melhor = { especificidade, q: Number.isNaN(q) ? 0 : q };
  }
  return melhor !== null && melhor.q > 0;
}

/** IETF draft-ietf-httpapi-ratelimit-headers (-10) structured fields, on every answer to a valid credential. */
function cabecalhosDeLimite(reply: FastifyReply, decisao: DecisaoLimite): void {
  reply.header('RateLimit-Policy', `"credencial";q=${decisao.limite};w=${JANELA_S}`);
  reply.header('RateLimit', `"credencial";r=${decisao.restantes};t=${decisao.reinicioS}`);
}

export function criarPorteiro(deps: { credenciais: FonteCredenciais; limitador: Limitador; metricas: Metricas }): onRequestAsyncHookHandler {
  return async function porteiro(request, reply) {
    const quem = identificar(request, deps.credenciais);
    // The contract's 401, never a 429: the limit is counted per credential (decision 0017). A
    // token of 32 random bytes cannot be guessed at any speed, and a 401 costs less than a count.
    if (quem.tipo === 'anonima') {
      request.motivoNaoAutenticado = quem.motivo;
      throw new NaoAutenticado(quem.motivo);
    }
    const decisao = await deps.limitador.tentar(`credencial:${quem.credencial.id}`);
    cabecalhosDeLimite(reply, decisao);
    if (!decisao.admitido) {
      deps.metricas.recusasPorLimite.inc();
      throw new LimiteExcedido(decisao.limite, decisao.retryAfterS ?? 1);
    }
    if (request.sobPressao) throw new ServicoSobrecarregado();
    request.credencial = quem.credencial;
    if (!aceitaJson(request.headers.accept)) throw new FormatoNaoAceitavel();
  };
}
