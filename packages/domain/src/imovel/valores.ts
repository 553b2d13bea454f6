// Price rules: which prices a partner sees for the property's purpose, and when they are hidden.
import type { DocumentoImovel, FINALIDADES, PERIODICIDADES_IPTU, Valores } from '@imoveis/contracts';
import { naoNegativo } from './numeros.ts';

type Finalidade = (typeof FINALIDADES)[number];
type PeriodicidadeIptu = (typeof PERIODICIDADES_IPTU)[number];

/** The price fields of the partner document, as the contract defines them. */
export type ValoresParceiro = Pick<
  DocumentoImovel,
  'valor_venda' | 'valor_aluguel' | 'valor_condominio' | 'valor_iptu' | 'periodicidade_iptu' | 'ocultar_preco'
>;

function anunciaVenda(finalidade: Finalidade | null): boolean {
  return finalidade === 'Venda' || finalidade === 'Venda e Locação';
}

function anunciaLocacao(finalidade: Finalidade | null): boolean {
  return finalidade === 'Locação' || finalidade === 'Venda e Locação';
}

const PERIODICIDADE_DO_REGISTRO: ReadonlyMap<string, PeriodicidadeIptu> = new Map([
  ['mensal', 'Mensal'],
  ['anual', 'Anual'],
]);

export function periodicidadeIptu(valor: string | null): PeriodicidadeIptu | null {
  return valor === null ? null : (PERIODICIDADE_DO_REGISTRO.get(valor) ?? null);
}

/** `finalidade` is the already validated partner value: an unknown purpose shows no sale or rent price. */
export function mapearValores(valores: Valores, finalidade: Finalidade | null): ValoresParceiro {
  const ocultarPreco = valores.preco_sob_consulta;
  return {
    valor_venda: !ocultarPreco && anunciaVenda(finalidade) ? naoNegativo(valores.venda) : null,
    valor_aluguel: !ocultarPreco && anunciaLocacao(finalidade) ? naoNegativo(valores.aluguel) : null,
    valor_condominio: naoNegativo(valores.condominio),
    valor_iptu: naoNegativo(valores.iptu),
    periodicidade_iptu: periodicidadeIptu(valores.iptu_periodicidade),
    ocultar_preco: ocultarPreco,
  };
}
