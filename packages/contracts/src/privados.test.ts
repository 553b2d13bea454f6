import { describe, expect, it } from 'vitest';
import { mascararPrivados } from './privados.ts';

const mascarar = (texto: string, nomes: unknown[], codigos: unknown[] = []) => mascararPrivados({ titulo: null, descricao_html: texto }, { nomes, codigos }).descricao_html;

describe('mascararPrivados', () => {
  it('masks a private name typed whole or by its first and last words, in any case', () => {
    expect(mascarar('Proprietário Renata Santos Vieira, CPF 1.', ['Renata Santos Vieira'])).toBe('Proprietário [removido], CPF 1.');
    expect(mascarar('Tratar com renata vieira ou RENATA SANTOS VIEIRA.', ['Renata Santos Vieira'])).toBe('Tratar com [removido] ou [removido].');
  });

  it('masks a name whose words an editor split by &nbsp; or several spaces', () => {
    expect(mascarar('<p>Corretora Ana&nbsp;Souza  Lima</p>', ['Ana Souza Lima'])).toBe('<p>Corretora [removido]</p>');
  });

  it('masks the private codes as sent', () => {
    expect(mascarar('Ana, CRECI-SP 123456-F. Matrícula 45.678.', [], ['CRECI-SP 123456-F', '45.678'])).toBe('Ana, [removido]. Matrícula [removido].');
  });

  it('leaves what only contains a private value, one-word names and too short codes', () => {
    expect(mascarar('Rua Ana Souzana, 10', ['Ana Souza'])).toBe('Rua Ana Souzana, 10');
    expect(mascarar('Vista para o Centro', ['Centro'], ['123'])).toBe('Vista para o Centro');
  });

  it('keeps the text around a name intact when lower case would change its length (İ)', () => {
    expect(mascarar('İZMİR: fale com Renata Vieira.', ['Renata Vieira'])).toBe('İZMİR: fale com [removido].');
  });

  it('reads a name with the signs of a pattern as text', () => {
    expect(mascarar('Dono: Pedro (Jr.) D’Ávila.', ['Pedro (Jr.) D’Ávila'])).toBe('Dono: [removido].');
    expect(mascarar('Dono: Pedro D’Ávila.', ['Pedro (Jr.) D’Ávila'])).toBe('Dono: [removido].');
  });

  it('masks the title too, and returns the very record when there is nothing to mask', () => {
    const registro = { titulo: 'Casa da Renata Vieira', descricao_html: null, outro: 1 };
    expect(mascararPrivados(registro, { nomes: ['Renata Santos Vieira'], codigos: [] })).toEqual({ titulo: 'Casa da [removido]', descricao_html: null, outro: 1 });
    expect(mascararPrivados(registro, { nomes: [undefined, null, 42, { nome: 'x' }, 'Ana Souza'], codigos: [undefined, 7] })).toBe(registro);
    // A surname that is also a word of the text, without the name.
    const rocha = { titulo: 'Casa sobre a rocha', descricao_html: null };
    expect(mascararPrivados(rocha, { nomes: ['Pedro Rocha'], codigos: [] })).toBe(rocha);
  });
});
