import { describe, expect, it } from 'vitest';
import { htmlParaTextoBruto, htmlParaTextoCompleto } from './html-texto.ts';
import { comoSeLe, htmlParaTexto } from './texto.ts';

const CASOS = [
  '',
  '   ',
  'texto solto',
  '<p><strong>Sala</strong> &amp; cozinha &eacute; &#233;&nbsp;ampla &lt;3</p>',
  '<p>Primeira<br>segunda</p><p>Terceira</p><ul><li>Um</li><li>Dois</li></ul>',
  '<div>Um</div><div>Dois</div><h2>Lazer</h2>texto',
  'a<br><br><br><br>b<p>&nbsp;</p><p> </p><p>c</p>',
  'linha\ncontinua',
  '  <p>  texto  </p>  <br>',
  '<p></p><br>  ',
  '<a href="mailto:dono@exemplo.com">Fale conosco</a> <img src="https://x/y.jpg" alt="foto">',
  '<style>p{color:red}</style><script>alert(1)</script><p>ok</p>',
  'x<ul><li>a</li></ul>y',
  '<ul><li>a<br>b</li><li><p>c</p><p>d</p></li></ul>',
  '<ul><li>a<ul><li>b</li><li>c<ul><li>d</li></ul></li></ul></li><li>e</li></ul>fim',
  '<ul>solto<li>a</li> <!-- c --> <li>b</li>\n<p>p</p><script>x</script><img src=x></ul>',
  '<ul>só texto</ul><ul>  </ul><ul></ul><ul><!-- só comentário --></ul>',
  '<ul><ul><li>a</li></ul></ul>',
  '<li>fora de lista</li><li>outro',
  '<p>a<p>b<div>c</div>d</p>e</p>f',
  '</p>x</br>y</div>z',
  'a<b>b</b> <i>c</i><span> d </span>e<u>f</u>',
  'a<!-- comentário -->b <!doctype html> c<?xml x?>d<![CDATA[e]]>f',
  '<h1>T1</h1><h4>T4</h4><h6>T6</h6><section>s</section><article>a</article><nav>n</nav>',
  '<p>&nbsp;&nbsp;</p><p>a&nbsp; b &nbsp;c</p>\u200b<p>\u200bx\u200b</p>',
  // Cut inside a tag, as a text truncated at a column limit is.
  '<p>texto <span class="',
  '<a href="',
  '<a ',
  '<ul><li>um<li>dois <i x',
  '<p>a</p><img src="x',
  '<p>tab\tcr\r\nff\fend</p>',
  '<div><p>aninhado</p></div><div><div>duplo</div></div>',
  '<p>sem fechar<div>bloco<span>inline',
  'a<wbr>b <wbr> c',
  '<P>MAIÚSCULAS</P><BR><UL><LI>item</LI></UL>',
  '<br>',
  '<ul><li></li><li> </li></ul>',
  '<ul><li>a</li></ul><ul><li>b</li></ul>',
  '<p>a</p><br>b',
  '<p>a</p><br><br>',
  '&amp &lt &copy; &#x41; &#65; &unknown; &',
  '<a>link sem href</a><a href="#ancora">âncora</a>',
  '<title>título</title><textarea>área <b>x</b></textarea>',
  '<xml><o:DocumentProperties><o:Author>Renata Vieira</o:Author></o:DocumentProperties></xml><p>Sala</p>',
  // Elements our html-to-text options format their own way.
  '<ol><li>um</li><li>dois</li></ol>',
  '<blockquote>citação</blockquote><hr>',
  '<blockquote>citação</blockquote>x<hr>y<ol><li>um<ul><li>dois</li></ul></li></ol>',
  '<dl><dt>Área</dt><dd>120 m²</dd></dl><address>a</address>b<figure>c<figcaption>d</figcaption></figure>',
];

