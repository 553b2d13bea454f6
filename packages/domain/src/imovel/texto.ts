// Free text from the register as partners read it: rich-text HTML to plain text, invisible
// characters dropped, styled letters and digits read as the plain ones.
import { HtmlIntratavel, htmlParaTextoBruto } from './html-texto.ts';

/**
 * `descricao_html` as plain text: tags removed, entities decoded, `<br>` and block ends as line
 * breaks, at most one blank line in a row, trimmed; `null` when nothing is left.
 * The HTML is parsed by htmlparser2 and laid out as html-to-text does (html-texto.ts); only that
 * plain-text output is tidied here.
 *
 * HTML that cannot be laid out within bounds (a table too large, nesting too deep; or a string
 * or stack html-to-text overflows some way html-texto.ts does not foresee) is a bad value, `null`
 * as the contract says: the event that carries it is applied, never sent to the dead letters for
 * its description.
 */
export function htmlParaTexto(html: string | null): string | null {
  if (html === null) return null;
  let semTags: string;
  try {
    semTags = htmlParaTextoBruto(html);
  } catch (erro) {
    if (erro instanceof HtmlIntratavel || (erro instanceof RangeError && /call stack|string length/i.test(erro.message))) return null;
    throw erro;
  }
  const bruto = comoSeLe(semTags);
  const texto = bruto.includes('\r') ? arrumarLinhasComCr(bruto) : arrumarLinhas(bruto);
  return texto === '' ? null : texto;
}

/**
 * Free text as a reader reads it, which is how the contact patterns and the masking of private
 * values must read it: without what is invisible, styled letters and digits as the plain ones,
 * spaces, dashes and dots of other widths as the common ones.
 */
export function comoSeLe(texto: string): string {
  return comSeparadoresSimples(semInvisiveis(semEstilo(texto)));
}

/**
 * What separates the groups of a number or the words of a name, in the form the patterns know:
 * Unicode's other spaces (no-break, thin, narrow no-break, figure, ideographic…) and the blank
 * Braille pattern, which shows as one, as a space;
 * the minus sign, the horizontal bar and other dashes as `-`; the one dot leader and the small
 * full stop as `.`; the hyphenation point and the katakana middle dot as `·`; the division and
 * fraction slashes as `/`. A reader sees the same, and `97777\u20091234` hid a telephone number
 * (and the owner's CPF) from the patterns that find `97777 1234`. U+2010–U+2014 stay as typed:
 * the patterns know them.
 */
const SIMPLES: Record<string, string> = {};
for (const c of '\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u2800\u3000') SIMPLES[c] = ' ';
for (const c of '\u02d7\u2015\u2043\u2212\u2796\u2e3a\u2e3b\ufe58\ufe63') SIMPLES[c] = '-';
for (const c of '\u2024\ufe52') SIMPLES[c] = '.';
for (const c of '\u0387\u2027\u30fb\uff65') SIMPLES[c] = '\u00b7';
for (const c of '\u2044\u2215\u29f8') SIMPLES[c] = '/';
const SEPARADOR_INCOMUM = new RegExp(`[${Object.keys(SIMPLES).join('')}]`, 'g');
const TALVEZ_SEPARADOR_INCOMUM = new RegExp(SEPARADOR_INCOMUM.source);
const separadorSimples = (c: string): string => SIMPLES[c]!;

function comSeparadoresSimples(texto: string): string {
  return TALVEZ_SEPARADOR_INCOMUM.test(texto) ? texto.replace(SEPARADOR_INCOMUM, separadorSimples) : texto;
}

/**
 * Letters and digits in a style of their own, read as the plain ones: the full-width forms
 * (`９８７６５`, `＠`, `．`), the mathematical bold, italic, script… alphabets that "fancy letter"
 * generators paste from social networks (`𝐋𝐢𝐠𝐮𝐞 𝟏𝟏 𝟗𝟖𝟕𝟔𝟓-𝟒𝟑𝟐𝟏`), the segmented digits (`🯹🯸`) and
 * the Latin ligatures (`ﬁ`) always; any character without the underline or strike-through marks
 * drawn on it, and a digit without any (`9̲8̲-̲`, `9̶8̶`, `9⃝`), but a keycap's; circled, parenthesised and keycap digits and letters (`①①`, `❾❽`, `Ⓙⓞⓐⓞ`, `1️⃣1️⃣`)
 * and superscript or subscript digits (`⁹⁸⁷⁶⁵⁻⁴³²¹`, `₉₈₇₆₅₋₄₃₂₁`) in a row, as a number or a word
 * is typed (emFileira; four of the small ones). Typed to slip past filters as often as for looks, they
 * hid a telephone number or a name from the patterns while partners read it. One alone is a bullet
 * or an emoji and stays (`① 3 quartos`, `🅿️ 2 vagas`, `1️⃣ Sala`, `m²`); so do styled Greek letters.
 */
