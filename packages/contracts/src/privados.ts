// The register's private values as agents type them into a property's free text ("Proprietário
// Renata Santos Vieira", "CRECI-SP 123456-F"). The schema drops the private fields; decoding keeps
// their values aside (never in the event) for the mapping, which masks them in the text partners
// read: the title, and the description once it is plain text, with entities decoded, tags and
// invisible characters gone. Searching the HTML instead missed names split by tags or entities.

/** What partners read where something private was: one marker for every kind. */
export const MARCADOR_REMOVIDO = '[removido]';

/** A letter or digit (lower case), next to which a value is part of another word. */
const LETRA_OU_DIGITO = /[0-9a-z\u00c0-\u024f]/;

/** Between a name's words: any whitespace (a line break too: `Ana<br>Souza`). */
const ENTRE_PALAVRAS = /\s/;
/**
 * Between a code's letters and digits: anything but a letter, a digit, or what ends a list item
 * (`CRECI-SP 998877` typed `CRECI SP 998877`, `CRECI: SP/998877`).
 */
const ENTRE_PARTES = /[^\p{L}\p{N},;\n]/u;

/** Words of a name that a person may leave out: "Ana Maria de Souza" is typed "Ana Maria Souza". */
const PARTICULAS = new Set(['de', 'da', 'do', 'das', 'dos', 'e']);

/** A code holds at least this many letters and digits; shorter, it is too likely other text. */
const TAMANHO_MINIMO_CODIGO = 5;

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
  /** A code's separators as sent (`12,345-7`), which stand between its parts too. */
  enviados?: readonly string[];
  /** Letters and digits in all: longer forms are looked for first. */
  tamanho: number;
}

/**
 * The ways the record's private values are typed: a person's name whole, without its particles,
 * or by its first and last words ("Renata Vieira"), not a one-word name (too likely an ordinary
 * word of the text); a code (CRECI, land-registry number) by its letters and digits, whatever
 * separates them. Longer forms first, so a full name is masked whole.
 */
function formas({ nomes, codigos }: ValoresPrivados): Forma[] {
  const resultado: Forma[] = [];
  const nome = (palavras: string[]) => resultado.push({ palavras, separador: ENTRE_PALAVRAS, tamanho: somaDosTamanhos(palavras) });
  for (const valor of nomes) {
    const palavras = typeof valor === 'string' ? emMinusculas(valor.trim()).split(/\s+/) : [];
    if (palavras.length < 2) continue;
    nome(palavras);
    const semParticulas = palavras.filter((p) => !PARTICULAS.has(p));
    if (semParticulas.length >= 2 && semParticulas.length < palavras.length) nome(semParticulas);
    if (semParticulas.length > 2) nome([semParticulas[0]!, semParticulas.at(-1)!]);
  }
  for (const valor of codigos) {
    if (typeof valor !== 'string') continue;
    const { partes, enviados } = partesDoCodigo(emMinusculas(valor.trim()));
    const tamanho = somaDosTamanhos(partes);
    if (tamanho >= TAMANHO_MINIMO_CODIGO) resultado.push({ palavras: partes, separador: ENTRE_PARTES, enviados, tamanho });
  }
  return resultado.length < 2 ? resultado : resultado.sort((a, b) => b.tamanho - a.tamanho);
}

const somaDosTamanhos = (palavras: readonly string[]): number => palavras.reduce((soma, p) => soma + p.length, 0);

/** A letter or a digit: ASCII ones at a glance, others by their Unicode category. */
function letraOuDigito(c: string): boolean {
  const n = c.charCodeAt(0);
  if (n < 0x80) return (n >= 0x30 && n <= 0x39) || (n >= 0x61 && n <= 0x7a) || (n >= 0x41 && n <= 0x5a);
  return LETRA_OU_DIGITO_UNICODE.test(c);
}
const LETRA_OU_DIGITO_UNICODE = /[\p{L}\p{N}]/u;

