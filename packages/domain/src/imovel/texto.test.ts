import { describe, expect, it } from 'vitest';
import { removerContatos } from './contatos.ts';
import { LADO_MAXIMO_TABELA, PROFUNDIDADE_MAXIMA, PROFUNDIDADE_MAXIMA_SEM_LAYOUT } from './html-texto.ts';
import { aparado, comoSeLe, htmlParaTexto, semEstilo, semInvisiveis } from './texto.ts';

describe('htmlParaTexto', () => {
  it('removes tags and decodes entities', () => {
    expect(htmlParaTexto('<p><strong>Sala</strong> &amp; cozinha &eacute; &#233;&nbsp;ampla &lt;3</p>')).toBe('Sala & cozinha é é ampla <3');
  });

  it('turns <br>, paragraph ends and list item ends into line breaks', () => {
    expect(htmlParaTexto('<p>Primeira<br>segunda</p><p>Terceira</p><ul><li>Um</li><li>Dois</li></ul>')).toBe(
      'Primeira\nsegunda\n\nTerceira\n\n- Um\n- Dois',
    );
  });

  it('turns the end of other blocks (div, headings) into line breaks, keeping the heading case', () => {
    expect(htmlParaTexto('<div>Um</div><div>Dois</div><h2>Lazer</h2>texto')).toBe('Um\nDois\n\nLazer\n\ntexto');
  });

  it('keeps at most one blank line in a row', () => {
    expect(htmlParaTexto('a<br><br><br><br>b<p>&nbsp;</p><p> </p><p>c</p>')).toBe('a\n\nb\n\nc');
  });

  it('treats raw newlines in the HTML as whitespace, as a browser does', () => {
    expect(htmlParaTexto('linha\ncontinua')).toBe('linha continua');
  });

  it('trims the result', () => {
    expect(htmlParaTexto('  <p>  texto  </p>  <br>')).toBe('texto');
  });

  it('leaves no line of its own for an empty list item: null when nothing else is there', () => {
    for (const html of ['<ul><li></li></ul>', '<ul><li><br></li></ul>', '<ul><li>&nbsp;</li></ul>', '<ol><li>&#8203;</li></ol>', '<ul><li><ul><li></li></ul></li></ul>', '<ul><li></li></ul><pre> </pre>']) {
      expect(htmlParaTexto(html), html).toBeNull();
    }
    expect(htmlParaTexto('<p>Itens:</p><ul><li></li><li>a</li><li></li><li>b</li><li><br></li></ul>')).toBe('Itens:\n\n- a\n- b');
    expect(htmlParaTexto('<p>Itens:</p><ul><li>- a</li><li>-</li></ul><p>1 - 2</p>')).toBe('Itens:\n\n- - a\n\n1 - 2');
  });

  it('gives null for empty or tag-only HTML and for null', () => {
    expect(htmlParaTexto('<p></p><br>  ')).toBeNull();
    expect(htmlParaTexto('')).toBeNull();
    expect(htmlParaTexto(null)).toBeNull();
  });

  it('shows neither link targets nor image addresses, so a mailto: or tel: target cannot leak', () => {
    expect(htmlParaTexto('<a href="mailto:dono@exemplo.com">Fale conosco</a> <img src="https://x/y.jpg" alt="foto">')).toBe('Fale conosco');
  });

  it('turns the end of every block an editor may write into a line break, adding no text of its own', () => {
    expect(htmlParaTexto('<ol><li>Suíte</li><li>Closet</li></ol>')).toBe('- Suíte\n- Closet');
    expect(htmlParaTexto('<li>Piscina</li><li>Academia</li>')).toBe('Piscina\nAcademia');
    expect(htmlParaTexto('<dl><dt>Área</dt><dd>120 m²</dd></dl><address>Centro</address><figure>Foto<figcaption>Sala</figcaption></figure>')).toBe(
      'Área\n120 m²\nCentro\nFoto\nSala',
    );
    expect(htmlParaTexto('<blockquote>Ótima localização</blockquote>Perto do metrô<hr>Aceita pet')).toBe('Ótima localização\n\nPerto do metrô\n\nAceita pet');
  });

  it('decodes escaped markup once, as the text the agent typed, and does not read it as HTML again', () => {
    // The contract: entities decoded. "&lt;b&gt;" was typed as text; partners escape plain text.
    expect(htmlParaTexto('<p>&lt;b&gt;Oferta&lt;/b&gt; &amp;lt;</p>')).toBe('<b>Oferta</b> &lt;');
  });

  it('drops scripts and styles', () => {
    expect(htmlParaTexto('<style>p{color:red}</style><script>alert(1)</script><p>ok</p>')).toBe('ok');
  });

  // html-to-text lays tables out as grids, recursing: these overflowed its stack or took seconds,
  // and the mapping threw, sending the whole event to the dead letters (rules version 18).
  const tabela = (span: string) => `<table><tr><td${span}>x</td><td>y</td></tr><tr><td>z</td></tr></table>`;

  it('reads a cell span that is no whole number of at least 1 as 1, and a rowspan past the last row as reaching it', () => {
    const semVao = htmlParaTexto(tabela(''));
    for (const span of [' rowspan="-1"', ' rowspan="1.5"', ' colspan="-3"', ' colspan="2.5"', ' rowspan="x"', ' rowspan="0"']) {
      expect(htmlParaTexto(tabela(span)), span).toBe(semVao);
    }
    expect(htmlParaTexto(tabela(' rowspan="100000"'))).toBe(htmlParaTexto(tabela(' rowspan="2"')));
  });

  it('gives null for a table too large to lay out (a bad value)', () => {
    expect(htmlParaTexto(tabela(' colspan="40000"'))).toBeNull();
    expect(htmlParaTexto(`<table>${'<tr><td>y</td></tr>'.repeat(LADO_MAXIMO_TABELA + 1)}</table>`)).toBeNull();
    expect(htmlParaTexto(`<table>${'<tr><td>y</td></tr>'.repeat(LADO_MAXIMO_TABELA)}</table>`)).toMatch(/^y\ny\n/);
  });

  it('gives null for tables whose layout would be far larger than their HTML: every line padded to every column', () => {
    // 45 KB: 999 columns, one cell of 8,000 lines (32 million characters laid out).
    const larga = `<table><tr>${'<td>x'.repeat(999)}<td>${'a<br>'.repeat(8_000)}</tr></table>`;
    expect(htmlParaTexto(larga)).toBeNull();
    // Many tables, each within bounds, but not all together.
    const uma = `<table><tr>${'<td>x'.repeat(200)}<td>${'a<br>'.repeat(100)}</tr></table>`;
    expect(htmlParaTexto(uma)).not.toBeNull();
    expect(htmlParaTexto(uma.repeat(60))).toBeNull();
  });

  it('gives null for HTML html-to-text lays out (a table, a <pre>) nested deeper than it is given, instead of overflowing its stack', () => {
    const fundo = (n: number, antes = '') => `${antes}<p>Sala</p>${'<span>'.repeat(n)}x${'</span>'.repeat(n)}`;
    for (const antes of ['<pre>p</pre>', '<table><tr><td>a</td></tr></table>']) {
      expect(htmlParaTexto(fundo(PROFUNDIDADE_MAXIMA + 1, antes)), antes).toBeNull();
      expect(htmlParaTexto(fundo(20_000, antes)), antes).toBeNull();
      expect(htmlParaTexto(fundo(PROFUNDIDADE_MAXIMA - 1, antes)), antes).toMatch(/Sala\n\nx$/);
    }
    // Unclosed tags count, as htmlparser2 nests them.
    expect(htmlParaTexto(`<pre>p</pre>${'<div>linha'.repeat(PROFUNDIDADE_MAXIMA + 1)}`)).toBeNull();
    // 20,000 tables, each in a cell of the one before: null at once, not seconds of parsing.
    expect(htmlParaTexto(`${'<table><tr><td>'.repeat(20_000)}x${'</td></tr></table>'.repeat(20_000)}`)).toBeNull();
  });

  it('gives null where html-to-text comes to lay out HTML already nested deeper than it is given: its own cut would drop the deep text silently', () => {
    expect(htmlParaTexto(`<p>Sala</p>${'<span>'.repeat(PROFUNDIDADE_MAXIMA + 5)}segredo${'</span>'.repeat(PROFUNDIDADE_MAXIMA + 5)}<pre>p</pre>`)).toBeNull();
  });

  it('keeps HTML the fast path lays out, sloppy unclosed tags and deep spans, up to a depth the parser reads at once', () => {
    const fundo = (n: number) => `<p>Sala</p>${'<span>'.repeat(n)}x${'</span>'.repeat(n)}`;
    expect(htmlParaTexto(fundo(PROFUNDIDADE_MAXIMA_SEM_LAYOUT - 1))).toBe('Sala\n\nx');
    expect(htmlParaTexto('<div>linha'.repeat(PROFUNDIDADE_MAXIMA + 1))).toBe(Array.from({ length: PROFUNDIDADE_MAXIMA + 1 }, () => 'linha').join('\n'));
    // htmlparser2 moves its stack of open elements at every tag: 160,000 deep took 7 s.
    expect(htmlParaTexto(fundo(PROFUNDIDADE_MAXIMA_SEM_LAYOUT + 1))).toBeNull();
    expect(htmlParaTexto(`${'<b>'.repeat(160_000)}x`)).toBeNull();
  });

  it('bounds a table whose empty span pushes a tall cell far along: every line padded to it', () => {
    // 80 KB laid out in 20 million characters, where each empty column counted as nothing.
    expect(htmlParaTexto(`<table><tr><td colspan=999></td><td>a${'<br>'.repeat(20_000)}a</td></tr></table>`)).toBeNull();
    expect(htmlParaTexto(`<table><tr><td colspan=999></td><td>a${'<br>'.repeat(100)}a</td></tr></table>`)).toMatch(/a$/);
  });

  it('lays out tables nested as old page layouts nest them, each counted once against the bound', () => {
    const texto = Array.from({ length: 15 }, () => `<p>${'Apartamento amplo com vista para o mar e lazer completo. '.repeat(12)}</p>`).join('');
    let html = `<table><tr><td>Foto</td><td>${texto}</td><td>Contato</td></tr></table>`;
    // Sixteen deep: counted again by every table around it, such a layout was null.
    for (let nivel = 0; nivel < 15; nivel++) html = `<table><tr><td>menu</td><td>${html}</td><td>lateral</td></tr><tr><td colspan=3>rodapé</td></tr></table>`;
    const lido = htmlParaTexto(html);
    expect(lido).toContain('Apartamento amplo com vista');
    expect(lido).toContain('rodapé');
  });
});

