// The guard on VERSAO_DAS_REGRAS (decision 0011): what decoding and preparing make of a fixed
// sample of generated register events, pinned beside the version. A change to the rules changes
// the digest; a change to a rejection's wording does not (partners never see it).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodificarEvento, type RegistroBruto, type ValoresPrivados } from '@imoveis/contracts';
import { gerarCargaInicial, gerarMutacoes } from '@imoveis/generator';
import { prepararEvento } from '../projecao/preparo.ts';
import { removerContatos } from './contatos.ts';
import { comNomeCondominio } from './documento-json.ts';
import { mascaraDePrivados } from './mascara-de-privados.ts';
import { comoSeLe } from './texto.ts';
import { VERSAO_DAS_REGRAS } from './versao-das-regras.ts';

function digestoDasRegras(): string {
  const hash = createHash('sha256');
  const opcoes = { seed: 2026, imoveis: 2_000, condominios: 40 };
  for (const r of [...gerarCargaInicial(opcoes), ...gerarMutacoes({ ...opcoes, mutacoes: 2_000 }), ...registrosDeBorda()]) {
    if (r.valor === null) continue;
    const d = decodificarEvento(r.topico === 'imoveis' ? 'imovel' : 'condominio', r.chave, r.valor);
    if (!d.ok) {
      hash.update('rejeitado\n');
      continue;
    }
    const preparado = prepararEvento(d.evento, { fotosBaseUrl: 'https://fotos.exemplo.com.br' }, d.privados);
    // The condominium's name as the writer splices it into a stored document.
    const comNome = preparado.tipo === 'imovel.salvo' ? comNomeCondominio(preparado.documento, 'Edifício Aurora') : '';
    // Not the digest of what the public fields give: a digest of (part of) what is hashed here.
    const semDigesto = preparado.tipo === 'imovel.salvo' ? { ...preparado, publico: undefined } : preparado;
    hash.update(`${JSON.stringify(semDigesto)} ${comNome}\n`);
  }
  // The generator types private values into free text only whole: the masking's other forms are
  // read from texts of their own (mascara-de-privados.test.ts says what each should give).
  for (const [texto, valores] of TEXTOS_COM_PRIVADOS) hash.update(`${mascaraDePrivados(valores)(comoSeLe(texto))}\n`);
  // Likewise the contact details in free text: the generator types a few shapes only.
  for (const texto of TEXTOS_COM_CONTATOS) hash.update(`${removerContatos(comoSeLe(texto))}\n`);
  return hash.digest('hex');
}