/** Markup outside the fast path's subset, which html-to-text lays out itself: what a partner gets. */
const FORA_DO_SUBCONJUNTO: [string, string][] = [
  ['<p>antes</p><table><tr><td>Área</td><td>120 m²</td></tr><tr><td>Vagas</td><td>2</td></tr></table><p>depois</p>', 'antes\n\nÁrea    120 m²\nVagas   2\n\ndepois'],
  ['<blockquote>citação</blockquote><pre>  pre\n  formatado</pre><hr>', 'citação\n\n  pre\n  formatado'],
  ['<html><head><title>x</title></head><body><p>corpo</p></body></html>', 'corpo'],
  // Text outside a <body> or an <html> is text all the same, and a <title> no text a page shows
  // (rules version 17); a <head> left open holds the rest of the text.
  ['<p>Apartamento com 3 quartos.</p><body><p>Aceita pet.</p></body>', 'Apartamento com 3 quartos.\n\nAceita pet.'],
  ['<p>Sala</p><html><p>Cozinha</p></html><p>Quintal</p>', 'Sala\n\nCozinha\n\nQuintal'],
  ['<head><meta charset="utf-8"><title>x</title><style>p{}</style></head><p>Sala</p>', 'Sala'],
  ['<head><meta charset="utf-8"><p>Sala ampla</p>', 'Sala ampla'],
  ['<html><head><title>x</title><p>Sala</p></html>', 'Sala'],
  ['<p>Sala <head>cozinha</head> quintal</p>', 'Sala cozinha quintal'],
  // Word's document properties, outside the conditional comment it usually puts them in.
  ['<html><head><xml><o:DocumentProperties><o:Author>Renata Vieira</o:Author></o:DocumentProperties></xml></head><body><p>Sala</p></body></html>', 'Sala'],
];

/** A deterministic pseudo-random generator (mulberry32), so failures reproduce. */
function aleatorio(semente: number): () => number {
  let a = semente;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TAGS = ['p', 'div', 'span', 'strong', 'b', 'em', 'ul', 'ol', 'li', 'br', 'h2', 'h5', 'a', 'img', 'section', 'u', 'wbr', 'script', 'dd', 'blockquote', 'hr', 'figcaption'];
const PEDACOS = ['\u2003', '\ufeff', '\u000b', '\r\n', 'Sala', ' ampla', 'e ', '  ', '\n', '&nbsp;', '&amp;', '&eacute;', 'x\ty', '\u200b', 'Área 120m²', '<!-- c -->', ' ', '9876-5432'];

function htmlAleatorio(sorteio: () => number): string {
  let html = '';
  const n = 1 + Math.floor(sorteio() * 25);
  for (let i = 0; i < n; i++) {
    const r = sorteio();
    const tag = TAGS[Math.floor(sorteio() * TAGS.length)]!;
    if (r < 0.35) html += `<${tag}>`;
    else if (r < 0.6) html += `</${tag}>`;
    else html += PEDACOS[Math.floor(sorteio() * PEDACOS.length)]!;
  }
  return html;
}

describe('htmlParaTextoBruto', () => {
  it.each(CASOS)('gives the text html-to-text gives for %j', (html) => {
    expect(htmlParaTextoBruto(html)).toBe(htmlParaTextoCompleto(html));
  });

  it.each(FORA_DO_SUBCONJUNTO)('hands %j to html-to-text', (html, texto) => {
    expect(htmlParaTexto(html)).toBe(texto);
  });

  it('gives the text html-to-text gives for random tag soup', () => {
    const sorteio = aleatorio(20_261_120);
    for (let i = 0; i < 20_000; i++) {
      const inteiro = htmlAleatorio(sorteio);
      // Every other one cut anywhere, inside a tag too.
      const html = i % 2 === 0 ? inteiro : inteiro.slice(0, Math.floor(sorteio() * inteiro.length));
      expect(htmlParaTextoBruto(html), html).toBe(htmlParaTextoCompleto(html));
    }
  });
});

describe('htmlParaTexto', () => {
  // The tidying as first written, over html-to-text's own output as a reader reads it; an empty
  // list item's `- ` dropped (rules version 11).
  function referencia(html: string): string | null {
    const linhas = comoSeLe(htmlParaTextoCompleto(html))
      .split(/\r?\n/)
      .map((linha) => linha.trimEnd())
      .filter((linha) => !/^\s*-(?:\s+-)*$/.test(linha));
    const resultado: string[] = [];
    for (const linha of linhas) {
      if (linha === '' && resultado.length > 0 && resultado[resultado.length - 1] === '') continue;
      resultado.push(linha);
    }
    const texto = resultado.join('\n').trim();
    return texto === '' ? null : texto;
  }

  it.each(CASOS)('gives the tidied html-to-text text for %j', (html) => {
    expect(htmlParaTexto(html)).toBe(referencia(html));
  });

  it('gives the tidied html-to-text text for random tag soup', () => {
    const sorteio = aleatorio(7);
    for (let i = 0; i < 20_000; i++) {
      const html = htmlAleatorio(sorteio);
      expect(htmlParaTexto(html), html).toBe(referencia(html));
    }
  });

  it('gives the tidied html-to-text text for <pre> with CR LF and odd whitespace', () => {
    for (const html of ['<pre>a \r\n\r\n\r\nb\u2003\r\n</pre>c', '<pre>\r\n x\ufeff\n\n\n\ry</pre>']) {
      expect(htmlParaTexto(html)).toBe(referencia(html));
    }
  });
});
