// The state-free half of applying a register event: what a projector's preparing thread does
// (decision 0007). No projection is read here, and nothing here loads SQLite: the threads only
// decode, map and serialise.
import type { EventoCondominio, EventoImovel, ImovelExcluido, ValoresPrivados } from '@imoveis/contracts';
import { estaAnunciado, mapearImovel, serializarDocumento } from '../imovel/index.ts';

export interface ContextoProjecao {
  /** Public watermark base address of the photos (https). */
  fotosBaseUrl: string;
}

/**
 * A property save with its costly, state-free part done: mapped and serialised with
 * `nome_condominio` null, the name being read from the projection when it is applied. Small and
 * plain, so it can be prepared in a worker thread (see the projector's `preparo`).
 */
export interface ImovelSalvoPreparado {
  tipo: 'imovel.salvo';
  versao: number;
  id: string;
  codigo: string;
  condominioId: string | null;
  anunciado: boolean;
  documento: string;
}

export type EventoPreparado = ImovelSalvoPreparado | ImovelExcluido | EventoCondominio;

/** `privados`: what decoding kept aside of a saved property, masked in its free text. */
export function prepararEvento(evento: EventoImovel | EventoCondominio, contexto: ContextoProjecao, privados?: ValoresPrivados): EventoPreparado {
  if (evento.tipo !== 'imovel.salvo') return evento;
  const registro = evento.dados;
  return {
    tipo: evento.tipo,
    versao: evento.versao,
    id: registro.id,
    codigo: registro.codigo,
    condominioId: registro.condominio_id,
    anunciado: estaAnunciado(registro),
    documento: serializarDocumento(mapearImovel(registro, { nomeCondominio: null, fotosBaseUrl: contexto.fotosBaseUrl, ...(privados && { privados }) })),
  };
}