/** Field values the generator does not type, each set on a copy of one generated property. */
const ALTERACOES_DE_BORDA: ((dados: { endereco: Record<string, unknown> } & Record<string, unknown>) => void)[] = [
  (d) => Object.assign(d, { tipo: ' \u200b\u00ad ', titulo: null }),
  (d) => Object.assign(d, { situacao: 'Disponi\u0301vel', finalidade: 'Locac\u0327a\u0303o' }),
  (d) => Object.assign(d, { caracteristicas: ['\u200b', ' \u2060 ', 'Piscina', 'Piscina\u200b'] }),
  (d) => Object.assign(d.endereco, { exibicao: 'completo', bairro: '\u200b', cidade: ' \ufeff\u200d ', logradouro: '\u00ad' }),
  (d) => Object.assign(d, { titulo: '\u200d\ufe0f' }),
  (d) => Object.assign(d, { descricao_html: '<p>\u200d</p>' }),
  (d) => Object.assign(d, { descricao_html: '<p>Itens:</p><ul><li></li><li>Sala</li><li><br></li></ul>', titulo: 'Casa\u00a0nova\u2009\u2015 3\u202fquartos' }),
  (d) => Object.assign(d, { descricao_html: '<ul><li>&nbsp;</li></ul>', video_url: 'https://www.youtube.com/attribution_link?u=%2Fwatch%3Fv%3DdQw4w9WgXcQ' }),
  (d) => Object.assign(d, { video_url: 'https://www.youtube.com/e/dQw4w9WgXcQ', tour_virtual_url: 'https://corretor:s3nh4@tour.exemplo.com/AP1' }),
  (d) => Object.assign(d, { video_url: 'http://www.youtube.com/v/dQw4w9WgXcQ&hl=en_US&fs=1', criado_em: '2016-12-31T23:59:60Z' }),
  (d) => Object.assign(d, { video_url: 'https://www.youtube.com/user/canal#p/u/1/dQw4w9WgXcQ', criado_em: '2026-11-20T24:00:00-03:00' }),
  (d) => Object.assign(d, { tipo: 'Casa - fone 11 98765-4321', titulo: null, caracteristicas: ['Ligue 98765-4321', 'Piscina', 'Ligue 98765-1234'] }),
  (d) => Object.assign(d, { tipo: `Casa de ${(d['proprietario'] as { nome: string }).nome}`, titulo: null, caracteristicas: [`Chaves com ${(d['proprietario'] as { nome: string }).nome}`] }),
  (d) => Object.assign(d, { descricao_html: 'Sala<br><br>\u200d<br><br>Cozinha<br> \u2060\u200b <br>Quintal<pre>\u200d\r\n\r\nVaranda</pre>' }),
  // A link no URL can hold once read as YouTube's: the video is left out, the event applied.
  (d) => Object.assign(d, { video_url: 'https://www.youtube.com/#//[', tour_virtual_url: 'https://tour.exemplo.com.br/#//[' }),
  (d) => Object.assign(d, { descricao_html: '<p>Sala ampla.</p><html><head><title>x</title></head><body><p>Aceita pet.</p></body></html>' }),
  (d) => Object.assign(d, { descricao_html: '<head><meta charset="utf-8"><title>x</title><p>Sala ampla.</p>' }),
  (d) => Object.assign(d, { descricao_html: '<html><head><xml><o:Author>Renata Vieira</o:Author></xml></head><body><p>Sala ampla.</p></body></html>' }),
  (d) => Object.assign(d, { proprietario: { nome: 'Ana Souza', telefone: 1134567890, cpf: 52998224725 }, matricula: 55443, descricao_html: '<p>Dono 3456 78 90, matrícula 55443.</p>' }),
  // Tables html-to-text could not lay out: spans made whole, one too large a bad value (null).
  (d) => Object.assign(d, { descricao_html: '<table><tr><td rowspan="-1">Sala</td><td colspan="2.5">Cozinha</td></tr><tr><td rowspan="9">Quintal</td></tr></table>' }),
  (d) => Object.assign(d, { descricao_html: '<table><tr><td colspan="40000">Sala</td><td>Cozinha</td></tr></table>' }),
  (d) => Object.assign(d, { descricao_html: `<pre>Sala</pre>${'<span>'.repeat(501)}Cozinha${'</span>'.repeat(501)}` }),
  (d) => Object.assign(d, { descricao_html: `<table><tr>${'<td>x'.repeat(999)}<td>${'a<br>'.repeat(8_000)}</tr></table>` }),
  (d) => Object.assign(d, { matricula: 'ab '.repeat(5_000), descricao_html: `<p>Sala.</p><p>${'ab '.repeat(5_000)}</p>` }),
  (d) => Object.assign(d, { video_url: 'https://www.youtube.com/watch_popup?v=dQw4w9WgXcQ', tour_virtual_url: null }),
  (d) => Object.assign(d, { video_url: 'youtube.com.br/watch?v=dQw4w9WgXcQ', fotos: [{ arquivo: '/', ordem: 1, principal: true, publica: true, alterada_em: null }] }),
];

function* registrosDeBorda(): Generator<RegistroBruto> {
  const imovel = [...gerarCargaInicial({ seed: 2026, imoveis: 1, condominios: 1 })].find((r) => r.topico === 'imoveis')!;
  for (const alterar of ALTERACOES_DE_BORDA) {
    const evento = JSON.parse(imovel.valor!) as { dados: Parameters<typeof alterar>[0] };
    alterar(evento.dados);
    yield { ...imovel, valor: JSON.stringify(evento) };
  }
}