describe('semInvisiveis', () => {
  it('drops what a reader does not see, so it cannot hide a contact', () => {
    for (const texto of ['98765\u00ad4321', '9876\u200b5-4321', '(11) 9876\u200d5-4321', '(11) 98765\u2060-4321', '98765-\ufeff4321', '98765\u202e-4321']) {
      expect(removerContatos(semInvisiveis(`Ligue ${texto}.`))).toBe('Ligue [removido].');
    }
    expect(removerContatos(semInvisiveis('joao\u200b@gmail.com e joao@gmail\u200c.com'))).toBe('[removido] e [removido]');
  });

  it('drops every default-ignorable character, variation selectors and joiners next to digits included', () => {
    for (const texto of ['9876\ufe0f5-4321', '9876\u034f5-4321', '98765\u180e4321', '98765\u{e0020}4321', '98765\u31644321']) {
      expect(removerContatos(semInvisiveis(`Ligue ${texto}.`)), JSON.stringify(texto)).toBe('Ligue [removido].');
    }
    expect(removerContatos(semInvisiveis('joao\u034f@gmail.com'))).toBe('[removido]');
  });

  it('keeps the joiner between emoji and a keycap\'s variation selector, and text with nothing invisible as it is', () => {
    const familia = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    expect(semInvisiveis(`Ideal para a ${familia}`)).toBe(`Ideal para a ${familia}`);
    expect(semInvisiveis('1\ufe0f\u20e3 Sala ampla 2\ufe0f\u20e3 Cozinha')).toBe('1\ufe0f\u20e3 Sala ampla 2\ufe0f\u20e3 Cozinha');
    const texto = 'Sala ampla';
    expect(semInvisiveis(texto)).toBe(texto);
  });

  it('leaves a description of only characters nobody sees null, and a line of them blank', () => {
    for (const html of ['<p>\u200d</p>', '\u200d\ufe0f', '<p> &zwj; </p><p>\u2060</p>', '<pre>\u200d\r\n</pre>']) expect(htmlParaTexto(html), JSON.stringify(html)).toBeNull();
    expect(htmlParaTexto('Sala<br><br>\u200d<br><br>Cozinha<br> \u2060\u200b <br>Quintal')).toBe('Sala\n\nCozinha\n\nQuintal');
    expect(htmlParaTexto('<pre>Sala\r\n\u200d\r\n\r\nCozinha</pre>')).toBe('Sala\n\nCozinha');
    // Seen: an emoji with its joiners, a line indented before text.
    expect(htmlParaTexto('\u{1f468}\u200d\u{1f469}<br><br>\u00a0 \u00e9 isso')).toBe('\u{1f468}\u200d\u{1f469}\n\n  \u00e9 isso');
  });

  it('is applied to the description, whether the character was typed or written as an entity', () => {
    expect(htmlParaTexto('<p>Ligue 98765&shy;4321 ou 9876&#8203;5-4321 ou 98765\u20604321</p>')).toBe('Ligue 987654321 ou 98765-4321 ou 987654321');
  });
});

