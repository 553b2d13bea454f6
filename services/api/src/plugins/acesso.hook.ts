// The gate of every partner route, in this order: who is asking (the bearer credential, or the
// client address when there is no valid one), the request limit for that key, then: without a
// valid credential the 401, whatever the count (decision 0017); with one, the 429 past its limit,
// the overload 503, then Accept.
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import ipaddr from 'ipaddr.js';
import { JANELA_PADRAO_MS } from '@imoveis/domain';
import { PARAMETROS_DE_TOKEN, temToken, type Credencial } from '../credenciais/arquivo-credenciais.ts';
import type { FonteCredenciais } from '../credenciais/credenciais-store.ts';
import { FormatoNaoAceitavel, LimiteExcedido, NaoAutenticado, ServicoSobrecarregado, type MotivoNaoAutenticado } from '../erros.ts';
import type { DecisaoLimite, Limitador } from '../limite/limitador.ts';
import type { Metricas } from '../metricas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The credential the request was sent with, once the gate has found it: the partner's on
     * every partner request it lets through, and on one it refuses for its limit, overload or
     * Accept; a revoked one too (`motivoNaoAutenticado` then says so), for the log line.
     */
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

type Identificacao =
  | { tipo: 'credencial'; credencial: Credencial }
  | { tipo: 'anonima'; motivo: MotivoNaoAutenticado; revogada?: Credencial };

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

/**
 * True when the request carries Authorization more than once. Node keeps the first and drops the
 * others, so which credential the client meant (or a proxy added) cannot be known.
 */
export function autorizacaoRepetida(cabecalhosBrutos: readonly string[]): boolean {
  let vistos = 0;
  for (let i = 0; i < cabecalhosBrutos.length; i += 2) {
    const nome = cabecalhosBrutos[i]!;
    if (nome.length === 13 && nome.toLowerCase() === 'authorization' && ++vistos > 1) return true;
  }
  return false;
}

function identificar(request: FastifyRequest, credenciais: FonteCredenciais): Identificacao {
  // The path as sent: a malformed escape makes the router's copy (`request.url`) escape every `%` again.
  if (tokenNaUrl(request.query) || temToken(caminhoDe(request.originalUrl))) return { tipo: 'anonima', motivo: 'na-url' };
  const cabecalho = request.headers.authorization;
  if (cabecalho === undefined || cabecalho === '') return { tipo: 'anonima', motivo: 'ausente' };
  if (autorizacaoRepetida(request.raw.rawHeaders)) return { tipo: 'anonima', motivo: 'repetida' };
  const token = CABECALHO_BEARER.exec(cabecalho)?.[1];
  if (token === undefined) return { tipo: 'anonima', motivo: 'malformada' };
  const resultado = credenciais.autenticar(token);
  if (resultado.tipo === 'valida') return { tipo: 'credencial', credencial: resultado.credencial };
  if (resultado.tipo === 'revogada') return { tipo: 'anonima', motivo: 'revogada', revogada: resultado.credencial };
  return { tipo: 'anonima', motivo: resultado.tipo };
}

/**
 * True unless Accept excludes JSON. The most specific matching range decides (RFC 9110
 * §12.5.1), so `application/json;q=0, *\/*` refuses JSON. A range given twice counts at its
 * higher weight, whichever comes first.
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
    const peso = Number.isNaN(q) ? 0 : q;
    if (melhor === null || especificidade > melhor.especificidade || (especificidade === melhor.especificidade && peso > melhor.q)) {
      melhor = { especificidade, q: peso };
    }
  }
  return melhor !== null && melhor.q > 0;
}

/**
 * The limit's key for a client without a valid credential: its IPv4 address, or its IPv6 /64.
 * One host is usually given a whole /64, and any address in it is as cheap to use as the next:
 * keyed by address, it would get a window per address (and fill the per-process limiter's map).
 */
export function chaveDoEndereco(ip: string): string {
  // Node writes an IPv4 client as a.b.c.d: as it is, without parsing.
  if (!ip.includes(':')) return `ip:${ip}`;
  let endereco: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // An IPv4 client reaching an IPv6 socket comes as ::ffff:a.b.c.d: the same client.
    endereco = ipaddr.process(ip);
  } catch {
    return `ip:${ip}`;
  }
  // Behind NAT64 (64:ff9b::/96) every IPv4 client shares one /64: each keeps its own address.
  if (endereco.kind() === 'ipv4' || endereco.range() === 'rfc6052') return `ip:${endereco.toString()}`;
  const [a, b, c, d] = (endereco as ipaddr.IPv6).parts;
  return `ip:${[a, b, c, d].map((parte) => parte!.toString(16)).join(':')}::/64`;
}

/** IETF draft-ietf-httpapi-ratelimit-headers (-10) structured fields, on every partner answer. */
function cabecalhosDeLimite(reply: FastifyReply, politica: 'credencial' | 'endereco', decisao: DecisaoLimite): void {
  reply.header('RateLimit-Policy', `"${politica}";q=${decisao.limite};w=${JANELA_S}`);
  reply.header('RateLimit', `"${politica}";r=${decisao.restantes};t=${decisao.reinicioS}`);
}

export function criarPorteiro(deps: { credenciais: FonteCredenciais; limitador: Limitador; metricas: Metricas }): onRequestAsyncHookHandler {
  return async function porteiro(request, reply) {
    const quem = identificar(request, deps.credenciais);
    if (quem.tipo === 'anonima') {
      // Counted per client address, so a client sending bad tokens is told when to come back; but
      // answered with the contract's 401 past the limit too, never a 429, which would tell a
      // partner whose token was revoked to repeat the same request later (decision 0017).
      const decisao = await deps.limitador.tentar(chaveDoEndereco(request.ip));
      cabecalhosDeLimite(reply, 'endereco', decisao);
      if (!decisao.admitido) {
        deps.metricas.recusasPorLimite.inc({ chave: 'endereco' });
        reply.header('Retry-After', String(decisao.retryAfterS ?? 1));
      }
      request.motivoNaoAutenticado = quem.motivo;
      request.credencial = quem.revogada ?? null;
      throw new NaoAutenticado(quem.motivo);
    }
    // Named in the log line of a 429 or 503 too: a partner asking why is found by it.
    request.credencial = quem.credencial;
    const decisao = await deps.limitador.tentar(`credencial:${quem.credencial.id}`);
    cabecalhosDeLimite(reply, 'credencial', decisao);
    if (!decisao.admitido) {
      deps.metricas.recusasPorLimite.inc({ chave: 'credencial' });
      throw new LimiteExcedido(decisao.limite, decisao.retryAfterS ?? 1);
    }
    if (request.sobPressao) throw new ServicoSobrecarregado();
    if (!aceitaJson(request.headers.accept)) throw new FormatoNaoAceitavel();
  };
}