const ESTILIZADO = /[\ufb00-\ufb06\uff01-\uff5e\u{1d400}-\u{1d7ff}\u{1fbf0}-\u{1fbf9}]/gu;
/** Circled, parenthesised and squared digits and letters (`①`, `❾`, `⑴`, `Ⓐ`, `🅰`). */
const CIRCULADO = String.raw`[\u2460-\u24ff\u2776-\u2793\u{1f100}-\u{1f18f}]`;
/** One sign: a circled one (as an emoji too), or a keycap digit (`1️⃣`). */
const ENVOLTO = String.raw`(?:${CIRCULADO}\ufe0f?|[0-9]\ufe0f?\u20e3)`;
/** Signs one after another, side by side or a space, dot, dash or bullet apart (`9️⃣ 8️⃣7️⃣ – 6️⃣5️⃣`). */
const ENVOLTOS_SEGUIDOS = new RegExp(String.raw`${ENVOLTO}(?:[ \t\u00a0]{0,2}(?:[.*\-\u2010-\u2014\u2022\u00b7][ \t\u00a0]{0,2})?${ENVOLTO})+`, 'gu');
const UM_ENVOLTO = new RegExp(ENVOLTO, 'gu');
const TALVEZ_ENVOLTO = new RegExp(String.raw`${CIRCULADO}|\u20e3`, 'u');
const DOIS_LADO_A_LADO = new RegExp(String.raw`${ENVOLTO}{2}`, 'u');
const APRESENTACAO = /\ufe0f|\u20e3/gu;
/** Signs one after another make a number or a word when two stand side by side, or five in all; fewer apart are bullets. */
const emFileira = (seguidos: string): boolean => DOIS_LADO_A_LADO.test(seguidos) || seguidos.match(UM_ENVOLTO)!.length >= 5;
const SOBRESCRITO = String.raw`[\u00b2\u00b3\u00b9\u2070\u2074-\u2079]`;
const SUBSCRITO = String.raw`[\u2080-\u2089]`;
/** Four superscript digits or more one after another, a space, dash or dot apart at most (`⁹⁸⁷ ⁶⁵⁴ ³²¹`); or subscript ones. */
const PEQUENOS = new RegExp(
  String.raw`${SOBRESCRITO}(?:[ \t\u00a0]?[\u207b.-]?[ \t\u00a0]?${SOBRESCRITO}){3,}|${SUBSCRITO}(?:[ \t\u00a0]?[\u208b.-]?[ \t\u00a0]?${SUBSCRITO}){3,}`,
  'gu',
);
/**
 * The underline and strike-through marks generators put after every character, spaces and dashes
 * included (`9̶8̶-̶4̶`), on any character; any other mark only on a digit, and not the emoji and
 * keycap ones. Marks that carry meaning stay: the slash of `≠` typed decomposed, the prohibition
 * overlay of `🐕⃠`, an overline.
 */
const DECORACAO = String.raw`[\u0332\u0333\u0335\u0336]`;
const MARCAS_DE_DECORACAO = new RegExp(String.raw`${DECORACAO}|(?<=[0-9])(?:(?![\ufe0e\ufe0f\u20e3])\p{M})+`, 'gu');
const TALVEZ_MARCA = new RegExp(String.raw`${DECORACAO}|[0-9]\p{M}`, 'u');
export function semEstilo(texto: string): string {
  let simplificado = texto.replace(ESTILIZADO, simples);
  if (TALVEZ_MARCA.test(simplificado)) simplificado = simplificado.replace(MARCAS_DE_DECORACAO, '');
  if (TALVEZ_ENVOLTO.test(simplificado)) {
    // Each sign of a row without its emoji and keycap marks, then as the plain character.
    simplificado = simplificado.replace(ENVOLTOS_SEGUIDOS, (seguidos) =>
      emFileira(seguidos) ? seguidos.replace(UM_ENVOLTO, (sinal) => simples(sinal.replace(APRESENTACAO, ''))) : seguidos,
    );
  }
  return simplificado.replace(PEQUENOS, (pequenos) => pequenos.replace(/[\u207b\u208b]/g, '-').normalize('NFKC'));
}

/** The plain ASCII a styled character stands for (Unicode's compatibility form, or the sign's own number), else the character. */
function simples(c: string): string {
  const p = c.codePointAt(0)!;
  // Dingbats and enclosed numbers Unicode gives no compatibility form: ❶–❿, ➀–➉, ➊–➓, ⓫–⓴, ⓵–⓾, ⓿.
  if (p >= 0x2776 && p <= 0x2793) return String(((p - 0x2776) % 10) + 1);
  if (p >= 0x24eb && p <= 0x24f4) return String(p - 0x24eb + 11);
  if (p >= 0x24f5 && p <= 0x24fe) return String(p - 0x24f5 + 1);
  if (p === 0x24ff) return '0';
  // Negative circled and squared capitals: 🅐–🅩, 🅰–🆉.
  if (p >= 0x1f150 && p <= 0x1f189 && (p - 0x1f150) % 0x20 < 26) return String.fromCharCode(0x41 + ((p - 0x1f150) % 0x20));
  const forma = c.normalize('NFKC');
  return ASCII_VISIVEL.test(forma) ? forma : c;
}
const ASCII_VISIVEL = /^[\x21-\x7e]+$/;

