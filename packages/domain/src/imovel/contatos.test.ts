import { describe, expect, it } from 'vitest';
import { removerContatos } from './contatos.ts';

describe('removerContatos', () => {
  it.each([
    '(11) 98765-4321',
    '(11)98765-4321',
    '11 98765-4321',
    '11987654321',
    '1133334444',
    '+55 11 98765-4321',
    '+55 (11) 98765 4321',
    '+5511987654321',
    '(011) 3333-4444',
    '98765-4321',
    '98765 4321',
    '9 8765-4321',
    '3333-4444',
    '3333.4444',
    '11.98765.4321',
    '0800 123 4567',
    // The other non-geographic prefixes, and 0800 numbers' other groupings (rules version 18).
    '0300 123 4567',
    '0300-789-1234',
    '0500 123 4567',
    '0900 123 4567',
    '0800 707 12 34',
    '0800 70 1234',
    '08007071234',
    // What rich-text editors and hurried agents produce.
    '98765–4321',
    '(11) 98765 - 4321',
    '(11) 3333 – 4444',
    '98765 — 4321',
    '+1 (555) 123-4567',
    '+351 912 345 678',
    '+44 20 7946 0958',
    '+55 11 98765 - 4321',
    '11 3333 - 4444',
    '21 2222 – 3333',
    // The country code without "+", as WhatsApp links write it (the mobile's 9 dropped too).
    '5511987654321',
    '551133334444',
    '553187654321',
    // Unicode's hyphen, non-breaking hyphen and figure dash.
    '11 98765\u20104321',
    '11 98765\u20114321',
    '11 98765\u20124321',
  ])('replaces the telephone number %s', (telefone) => {
    expect(removerContatos(`Ligue ${telefone} hoje.`)).toBe('Ligue [removido] hoje.');
  });

  it.each(['Ref. 0300123456', 'Cód. 0500-123456', 'Matrícula 0900.12.3456', 'Protocolo 0300-12-3456', 'Cond 0500 12 2024', 'Código 0800123456', 'CEP 05001-000', 'das 0900-1200'])(
    'keeps %s: six digits after a prefix make a non-geographic number only after 0800, grouped',
    (texto) => {
      expect(removerContatos(texto)).toBe(texto);
    },
  );

  it.each(['941 234 567', '11 93 456 7890', '9412-34567', '987 654 321', '98 765 4321', '98765 43 21', '987 65 43 21', '9876-54321', '987-654-321', '11 987 654 321', '11 9876-54321', '(11) 9 87 65 43 21', '(21) 987 654 321'])(
    'replaces the mobile number %s, grouped as some type it, with nothing that says telephone',
    (telefone) => {
      expect(removerContatos(`Falar com Ana ${telefone} hoje.`)).toBe('Falar com Ana [removido] hoje.');
    },
  );

  it.each(['11 3333 44 44', '21 3333 44 44', '11 3333.44.44', '11-3333-44-44', '11 • 3333 • 44 • 44'])(
    'replaces the landline number %s after a bare area code, its last four digits in pairs, with nothing that says telephone',
    (telefone) => {
      expect(removerContatos(`Falar com Ana ${telefone} hoje.`)).toBe('Falar com Ana [removido] hoje.');
    },
  );

  it.each(['Tel. 33 33 44 44', 'Fone: 11 33 33 44 44', 'WhatsApp 987.654.321', 'telefones 9 01 23 45 67', 'Cel - 33 334 444', 'Contato (11) 33 33 44 44', 'fone 11*98765*4321', 'Tel 3333*4444', 'Whats 11 • 98765 • 4321', 'Fone 98765·4321', 'Fone 11 ● 98765 ● 4321'])(
    'replaces a number grouped any way after a word that says telephone: %s',
    (texto) => {
      expect(removerContatos(`${texto}.`)).toMatch(/^\S+(?: -|:|\.)? \[removido\]\.$/u);
    },
  );

  it.each(['corretor@imobiliaria.com.br', 'joao.silva+imoveis@gmail.com', 'ana_souza@exemplo.org', 'joao#x@gmail.com', "o'neil&ana=1@ex.com.br"])(
    'replaces the e-mail address %s',
    (email) => {
      expect(removerContatos(`Contato: ${email}.`)).toBe('Contato: [removido].');
    },
  );

  it.each([
    'joao @ gmail.com',
    'joao@gmail .com',
    'joao @ gmail . com . br',
    'joao@ gmail.com',
    'joao @gmail.com.br',
    'vendas @imobiliaria.com.br',
    'JOAO ARROBA GMAIL PONTO COM',
    'joao(at)gmail.com',
    'joao [at] gmail.com',
    'joao[arroba]gmail.com',
    'joao arroba gmail.com',
    'joao.silva ARROBA hotmail PONTO com PONTO br',
    'joao (arroba) gmail (ponto) com',
    'joao_silva at hotmail dot com',
    'joao\uff20gmail.com',
    'joao@gmail',
    'maria@uol',
    'joao.corretor @ gmail',
    'joao.corretor@ hotmail',
    'joao.corretor arroba gmail',
    'JOAO ARROBA UOL',
    'joao arroba gmail.com',
    'joao @ Gmail',
    'joao@Hotmail',
    'joao arroba bol',
  ])('replaces the e-mail address typed so that filters miss it: %s', (email) => {
    expect(removerContatos(`Contato: ${email}, obrigado.`)).toBe('Contato: [removido], obrigado.');
  });

  it.each([
    // A listing's id in a web address (rules version 15).
    'Fotos: https://www.olx.com.br/d/anuncio/apartamento-3-quartos-1234567890',
    'https://www.zapimoveis.com.br/imovel/venda-apartamento-3-quartos-id-2598765432/',
    'Mais fotos: https://www.imobiliaria.com.br/imovel/23456789 e www.imob.com.br/imovel/2598765432 hoje',
    // A small number before a number that no local number is: a 0 or a 1 first, a range, neighbouring units, a measure.
    'Lote 12 1200-1500 m²',
    'Apto 45 2304-2305',
    'Casa 34 2019-2024',
    'Código 11 1234-5678',
    'Ref 1100123456',
    'Edital 0012345678',
    // After a word that says contact: what no telephone's digits are.
    'Contato 1203-1204',
    'Fale no WhatsApp. Salas 1001 1002',
    'Agende pelo WhatsApp! Entrega 25.12.2026',
    'Contato: 2026-03-12',
    'Em contato com a natureza: 30.11.2026',
    'Whats: andares 22 23 24 25',
    'Chame no Whats. Rua da Bahia, 30160-011, BH',
    // Bare runs of 11 or 14 digits whose check digits fail: codes; nine digits not starting with 9.
    'Renavam 12345678900',
    'Código 10000123456',
    'Código de barras 78912345678901',
    'Tel 123456789',
    // Handles ending like a domain, after a word that introduces one.
    'Siga @imobiliaria.com.br',
    'Nos acompanhe no insta @casa.com.br',
    'Projeto by @escritorio.arquitetura.br',
    // Amounts.
    'Fazenda por 35000000 reais',
    'Fazenda por 35000000 milhões',
    'Valor: R$: 45000000',
    'Valor: (R$) 45000000',
  ])('keeps %s, the listing\'s own text that only looks like a contact', (texto) => {
    expect(removerContatos(texto)).toBe(texto);
  });

  it.each([
    ['Ligue 11 3333-4444', 'Ligue [removido]'],
    ['fone 45 2304-2305', 'fone [removido]'],
    ['Chame 021 3333-4444', 'Chame [removido]'],
    ['Tel 11 2019-2024', 'Tel [removido]'],
    // A bare run the word calls a document, its check digits mistyped; an address typed apart.
    ['CPF 12345678900', 'CPF [removido]'],
    ['cpf do dono 12345678900', 'cpf do dono [removido]'],
    ['CNPJ: 12345678000100', 'CNPJ: [removido]'],
    ['vendas @imobiliaria.com.br', '[removido]'],
    // A mobile number, or any in a contact link, in a web address.
    ['https://site.com.br/corretor/11987654321', 'https://site.com.br/corretor/[removido]'],
    ['https://site.com.br/contato?fone=1133334444', 'https://site.com.br/contato?fone=[removido]'],
    ['https://api.whatsapp.com/send?phone=5511987654321', 'https://api.whatsapp.com/send?phone=[removido]'],
  ])('still replaces %s, a telephone after a word or area code that says so, or in a contact link', (texto, esperado) => {
    expect(removerContatos(texto)).toBe(esperado);
  });

  it.each([
    'Fazenda para 500 arrobas de gado',
    'R$ 150 a arroba. Com curral',
    'R$ 150 a arroba com desconto',
    'Siga @imobiliaria.sp.',
    'Edifício Costa at Home',
    'Casa com 3 quartos. Com vista',
    'Living at Moema. Com 3 quartos',
    // Handles, not addresses: a space before the @ and none after.
    'Siga @joao.imoveis',
    'No insta @lopes.imoveis',
    'Siga nosso perfil @corretor.app',
    'Siga @terra.imoveis',
    'Siga @terra_imoveis',
    'Assista nossa @live às 20h',
    // A provider's name as a word, cattle weights, a sentence opening with `Com`.
    'Living at Terra Nova',
    'Cobertura @ Terra Nova Alphaville',
    'Bois com peso médio de 20@ cada. Com pasto formado',
    'Capacidade: 800 cabeças a 18 @ média. Me consulte',
    'Loft @ Pinheiros. Com vaga',
    'Living at Moema.Com 3 quartos',
    // Providers' names that are words too, after a spaced @ or arroba.
    'Show @ live hoje',
    'Festa @ terra',
    'Festa @ Terra',
    'Pague em arroba terra nua',
  ])(
    'keeps %s, where the words an address is disguised with mean something else',
    (texto) => {
      expect(removerContatos(texto)).toBe(texto);
    },
  );

  it.each(['529.982.247-25', '52998224725', '529.982.247 25', '529982247 25', '529.982.247–25', '529 982 247 25', '529 982 247-25', '529-982-247-25', '529.982.247 - 25', '111.444.777.35', '111 . 444 . 777 - 35', '111. 444. 777-35', '111,444,777-35', '111•444•777-35', '111 · 444 · 777 - 35', '111*444*777*35', '111   444   777   35'])(
    'replaces the CPF %s',
    (cpf) => {
      expect(removerContatos(`CPF ${cpf} do dono`)).toBe('CPF [removido] do dono');
    },
  );

  it('removes a number glued to a word that says contact, in any case', () => {
    for (const [palavra, numero] of [['cel', '987654321'], ['Tel', '33334444'], ['tel', '1133334444'], ['Cel', '98765.4321'], ['WHATS', '11987654321'], ['TEL', '98765-4321'], ['CPF', '529.982.247-25'], ['Cnpj', '11222333000181']]) {
      expect(removerContatos(`${palavra!}${numero!} hoje`)).toBe(`${palavra!}[removido] hoje`);
    }
    // Not when the word only ends like one.
    expect(removerContatos('Hotel12345678 e AP1234-5678')).toBe('Hotel12345678 e AP1234-5678');
  });

  it('reads a word or sign that says telephone a few words before the number, with no digit between', () => {
    for (const texto of ['📞 33 33 44 44', 'Wpp 33 33 44 44', 'zapzap 3333 44 44', 'Telefone/WhatsApp da Ana: 33 33 44 44']) {
      expect(removerContatos(texto), texto).toMatch(/ \[removido\]$/u);
    }
    for (const texto of ['Contato 24 horas', 'Tel. comercial 2 linhas', 'Celular com sinal 4G 5G', 'Whats 24h', 'Contato com a natureza, 2450 2800 m²']) {
      expect(removerContatos(texto)).toBe(texto);
    }
  });

  it('reads only a whole word as one that says telephone, and never a CEP after `CEP` as a number', () => {
    for (const texto of [
      'Av. Celso Garcia, CEP 30140-100',
      'Telêmaco Borba 33 33 44 44',
      'Faxinal 33 33 44 44',
      'Rua Cel. Fulano, CEP 30140-000',
      'Em contato com a natureza, CEP: 30140000',
      'Fone/CEP 30.140-000',
      'Telefonia e internet: aptos 33 33 44 44',
      'Contatar corretor. 30140-000',
      'Contate-nos até 30 12 2024',
    ]) {
      expect(removerContatos(texto)).toBe(texto);
    }
    // The longer words by their start; a number after `CEP` that is no CEP's shape.
    for (const texto of ['Cel.: 33 33 44 44', 'Telefones: 33 33 44 44', '📲 33 33 44 44', 'Celulares: 33 33 44 44', 'Telefonar 33 33 44 44', 'Whatsaap 33 33 44 44', 'Zapp 33 33 44 44', 'Contatos: 30140000', 'Fone/CEP 3333 4444']) {
      expect(removerContatos(texto), texto).toMatch(/ \[removido\]$/u);
    }
  });

  it('removes a mobile number spelled out a digit or two at a time, with no word that says telephone', () => {
    for (const numero of ['9 8 7 6 5 4 3 2 1', '1 1 9 8 7 6 5 4 3 2 1', '11 9 87 65 43 21', '98 76 54 32 1', '11 98 76 54 32 1', '9.8.7.6.5.4.3.2.1', '9-8-7-6-5-4-3-2-1', '9 8 7 6 5 - 4 3 2 1']) {
      expect(removerContatos(`Agende sua visita: ${numero}.`), numero).toBe('Agende sua visita: [removido].');
    }
    // Lists of small numbers: each after the first larger than the one before.
    for (const texto of ['Andares 9 10 11 12 13', 'Notas 1 2 3 4 5 6 7 8 9', 'Terreno 10*30, 12 x 25', 'Lotes 9 17 18 21 30', 'Lotes 9 • 17 • 18 • 21 • 30', 'Quadras 6 19 21 28 30 40', 'Unidades finais 9 1 2 3 4 5 6 7 8', 'Andares 2 3 9 10 12 14 15']) {
      expect(removerContatos(texto)).toBe(texto);
    }
  });

  it('removes a number spaced out to slip past filters after a word that says telephone', () => {
    expect(removerContatos('Whats (11) 9 8 7 6 5 4 3 2 1.')).toBe('Whats [removido].');
    expect(removerContatos('Tel 98765  4321 ou 11 98765  4321.')).toBe('Tel [removido] ou [removido].');
  });

  it('keeps a CEP after a + in a map link, since no country code starts with 0', () => {
    const link = 'https://maps.google.com/?q=Rua+X,+100,+SP,+01310-200/@-23.56,-46.65';
    expect(removerContatos(link)).toBe(link);
  });

  it('removes each number of a list typed without spaces after its commas, where a decimal comma has one to three digits after it', () => {
    expect(removerContatos('Tel: 98765-4321,98765-1234.')).toBe('Tel: [removido],[removido].');
    expect(removerContatos('Whats 11987654321,11912345678')).toBe('Whats [removido],[removido]');
    expect(removerContatos('Tels: 11 3333-4444,11 98765-4321')).toBe('Tels: [removido],[removido]');
    expect(removerContatos('CPFs 529.982.247-25,111.444.777-35')).toBe('CPFs [removido],[removido]');
    for (const texto of ['R$ 3.333.444,50', 'área de 1.200,50 m²', 'valores 1.500,00,2.000,00', 'Coordenadas -23,5505 -46,6333']) expect(removerContatos(texto)).toBe(texto);
  });

  it('replaces a number glued to the word before it when it is split like one, or whole with its area code', () => {
    expect(removerContatos('CPF nº529.982.247-25 e Ligue98765-4321.')).toBe('CPF nº[removido] e Ligue[removido].');
    expect(removerContatos('Tel11987654321 ou cel21998765432.')).toBe('Tel[removido] ou cel[removido].');
    // Ten digits glued to letters are as often a product code.
    expect(removerContatos('Ref ap1234567890.')).toBe('Ref ap1234567890.');
  });

  it('reads a number glued to the word after it as it reads one followed by a space: a telephone by its shape and context, a document by its check digits', () => {
    // What an editor's inline tags leave: `<b>(11) 98765-4321</b>Chame`.
    const removidos: [string, string][] = [
      ['WhatsApp (11) 98765-4321Chame já!', 'WhatsApp [removido]Chame já!'],
      ['Apto 2 qts, ligue 11 98765-4321agora', 'Apto 2 qts, ligue [removido]agora'],
      ['Fixo 3333-4444Horário; 98765–4321Ana; 98765.4321Chame', 'Fixo [removido]Horário; [removido]Ana; [removido]Chame'],
      ['(11) 98765 4321Chame, (11) 987654321Chame, (11) 98765 - 4321Chame, 11-98765-4321Chame', '[removido]Chame, [removido]Chame, [removido]Chame, [removido]Chame'],
      ['+55 11 98765-4321Chame, +351 21 2345-6789Ligue, 0800 123 4567Ligue, Ana98765-4321Chame', '[removido]Chame, [removido]Ligue, [removido]Ligue, Ana[removido]Chame'],
      ['CPF 529.982.247-25Comprador, 52998224725Comprador; CNPJ 12.345.678/0001-95Ltda, 12.ABC.345/01DE-35Ltda', 'CPF [removido]Comprador, [removido]Comprador; CNPJ [removido]Ltda, [removido]Ltda'],
    ];
    for (const [texto, esperado] of removidos) expect(removerContatos(texto)).toBe(esperado);
    // Ranges, measures, neighbouring units, codes and documents whose check digits fail stay as they are.
    for (const texto of [
      'Obras 2019-2020Flex',
      'Lotes de 2450-2800m², terrenos 3250-4100m2, preço 2500-2750mil, km 2345-2390Km',
      'Aptos 2201-2202Frente, unidades 3101-3104A',
      'Ref AP-1234-5678B; CEP 01310-100Centro; 2023Reformado',
      'Nota 123.456.789-00Lote; guia 12.345.678/0001-96Ltda',
    ]) {
      expect(removerContatos(texto)).toBe(texto);
    }
  });

  it.each(['12.ABC.345/01DE-35', '12ABC34501DE35', '12.345.678/0001-95', '12345678000195', '12.345.678/0001 95', '12.345.678/0001–95', '12 345 678 0001 95', '12 345 678 0001-95', '12.345.678.0001-95', '12.345.678/0001 - 95', '12.345.678/0001.95', '12.345.678.0001.95', '11.222.333 0001-81', '11222333 0001-81', '11.222.333 0001 81', '11 222 333/0001-81', '11.222.333 / 0001-81', '11 222 333 / 0001 - 81', '11,222,333/0001-81'])('replaces the CNPJ %s', (cnpj) => {
    expect(removerContatos(`CNPJ ${cnpj} da empresa`)).toBe('CNPJ [removido] da empresa');
  });

  it.each([
    'R$ 450.000',
    'R$ 1.250.000,00',
    'R$ 12000000',
    'R$12000000',
    '120 m²',
    'área de 1.200,50 m²',
    'reformado em 2024',
    'obras entre 2019-2020',
    'safra 2023 2024',
    'código AP12345678',
    'código AP5511987654321',
    'CEP 01310-100',
    '3 quartos, 2 vagas, 1 suíte',
    'áreas de 1200 - 1500 m²',
    'obras de 2019 – 2020',
    'condomínio + IPTU: R$ 1.200',
    'vista +180°',
    // Ranges, lists of numbers, codes and sums an editor or an agent writes.
    'Área: 1200–1500 m²',
    'aluguel 2500–3000',
    'lotes 1200—1500 m²',
    'Lote 12 1200 - 1500 m²',
    'Aptos de 45 1200 - 1500',
    'Metragens 120 150 180 95 m²',
    // Spaced like a CPF or a CNPJ, but with check digits that are not valid.
    'Metragens 120 150 180 95',
    'Lotes 12 345 678 0001 96',
    'Lotes 529 . 982 . 247 - 26, 529,982,247-26, 11.222.333 / 0001-82',
    // Shaped like a CPF with valid check digits but for the comma an amount's cents follow.
    'VGV de 172.000.000,00; lance inicial: 103.250.000,00; lotes 120,145,200,70',
    // A bare area code's shape, but grouped as lists, dates and addresses are.
    'Parcelas: 12 24 36 48 60 meses, Av. Boa Viagem 45 51020-000, Rua Sergipe, 12 30130-170',
    'Cód 45 21.11.2026, valores 12 3.200 4.500, lotes 11 33 33 44 44, finais 12 * 23 * 34 * 45 * 56',
    'Aptos de 45 2500 - 3000',
    'Apto 45 1250 - 1380 m²',
    'Área 12 1500 - 1750 m²',
    'Valor 125.000.000.00',
    'código AP1234-5678',
    'Ref IMV1234–5678',
    'norma NBR15575-2013',
    'Obras em2019-2020',
    'Venda 1.500.000 + 12.000.000',
    '+ 100 200 300',
    'aumento de +12.500.000',
    '- Área do terreno: 10000\n- 2500 m² construídos',
    'Área 120\n150 180 95',
    // Dashed like a CPF, with check digits that are not valid; a URL before a handle.
    'Áreas 120-145-200-30 m²',
    'Siga https://instagram.com/@imobiliaria.sp',
    // Grouped like a telephone number, but no mobile number as handed out, or an amount, or a
    // landline's digits with nothing that says telephone.
    'Unidades 901 902 903',
    'Andares 9 10 11 12 13',
    'Valor 987.654.321',
    'Áreas 90 120 150 180',
    'Lotes 33 33 44 44',
    'Tel 2019 2020 e Tel. 1200-1500',
    // No local number starts with 0 or 1, only a mobile one has a first group of five (a 9
    // first), and neighbouring units are a few apart.
    'Aptos 1101-1102',
    'Salas 1001 1002',
    'Área 1250-1380 m²',
    'Aluguel 1850-2100',
    'NBR 15575-2013',
    'Aptos 2201 2202',
    'Aptos 2203 2202',
    'Salas 3301 3302 3303',
    // Units some floors apart, and rows of groups of four.
    'Unidades 2304 2404 2504',
    'Aptos 3101 3201 3301',
    'Unidades 2201 2302 2404 2501',
    'Coberturas 3501, 3601 e 3701',
    'foto_9123_4567_8.jpg',
    'Lotes de 950 970 990',
    // An alphanumeric CNPJ's shape with check digits that are not valid, and codes.
    'CNPJ 12.ABC.345/01DE-36',
    'Ref ABCDEFGHIJKL12',
    'Código AP12ABC34501DE35',
    // Lists: each value a little larger than the one before, a table's columns, a measure after.
    'Lotes 951 952 953 disponíveis',
    'Plantas de 95 97 98 101 m²',
    'Valores (mil) 955 975 990',
    'Área    95   97   98   101',
    'Área privativa 2450-2800 m²',
    'Inscrição municipal 9.765.432-10',
  ])('keeps %s, which is not a contact', (texto) => {
    expect(removerContatos(texto)).toBe(texto);
  });

  it('ends a number with a country code where a list goes on after a dash with spaces', () => {
    expect(removerContatos('WhatsApp +55 11 98765-4321 - 2 quartos')).toBe('WhatsApp [removido] - 2 quartos');
    expect(removerContatos('Ligue +55 11 3333-4444 - 30 minutos do centro')).toBe('Ligue [removido] - 30 minutos do centro');
    expect(removerContatos('Contato: +55 11 98765 4321 - 120 m²')).toBe('Contato: [removido] - 120 m²');
  });

  it('removes a number typed across two lines after its dash, and leaves the lines of anything else so split', () => {
    expect(removerContatos('Ligue (11) 98765-\n4321 hoje.')).toBe('Ligue [removido] hoje.');
    expect(removerContatos('Whats 98765–\n 4321')).toBe('Whats [removido]');
    expect(removerContatos('CPF 529.982.247-\n25\nSuítes: 1-\n2 vagas')).toBe('CPF [removido]\nSuítes: 1-2 vagas');
    for (const texto of [
      'Área 120-\n150 m²\n- 3 quartos\n- 2 vagas',
      'Construção: 2010-\n\n3 suítes, 2 vagas',
      '1º andar: R$ 500.000-\n2º andar: R$ 520.000-\n3º andar: R$ 540.000',
      'Quartos: 3\nSuítes: 1-\n2 vagas',
      'Sala -\n3 quartos\n12\n- 34',
    ]) {
      expect(removerContatos(texto), texto).toBe(texto);
    }
  });

  it('removes the number from a WhatsApp link', () => {
    expect(removerContatos('wa.me/5511987654321 ou api.whatsapp.com/send?phone=551133334444')).toBe(
      'wa.me/[removido] ou api.whatsapp.com/send?phone=[removido]',
    );
  });

  it('removes a 12- or 13-digit run that reads as 55, an area code and a number, whatever it was: privacy first', () => {
    expect(removerContatos('Matrícula 551234567890')).toBe('Matrícula [removido]');
  });

  it('costs time linear in the text on long runs beside an @, which a regular expression could make quadratic', () => {
    // CPU time, not the clock's: on a loaded machine the clock also counts the time it ran others.
    const inicio = process.cpuUsage();
    for (const texto of ['a'.repeat(40_000) + ' @', 'a.'.repeat(20_000) + ' @', 'x@' + 'b'.repeat(40_000), 'joao@' + 'b.'.repeat(20_000) + ' x', 'a at '.repeat(8_000),
      'joao @ ' + 'b . '.repeat(10_000) + 'x', 'joao arroba ' + 'b ponto '.repeat(5_000) + 'x', 'joao (at) ' + 'b (dot) '.repeat(5_000) + 'x',
      ('+1' + '1'.repeat(29) + ' ').repeat(1_300), 'A1'.repeat(20_000)]) {
      expect(removerContatos(texto)).toBe(texto);
    }
    // The first took about 2 s when the address's pattern was tried from inside the run; the
    // fourth for ever with two ways of matching a dot; the long `+1…` runs 0.3 s when a number's
    // groups could split its digits every way.
    const { user, system } = process.cpuUsage(inicio);
    expect((user + system) / 1_000).toBeLessThan(500);
  });

  it('removes landline numbers side by side, and halves a floor apart the wrong way, which no row of units is', () => {
    expect(removerContatos('Plantão 3232 4545 3232 4646.')).toBe('Plantão [removido] [removido].');
    expect(removerContatos('Plantão 3432 3332.')).toBe('Plantão [removido].');
  });

  it('removes every contact in a text and keeps the rest', () => {
    expect(removerContatos('Apto R$ 450.000, 120 m². Fale com Ana (21) 99888-7766 ou ana@ex.com')).toBe(
      'Apto R$ 450.000, 120 m². Fale com Ana [removido] ou [removido]',
    );
  });
});
