// A saved property's private values, as decoding reads them from the raw record: the schema drops
// the private fields, so the record as sent is the last place they are known. They travel beside
// the event (never in it, never stored or logged) for the mapping to mask them in the free text
// partners read (domain's `mascara-de-privados.ts`, decision 0010).

export interface ValoresPrivados {
  /** People: the owner's and the agent's names. */
  nomes: readonly unknown[];
  /** Codes typed as sent: the agent's CRECI, the land-registry number, the e-mail addresses. */
  codigos: readonly unknown[];
  /** Found by their digits in any grouping: the telephones, the owner's CPF (and the codes' numbers). */
  numeros?: readonly unknown[];
  /** Free text: the internal notes and where the keys are, found whole or by a sentence, word by word. */
  frases?: readonly unknown[];
}

/**
 * A number a register sent as a JSON number (a CPF, a telephone, a land-registry number: `11977771234`)
 * as the digits it is typed with; anything else as it came.
 */
const comoTexto = (valor: unknown): unknown => (typeof valor === 'number' && Number.isSafeInteger(valor) && valor >= 0 ? String(valor) : valor);

/** The private values of a raw `imovel.salvo` record (`dados` as sent), whatever their shape. */
export function valoresPrivados(dados: unknown): ValoresPrivados {
  const campo = (objeto: unknown, nome: string): unknown => (typeof objeto === 'object' && objeto !== null ? (objeto as Record<string, unknown>)[nome] : undefined);
  const [proprietario, corretor] = [campo(dados, 'proprietario'), campo(dados, 'corretor')];
  return {
    nomes: [campo(proprietario, 'nome'), campo(corretor, 'nome')],
    codigos: [campo(corretor, 'creci'), campo(dados, 'matricula'), campo(proprietario, 'email'), campo(corretor, 'email')].map(comoTexto),
    numeros: [campo(proprietario, 'telefone'), campo(corretor, 'telefone'), campo(proprietario, 'cpf')].map(comoTexto),
    frases: [campo(dados, 'observacoes_internas'), campo(dados, 'chaves_local')],
  };
}
