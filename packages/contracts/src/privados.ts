// The register's private values as agents type them into a property's free text ("Proprietário
// Renata Santos Vieira", "CRECI-SP 123456-F"). The schema drops the private fields, and after it
// nothing knows them: this is the last place they can be found, so here they are masked.
import { decodeHTML } from 'entities';

/** What partners read where something private was: one marker for every kind. */
export const MARCADOR_REMOVIDO = '[removido]';

/** A letter or digit (lower case), next to which a value is part of another word. */
const LETRA_OU_DIGITO = /[0-9a-z\u00c0-\u024f]/;

/** Between a name's words: spaces of any kind (an editor's `&nbsp;` is one once decoded). */
const ENTRE_PALAVRAS = /\s/;
/** Between a code's parts: spaces, dashes (U+2010–U+2014 too), dots and slashes: "CRECI-SP", "CRECI SP". */
const ENTRE_PARTES = /[\s\-\u2010-\u2014./]/;

/** Words of a name that a person may leave out: "Ana Maria de Souza" is typed "Ana Maria Souza". */
const PARTICULAS = new Set(['de', 'da', 'do', 'das', 'dos', 'e']);

export interface ValoresPrivados {
  /** People: the owner's and the agent's names. */
  nomes: readonly unknown[];
  /** Codes: the agent's CRECI, the land-registry number. */
  codigos: readonly unknown[];
}

/** A way a private value is typed: its words in lower case, and what may stand between them. */
interface Forma {
  palavras: readonly string[];
  separador: RegExp;
}

/**
 * The ways the record's private values are typed: a person's name whole, without its particles,
 * or by its first and last words ("Renata Vieira"), not a one-word name (too likely an ordinary
 * word of the text); a code (CRECI, land-registry number), when it is long enough to be one, by
 * its letters and digits whatever separates them. Longer forms first, so a full name is masked whole.
 */
function formas({ nomes, codigos }: ValoresPrivados): Forma[] {
  const resultado: Forma[] = [];
  const nome = (palavras: string[]) => resultado.push({ palavras, separador: ENTRE_PALAVRAS });
  for (const valor of nomes) {
    const palavras = typeof valor === 'string' ? emMinusculas(valor.trim()).split(/\s+/) : [];
    if (palavras.length < 2) continue;
    nome(palavras);
    const semParticulas = palavras.filter((p) => !PARTICULAS.has(p));
    if (semParticulas.length >= 2 && semParticulas.length < palavras.length) nome(semParticulas);
    if (semParticulas.length > 2) nome([semParticulas[0]!, semParticulas.at(-1)!]);
  }
  for (const valor of codigos) {
    const aparado = typeof valor === 'string' ? valor.trim() : '';
    const partes = emMinusculas(aparado).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (aparado.length >= 5 && partes.length > 0) resultado.push({ palavras: partes, separador: ENTRE_PARTES });
  }
  const tamanho = (f: Forma) => f.palavras.reduce((soma, p) => soma + p.length, 0);
  return resultado.length < 2 ? resultado : resultado.sort((a, b) => tamanho(b) - tamanho(a));
}

/** Elements laid out inline: their tags do not part two words. */
const EM_LINHA = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'samp',
  'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
]);
/** A comment, a tag (its element's name captured), or what may be an entity. */
const MARCACAO = /<!--[\s\S]*?(?:-->|$)|<\/?([a-zA-Z][a-zA-Z0-9]*)[^>]*>|<[!?][^>]*>|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g;

/**
 * How a reader reads a piece of HTML markup: an entity as the characters it stands for
 * (`Jo&atilde;o`), a comment and the tags of inline elements as nothing (`Ana <b>Souza</b>`,
 * `Sou<!-- -->za`), other tags as a space (`Ana<br>Souza`). A name split so is still the name
 * partners read.
 */
function lerMarcacao(marcacao: string, elemento: string | undefined): string {
  if (marcacao.startsWith('&')) return decodeHTML(marcacao);
  if (marcacao.startsWith('<!--')) return '';
  return elemento !== undefined && EM_LINHA.has(elemento.toLowerCase()) ? '' : ' ';
}

/** What a reader sees of a text (HTML read by `lerMarcacao`), in lower case. */
function lido(texto: string, html: boolean): string {
  return emMinusculas(html ? texto.replace(MARCACAO, lerMarcacao) : texto);
}

/**
 * `lido`, with where each of its code units comes from in the text: for the few texts where a
 * private value is read, to mask it where it was written.
 */
interface Leitura {
  texto: string;
  /** Per code unit of `texto`: where its source starts in the text, and where it ends. */
  inicio: Int32Array | null;
  fim: Int32Array | null;
}

