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

  it('masks a name in any case, whatever the case the register stored it in', () => {
    expect(mascarar('Falar com Josefina Albuquerque.', ['JOSEFINA ALBUQUERQUE'])).toBe('Falar com [removido].');
    expect(mascarar('Falar com Josefina Albuquerque.', ['josefina albuquerque'])).toBe('Falar com [removido].');
    expect(mascararPrivados({ titulo: 'Casa de JOSEFINA ALBUQUERQUE', descricao_html: null }, { nomes: ['Josefina Albuquerque'], codigos: [] }).titulo).toBe('Casa de [removido]');
  });

  it('reads the HTML as partners will: entities decoded, inline tags and comments as nothing, other tags as a space', () => {
    const [joao, josefina] = [['João Araújo'], ['Josefina Albuquerque']];
    expect(mascarar('<p>Tratar com Jo&atilde;o Ara&uacute;jo.</p>', joao)).toBe('<p>Tratar com [removido].</p>');
    expect(mascarar('Tratar com Josefina <b>Albuquerque</b>.', josefina)).toBe('Tratar com [removido]</b>.');
    expect(mascarar('<span>Josefina</span> Albuquerque', josefina)).toBe('<span>[removido]');
    expect(mascarar('Josefina Alb<!-- -->uquerque e Josefina&#xA0;Albuquerque', josefina)).toBe('[removido] e [removido]');
    expect(mascarar('<p>Josefina<br>Albuquerque</p>', josefina)).toBe('<p>[removido]</p>');
    // Read as text where it is not markup: a lone "&" or "<", an unknown "&name;".
    expect(mascarar('Sala & cozinha, 1 < 2 &foo; Josefina Albuquerque', josefina)).toBe('Sala & cozinha, 1 < 2 &foo; [removido]');
  });

  it('masks a name typed without its particles', () => {
    expect(mascarar('Proprietária Ana Maria Souza.', ['Ana Maria de Souza'])).toBe('Proprietária [removido].');
    expect(mascarar('Proprietária Ana Souza.', ['Ana Maria de Souza'])).toBe('Proprietária [removido].');
  });

  it('masks a code whatever separates its letters and digits', () => {
    for (const texto of ['CRECI SP 998877', 'creci-sp 998877', 'CRECI-SP <i>998877</i>', 'CRECI&#8209;SP&nbsp;998877']) {
      expect(mascarar(`Corretor ${texto}.`, [], ['CRECI-SP 998877'])).toMatch(/^Corretor \[removido\](<\/i>)?\.$/);
    }
    expect(mascarar('Matrícula MAT&#8209;55443-2RI.', [], ['MAT-55443-2RI'])).toBe('Matrícula [removido].');
    // Digits of the code inside a longer number are another number.
    expect(mascarar('Outro: CRECI-SP 9988771.', [], ['CRECI-SP 998877'])).toBe('Outro: CRECI-SP 9988771.');
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
