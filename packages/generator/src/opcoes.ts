// Options of the generator, their defaults and their validation (one place, read by every stream).
import { lerDataHora } from './data-hora.ts';

export interface OpcoesGerador {
  /** Any safe integer; the same seed and options give byte-identical output. */
  seed: number;
  imoveis: number;
  condominios: number;
  /** Records in the mutation stream (tombstones and late deliveries included). */
  mutacoes: number;
  /** Chance, per property and per wrong value of VALORES_RUINS, that the value is wrong. */
  taxaValoresRuins: number;
  /** Share of mutation-stream records that are poison. */
  taxaVenenos: number;
  /** The register's clock at the start of the initial load: ISO date-time with offset. */
  inicio: string;
}

export const OPCOES_PADRAO: Readonly<OpcoesGerador> = Object.freeze({
  seed: 1,
  imoveis: 1000,
  condominios: 50,
  mutacoes: 1000,
  taxaValoresRuins: 0.01,
  taxaVenenos: 0.005,
  inicio: '2026-01-01T09:00:00-03:00',
});

export interface OpcoesNormalizadas extends Readonly<OpcoesGerador> {
  readonly inicioMs: number;
}

function inteiroNaoNegativo(nome: string, valor: number): number {
  if (!Number.isSafeInteger(valor) || valor < 0) throw new RangeError(`${nome} deve ser um inteiro >= 0, recebido ${valor}`);
  return valor;
}

function taxa(nome: string, valor: number): number {
  if (!(valor >= 0 && valor <= 1)) throw new RangeError(`${nome} deve estar entre 0 e 1, recebido ${valor}`);
  return valor;
}

export function normalizarOpcoes(opcoes: Partial<OpcoesGerador> = {}): OpcoesNormalizadas {
  const o = { ...OPCOES_PADRAO, ...opcoes };
  if (!Number.isSafeInteger(o.seed)) throw new RangeError(`seed deve ser um inteiro, recebido ${o.seed}`);
  return Object.freeze({
    seed: o.seed,
    imoveis: inteiroNaoNegativo('imoveis', o.imoveis),
    condominios: inteiroNaoNegativo('condominios', o.condominios),
    mutacoes: inteiroNaoNegativo('mutacoes', o.mutacoes),
    taxaValoresRuins: taxa('taxaValoresRuins', o.taxaValoresRuins),
    taxaVenenos: taxa('taxaVenenos', o.taxaVenenos),
    inicio: o.inicio,
    inicioMs: lerDataHora(o.inicio),
  });
}
