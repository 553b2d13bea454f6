// Record headers as kafkajs reads and writes them.
import type { IHeaders } from 'kafkajs';

/**
 * A record's headers as kafkajs hands them over: values as bytes (text where we write them; null
 * for a header without a value), a name sent twice keeping every value (kafkajs groups them under
 * the name, and decodes names as UTF-8). Dead letters copy them so.
 */
export type Cabecalhos = Record<string, Buffer | string | null | (Buffer | string | null)[]>;

const VAZIO = Buffer.alloc(0);

/**
 * Headers kafkajs can send: it cannot write a header without a value (null), which another
 * client may have sent, so that one goes as an empty value.
 */
export function cabecalhosParaEnvio(cabecalhos: Cabecalhos): IHeaders {
  const resultado: IHeaders = {};
  const enviavel = (valor: Buffer | string | null): Buffer | string => valor ?? VAZIO;
  for (const [nome, valor] of Object.entries(cabecalhos)) resultado[nome] = Array.isArray(valor) ? valor.map(enviavel) : enviavel(valor);
  return resultado;
}

/** A header's text: its last value, as UTF-8. */
export function textoDoCabecalho(cabecalhos: Cabecalhos, nome: string): string | undefined {
  const valor = cabecalhos[nome];
  const ultimo = Array.isArray(valor) ? valor[valor.length - 1] : valor;
  return ultimo?.toString() ?? undefined;
}

/** kafkajs' headers without its `undefined` entries; values untouched. */
export function cabecalhosPresentes(headers: Record<string, Cabecalhos[string] | undefined> | undefined): Cabecalhos {
  const resultado: Cabecalhos = {};
  for (const [nome, valor] of Object.entries(headers ?? {})) if (valor !== undefined) resultado[nome] = valor;
  return resultado;
}
