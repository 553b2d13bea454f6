// Address rules: how much of the location a partner may see, and the corrections of wrong values.
import type { DocumentoImovel, Endereco } from '@imoveis/contracts';
import { aparado } from './texto.ts';

const UFS = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;

export type ExibirEndereco = DocumentoImovel['exibir_endereco'];

/** The address fields of the partner document, as the contract defines them. */
export type EnderecoParceiro = Pick<
  DocumentoImovel,
  'logradouro' | 'numero' | 'complemento' | 'bairro' | 'cidade' | 'uf' | 'cep' | 'latitude' | 'longitude' | 'exibir_endereco'
>;

/** Only an explicit `completo` shows the street: an unknown value must not disclose more (privacy first). */
export function exibirEndereco(exibicao: string): ExibirEndereco {
  return exibicao === 'completo' ? 'rua' : 'bairro';
}

/** Two Latin letters in any case: `toUpperCase` alone would also read lookalikes (`ſp` as `SP`). */
export function uf(valor: string | null): string | null {
  const codigo = valor?.trim() ?? '';
  return /^[a-zA-Z]{2}$/.test(codigo) && (UFS as readonly string[]).includes(codigo.toUpperCase()) ? codigo.toUpperCase() : null;
}

/** Digits only, and only a complete 8-digit CEP: a partial one would mislead a portal's geocoder. */
export function cep(valor: string | null): string | null {
  const digitos = valor?.replace(/\D/g, '') ?? '';
  return digitos.length === 8 ? digitos : null;
}

function dentroDoIntervalo(valor: number | null, limite: number): valor is number {
  return valor !== null && Number.isFinite(valor) && Math.abs(valor) <= limite;
}

/** Two decimal places is about 1 km: enough for a map of the neighbourhood, not enough to find the building. */
function arredondarParaBairro(valor: number): number {
  // toFixed rounds the exact stored value, the same way on both sides of the equator and meridian
  // (-46.645 is stored as -46.64500000000000313 and gives -46.65; an exact half such as 23.125
  // goes away from zero). Math.round(valor * 100) would round the product, which loses
  // precision, and send halves towards +∞ (-46.645 would give -46.64).
  const arredondado = Number(valor.toFixed(2));
  // -0 would serialise as 0 anyway; normalising keeps equality checks in tests and callers simple.
  return arredondado === 0 ? 0 : arredondado;
}

/** Coordinates a partner may see: rounded to about 1 km when only the neighbourhood is shown. */
export function coordenadas(
  latitude: number | null,
  longitude: number | null,
  exibir: ExibirEndereco,
): { latitude: number | null; longitude: number | null } {
  // Each is copied when within its own range (the contract's rule is per field).
  const ajustar = (valor: number | null, limite: number): number | null => {
    if (!dentroDoIntervalo(valor, limite)) return null;
    return exibir === 'bairro' ? arredondarParaBairro(valor) : valor;
  };
  return { latitude: ajustar(latitude, 90), longitude: ajustar(longitude, 180) };
}

export function mapearEndereco(endereco: Endereco): EnderecoParceiro {
  const exibir = exibirEndereco(endereco.exibicao);
  const { latitude, longitude } = coordenadas(endereco.latitude, endereco.longitude, exibir);
  return {
    logradouro: exibir === 'rua' ? aparado(endereco.logradouro) : null,
    // The street number and unit are never disclosed, whatever `exibicao` says.
    numero: null,
    complemento: null,
    bairro: aparado(endereco.bairro),
    cidade: aparado(endereco.cidade),
    uf: uf(endereco.uf),
    cep: exibir === 'rua' ? cep(endereco.cep) : null,
    latitude,
    longitude,
    exibir_endereco: exibir,
  };
}