/** A code's runs of letters and digits, and what separates them as sent (`12,345-7`: `,` and `-`). */
function partesDoCodigo(codigo: string): { partes: string[]; enviados: string[] } {
  const partes: string[] = [];
  const enviados: string[] = [];
  let inicio = 0;
  for (let i = 0; i <= codigo.length; i++) {
    if (i < codigo.length && letraOuDigito(codigo[i]!) === letraOuDigito(codigo[inicio]!)) continue;
    if (letraOuDigito(codigo[inicio] ?? '')) partes.push(codigo.slice(inicio, i));
    else if (partes.length > 0 && i < codigo.length) enviados.push(codigo.slice(inicio, i));
    inicio = i;
  }
  return { partes, enviados };
}

/** Where `palavras`, parted by `separador`, start in `texto` at `i`: their end, or -1. */
function fimDaForma(texto: string, i: number, { palavras, separador, enviados }: Forma): number {
  let fim = i + palavras[0]!.length;
  for (let k = 1; k < palavras.length; k++) {
    let proxima = fim;
    const enviado = enviados?.[k - 1];
    if (enviado !== undefined && texto.startsWith(enviado, fim)) proxima += enviado.length;
    else while (proxima < texto.length && separador.test(texto[proxima]!)) proxima++;
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

/** `texto` with every typing of `todas` (in any case, not inside a word) replaced by the marker. */
function mascarar(texto: string, todas: readonly Forma[]): string {
  const lido = emMinusculas(texto);
  // Most texts hold none: a form is searched for only when its first and last words are there.
  const presentes = todas.filter(({ palavras }) => lido.includes(palavras[0]!) && lido.includes(palavras.at(-1)!));
  const achados: [number, number][] = [];
  for (const forma of presentes) {
    const primeira = forma.palavras[0]!;
    for (let i = lido.indexOf(primeira); i !== -1; i = lido.indexOf(primeira, i + 1)) {
      const fim = fimDaForma(lido, i, forma);
      if (fim === -1 || LETRA_OU_DIGITO.test(lido.charAt(i - 1)) || LETRA_OU_DIGITO.test(lido.charAt(fim))) continue;
      achados.push([i, fim]);
    }
  }
  if (achados.length === 0) return texto;
  // Overlapping values (one person's surname, another's first name) are masked as one span.
  achados.sort((a, b) => a[0] - b[0]);
  let resultado = '';
  let desde = 0;
  for (let k = 0; k < achados.length; ) {
    const inicio = achados[k]![0];
    let fim = achados[k++]![1];
    while (k < achados.length && achados[k]![0] < fim) fim = Math.max(fim, achados[k++]![1]);
    resultado += texto.slice(desde, inicio) + MARCADOR_REMOVIDO;
    desde = fim;
  }
  return resultado + texto.slice(desde);
}

/**
 * The record's private values masked in plain text, in any case, not inside another word. No
 * pattern is built per record: over a replay, V8 compiling them cost 30–40 µs an event (decision 0010).
 */
export function mascaraDePrivados(valores: ValoresPrivados): (texto: string) => string {
  const todas = formas(valores);
  return todas.length === 0 ? (texto) => texto : (texto) => mascarar(texto, todas);
}

/** The private values of a raw `imovel.salvo` record (`dados` as sent), whatever their shape. */
export function valoresPrivados(dados: unknown): ValoresPrivados {
  const campo = (objeto: unknown, nome: string): unknown => (typeof objeto === 'object' && objeto !== null ? (objeto as Record<string, unknown>)[nome] : undefined);
  const [proprietario, corretor] = [campo(dados, 'proprietario'), campo(dados, 'corretor')];
  return { nomes: [campo(proprietario, 'nome'), campo(corretor, 'nome')], codigos: [campo(corretor, 'creci'), campo(dados, 'matricula')] };
}
