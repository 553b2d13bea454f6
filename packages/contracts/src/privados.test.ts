// The private values' masking on plain text; the mapping applies it to the text partners read
// (entities, tags and invisible characters gone: imovel-mapper.test.ts).
import { describe, expect, it } from 'vitest';
import { mascaraDePrivados, valoresPrivados } from './privados.ts';

const mascarar = (texto: string, nomes: unknown[], codigos: unknown[] = []) => mascaraDePrivados({ nomes, codigos })(texto);

describe('mascaraDePrivados', () => {
  it('masks a private name typed whole or by its first and last words, in any case', () => {
    expect(mascarar('Proprietário Renata Santos Vieira, CPF 1.', ['Renata Santos Vieira'])).toBe('Proprietário [removido], CPF 1.');
    expect(mascarar('Tratar com renata vieira ou RENATA SANTOS VIEIRA.', ['Renata Santos Vieira'])).toBe('Tratar com [removido] ou [removido].');
  });

  it('masks a name in any case, whatever the case the register stored it in', () => {
    expect(mascarar('Falar com Josefina Albuquerque.', ['JOSEFINA ALBUQUERQUE'])).toBe('Falar com [removido].');
    expect(mascarar('Falar com JOSEFINA ALBUQUERQUE.', ['josefina albuquerque'])).toBe('Falar com [removido].');
  });

  it('masks a name whose words are split by several spaces or a line break', () => {
    expect(mascarar('Corretora Ana  Souza Lima e Ana\nLima', ['Ana Souza Lima'])).toBe('Corretora [removido] e [removido]');
  });

  it('masks a name typed without its particles', () => {
    expect(mascarar('Proprietária Ana Maria Souza.', ['Ana Maria de Souza'])).toBe('Proprietária [removido].');
    expect(mascarar('Proprietária Ana Souza.', ['Ana Maria de Souza'])).toBe('Proprietária [removido].');
  });

  it('masks a code by its letters and digits, whatever separates them, as sent too', () => {
    for (const texto of ['CRECI-SP 998877', 'CRECI SP 998877', 'creci-sp 998877', 'CRECI\u2011SP 998877', 'CRECI: SP/998877']) {
      expect(mascarar(`Corretor ${texto}.`, [], ['CRECI-SP 998877'])).toBe('Corretor [removido].');
    }
    for (const codigo of ['CRECI:12345', '12,345-7', 'J_12345', 'CRECI #12345']) {
      expect(mascarar(`Corretor ${codigo}.`, [], [codigo]), codigo).toBe('Corretor [removido].');
    }
    expect(mascarar('Ana, CRECI-SP 123456-F. Matrícula 45.678.', [], ['CRECI-SP 123456-F', '45.678'])).toBe('Ana, [removido]. Matrícula [removido].');
  });

  it('leaves a code inside a longer number, one split where a list goes on, and too short codes', () => {
    expect(mascarar('Outro: CRECI-SP 9988771.', [], ['CRECI-SP 998877'])).toBe('Outro: CRECI-SP 9988771.');
    expect(mascarar('Vagas 12, 345 m².', [], ['12.345'])).toBe('Vagas 12, 345 m².');
    // Letters and digits are counted, not separators: "1.234" is too short to be a code.
    expect(mascarar('Lote 1 234.', [], ['1.234'])).toBe('Lote 1 234.');
  });

  it('leaves what only contains a private value, and one-word names', () => {
    expect(mascarar('Rua Ana Souzana, 10', ['Ana Souza'])).toBe('Rua Ana Souzana, 10');
    expect(mascarar('Vista para o Centro', ['Centro'])).toBe('Vista para o Centro');
    // A surname that is also a word of the text, without the name.
    expect(mascarar('Casa sobre a rocha', ['Pedro Rocha'])).toBe('Casa sobre a rocha');
  });

  it('masks overlapping values as one span', () => {
    expect(mascarar('Tratar com Rita Souza Lima Barreto Santos.', ['Rita Souza Lima', 'Lima Barreto Santos'])).toBe('Tratar com [removido].');
  });

  it('keeps the text around a name intact when lower case would change its length (İ)', () => {
    expect(mascarar('İZMİR: fale com Renata Vieira.', ['Renata Vieira'])).toBe('İZMİR: fale com [removido].');
  });

  it('reads a name with the signs of a pattern as text', () => {
    expect(mascarar('Dono: Pedro (Jr.) D’Ávila.', ['Pedro (Jr.) D’Ávila'])).toBe('Dono: [removido].');
    expect(mascarar('Dono: Pedro D’Ávila.', ['Pedro (Jr.) D’Ávila'])).toBe('Dono: [removido].');
  });

  it('ignores values that are no text, and reads them from a raw record whatever its shape', () => {
    expect(mascarar('Casa da Ana Souza', [undefined, null, 42, { nome: 'x' }], [undefined, 7])).toBe('Casa da Ana Souza');
    expect(valoresPrivados({ proprietario: { nome: 'Ana Souza' }, corretor: { nome: 'Rui Lima', creci: 'CRECI 1234' }, matricula: '55.443' })).toEqual({
      nomes: ['Ana Souza', 'Rui Lima'],
      codigos: ['CRECI 1234', '55.443'],
    });
    expect(valoresPrivados('x')).toEqual({ nomes: [undefined, undefined], codigos: [undefined, undefined] });
  });
});