describe('semEstilo', () => {
  it.each([
    ['fone 11 ９８７６５-４３２１', 'fone 11 98765-4321'],
    ['𝐋𝐢𝐠𝐮𝐞 𝟏𝟏 𝟗𝟖𝟕𝟔𝟓-𝟒𝟑𝟐𝟏', 'Ligue 11 98765-4321'],
    ['𝘓𝘪𝘨𝘶𝘦 𝟷𝟷 𝟿𝟾𝟽𝟼𝟻-𝟺𝟹𝟸𝟷', 'Ligue 11 98765-4321'],
    ['①① ⑨⑧⑦⑥⑤-④③②①', '11 98765-4321'],
    ['❶❶ ❾❽❼❻❺-❹❸❷❶ ➀➉ ➊➓', '11 98765-4321 110 110'],
    ['⓵⓵ ⓽⓼⓻⓺⓹-⓸⓷⓶⓵ ⓿⓫⓴', '11 98765-4321 01120'],
    ['ｊｏａｏ＠ｇｍａｉｌ．ｃｏｍ', 'joao@gmail.com'],
    ['Ⓙⓞⓐⓞ@ⓖⓜⓐⓘⓛ.ⓒⓞⓜ', 'Joao@gmail.com'],
    ['🅹🅾🅰🅾@🅶🅼🅰🅸🅻.🅲🅾🅼 🅐🅩', 'JOAO@GMAIL.COM AZ'],
    ['⑴⑵ ⒈⒉', '(1)(2) 1.2.'],
    ['1️⃣1️⃣ 9️⃣8️⃣7️⃣6️⃣5️⃣-4️⃣3️⃣2️⃣1️⃣', '11 98765-4321'],
    ['9⃣8⃣7⃣6⃣5⃣4⃣3⃣2⃣1⃣', '987654321'],
    ['9️⃣ 8️⃣ 7️⃣ 6️⃣ 5️⃣ 4️⃣ 3️⃣ 2️⃣ 1️⃣', '9 8 7 6 5 4 3 2 1'],
    ['1️⃣1️⃣ 9️⃣ 8️⃣7️⃣ 6️⃣5️⃣ 4️⃣3️⃣ 2️⃣1️⃣', '11 9 87 65 43 21'],
    ['9️⃣ 8️⃣ 7️⃣ 6️⃣ 5️⃣ – 4️⃣ 3️⃣ 2️⃣ 1️⃣', '9 8 7 6 5 – 4 3 2 1'],
    ['⑨ • ⑧ • ⑦ • ⑥ • ⑤', '9 • 8 • 7 • 6 • 5'],
    ['⁹⁸⁷ ⁶⁵⁴ ³²¹', '987 654 321'],
    ['Whats ⁹⁸⁷⁶⁵⁻⁴³²¹', 'Whats 98765-4321'],
    ['Ligue ₉₈₇₆₅₋₄₃₂₁ ou ₉₈₇ ₆₅₄ ₃₂₁', 'Ligue 98765-4321 ou 987 654 321'],
    ['\u{1fbf9}\u{1fbf8}\u{1fbf7}\u{1fbf6}\u{1fbf5}-\u{1fbf4}\u{1fbf3}\u{1fbf2}\u{1fbf1}', '98765-4321'],
    ['9\u03328\u03327\u03326\u03325\u0332-4\u03323\u03322\u03321\u0332', '98765-4321'],
    ['Dono 9\u20dd7\u20dd7\u20dd 1\u0336\u03362\u0338', 'Dono 977 12'],
    // As the generators make them: a mark after every character, spaces and dashes too.
    ['Zap 9\u03368\u03367\u03366\u03365\u0336-\u03364\u03363\u03362\u03361\u0336', 'Zap 98765-4321'],
    ['1\u03321\u0332 \u03329\u03328\u0332 \u0332j\u0332o\u0332@\u0332x\u0332.\u0332c\u0332o\u0332m\u0332', '11 98 jo@x.com'],
    ['9\u200b\u03328\u0332', '9\u200b8'],
    ['Jose\ufb01na, \ufb02at, o\ufb00ice', 'Josefina, flat, office'],
  ])('reads %s as the plain letters and digits it shows', (estilizado, simples) => {
    expect(semEstilo(estilizado)).toBe(simples);
  });

  it('keeps a circled or keycap sign alone, a few superscripts, ordinals, fractions, styled Greek letters, flags and plain text as they are', () => {
    for (const texto of [
      'Área 120 m², 3º andar, ½ quadra, 𝚫 e 𝛑, 🇧🇷',
      'Sala ampla',
      '',
      '1\ufe0f\u20e3 Sala 2\ufe0f\u20e3 Cozinha #\ufe0f\u20e3, Torres 1\ufe0f\u20e3 2\ufe0f\u20e3 3\ufe0f\u20e3, 1\ufe0f\u20e3 120 m²',
      '① 3 quartos ② 2 vagas ③ 120 m², ❶ 98 m² ❷ 2 suítes, ⑴ sala',
      '\u{1f17f}\ufe0f 2 vagas, \u24c2\ufe0f Metrô, ⓘ Informações, \u{1f170}\ufe0f Torre A \u{1f171}\ufe0f Torre B',
      '10³ m³, 120 m²¹, 10¹²³',
      'H₂O, CO₂, 10₁₂₃',
      'Ação, Paraná: accents on letters stay, composed or not (Ac\u0327a\u0303o), and keycaps (1\ufe0f\u20e3 2\u20e3 #\ufe0f\u20e3)',
      'Marks that mean something: pets \u{1f415}\u20e0, x =\u0338 y, x\u0305',
    ]) {
      expect(semEstilo(texto)).toBe(texto);
    }
  });

  it('lets the contact patterns see what partners read', () => {
    expect(removerContatos(comoSeLe('𝐋𝐢𝐠𝐮𝐞 𝟏𝟏 𝟗𝟖𝟕𝟔𝟓-𝟒𝟑𝟐𝟏, ｊｏａｏ＠ｇｍａｉｌ．ｃｏｍ, CPF ５２９.９８２.２４７-２５, ❶❶ ❾❽❼❻❺ ❹❸❷❶'))).toBe('Ligue [removido], [removido], CPF [removido], [removido]');
    // Styled characters joined by invisible ones.
    expect(removerContatos(comoSeLe('Ligue 𝟗𝟖𝟕𝟔\u200b𝟓-𝟒𝟑𝟐𝟏'))).toBe('Ligue [removido]');
    // Digits underlined, small or segmented, and groups a blank Braille pattern apart.
    expect(removerContatos(comoSeLe('Ligue 9\u03328\u03327\u03326\u03325\u0332-4\u03323\u03322\u03321\u0332, ₉₈₇₆₅₋₄₃₂₁, \u{1fbf9}\u{1fbf8}\u{1fbf7}\u{1fbf6}\u{1fbf5}\u{1fbf4}\u{1fbf3}\u{1fbf2}\u{1fbf1}, 97777\u28001234'))).toBe(
      'Ligue [removido], [removido], [removido], [removido]',
    );
    // Every character struck through or underlined, an e-mail address too; a mark after an invisible character.
    expect(removerContatos(comoSeLe('Zap 9\u03368\u03367\u03366\u03365\u0336-\u03364\u03363\u03362\u03361\u0336, 1\u03321\u0332 \u03329\u03328\u03327\u03326\u03325\u0332 \u03324\u03323\u03322\u03321\u0332, j\u0332o\u0332a\u0332o\u0332@\u0332g\u0332m\u0332a\u0332i\u0332l\u0332.\u0332c\u0332o\u0332m\u0332, 9\u200b\u03328765-4321'))).toBe(
      'Zap [removido], [removido], [removido], [removido]',
    );
  });

  it('is applied to the description', () => {
    expect(htmlParaTexto('<p><b>𝐕𝐄𝐍𝐃𝐎</b> 𝐚𝐩𝐭𝐨, ligue ９８７６５&#x2d;４３２１</p>')).toBe('VENDO apto, ligue 98765-4321');
  });
});