function leitura(texto: string, html: boolean): Leitura {
  if (!html) return { texto: lido(texto, false), inicio: null, fim: null };
  const inicio = new Int32Array(texto.length);
  const fim = new Int32Array(texto.length);
  let resultado = '';
  const ler = (parte: string, de: number, ate: number | null) => {
    for (let k = 0; k < parte.length; k++) {
      inicio[resultado.length + k] = ate === null ? de + k : de;
      fim[resultado.length + k] = ate === null ? de + k + 1 : ate;
    }
    resultado += parte;
  };
  let desde = 0;
  for (const achado of texto.matchAll(MARCACAO)) {
    ler(texto.slice(desde, achado.index), desde, null);
    desde = achado.index + achado[0].length;
    ler(lerMarcacao(achado[0], achado[1]), achado.index, desde);
  }
  ler(texto.slice(desde), desde, null);
  return { texto: emMinusculas(resultado), inicio, fim };
}

/** Where `palavras`, parted by `separador`, start in `texto` at `i`: their end, or -1. */
function fimDaForma(texto: string, i: number, { palavras, separador }: Forma): number {
  let fim = i + palavras[0]!.length;
  for (let k = 1; k < palavras.length; k++) {
    let proxima = fim;
    while (proxima < texto.length && separador.test(texto[proxima]!)) proxima++;
    if (proxima === fim || !texto.startsWith(palavras[k]!, proxima)) return -1;
    fim = proxima + palavras[k]!.length;
  }
  return fim;
}

/** `texto` in lower case, each code unit where the original has one (for Latin text, toLowerCase). */
function emMinusculas(texto: string): string {
  const minusculo = texto.toLowerCase();
  if (minusculo.length === texto.length) return minusculo;
  return Array.from(texto, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
}

/** `texto` with every typing of `formas` (in any case, not inside a word) replaced by the marker. */
function mascarar(texto: string, html: boolean, todas: readonly Forma[]): string {
  const { texto: lido, inicio, fim: fimNoTexto } = leitura(texto, html);
  const achados: [number, number][] = [];
  for (const forma of todas) {
    const primeira = forma.palavras[0]!;
    for (let i = lido.indexOf(primeira); i !== -1; i = lido.indexOf(primeira, i + 1)) {
      const fim = fimDaForma(lido, i, forma);
      if (fim === -1 || LETRA_OU_DIGITO.test(lido.charAt(i - 1)) || LETRA_OU_DIGITO.test(lido.charAt(fim))) continue;
      // Back to the text: from where the first character read comes from to where the last one ends.
      const [de, ate] = inicio === null ? [i, fim] : [inicio[i]!, fimNoTexto![fim - 1]!];
      if (!achados.some(([a, b]) => de < b && ate > a)) achados.push([de, ate]);
    }
  }
  if (achados.length === 0) return texto;
  let resultado = '';
  let desde = 0;
  for (const [de, ate] of achados.sort((a, b) => a[0] - b[0])) {
    resultado += texto.slice(desde, de) + MARCADOR_REMOVIDO;
    desde = ate;
  }
  return resultado + texto.slice(desde);
}

/**
 * `titulo` and `descricao_html` with every private value of the record replaced by the marker;
 * the very record when there is none. Both are searched as a reader sees them (`lido`), in any
 * case; only a form whose first and last words are there is searched for. No pattern is built per
 * record: over a replay, V8 compiling them cost 30–40 µs an event (decision 0010).
 */
export function mascararPrivados<T extends { titulo: string | null; descricao_html: string | null }>(registro: T, valores: ValoresPrivados): T {
  const { titulo, descricao_html: descricao } = registro;
  if (titulo === null && descricao === null) return registro;
  const todas = formas(valores);
  if (todas.length === 0) return registro;
  const lidos = [titulo === null ? '' : lido(titulo, false), descricao === null ? '' : lido(descricao, true)];
  const contem = (palavra: string) => lidos[0]!.includes(palavra) || lidos[1]!.includes(palavra);
  const presentes = todas.filter(({ palavras }) => contem(palavras[0]!) && contem(palavras.at(-1)!));
  if (presentes.length === 0) return registro;
  const novoTitulo = titulo === null ? null : mascarar(titulo, false, presentes);
  const novaDescricao = descricao === null ? null : mascarar(descricao, true, presentes);
  // A surname is often a word too ("Rocha", "Costa"): finding it is no proof the name is there.
  if (novoTitulo === titulo && novaDescricao === descricao) return registro;
  return { ...registro, titulo: novoTitulo, descricao_html: novaDescricao };
}

/** The private values of a raw `imovel.salvo` record (`dados` as sent), whatever their shape. */
export function valoresPrivados(dados: unknown): ValoresPrivados {
  const campo = (objeto: unknown, nome: string): unknown => (typeof objeto === 'object' && objeto !== null ? (objeto as Record<string, unknown>)[nome] : undefined);
  const [proprietario, corretor] = [campo(dados, 'proprietario'), campo(dados, 'corretor')];
  return { nomes: [campo(proprietario, 'nome'), campo(corretor, 'nome')], codigos: [campo(corretor, 'creci'), campo(dados, 'matricula')] };
}
