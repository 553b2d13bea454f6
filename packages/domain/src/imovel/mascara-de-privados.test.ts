// The private values' masking on plain text; the mapping applies it to the text partners read
// (entities, tags and invisible characters gone: imovel-mapper.test.ts).
import { describe, expect, it } from 'vitest';
import { mascaraDePrivados } from './mascara-de-privados.ts';

const mascarar = (texto: string, nomes: unknown[], codigos: unknown[] = []) => mascaraDePrivados({ nomes, codigos })(texto);

describe('mascaraDePrivados', () => {
  it('removes whole a text whose search would read words without bound: a crafted value against a text of it', () => {
    const repetido = (palavra: string, n: number) => `${palavra} `.repeat(n).trim();
    const codigo = mascaraDePrivados({ nomes: [], codigos: [repetido('ab', 20_000)] });
    const nome = mascaraDePrivados({ nomes: [repetido('Bo', 20_000)], codigos: [] });
    const nota = mascaraDePrivados({ nomes: [], codigos: [], frases: [repetido('casa', 2_000)] });
    expect(codigo(`Sala; ${repetido('ab', 20_000)} e mais`)).toBe('[removido]');
    expect(nome(`Falar com ${repetido('bo', 20_000)}`)).toBe('[removido]');
    expect(nota(repetido('casa', 200_000))).toBe('[removido]');
    // The same values against ordinary texts: masked, or left, as always.
    expect(codigo('Sala com ab ab e cozinha.')).toBe('Sala com ab ab e cozinha.');
    expect(nome('Falar com Bo Bo.')).toBe('Falar com [removido].');
    expect(nota('Casa de esquina.')).toBe('Casa de esquina.');
  });

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

  it('masks a name whose words are joined by one of the signs typed to slip it past filters (rules version 17)', () => {
    expect(mascarar('Falar com Josefina·Albuquerque; Josefina•Albuquerque; Josefina*Albuquerque; josefina~albuquerque; Josefina\u2010Albuquerque.', ['Josefina Albuquerque'])).toBe(
      'Falar com [removido]; [removido]; [removido]; [removido]; [removido].',
    );
    // `/`, `|` and `+` pair places, whose names are people's too.
    expect(mascarar('Apartamento | Vila Maria/Santana, Vila Maria|Santana, vila-maria+santana.', ['Maria Aparecida de Santana'])).toBe('Apartamento | Vila Maria/Santana, Vila Maria|Santana, vila-maria+santana.');
    // Run together, each word with its capital: what a reader parts (a soft hyphen between them is gone by then).
    expect(mascarar('Falar com JosefinaAlbuquerque ou JosefinaAlbuquerqueSilva.', ['Josefina Albuquerque'])).toBe('Falar com [removido] ou JosefinaAlbuquerqueSilva.');
    expect(mascarar('Falar com Josefinaalbuquerque ou JOSEFINAALBUQUERQUE.', ['Josefina Albuquerque'])).toBe('Falar com Josefinaalbuquerque ou JOSEFINAALBUQUERQUE.');
    // Two signs part two things.
    expect(mascarar('Josefina//Albuquerque; Josefina··Albuquerque', ['Josefina Albuquerque'])).toBe('Josefina//Albuquerque; Josefina··Albuquerque');
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

  it('masks a name typed without its accents, or with them as combining marks', () => {
    expect(mascarar('Tratar com Joao Goncalves de Araujo ou JOÃO ARAÚJO.', ['João Gonçalves de Araújo'])).toBe('Tratar com [removido] ou [removido].');
    expect(mascarar('Dono: Joa\u0303o Arau\u0301jo.', ['João Araújo'])).toBe('Dono: [removido].');
    expect(mascarar('Dono: João Araújo.', ['Joa\u0303o Arau\u0301jo'])).toBe('Dono: [removido].');
  });

  it('masks a name without its title or suffix, or by its first name, particle and surname', () => {
    expect(mascarar('Falar com Renata Santos Vieira.', ['Dra. Renata Santos Vieira'])).toBe('Falar com [removido].');
    expect(mascarar('Falar com José Carlos da Silva ou José Silva.', ['José Carlos da Silva Filho'])).toBe('Falar com [removido] ou [removido].');
    expect(mascarar('Falar com Carlos da Silva.', ['Carlos Eduardo da Silva'])).toBe('Falar com [removido].');
    expect(mascarar('Siga @renata.vieira ou Ana-Maria Souza.', ['Renata Vieira', 'Ana Maria Souza'])).toBe('Siga @[removido] ou [removido].');
  });

  it('masks a name typed with its middle names whole, as initials or left out, in any mix', () => {
    expect(mascarar('Falar com Renata S. Vieira ou renata s vieira.', ['Renata Santos Vieira'])).toBe('Falar com [removido] ou [removido].');
    expect(mascarar('Dono: Carlos E. da Silva. Ou Carlos E.M. Silva.', ['Carlos Eduardo Moreira da Silva'])).toBe('Dono: [removido]. Ou [removido].');
    expect(mascarar('Dono: Carlos E. Moreira da Silva.', ['Carlos Eduardo Moreira da Silva'])).toBe('Dono: [removido].');
    expect(mascarar('Renata M. Santos Vieira e Renata Maria S. Vieira', ['Renata Maria Santos Vieira'])).toBe('[removido] e [removido]');
    expect(mascarar('Dona: Maria E. Souza e Silva.', ['Maria Eduarda Souza e Silva'])).toBe('Dona: [removido].');
    expect(mascarar('Dono: Renata S Vieira.', ['Renata S Vieira'])).toBe('Dono: [removido].');
  });

  it('leaves other words between a first and a last name: another letter, or a one-letter word without its point', () => {
    expect(mascarar('Renata X. Vieira e Renata Santosa Vieira', ['Renata Santos Vieira'])).toBe('Renata X. Vieira e Renata Santosa Vieira');
    // Neighbouring cities, not the owner Vitória Elisa Serra; "e" is no initial without a point.
    expect(mascarar('Entre Vitória e Serra, perto do shopping.', ['Vitória Elisa Serra'])).toBe('Entre Vitória e Serra, perto do shopping.');
    expect(mascarar('Fácil acesso a São Paulo e Santos.', ['Paulo Eduardo Santos'])).toBe('Fácil acesso a São Paulo e Santos.');
    expect(mascarar('Vitória E. Serra', ['Vitória Elisa Serra'])).toBe('[removido]');
    // A capital A, E or O in a name typed in mixed case is an initial; in capitals throughout, a word.
    expect(mascarar('Proprietária Maria A Silva, Luiz O Ramos.', ['Maria Aparecida Silva', 'Luiz Otávio Ramos'])).toBe('Proprietária [removido], [removido].');
    expect(mascarar('ACESSO A VITÓRIA E SERRA', ['Vitória Elisa Serra'])).toBe('ACESSO A VITÓRIA E SERRA');
  });

  it('leaves a first name and a surname that only meet across a sentence, a dash, or after São, Santo, Santa', () => {
    for (const [texto, nome] of [
      ['Rodovia São Paulo - Santos.', 'Paulo Roberto dos Santos'],
      ['Em São Paulo. Santos fica a 1 hora.', 'Paulo Santos'],
      ['Sala ampla e clara. Vale a pena!', 'Clara Maria do Vale'],
      ['Casa em São José dos Campos, SP.', 'José Carlos dos Campos'],
      ['Santa Maria da Serra', 'Maria José da Serra'],
      ['Casa da Maria e Silva Imóveis', 'Maria Eduarda Souza e Silva'],
      ['muita luz, clara e arejada', 'Clara Luz'],
    ]) {
      expect(mascarar(texto!, [nome]), texto).toBe(texto);
    }
  });

  it('masks a name with a particle, a hyphen or an apostrophe typed otherwise than stored', () => {
    expect(mascarar('Dona: MARIA DA SILVA.', ['Maria Silva'])).toBe('Dona: [removido].');
    expect(mascarar('Ana Souza Lima e Ana Lima', ['Ana Souza-Lima'])).toBe('[removido] e [removido]');
    expect(mascarar('Dono: Pedro D’Ávila. Ou Pedro D´Ávila.', ["Pedro D'Ávila"])).toBe('Dono: [removido]. Ou [removido].');
    expect(mascarar("Dona: Joana D'Arc Silva.", ["Joana D'Arc da Silva"])).toBe('Dona: [removido].');
    expect(mascarar('Dono: Renata Vieira.', ['Vieira, Renata Santos'])).toBe('Dono: [removido].');
    expect(mascarar('Dona: Renata Vieira.', ['Profa. Renata Vieira'])).toBe('Dona: [removido].');
  });

  it('costs no more than the name is long where the text repeats its words', () => {
    const texto = 'Maria '.repeat(3_500) + 'Souza';
    // CPU time, not the clock's: on a loaded machine the clock also counts the time it ran others.
    const inicio = process.cpuUsage();
    mascarar(texto, ['Maria Maria Maria Souza', 'Ana Luciana Souza']);
    mascarar('luciana '.repeat(2_500), ['Ana Luciana Souza', 'Renata Renata Vieira']);
    // Each took one to two seconds when every occurrence walked to the end of the text.
    const { user, system } = process.cpuUsage(inicio);
    expect((user + system) / 1_000).toBeLessThan(500);
  });

  it('masks a name surname first, with one comma, and the middle words after it', () => {
    expect(mascarar('Dono: Vieira, Renata. Corretor: SILVA, CARLOS E.', ['Renata Santos Vieira', 'Carlos Eduardo da Silva'])).toBe('Dono: [removido]. Corretor: [removido]');
    expect(mascarar('Dono: Vieira, Renata Santos.', ['Renata Santos Vieira'])).toBe('Dono: [removido].');
    // No comma, several, or a line between: ordinary words ("luz clara"), or a list going on.
    expect(mascarar('Sala com luz clara', ['Clara Luz'])).toBe('Sala com luz clara');
    expect(mascarar('Vieira,,, Renata; Vieira\nRenata', ['Renata Vieira'])).toBe('Vieira,,, Renata; Vieira\nRenata');
  });

  it('masks a code by its number alone, however it is grouped', () => {
    const creci = ['CRECI-SP 123456-F'];
    for (const texto of ['CRECI 123456-F', 'CRECI-SP 123456', 'CRECI-SP nº 123456-F', 'CRECI-SP: 123.456-F', 'CRECI- SP 123456-F']) {
      expect(mascarar(`Corretora ${texto}.`, [], creci), texto).not.toMatch(/123\.?456/);
    }
    const matricula = ['123.456 - 7º CRI de São Paulo'];
    expect(mascarar('Matrícula 123.456 no 7º CRI.', [], matricula)).toBe('Matrícula [removido] no 7º CRI.');
    expect(mascarar('Matrícula 123456.', [], matricula)).toBe('Matrícula [removido].');
  });

  it("leaves the listing's amounts and measures that equal a code's number (rules version 15)", () => {
    const codigos = ['45.000 - 3º CRI', 'CRECI-SP 12345-F'];
    expect(mascarar('Terreno de 45.000 m², R$ 45.000 de entrada, R$: 45000 ou 45000 reais; área 12.345 m².', [], codigos)).toBe(
      'Terreno de 45.000 m², R$ 45.000 de entrada, R$: 45000 ou 45000 reais; área 12.345 m².',
    );
    expect(mascarar('Matrícula 45.000, CRECI 12345.', [], codigos)).toBe('Matrícula [removido], CRECI [removido].');
    // A code's number beside another figure, parted by a sign that disguises telephones: still the code's.
    expect(mascarar('Matrícula 45000_2, CRECI 12345·2.', [], codigos)).toBe('Matrícula [removido]_2, CRECI [removido]·2.');
  });

  it('masks the owner\'s and the agent\'s telephones and the owner\'s CPF by their digits, in any grouping', () => {
    const m = mascaraDePrivados({ nomes: [], codigos: ['josefina.privada@gmail.com'], numeros: ['(11) 97777-1234', '529.982.247-25'] });
    expect(m('Tel 11 97777 12 34 ou 977771234.')).toBe('Tel [removido] ou [removido].');
    expect(m('CPF 529/982/247-25.')).toBe('CPF [removido].');
    expect(m('E-mail JOSEFINA.PRIVADA@GMAIL.COM.')).toBe('E-mail [removido].');
    // Glued to a word, as a hurried agent types it.
    expect(m('Tel1197777123 4 ou fone1197777-1234.')).toBe('Tel[removido] ou fone[removido].');
    // Groups parted by the signs typed to slip a number past filters (rules version 17)…
    expect(m('Tel 97777•1234, 97777*1234, 97777_1234, 97777|1234, 529·982·247~25, 97777 • 1234, 97777 |1234.')).toBe(
      'Tel [removido], [removido], [removido], [removido], [removido], [removido], [removido].',
    );
    // …but not a list's figures or a time, which happen to run into one.
    expect(m('Lotes 9777, 71234; 97777;1234 às 9777:71234.')).toBe('Lotes 9777, 71234; 97777;1234 às 9777:71234.');
    // Other numbers stay.
    expect(m('R$ 450.000, 120 m², IPTU 1.200.')).toBe('R$ 450.000, 120 m², IPTU 1.200.');
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

  it('ignores values that are no text', () => {
    expect(mascarar('Casa da Ana Souza', [undefined, null, 42, { nome: 'x' }], [undefined, 7])).toBe('Casa da Ana Souza');
  });

  describe('a private note (internal notes, where the keys are) copied into the text', () => {
    const nota = 'Proprietário mora fora, tratar com a filha. Inquilino atual sai no fim do mês; visitas só com 24h de aviso.';
    const comNota = (texto: string, ...frases: unknown[]) => mascaraDePrivados({ nomes: [], codigos: [], frases })(texto);

    it('is masked whole, in any case, with or without accents, whatever punctuation stands between its words', () => {
      expect(comNota(`Lindo apartamento. ${nota} Agende.`, nota)).toBe('Lindo apartamento. [removido]. Agende.');
      expect(comNota('Ótimo. PROPRIETARIO MORA FORA - TRATAR COM A FILHA!', nota)).toBe('Ótimo. [removido]!');
      expect(comNota('Chaves com o Sr.\nZacarias na portaria.', 'Chaves com o Sr. Zacarias na portaria')).toBe('[removido].');
    });

    it('is masked by any one of its sentences', () => {
      expect(comNota('Inquilino atual sai no fim do mês. Venha ver.', nota)).toBe('[removido]. Venha ver.');
      expect(comNota('Visitas só com 24h de aviso', nota)).toBe('[removido]');
      // A number's point is no sentence's end; a stop before a capital is, and so is a line break.
      expect(comNota('Aceita proposta até 8.5% abaixo, confira.', 'Aceita proposta até 8.5% abaixo.')).toBe('[removido], confira.');
      expect(comNota('Visitas somente aos sábados pela manhã', 'Aceita carro como parte do pagamento.Visitas somente aos sábados pela manhã.')).toBe('[removido]');
      expect(comNota('Visitas somente aos sábados pela manhã', 'Aceita carro como parte do pagamento\r\nVisitas somente aos sábados pela manhã')).toBe('[removido]');
    });

    it('is looked for by its first sentences and its start when it is long, the cost of an event bounded', () => {
      const longa = Array.from({ length: 2_000 }, (_, i) => `Observação número ${i} sobre a visita do cliente`).join('. ');
      expect(comNota('Observação número 3 sobre a visita do cliente.', longa)).toBe('[removido].');
      // A text holding the whole note loses at least its start, a note of no sentence's end too.
      expect(comNota(`Veja: ${longa}`, longa)).toMatch(/^Veja: \[removido\]/);
      const semFim = Array.from({ length: 2_000 }, (_, i) => `visita ${i} do cliente`).join(', ');
      expect(comNota(`Veja: ${semFim}`, semFim)).toMatch(/^Veja: \[removido\]/);
      // Its words parted by no ordinary space (tabs, no-break spaces, hyphens): cut between words all the same.
      for (const separador of ['\t', '\u00a0', '-']) {
        const semEspaco = Array.from({ length: 2_000 }, (_, i) => ['visita', i, 'do', 'cliente'].join(separador)).join(',');
        expect(comNota(`Veja: ${semEspaco}`, semEspaco), JSON.stringify(separador)).toMatch(/^Veja: \[removido\]/);
      }
    });

    it('leaves short notes and sentences, which are ordinary phrases, and its words out of order or in part', () => {
      expect(comNota('Tratar direto com o proprietário. Chaves com o zelador.', 'Com o proprietário', 'Com o zelador', 'Na portaria.')).toBe(
        'Tratar direto com o proprietário. Chaves com o zelador.',
      );
      // Short sentences of a note are as ordinary together.
      expect(comNota('Apartamento com sol da manhã, vaga coberta e lazer.', 'Sol da manhã. Vaga coberta. Dono mora no exterior.')).toBe(
        'Apartamento com sol da manhã, vaga coberta e lazer.',
      );
      expect(comNota('Mora fora o proprietário; tratar com a filha dele.', nota)).toBe('Mora fora o proprietário; tratar com a filha dele.');
      expect(comNota('Inquilino atual sai no fim do ano.', nota)).toBe('Inquilino atual sai no fim do ano.');
      expect(comNota('Aceita proposta até 8% abaixo.', 'Aceita proposta até 8.5% abaixo.')).toBe('Aceita proposta até 8% abaixo.');
    });
  });
});
