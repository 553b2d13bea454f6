// The private values decoding keeps aside of a raw `imovel.salvo` record, whatever its shape.
import { describe, expect, it } from 'vitest';
import { valoresPrivados } from './privados.ts';

describe('valoresPrivados', () => {
  it('reads them from a raw record whatever its shape', () => {
    const registro = {
      proprietario: { nome: 'Ana Souza', cpf: '529.982.247-25', telefone: '(11) 98765-4321', email: 'ana@x.com' },
      corretor: { nome: 'Rui Lima', creci: 'CRECI 1234', telefone: '(21) 3333-4444', email: 'rui@y.com' },
      matricula: '55.443',
      observacoes_internas: 'Aceita carro como parte do pagamento.',
      chaves_local: 'Portaria',
    };
    expect(valoresPrivados(registro)).toEqual({
      nomes: ['Ana Souza', 'Rui Lima'],
      codigos: ['CRECI 1234', '55.443', 'ana@x.com', 'rui@y.com'],
      numeros: ['(11) 98765-4321', '(21) 3333-4444', '529.982.247-25'],
      frases: ['Aceita carro como parte do pagamento.', 'Portaria'],
    });
    expect(valoresPrivados('x')).toEqual({
      nomes: [undefined, undefined],
      codigos: [undefined, undefined, undefined, undefined],
      numeros: [undefined, undefined, undefined],
      frases: [undefined, undefined],
    });
  });
});
