// Rich-text HTML to plain text on htmlparser2's event stream: the layout of html-to-text (with
// the options of htmlParaTextoCompleto below), without its DOM, selector engine and
// regular-expression whitespace processor, which made it the most expensive step of the mapping. Markup outside the subset an
// editor produces (tables, <pre>, <body>) goes to html-to-text itself, so every input keeps
// exactly the text it had; html-texto.test.ts compares the two.
import { compile, type DomNode, type FormatCallback } from 'html-to-text';
import type { TablePrinterCell } from 'html-to-text/lib/block-text-builder.js';
import { Parser } from 'htmlparser2';

/**
 * HTML whose layout would cost far more than its size (a table too large, nesting too deep): no
 * text a partner can read, so a bad value, made `null` (texto.ts).
 */
export class HtmlIntratavel extends Error {
  override readonly name = 'HtmlIntratavel';
}

/**
 * The most rows or columns of a table laid out as a grid: html-to-text's layout costs the square
 * of it. No table in a listing's description comes near.
 */
export const LADO_MAXIMO_TABELA = 1_000;
/** HTML's own limit to a cell's colspan. */
const COLSPAN_MAXIMO = 1_000;
/**
 * The most characters the tables of one text may be laid out in, by the upper bound below (a
 * table nested in another counts in both, as its text is copied into both): html-to-text pads
 * every line of a table to its columns, so 45 KB of a wide table with one tall cell gave 32 million.
 */
const TEXTO_MAXIMO_DAS_TABELAS = 4 << 20;
/**
 * The deepest nesting html-to-text is given (open elements, closed or not): it recurses on each
 * level (20,000 nested tags overflowed its stack), and htmlparser2 reads nested tables in time
 * that grows with the depth.
 */
export const PROFUNDIDADE_MAXIMA = 500;
/**
 * The deepest nesting read at all: htmlparser2 moves its whole stack of open elements at each
 * tag, so 160,000 nested `<b>` (480 KB) took 7 s. Sloppy markup nests unclosed tags, but not this deep.
 */
export const PROFUNDIDADE_MAXIMA_SEM_LAYOUT = 5_000;

/** What this text's tables may still be laid out in: set before each conversion (it is synchronous). */
let textoRestanteDasTabelas = TEXTO_MAXIMO_DAS_TABELAS;

const ehTag = (no: DomNode, ...nomes: string[]): boolean => no.type === 'tag' && nomes.includes(no.name ?? '');

/** A table's rows and their cells, as html-to-text's data-table layout finds them. */
function linhasDaTabela(no: DomNode, linhas: DomNode[][] = []): DomNode[][] {
  for (const filho of no.children) {
    if (ehTag(filho, 'thead', 'tbody', 'tfoot', 'center')) linhasDaTabela(filho, linhas);
    else if (ehTag(filho, 'tr')) linhas.push(filho.children.filter((celula) => ehTag(celula, 'td', 'th')));
  }
  return linhas;
}

