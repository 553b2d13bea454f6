// Envelopes of the four register events and their serialisation into output records.
import { formatarDataHora } from './data-hora.ts';
import type { CondominioCompleto, CondominioExcluidoEntrada, CondominioSalvoEntrada, ImovelCompleto, ImovelExcluidoEntrada, ImovelSalvoEntrada } from './tipos.ts';
import { VERSAO_SCHEMA, type RegistroBruto } from '@imoveis/contracts';

// Typed against the contract's input types, so a field the contract renames breaks the build here.
export function eventoImovelSalvo(eventoId: string, versao: number, ocorridoMs: number, dados: ImovelCompleto): ImovelSalvoEntrada {
  return { evento_id: eventoId, tipo: 'imovel.salvo', versao_schema: VERSAO_SCHEMA, ocorrido_em: formatarDataHora(ocorridoMs), versao, dados };
}

export function eventoImovelExcluido(eventoId: string, versao: number, ocorridoMs: number, id: string, codigo: string): ImovelExcluidoEntrada {
  return { evento_id: eventoId, tipo: 'imovel.excluido', versao_schema: VERSAO_SCHEMA, ocorrido_em: formatarDataHora(ocorridoMs), versao, dados: { id, codigo } };
}

export function eventoCondominioSalvo(eventoId: string, versao: number, ocorridoMs: number, dados: CondominioCompleto): CondominioSalvoEntrada {
  return { evento_id: eventoId, tipo: 'condominio.salvo', versao_schema: VERSAO_SCHEMA, ocorrido_em: formatarDataHora(ocorridoMs), versao, dados };
}

export function eventoCondominioExcluido(eventoId: string, versao: number, ocorridoMs: number, id: string): CondominioExcluidoEntrada {
  return { evento_id: eventoId, tipo: 'condominio.excluido', versao_schema: VERSAO_SCHEMA, ocorrido_em: formatarDataHora(ocorridoMs), versao, dados: { id } };
}

export function registroImovel(evento: ImovelSalvoEntrada | ImovelExcluidoEntrada): RegistroBruto {
  return { topico: 'imoveis', chave: evento.dados.id, valor: JSON.stringify(evento) };
}

export function registroCondominio(evento: CondominioSalvoEntrada | CondominioExcluidoEntrada): RegistroBruto {
  return { topico: 'condominios', chave: evento.dados.id, valor: JSON.stringify(evento) };
}