/**
 * Characters a reader does not see (Unicode's default-ignorable ones: the soft hyphen, zero-width
 * space, word joiner, BOM, direction marks, variation selectors…), but for the joiners and
 * variation selectors between emoji, where they make one picture of several, and the one of a
 * keycap (`1️⃣`: a digit, U+FE0F, U+20E3). Typed or pasted inside a telephone number, an e-mail
 * address or a name, they would hide it from the contact patterns (contatos.ts) and the masking of
 * private values (mascara-de-privados.ts) while partners still read it.
 */
const JUNTOR = String.raw`(?:\u200c|\u200d|\ufe0e|\ufe0f)`;
const INVISIVEL = new RegExp(String.raw`(?!${JUNTOR})\p{Default_Ignorable_Code_Point}|(?<=[0-9A-Za-z@.])(?:${JUNTOR}(?!\u20e3))+|${JUNTOR}+(?=[0-9A-Za-z@.])`, 'gu');
const TALVEZ_INVISIVEL = /\p{Default_Ignorable_Code_Point}/u;

/** `texto` without the characters a reader does not see (most texts have none: one scan). */
export function semInvisiveis(texto: string): string {
  return TALVEZ_INVISIVEL.test(texto) ? texto.replace(INVISIVEL, '') : texto;
}

/** JavaScript's whitespace (what `trimEnd` removes): the Zs spaces, tab, VT, FF, BOM and line ends. */
function ehEspacoJs(c: number): boolean {
  return c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Lines without trailing whitespace, at most one blank line in a row, the whole trimmed. A line
 * a reader sees nothing in (a lone joiner between paragraphs) is blank (decision 0015). The `- `
 * of a list item with nothing in it (`<li></li>`, `<li><br></li>`, as editors leave them), the one
 * text of our own, says nothing there: its line goes.
 */
function arrumarLinhas(texto: string): string {
  let resultado = '';
  let anteriorEmBranco = false;
  let inicio = 0;
  for (;;) {
    const quebra = texto.indexOf('\n', inicio);
    const fimDaLinha = quebra === -1 ? texto.length : quebra;
    let fim = fimDaLinha;
    while (fim > inicio && ehEspacoJs(texto.charCodeAt(fim - 1))) fim--;
    const emBranco = fim === inicio || linhaInvisivel(texto, inicio, fim);
    if (!(texto.charCodeAt(fim - 1) === 0x2d && itemVazio(texto.slice(inicio, fim)))) {
      const linha = emBranco ? '' : texto.slice(inicio, fim);
      if (resultado === '' && !anteriorEmBranco) resultado = linha;
      else if (!(emBranco && anteriorEmBranco)) resultado += '\n' + linha;
      anteriorEmBranco = emBranco;
    }
    if (quebra === -1) return resultado.trim();
    inicio = quebra + 1;
  }
}

/**
 * True when the line `texto[inicio, fim)`, not blank, holds only characters nobody sees. Their code
 * points are all past U+007F: a line whose first character past its indentation is ASCII shows.
 */
function linhaInvisivel(texto: string, inicio: number, fim: number): boolean {
  let i = inicio;
  while (i < fim && ehEspacoJs(texto.charCodeAt(i))) i++;
  return texto.charCodeAt(i) > 0x7f && nadaAVer(texto.slice(i, fim));
}

/** Only the prefixes of list items (`-`, `- -` for an empty item inside another), and whitespace. */
const ITEM_VAZIO = /^\s*-(?:\s+-)*$/;
const itemVazio = (linha: string): boolean => ITEM_VAZIO.test(linha);

/** arrumarLinhas for text that also has CR LF line ends (only html-to-text's <pre> keeps a CR). */
function arrumarLinhasComCr(texto: string): string {
  const resultado: string[] = [];
  for (const linha of texto.split(/\r?\n/).map((l) => (nadaAVer(l) ? '' : l.trimEnd()))) {
    if (itemVazio(linha) || (linha === '' && resultado.length > 0 && resultado[resultado.length - 1] === '')) continue;
    resultado.push(linha);
  }
  return resultado.join('\n').trim();
}

/** Whitespace and characters nobody sees, joiners included: a field of only these shows empty. */
const NADA_A_VER = /^[\s\p{Default_Ignorable_Code_Point}]*$/u;

/** True when a reader sees nothing in the text (`''`, `' '`, `'\u200b'`). */
export const nadaAVer = (texto: string): boolean => NADA_A_VER.test(texto);

/** Trimmed text, `null` when nothing in it shows. */
export function aparado(valor: string | null): string | null {
  const texto = valor?.trim() ?? '';
  return nadaAVer(texto) ? null : texto;
}