/** Contact details as agents type them, and numbers that only look like them (contatos.test.ts says what each should give). */
const TEXTOS_COM_CONTATOS = [
  'Ligue (11) 98765-4321, 11987654321, +55 11 98765 - 4321, 0800 123 4567, 3333.4444 ou 98765\u20104321.',
  'wa.me/5511987654321, Ligue98765-4321, Tel11987654321, +351 912 345 678; ref ap1234567890, AP1234-5678.',
  'Falar com Ana 987 654 321, 98 765 4321, 9876-54321, (11) 9 87 65 43 21; Tel. 33 33 44 44, Cel - 33 334 444.',
  'Unidades 901 902 903, andares 9 10 11 12 13, valor 987.654.321, lotes 33 33 44 44, Tel 2019 2020.',
  'Tel: 98765-4321,98765-1234; CPFs 529.982.247-25,111.444.777-35; R$ 3.333.444,50; Aptos 1101-1102, 2201 2202; NBR 15575-2013; Tel 1101-1102.',
  'TEL98765-4321, cel987654321, CPF529.982.247-25, Hotel12345678; Whats (11) 9 8 7 6 5 4 3 2 1, Tel 98765  4321; lotes 950 970 990; maps?q=SP,+01310-200/@-23.5.',
  'Ana 941 234 567; 📞 33 33 44 44; Telefone/WhatsApp da Ana: 33 33 44 44; lotes 951 952 953, 95 97 98 101 m², área 2450-2800 m², Área    95   97   98   101.',
  'Living at Terra Nova, 20@ cada. Com pasto; Siga @terra.imoveis; vendas @imobiliaria.com.br; JOAO ARROBA GMAIL PONTO COM.',
  'CNPJ 12.ABC.345/01DE-35, 12ABC34501DE35, 12.ABC.345/01DE-36; +351912345678, +1 (555) 123-4567.',
  'Ligue 98765\u00ad4321 ou 9876\ufe0f5-4321; 1\ufe0f\u20e3 Sala, 2\ufe0f\u20e3 Cozinha; \u{1f468}\u200d\u{1f469}\u200d\u{1f467}.',
  'CPF 529.982.247-25, 529 982 247 25, 529-982-247-25; CNPJ 12.345.678/0001-95, 12 345 678 0001 95; lotes 12 345 678 0001 96.',
  'Contato: joao.silva+imoveis@gmail.com, joao#x@gmail.com; siga https://instagram.com/@imobiliaria.sp.',
  'Ou joao @ gmail . com, joao[at]gmail(dot)com, joao arroba hotmail ponto com ponto br, joao\uff20gmail.com, maria@uol, joao @gmail.com; 500 arrobas, Siga @imobiliaria ou @joao.imoveis, Living at Moema. Com vista.',
  'R$ 1.250.000,00, 120 m², obras 2019-2020, áreas 1200 - 1500 m², Apto 45 1250 - 1380 m², CEP 01310-100.',
  'WhatsApp (11) 98765-4321Chame, +55 11 98765-4321Ligue, 0800 123 4567Ligue, CPF 52998224725Comprador, 12.ABC.345/01DE-35Ltda; obras 2019-2020Flex, 2450-2800m², Aptos 2201-2202Frente, 123.456.789-00Lote.',
  '𝐋𝐢𝐠𝐮𝐞 𝟏𝟏 𝟗𝟖𝟕𝟔𝟓-𝟒𝟑𝟐𝟏, fone ９８７６５-４３２１, ①① ⑨⑧⑦⑥⑤-④③②①, ❾❽❼❻❺ ❹❸❷❶, ｊｏａｏ＠ｇｍａｉｌ．ｃｏｍ, Ⓙⓞⓐⓞ@ⓖⓜⓐⓘⓛ.ⓒⓞⓜ, 🅹🅾🅰🅾@🅶🅼🅰🅸🅻.🅲🅾🅼; 𝐕𝐄𝐍𝐃𝐎 120 m², 3º, 𝚫; fone 11*98765*4321; terreno 10*30.',
  'Whats: 1️⃣1️⃣ 9️⃣8️⃣7️⃣6️⃣5️⃣-4️⃣3️⃣2️⃣1️⃣, ⁹⁸⁷⁶⁵⁻⁴³²¹, 9 8 7 6 5 4 3 2 1, 11 • 98765 • 4321; 1️⃣ Sala, ① 3 quartos, 🅿️ 2 vagas, m²; joao @ gmail, joao arroba uol; Festa @ terra; CPF 111.444.777.35; Av. Celso Garcia 33 33 44 44, CEP 30140000; Celulares 33 33 44 44; Unidades 2304 2404 2504, 2201 2302 2404 2501; Aptos 2203 2202; Plantão 3232 4545 3232 4646; Lotes 9 17 18 21 30; foto_9123_4567_8.jpg.',
  'Ligue (11) 98765-\n4321; CPF 529.982.247-\n25; área 120-\n150 m²; Sala -\n3 quartos.',
  'Ligue 98765\u20094321, 11\u300098765\u30004321, 98765\u22124321, 98765\u20154321, 98765\u30fb4321; CPF 529 . 982 . 247 - 25, 529,982,247-25, 11.222.333 0001-81, 11 222 333 / 0001-81; Ana 11 3333 44 44, 21 33 33 44 44; Aptos de 45 2500 - 3000.',
  'Dono 111•444•777-35, 111   444   777   35, 111\u2024444\u2024777-35, 11.222.333\u22150001-81; VGV de 172.000.000,00; Parcelas 12 24 36 48 60; Av. Boa Viagem 45 51020-000.',
  'Fotos https://www.olx.com.br/d/anuncio/apto-1234567890, https://site.com.br/corretor/11987654321; Lote 12 1200-1500 m², Apto 45 2304-2305, Ref 1100123456; Contato 1203-1204, Whats: entrega 25.12.2026, andares 22 23 24 25, Rua da Bahia, 30160-011; por 35000000 reais, R$: 45000000; fone 45 2304-2305; Renavam 12345678900, CPF 12345678900; Siga @imob.com.br.',
  'Zap 1️⃣1️⃣ 9️⃣ 8️⃣7️⃣ 6️⃣5️⃣ 4️⃣3️⃣ 2️⃣1️⃣, ⁹⁸⁷ ⁶⁵⁴ ³²¹, 98 76 54 32 1, joao @ Gmail, joao@Hotmail, 11 ● 98765 ● 4321; Torres 1️⃣ 2️⃣ 3️⃣; Telefonia e internet: aptos 33 33 44 44; Contatar corretor. 30140-000.',
  'SAC 0300 313 4701, 0300-789-1234, 0500 123 4567, 0900 123 4567; 0800 707 12 34, 0800 70 1234; CEP 05001-000, 03001-000.',
  'Zap 9\u03368\u03367\u03366\u03365\u0336-\u03364\u03363\u03362\u03361\u0336, j\u0332o\u0332@\u0332x\u0332.\u0332c\u0332o\u0332m\u0332, R\u0336$\u0336 \u03365\u03362\u03360\u0336.\u03360\u03360\u03360\u0336; Ligue 9\u03328\u03327\u03326\u03325\u0332-4\u03323\u03322\u03321\u0332, 9\u20dd8\u20dd7\u20dd6\u20dd5\u20dd4\u20dd3\u20dd2\u20dd1\u20dd, ₉₈₇₆₅₋₄₃₂₁, \u{1fbf9}\u{1fbf8}\u{1fbf7}\u{1fbf6}\u{1fbf5}-\u{1fbf4}\u{1fbf3}\u{1fbf2}\u{1fbf1}, 97777\u28001234, joao\u2800@\u2800gmail.com; H₂O, CO₂, o\ufb00ice, 1\ufe0f\u20e3 Sala.',
];

