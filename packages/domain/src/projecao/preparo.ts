// The state-free half of applying a register event: what a projector's preparing thread does
// (decision 0007). No projection is read here, and nothing here loads SQLite: the threads only
// decode, map, serialise and digest.
import { hash } from 'node:crypto';
import type { EventoCondominio, EventoImovel, ImovelExcluido, ValoresPrivados } from '@imoveis/contracts';
import { estaAnunciado, mapearImovelEPublico, serializarDocumento } from '../imovel/index.ts';

export interface ContextoProjecao {
  /** Public watermark base address of the photos (https). */
  fotosBaseUrl: string;
}

/**
 * A property save with its costly, state-free part done: mapped and serialised with
 * `nome_condominio` null, the name being read from the projection when it is applied. Small and
 * plain, so it can be prepared in a worker thread (see the projector's `preparo-em-threads.ts`).
 */
export interface ImovelSalvoPreparado {
  tipo: 'imovel.salvo';
  versao: number;
  id: string;
  codigo: string;
  condominioId: string | null;
  anunciado: boolean;
  documento: string;
  /**
   * A digest of the document the public fields alone give (before the record's private values are
   * masked in its text): equal to the stored row's, the event changed only private fields (or
   * nothing), and the document stays as it is (decision 0016).
   */
  publico: string;
}

export type EventoPreparado = ImovelSalvoPreparado | ImovelExcluido | EventoCondominio;

/** `privados`: what decoding kept aside of a saved property, masked in its free text. */
export function prepararEvento(evento: EventoImovel | EventoCondominio, contexto: ContextoProjecao, privados?: ValoresPrivados): EventoPreparado {
  if (evento.tipo !== 'imovel.salvo') return evento;
  const registro = evento.dados;
  const mapeado = mapearImovelEPublico(registro, { nomeCondominio: null, fotosBaseUrl: contexto.fotosBaseUrl, ...(privados && { privados }) });
  const documento = serializarDocumento(mapeado.documento);
  // Most texts hold no private value: then the document is what the public fields give.
  const { documentoPublico } = mapeado;
  const publico = mapeado.documento === documentoPublico ? documento : serializarDocumento(documentoPublico);
  return {
    tipo: evento.tipo,
    versao: evento.versao,
    id: registro.id,
    codigo: registro.codigo,
    condominioId: registro.condominio_id,
    anunciado: estaAnunciado(registro),
    documento,
    publico: digestoPublico(publico),
  };
}

/**
 * 128 bits of SHA-256 in base64url (22 characters a row; a collision would leave a public change
 * unapplied). Of the document alone, not the rules version: a rebuild under new rules that leave
 * a document as it was leaves its row as it was too (the switch writes only what differs).
 */
const digestoPublico = (documento: string): string => hash('sha256', documento, 'base64url').slice(0, 22);
