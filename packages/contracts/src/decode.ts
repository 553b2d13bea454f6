// Turns the raw bytes of a Kafka record into a validated register event, or a rejection with
// a reason code (the dead-letter topic carries it). Pure: no Kafka types here. The event keeps no
// private field; a property's private values come beside it, for the mapping to mask them in the
// free text partners read (privados.ts reads them; the domain masks them), never to be stored or logged.
import { isUtf8 } from 'node:buffer';
import { type z } from 'zod';
import { valoresPrivados, type ValoresPrivados } from './privados.ts';
import { EventoCondominio, EventoImovel, TIPOS_EVENTO, VERSAO_SCHEMA, type EventoCondominio as TEventoCondominio, type EventoImovel as TEventoImovel } from './register-events.ts';

export const MOTIVOS_REJEICAO = [
  'json-invalido',
  'tipo-desconhecido',
  'versao-schema-desconhecida',
  'contrato-invalido',
  'chave-divergente',
  // Not from decoding: preparing a valid event failed, a defect of ours. The event waits in the
  // dead letters for the fix (and a rebuild) instead of stopping every partition behind it.
  'falha-no-preparo',
] as const;
export type MotivoRejeicao = (typeof MOTIVOS_REJEICAO)[number];

export type Decodificado<E> =
  /** `privados`: a saved property's, as agents may type them into its free text. */
  | { ok: true; evento: E; privados?: ValoresPrivados }
  | { ok: false; motivo: MotivoRejeicao; detalhe: string };

/** Which aggregate a topic carries, so an event on the wrong topic is rejected too. */
export type Agregado = 'imovel' | 'condominio';

/** A register topic by its short name, as NDJSON files name it. */
export type TopicoRegistro = 'imoveis' | 'condominios';

/**
 * A register record outside Kafka (NDJSON lines): what the generator writes, and what the demo
 * and the tests project. `valor` is the event's exact text, or null for a compaction tombstone.
 */
export interface RegistroBruto {
  topico: TopicoRegistro;
  chave: string | null;
  valor: string | null;
}

/** A JSON escape of half a UTF-16 pair (`\ud800`): how one can arrive, UTF-8 having no way to. */
const ESCAPE_DE_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * `valor` with every half of a UTF-16 pair standing alone replaced by U+FFFD, as UTF-8 decoding
 * would: strict JSON readers (Rust's serde_json among them) refuse `\ud800`, so partners must not
 * get one, and no URL can encode one. A wrong value corrected; the event is applied.
 */
function comTextoBemFormado(valor: unknown): unknown {
  if (typeof valor === 'string') return valor.replace(/\p{Cs}/gu, '\ufffd');
  if (Array.isArray(valor)) return valor.map(comTextoBemFormado);
  if (typeof valor === 'object' && valor !== null) {
    return Object.fromEntries(Object.entries(valor).map(([chave, v]) => [chave, comTextoBemFormado(v)]));
  }
  return valor;
}

type EventoDe<A extends Agregado> = A extends 'imovel' ? TEventoImovel : TEventoCondominio;

export function decodificarEvento<A extends Agregado>(
  agregado: A,
  chave: string | null,
  valor: Buffer | string,
): Decodificado<EventoDe<A>> {
  // Decoding would turn a bad byte into U+FFFD silently, and the event into one nobody sent.
  if (typeof valor !== 'string' && !isUtf8(valor)) return { ok: false, motivo: 'json-invalido', detalhe: 'o valor não é UTF-8 válido' };
  const texto = typeof valor === 'string' ? valor : valor.toString('utf8');
  let bruto: unknown;
  try {
    bruto = JSON.parse(texto);
  } catch {
    // JSON.parse's message quotes the input, which may carry private data: say less.
    return { ok: false, motivo: 'json-invalido', detalhe: 'o valor não é JSON válido' };
  }
  if (ESCAPE_DE_SURROGATE.test(texto)) bruto = comTextoBemFormado(bruto);
  if (typeof bruto !== 'object' || bruto === null || Array.isArray(bruto)) {
    return { ok: false, motivo: 'json-invalido', detalhe: 'o valor não é um objeto JSON' };
  }
  const { tipo, versao_schema: versaoSchema } = bruto as Record<string, unknown>;
  if (versaoSchema !== VERSAO_SCHEMA) {
    return { ok: false, motivo: 'versao-schema-desconhecida', detalhe: `versao_schema ${citado(versaoSchema)}` };
  }
  if (typeof tipo !== 'string' || !TIPOS_EVENTO.has(tipo) || !tipo.startsWith(`${agregado}.`)) {
    return { ok: false, motivo: 'tipo-desconhecido', detalhe: `tipo ${citado(tipo)} no tópico de ${agregado}` };
  }
  const schema = agregado === 'imovel' ? EventoImovel : EventoCondominio;
  const resultado = schema.safeParse(bruto);
  if (!resultado.success) {
    return { ok: false, motivo: 'contrato-invalido', detalhe: resumirErro(resultado.error) };
  }
  const evento = resultado.data as EventoDe<A>;
  // dados.id is in lower case by now; the key names the same uuid in whatever case it came.
  if (chave !== null && chave.toLowerCase() !== evento.dados.id) {
    return { ok: false, motivo: 'chave-divergente', detalhe: `chave ${citado(chave)} difere de dados.id ${evento.dados.id}` };
  }
  if (evento.tipo === 'imovel.salvo') {
    // The schema dropped the private fields: the raw record is the last place they are known.
    return { ok: true, evento, privados: valoresPrivados((bruto as { dados?: unknown }).dados) };
  }
  return { ok: true, evento };
}

/** How long a value the producer sent may be quoted in a rejection's detail (a log line, a DLQ header). */
const CITACAO_MAXIMA = 60;

/** A value as sent, quoted in JSON and cut short: an object or text of any size arrives here. */
function citado(valor: unknown): string {
  const texto = JSON.stringify(valor) ?? String(valor);
  return texto.length <= CITACAO_MAXIMA ? texto : `${texto.slice(0, CITACAO_MAXIMA)}…`;
}

/** A short, value-free description of what failed: field paths and messages, never field values. */
function resumirErro(erro: z.ZodError): string {
  return erro.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(raiz)'}: ${issue.message}`)
    .join('; ');
}
