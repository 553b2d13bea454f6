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
    // Numbers sent as JSON numbers are the digits they are typed with; other shapes stay as they came.
    expect(valoresPrivados({ proprietario: { cpf: 52998224725, telefone: 11987654321, nome: ['Ana'] }, matricula: 55443, corretor: { creci: -1.5 } })).toEqual({
      nomes: [['Ana'], undefined],
      codigos: [-1.5, '55443', undefined, undefined],
      numeros: ['11987654321', undefined, '52998224725'],
      frases: [undefined, undefined],
    });
    expect(valoresPrivados('x')).toEqual({
      nomes: [undefined, undefined],
      codigos: [undefined, undefined, undefined, undefined],
      numeros: [undefined, undefined, undefined],
      frases: [undefined, undefined],
    });
  });
});