describe('comoSeLe: separators', () => {
  it.each([
    ['97777\u20091234', '97777 1234'],
    ['529\u202f982\u202f247\u202f25', '529 982 247 25'],
    ['11\u300098765\u30004321 \u2007 \u2002 \u205f \u1680 \u00a0', '11 98765 4321', ' ', ' ', ' ', ' ', ' '],
    ['98765\u22124321 98765\u20154321 98765\ufe634321 98765\u20434321 98765\u27964321', '98765-4321 98765-4321 98765-4321 98765-4321 98765-4321'],
    ['98765\u20274321 98765\u30fb4321 98765\uff654321', '98765\u00b74321 98765\u00b74321 98765\u00b74321'],
    ['111\u2024444\ufe52777-35 11.222.333\u22150001-81 1\u20442 1\u29f82', '111.444.777-35 11.222.333/0001-81 1/2 1/2'],
    ['97777\u28001234 joao\u2800@\u2800gmail.com', '97777 1234 joao @ gmail.com'],
  ].map(([de, ...para]) => [de, para.join(' ')]))('reads %j with the space, dash or dot the patterns know', (de, para) => {
    expect(comoSeLe(de!)).toBe(para);
  });

  it('keeps the dashes the patterns know, and text without other separators, as typed', () => {
    expect(comoSeLe('Casa – 3 quartos — 98765‐4321, R$ 1.200,00 · 2 vagas')).toBe('Casa – 3 quartos — 98765‐4321, R$ 1.200,00 · 2 vagas');
  });

  it('lets the contact patterns find numbers split by other spaces and dashes', () => {
    for (const texto of ['Ana 98765\u20244321', 'CPF 111\u2024444\u2024777-35', '11.222.333\u22150001-81', 'Ligue (11) 98765\u20094321', 'Tel.:\u2009(11)\u200998765\u20094321', '98765\u202f4321', '11\u300098765\u30004321', '98765\u22124321', '98765\u20154321', '98765\ufe634321', 'CPF 529\u2009982\u2009247\u200925', '11.222.333\u20090001-81', 'joao\u2009@\u2009gmail.com']) {
      expect(removerContatos(comoSeLe(texto)), texto).toMatch(/^(?:Ligue |Tel\.: |CPF |Ana )?\[removido\]$/);
    }
  });

  it('is applied to the description, entities included', () => {
    expect(htmlParaTexto('<p>Ligue 98765&thinsp;4321&nbsp;hoje</p>')).toBe('Ligue 98765 4321 hoje');
  });
});

describe('aparado', () => {
  it('trims and turns empty text into null', () => {
    expect(aparado('  Casa ')).toBe('Casa');
    expect(aparado('   ')).toBeNull();
    expect(aparado(null)).toBeNull();
  });
});