const nomes = (...n: string[]): ValoresPrivados => ({ nomes: n, codigos: [] });
/** One text for each way a private value is typed, and for each text that only looks like one. */
const TEXTOS_COM_PRIVADOS: [string, ValoresPrivados][] = [
  ['Tratar com renata vieira ou RENATA SANTOS VIEIRA.', nomes('Renata Santos Vieira')],
  ['Corretora Ana  Souza Lima e Ana\nLima; Ana Maria Souza.', nomes('Ana Souza Lima', 'Ana Maria de Souza')],
  ['Joao Goncalves de Araujo, Joa\u0303o Arau\u0301jo.', nomes('João Gonçalves de Araújo')],
  ['Falar com José Silva ou Carlos da Silva.', nomes('Dr. José Carlos da Silva Filho')],
  ['Siga @renata.vieira ou Ana-Maria Souza.', nomes('Renata Vieira', 'Ana Maria Souza')],
  ['Renata S. Vieira, renata s vieira, Carlos E.M. Silva.', nomes('Renata Santos Vieira', 'Carlos Eduardo Moreira da Silva')],
  [
    'Maria A Silva, Luiz O Ramos; LUIZ O RAMOS; ACESSO A VITÓRIA E SERRA; Vitória E. Serra.',
    nomes('Maria Aparecida Silva', 'Luiz Otávio Ramos', 'Vitória Elisa Serra'),
  ],
  ['Fácil acesso a São Paulo e Santos. Rodovia São Paulo - Santos.', nomes('Paulo Eduardo Santos')],
  ['Casa em São José dos Campos. Santa Maria da Serra.', nomes('José Carlos dos Campos', 'Maria José da Serra')],
  ['Casa da Maria e Silva Imóveis; Maria E. Souza e Silva.', nomes('Maria Eduarda Souza e Silva')],
  ['Dono: Vieira, Renata S. Sala com muita luz, clara e arejada.', nomes('Renata Santos Vieira', 'Clara Luz')],
  ['Dona: MARIA DA SILVA; Ana Souza Lima e Ana Lima.', nomes('Maria Silva', 'Ana Souza-Lima')],
  ['Dono: Renata Vieira; Pedro D´Ávila; Pedro (Jr.) D’Ávila.', nomes('Vieira, Renata Santos', 'Pedro (Jr.) D’Ávila')],
  ['Engenheiro Paulo Lins, com Júlia Sant´Anna Souza.', nomes('Eng. Paulo Roberto Lins', 'Júlia Sant’Anna Souza')],
  ['Rua Ana Souzana, 10; casa sobre a rocha.', nomes('Ana Souza', 'Pedro Rocha')],
  [
    'CRECI SP 998877, CRECI: SP/998877, CRECI 123456-F, Matrícula 45.678, CRECI-SP 9988771.',
    { nomes: [], codigos: ['CRECI-SP 998877', 'CRECI-SP 123456-F', '45.678'] },
  ],
  [
    'Ligue 11 97777 12 34, (11)97777-1234, 977771234, CPF 529 982 247 25, josefina.privada@GMAIL.com.',
    { nomes: [], codigos: ['josefina.privada@gmail.com'], numeros: ['(11) 97777-1234', '529.982.247-25'] },
  ],
  ['Terreno de 45.000 m², R$ 45.000 de entrada; Matrícula 45.000.', { nomes: [], codigos: ['45.000 - 3º CRI'] }],
  ['Dono\u2009Renata\u202fVieira, fone 97777\u20091234 ou 97777\u22121234.', { nomes: ['Renata Vieira'], codigos: [], numeros: ['(11) 97777-1234'] }],
  ['Falar com 𝐑𝐞𝐧𝐚𝐭𝐚 𝐕𝐢𝐞𝐢𝐫𝐚 ou Ｒｅｎａｔａ Ｖｉｅｉｒａ, dono ９７７７７ １２３４.', { nomes: ['Renata Vieira'], codigos: [], numeros: ['(11) 97777-1234'] }],
  [
    'Dono 3456•7890, 3456*7890, 3456_7890, CRECI 998•877, Jose\ufb01na Albuquerque, Josefina\u2800Albuquerque; Josefina·Albuquerque; Josefina/Albuquerque; JosefinaAlbuquerque; lotes 3456, 7890; Matrícula 45678_2.',
    { nomes: ['Josefina Albuquerque'], codigos: ['CRECI-SP 998877', '45.678 - 2º CRI'], numeros: ['(11) 3456-7890'] },
  ],
  [
    'Ótimo. PROPRIETARIO MORA FORA - TRATAR COM A FILHA! Visitas só com 24h de aviso; chaves com o zelador. Aceita proposta até 8% abaixo. Obs.: Imóvel em inventário; documentação em andamento.',
    {
      nomes: [],
      codigos: [],
      frases: [
        'Proprietário mora fora, tratar com a filha. Inquilino atual sai no fim do mês; visitas só com 24h de aviso.',
        'Com o zelador',
        'Aceita proposta até 8.5% abaixo.',
        'Imóvel em inventário; documentação em andamento. (rev. 3)',
      ],
    },
  ],
  // A note longer than what is searched, its words parted by no ordinary space, copied whole.
  ...['\t', '-'].map((separador): [string, ValoresPrivados] => {
    const nota = Array.from({ length: 1_000 }, (_, i) => ['visita', i, 'do', 'cliente', 'com', 'aviso'].join(separador)).join(',');
    return [`Veja: ${nota}`, { nomes: [], codigos: [], frases: [nota] }];
  }),
];

describe('VERSAO_DAS_REGRAS', () => {
  it('moves with what the rules make of the same register events', () => {
    // Failing here? If partners would see anything different, bump VERSAO_DAS_REGRAS (projections
    // made by the old rules then warn until rebuilt) and pin the new digest; if only the generator
    // changed, pin the new digest alone.
    expect({ versao: VERSAO_DAS_REGRAS, digesto: digestoDasRegras() }).toEqual({ versao: 18, digesto: '964d403ca7e84454af6e9df9cd72da165bbb14b27fd35184de8dd76d09e7e786' });
  });
});
