// Whether a property is advertised, i.e. visible to partners at all.
import { STATUS_COMERCIAIS, type ImovelRegistro } from '@imoveis/contracts';
import { umDosPermitidos } from './permitidos.ts';

export function estaAnunciado(registro: ImovelRegistro): boolean {
  return registro.ativo && registro.publicar_no_site && umDosPermitidos(STATUS_COMERCIAIS, registro.situacao) !== null;
}