/** A span as html-to-text reads it (`+valor || 1`), where that is a whole number of at least 1; else 1. */
function vao(valor: unknown): number {
  const n = Number(valor) || 1;
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * The spans of a table's cells made safe for html-to-text's layout, and its grid's width. That
 * layout recursed without end on a negative or fractional span and on a rowspan of 100,000, and
 * took seconds over a colspan of 40,000. Spans become whole numbers of at least 1, a colspan at
 * most HTML's 1,000 and a rowspan at most the rows left (as browsers read them).
 */
function larguraComVaosSeguros(linhas: readonly DomNode[][]): number {
  let largura = 0;
  let descidas = 0;
  for (const [j, celulas] of linhas.entries()) {
    let daLinha = 0;
    for (const celula of celulas) {
      const attribs = celula.attribs as Record<string, string>;
      const colspan = Math.min(vao(attribs['colspan']), COLSPAN_MAXIMO);
      const rowspan = Math.min(vao(attribs['rowspan']), linhas.length - j);
      if ('colspan' in attribs) attribs['colspan'] = String(colspan);
      if ('rowspan' in attribs) attribs['rowspan'] = String(rowspan);
      daLinha += colspan;
      // A cell spanning rows below pushes their cells right: at most its colspan, in every row.
      if (rowspan > 1) descidas += colspan;
    }
    largura = Math.max(largura, daLinha);
  }
  return largura + descidas;
}

/**
 * At most how many characters html-to-text lays these cells out in: every line of every row,
 * padded to the columns' width. A column is as wide as its widest cell and three spaces: the
 * columns together, at most as wide as every cell side by side, or as the widest cell times their count.
 */
function textoDaGrade(linhas: readonly TablePrinterCell[][], colunas: number): number {
  let altura = 0;
  let celulaMaisLarga = 0;
  let celulasLadoALado = 0;
  for (const celulas of linhas) {
    let daLinha = 1;
    for (const { text } of celulas) {
      const partes = text.split('\n');
      daLinha = Math.max(daLinha, partes.length);
      let largura = 0;
      for (const parte of partes) largura = Math.max(largura, parte.length);
      celulaMaisLarga = Math.max(celulaMaisLarga, largura);
      celulasLadoALado += largura + 3;
    }
    altura += daLinha;
  }
  // Every column's offset is at least one past the one before, however empty (a span of 999
  // empty columns pushes the next cell 999 along): a column more each.
  return altura * Math.min(celulasLadoALado + colunas, colunas * (celulaMaisLarga + 3));
}

/**
 * html-to-text's data table, bounded: spans made safe, a grid past {@link LADO_MAXIMO_TABELA}
 * refused, and the text it would be laid out in counted, once its cells are, against
 * {@link TEXTO_MAXIMO_DAS_TABELAS} (a nested table's counts within its cell's and on its own).
 * Past either: {@link HtmlIntratavel}.
 */
const tabela: FormatCallback = (elem, walk, builder, opcoes) => {
  const linhas = linhasDaTabela(elem);
  const colunas = larguraComVaosSeguros(linhas);
  if (linhas.length > LADO_MAXIMO_TABELA || colunas > LADO_MAXIMO_TABELA) {
    throw new HtmlIntratavel(`uma tabela de ${linhas.length} linhas e até ${colunas} colunas`);
  }
  // The layout itself is html-to-text's, past its cells: counted as it is asked for. Through the
  // builder's own method: a table inside a cell finds this one's in its place, counting it again.
  const anterior = builder.closeTable;
  const fecharTabela = (Object.getPrototypeOf(builder) as typeof builder).closeTable;
  builder.closeTable = (fechamento) =>
    fecharTabela.call(builder, {
      ...fechamento!,
      tableToString: (celulas) => {
        textoRestanteDasTabelas -= textoDaGrade(celulas, colunas);
        if (textoRestanteDasTabelas < 0) throw new HtmlIntratavel('tabelas que formariam um texto grande demais');
        return fechamento!.tableToString(celulas);
      },
    });
  try {
    builder.options.formatters['dataTable']!(elem, walk, builder, opcoes);
  } finally {
    builder.closeTable = anterior;
  }
};

/** html-to-text with our options: the layout's source of truth, and what lays out the markup the fast path does not. */
export function htmlParaTextoCompleto(html: string): string {
  textoRestanteDasTabelas = TEXTO_MAXIMO_DAS_TABELAS;
  return converterCompleto(html);
}

const converterCompleto = compile({
  wordwrap: false,
  // html-to-text's default reads a zero-width space as one; a reader sees nothing there, and
  // texto.ts drops it, with the other invisible characters (`9876&#8203;5-4321` is a number).
  whitespaceCharacters: ' \t\r\n\f',
  // The source is HTML from a rich-text editor: a raw newline there is whitespace, line breaks come from tags.
  preserveNewlines: false,
  // The whole text, not only a <body>'s (html-to-text's default): a description pasted with a
  // <body> after some of its text lost that text. A <title> is no part of what a page shows, nor
  // is Word's <xml> island of document properties (its author among them); a <head> is not
  // skipped whole, since htmlparser2 leaves one not closed open over the text.
  baseElements: { selectors: [], returnDomByDefault: true },
  // The fast path refuses deeper HTML before this sees it; this bounds this on its own.
  limits: { maxDepth: PROFUNDIDADE_MAXIMA, ellipsis: '' },
  formatters: { tabela },
  selectors: [
    { selector: 'title', format: 'skip' },
    { selector: 'xml', format: 'skip' },
    // Link targets and image addresses are not shown text, and a `mailto:`/`tel:` target is a contact.
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    // Headings keep the agent's casing instead of html-to-text's upper-case default.
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'tabela', options: { uppercaseHeaderCells: false } },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    // The contract wants tags removed and block ends as line breaks, never text of our own:
    // ordered lists like the others (no right-aligned numbers), quotes without '> ', a rule
    // without a line of dashes.
    { selector: 'ol', format: 'unorderedList', options: { itemPrefix: '- ' } },
    { selector: 'blockquote', format: 'block', options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: 'hr', format: 'block', options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    // Block elements html-to-text reads as inline ("<dd>a</dd><dd>b</dd>" gave "ab"), and a list
    // item an editor left outside its list.
    ...['li', 'dl', 'dt', 'dd', 'address', 'figure', 'figcaption', 'details', 'summary', 'fieldset', 'legend'].map((selector) => ({
      selector,
      format: 'block',
      options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
    })),
  ],
});

/** html-to-text truncates longer input; such input goes to it. */
const TAMANHO_MAXIMO = 1 << 24;
const PREFIXO_ITEM = '- ';

/** Whitespace as laid out above: space, tab, CR, LF and form feed (not NBSP). */
function ehEspaco(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;
}

function temPalavra(texto: string): boolean {
  for (let i = 0; i < texto.length; i++) if (!ehEspaco(texto.charCodeAt(i))) return true;
  return false;
}

/** Non-empty, no whitespace at either end, and no whitespace between words but single spaces. */
function textoLimpo(texto: string): boolean {
  const n = texto.length;
  if (ehEspaco(texto.charCodeAt(0)) || ehEspaco(texto.charCodeAt(n - 1))) return false;
  for (let i = 1; i < n - 1; i++) {
    const c = texto.charCodeAt(i);
    if (c === 0x20) {
      if (texto.charCodeAt(i + 1) === 0x20) return false;
    } else if (ehEspaco(c)) {
      return false;
    }
  }
  return true;
}

/**
 * A block being built (html-to-text's BlockStackItem with its InlineTextBuilder): finished text of
 * closed child blocks, then the lines of inline words since. Without word wrap, a line is a string.
 */
class Bloco {
  /** Text of the child blocks added so far (html-to-text's rawText). */
  bruto = '';
  /** Finished inline lines, each followed by '\n'. */
  linhas = '';
  /** The inline line being built: words joined by one space. */
  linha = '';
  /** Line breaks owed to the previous block, paid when words follow. */
  quebrasPendentes = 0;
  /** The last inline text ended in whitespace: the next word is a new word. */
  espacoPendente = false;

  readonly anterior: Bloco | null;
  quebrasIniciais: number;

  constructor(anterior: Bloco | null, quebrasIniciais: number) {
    this.anterior = anterior;
    this.quebrasIniciais = quebrasIniciais;
  }

  conteudo(): string {
    return this.bruto + this.linhas + this.linha;
  }

  novaLinha(n: number): void {
    this.linhas += n > 1 ? this.linha + '\n'.repeat(n) : this.linha + '\n';
    this.linha = '';
  }

  /** html-to-text's addText: a finished child block (or list item) joins this block. */
  adicionar(texto: string, iniciais: number, finais: number): void {
    const atual = this.conteudo();
    const quebras = Math.max(this.quebrasPendentes, iniciais);
    this.linhas = '';
    this.linha = '';
    if (atual !== '') {
      this.bruto = atual + '\n'.repeat(quebras) + texto;
    } else {
      this.bruto = texto;
      this.quebrasIniciais = quebras;
    }
    this.quebrasPendentes = finais;
  }

  /** html-to-text's addInline and shrinkWrapAdd: whitespace runs become one space between words. */
  inline(texto: string): void {
    const n = texto.length;
    if (n === 0) return;
    if (this.quebrasPendentes !== 0) {
      if (!temPalavra(texto)) return;
      this.novaLinha(this.quebrasPendentes);
    }
    const espacoAntes = this.espacoPendente;
    if (textoLimpo(texto)) {
      // Words already split by single spaces, no whitespace at either end: the text is its words.
      this.linha = this.linha === '' || !espacoAntes ? this.linha + texto : `${this.linha} ${texto}`;
      this.espacoPendente = false;
      this.quebrasPendentes = 0;
      return;
    }
    let linha = this.linha;
    let nenhuma = true;
    let i = 0;
    while (i < n) {
      while (i < n && ehEspaco(texto.charCodeAt(i))) i++;
      if (i === n) break;
      const inicio = i;
      while (i < n && !ehEspaco(texto.charCodeAt(i))) i++;
      const palavra = inicio === 0 && i === n ? texto : texto.slice(inicio, i);
      // The first word is glued to the previous one unless whitespace separates them.
      if (linha === '' || (nenhuma && !espacoAntes && inicio === 0)) linha += palavra;
      else linha += ' ' + palavra;
      nenhuma = false;
    }
    this.linha = linha;
    this.espacoPendente = (espacoAntes && nenhuma) || ehEspaco(texto.charCodeAt(n - 1));
    this.quebrasPendentes = 0;
  }
}

interface ItemDeLista {
  li: boolean;
  texto: string;
  quebrasIniciais: number;
  quebrasFinais: number;
}

interface Lista {
  /** A list inside a list item gets single line breaks around it. */
  aninhada: boolean;
  itens: ItemDeLista[];
}

const INLINE = 0;
const BLOCO = 1;
const QUEBRA = 2;
const IGNORAR = 3;
const LISTA = 4;
const COMPLETO = 5;

interface Elemento {
  nome: string;
  tipo: number;
  quebrasFinais: number;
  /** This element is a direct child of a list, so it is one list item. */
  item: boolean;
  lista: Lista | null;
}

interface Formato {
  tipo: number;
  iniciais: number;
  finais: number;
}

const bloco = (iniciais: number, finais: number): Formato => ({ tipo: BLOCO, iniciais, finais });
const so = (tipo: number): Formato => ({ tipo, iniciais: 0, finais: 0 });

/** html-to-text's selectors with htmlParaTextoCompleto's options; any other element is inline. */
const FORMATOS: ReadonlyMap<string, Formato> = new Map([
  ['p', bloco(2, 2)],
  ['div', bloco(1, 1)],
  ['article', bloco(1, 1)],
  ['aside', bloco(1, 1)],
  ['footer', bloco(1, 1)],
  ['form', bloco(1, 1)],
  ['header', bloco(1, 1)],
  ['main', bloco(1, 1)],
  ['nav', bloco(1, 1)],
  ['section', bloco(1, 1)],
  ['h1', bloco(3, 2)],
  ['h2', bloco(3, 2)],
  ['h3', bloco(3, 2)],
  ['h4', bloco(2, 2)],
  ['h5', bloco(2, 2)],
  ['h6', bloco(2, 2)],
  ['blockquote', bloco(2, 2)],
  ['hr', bloco(2, 2)],
  ['li', bloco(1, 1)],
  ['dl', bloco(1, 1)],
  ['dt', bloco(1, 1)],
  ['dd', bloco(1, 1)],
  ['address', bloco(1, 1)],
  ['figure', bloco(1, 1)],
  ['figcaption', bloco(1, 1)],
  ['details', bloco(1, 1)],
  ['summary', bloco(1, 1)],
  ['fieldset', bloco(1, 1)],
  ['legend', bloco(1, 1)],
  ['br', so(QUEBRA)],
  ['ul', so(LISTA)],
  ['ol', so(LISTA)],
  // Images and a document's title are skipped; scripts and styles are no text nodes to html-to-text.
  ['img', so(IGNORAR)],
  ['script', so(IGNORAR)],
  ['style', so(IGNORAR)],
  ['table', so(COMPLETO)],
  ['pre', so(COMPLETO)],
  ['title', so(IGNORAR)],
  ['xml', so(IGNORAR)],
  // A whole document, laid out by html-to-text.
  ['html', so(COMPLETO)],
  ['body', so(COMPLETO)],
]);
const FORMATO_INLINE = so(INLINE);

/** A text node of only whitespace (JavaScript's \s, as html-to-text tests it) is no list item. */
const SO_ESPACO = /^\s*$/;

// The conversion is synchronous, so its state is the module's while it runs.
let raiz = new Bloco(null, 1);
let atual = raiz;
const pilha: Elemento[] = [];
let textoPendente = '';
let ignorando = 0;
/** Elements open, as htmlparser2 nests them (it closes each, implied ones too). */
let profundidade = 0;
let profundidadeMaxima = 0;
let completo = false;

function topo(): Elemento | undefined {
  return pilha[pilha.length - 1];
}

function abrirItem(): void {
  atual = new Bloco(atual, 1);
}

function fecharItem(lista: Lista, li: boolean): void {
  const item = atual;
  atual = item.anterior!;
  lista.itens.push({ li, texto: item.conteudo(), quebrasIniciais: item.quebrasIniciais, quebrasFinais: Math.max(item.quebrasPendentes, 1) });
}

/** html-to-text's formatList, openList, closeListItem and closeList, once all items are known. */
function fecharLista(lista: Lista): void {
  if (lista.itens.length === 0) return;
  const larguraPrefixo = lista.itens.some((item) => item.li) ? PREFIXO_ITEM.length : 0;
  const recuo = '\n' + ' '.repeat(larguraPrefixo);
  const blocoLista = new Bloco(atual, lista.aninhada ? 1 : 2);
  for (const item of lista.itens) {
    const prefixo = (item.li ? PREFIXO_ITEM : '').padEnd(larguraPrefixo);
    const texto = prefixo + (larguraPrefixo === 0 ? item.texto : item.texto.replaceAll('\n', recuo));
    blocoLista.adicionar(texto, item.quebrasIniciais, Math.max(item.quebrasFinais, 1));
  }
  const texto = blocoLista.conteudo();
  if (texto !== '') atual.adicionar(texto, blocoLista.quebrasIniciais, lista.aninhada ? 1 : 2);
}

/** A DOM text node ends at any other node: adjacent text events are one node. */
function descarregarTexto(): void {
  if (textoPendente === '') return;
  const texto = textoPendente;
  textoPendente = '';
  const pai = topo();
  if (pai?.tipo === LISTA) {
    if (SO_ESPACO.test(texto)) return;
    abrirItem();
    atual.inline(texto);
    fecharItem(pai.lista!, false);
  } else {
    atual.inline(texto);
  }
}

/** A comment or a declaration: no text, but a list item of its own directly inside a list. */
function outroNo(): void {
  descarregarTexto();
  if (completo || ignorando > 0) return;
  const pai = topo();
  if (pai?.tipo === LISTA) {
    abrirItem();
    fecharItem(pai.lista!, false);
  }
}

const eventos: ConstructorParameters<typeof Parser>[0] = {
  ontext(texto) {
    if (!completo && ignorando === 0) textoPendente += texto;
  },
  onopentag(nome) {
    // Past the limit: html-to-text's once it is to lay the text out (at once: nested tables cost
    // htmlparser2 more at each level; or at the end, when it comes to be), else the parser's.
    profundidadeMaxima = Math.max(profundidadeMaxima, ++profundidade);
    const limite = completo ? PROFUNDIDADE_MAXIMA : PROFUNDIDADE_MAXIMA_SEM_LAYOUT;
    if (profundidadeMaxima > limite) throw new HtmlIntratavel(`elementos aninhados além de ${limite} níveis`);
    descarregarTexto();
    if (completo) return;
    const pai = topo();
    if (ignorando > 0) {
      ignorando++;
      pilha.push({ nome, tipo: IGNORAR, quebrasFinais: 0, item: false, lista: null });
      return;
    }
    const formato = FORMATOS.get(nome) ?? FORMATO_INLINE;
    const item = pai?.tipo === LISTA;
    if (item) abrirItem();
    let lista: Lista | null = null;
    switch (formato.tipo) {
      case BLOCO:
        atual = new Bloco(atual, formato.iniciais);
        break;
      case QUEBRA:
        atual.novaLinha(1);
        break;
      case IGNORAR:
        ignorando++;
        break;
      case LISTA:
        lista = { aninhada: pai?.nome === 'li', itens: [] };
        break;
      case COMPLETO:
        completo = true;
        return;
    }
    pilha.push({ nome, tipo: formato.tipo, quebrasFinais: formato.finais, item, lista });
  },
  onclosetag(nome) {
    profundidade--;
    descarregarTexto();
    // HTML cut inside a tag (`<a href="`): the parser closes a tag it never reported open.
    if (completo || topo()?.nome !== nome) return;
    const elemento = pilha.pop()!;
    switch (elemento.tipo) {
      case BLOCO: {
        const filho = atual;
        atual = filho.anterior!;
        atual.adicionar(filho.conteudo(), filho.quebrasIniciais, Math.max(filho.quebrasPendentes, elemento.quebrasFinais));
        break;
      }
      case IGNORAR:
        ignorando--;
        break;
      case LISTA:
        fecharLista(elemento.lista!);
        break;
    }
    if (elemento.item) fecharItem(topo()!.lista!, elemento.nome === 'li');
  },
  oncomment: outroNo,
  onprocessinginstruction: outroNo,
};

/**
 * The text htmlParaTextoCompleto gives for `html`, before texto.ts tidies it:
 * the same layout, computed on the parser's events.
 */
export function htmlParaTextoBruto(html: string): string {
  if (html.length > TAMANHO_MAXIMO) return htmlParaTextoCompleto(html);
  raiz = new Bloco(null, 1);
  atual = raiz;
  pilha.length = 0;
  textoPendente = '';
  ignorando = 0;
  profundidade = 0;
  profundidadeMaxima = 0;
  completo = false;
  try {
    // A new parser each time: htmlparser2's reset() leaves the tokenizer inside an unclosed <script> (8; 10 then throws).
    new Parser(eventos, { decodeEntities: true }).end(html);
    descarregarTexto();
  } finally {
    pilha.length = 0;
    textoPendente = '';
  }
  if (!completo) return raiz.conteudo();
  if (profundidadeMaxima > PROFUNDIDADE_MAXIMA) throw new HtmlIntratavel(`elementos aninhados além de ${PROFUNDIDADE_MAXIMA} níveis`);
  return htmlParaTextoCompleto(html);
}
