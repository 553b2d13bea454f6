// The register's private values masked in the free text partners read ("Proprietário Renata
// Santos Vieira", "CRECI-SP 123456-F", "fone do dono 11 97777 12 34"): the title, the description
// once it is plain text (with entities decoded, tags and invisible characters gone), `tipo` and the
// features (decision 0010). Decoding keeps the values aside (contracts' `valoresPrivados`), never in
// the event; only the mapping reads them, here.
import type { ValoresPrivados } from '@imoveis/contracts';

/** What partners read where something private was: one marker for every kind. */
export const MARCADOR_REMOVIDO = '[removido]';

/** A letter or digit (folded: lower case, no accents), next to which a value is part of another word. */
const LETRA_OU_DIGITO = /[0-9a-z\u00c0-\u024f]/;
/** A letter, folded: what an initial is. */
const LETRA = /[a-z\u00c0-\u024f]/;

/** Between a surname and the first name after it, in a list's order: one comma. */
const VIRGULA_DE_LISTA = /^[^\S\n]*,[^\S\n]*/;
/** One-letter words of the text ("Paulo e Santos"): an initial without its point is never one of them. */
const PALAVRAS_DE_UMA_LETRA = 'aeo';
/**
 * Between a code's letters and digits: anything but a letter, a digit, or what ends a list item
 * (`CRECI-SP 998877` typed `CRECI SP 998877`, `CRECI: SP/998877`).
 */
const ENTRE_PARTES = /[^\p{L}\p{N},;\n]/u;

/** Words of a name a person may leave out: "Ana Maria de Souza" is typed "Ana Maria Souza". */
const PARTICULAS = new Set(['de', 'da', 'do', 'das', 'dos', 'e']);
/** Particles typed where the register has none ("MARIA DA SILVA" for Maria Silva); not `e`, which joins other words. */
const PARTICULAS_OPCIONAIS = new Set(['de', 'da', 'do', 'das', 'dos']);
/** Before a name, a title; after it, a suffix: "Dra. Renata Vieira", "José Silva Filho" is typed without them. */
const TITULOS = new Set(['dr', 'dr.', 'dra', 'dra.', 'sr', 'sr.', 'sra', 'sra.', 'srta', 'srta.', 'dona', 'd.', 'prof', 'prof.', 'profa', 'profa.', 'eng', 'eng.']);
/** "São Paulo", "Santa Maria", "Santo André": before a first name, a city or a saint, not the person. */
const SANTO_ANTES = /(?:^|[^0-9a-z\u00c0-\u024f])(?:sao|santo|santa|sto|sta)[\s.]+$/;
const SUFIXOS = new Set(['filho', 'filha', 'junior', 'jr', 'jr.', 'neto', 'neta', 'sobrinho', 'sobrinha']);

/** A code (or an e-mail address) holds at least this many letters and digits; shorter, it is too likely other text. */
const TAMANHO_MINIMO_CODIGO = 5;
/** A private number is found by at least this many digits: a telephone's last 8, a CPF's 11, a code's number. */
const DIGITOS_MINIMOS = 5;
/**
 * A private note, or a sentence of it, is looked for when it has at least this many words and
 * letters: fewer make ordinary phrases of any description ("com o proprietário", "na portaria").
 */
const PALAVRAS_MINIMAS_FRASE = 4;
const LETRAS_MINIMAS_FRASE = 20;
/** Where a note's sentences end: a stop before a space or a capital (not `8.5`, `2.000`), or a line break. */
const FIM_DE_FRASE = /[.;!?\u2026]+(?:\s+|(?=\p{Lu}))|[\r\n]+/u;
/**
 * Of a note, this many characters and sentences at most are looked for: notes hold a few
 * sentences, and one of 250 KB cost its event over 200 ms against a long description. A text
 * holding the whole note holds its start.
 */
const TAMANHO_DA_NOTA = 10_000;
const FRASES_POR_NOTA = 50;

/**
 * The most words one text's search may read past the first word of a form. A crafted record (a
 * code, name or note of thousands of repeated words, against a description of them) made the
 * search quadratic: 4 s for one 120 KB event, minutes for a larger one. The generator's texts read
 * a few thousand; a 131 KB description searched for three long notes (120 sentences starting with
 * `a` or `o`), 260,000. A text that would take more is removed whole: privacy first, and an
 * event's cost bounded.
 */
const PASSOS_MAXIMOS = 2_000_000;
/** Words read so far by the search of one text (it is synchronous). */
let passos = 0;


/** A way a private value is typed: its words (folded), and what may stand between them. */
interface Forma {
  palavras: readonly string[];
  /** Past what may stand between two of its words at `i` (`i` itself: nothing that may). */
  lacuna: (texto: string, i: number) => number;
  /** A code's separators as sent (`12,345-7`), which stand between its parts too. */
  enviados?: readonly string[];
  /** A name's middle words, which may stand between its first and last, whole or by their initials. */
  meio?: Meio;
  /** Surname first, a comma, then the first name (`Vieira, Renata`), and the middle words after it. */
  invertido?: boolean;
  /** Letters and digits in all: longer forms are looked for first. */
  tamanho: number;
}

/** The words of a name between its first and its last (particles too), and the initials of those that are no particle. */
interface Meio {
  palavras: ReadonlySet<string>;
  iniciais: string;
  /** The most words the text may give between first and last name: the name's own, and one particle more. */
  maximo: number;
}

/** The forms of every private value, and the digits of every private number. */
interface Mascara {
  formas: Forma[];
  /** `exato`: a code's number is that number, not part of a longer one; a telephone is typed with more digits before its last eight. */
  numeros: { digitos: string; exato: boolean }[];
  /** The fewest digits a private number has: shorter runs of the text are not looked at. */
  menorNumero: number;
}

/**
 * The ways the record's private values are typed: a person's name whole, or by its first and last
 * words with any of its middle words between them, whole or by their initials ("Renata Vieira",
 * "Carlos da Silva", "Renata S. Vieira"), or surname first ("Vieira, Renata"), without its title
 * or suffix; not a one-word name (too likely an ordinary word of the text); a code by its letters
 * and digits; a private note, or a sentence of it, by its words in order. And the private
 * numbers' digits: a telephone's last eight (typed with or without its area code), a CPF's eleven,
 * a code's number ("CRECI 123456" for "CRECI-SP 123456-F").
 */
function mascara({ nomes, codigos, numeros = [], frases = [] }: ValoresPrivados): Mascara {
  const formas: Forma[] = [];
  const nome = (palavras: string[], outras: Partial<Forma> = {}) => formas.push({ palavras, lacuna: lacunaDeNome, tamanho: somaDosTamanhos(palavras), ...outras });
  for (const valor of nomes) {
    if (typeof valor !== 'string') continue;
    // Stored surname first ("Vieira, Renata Santos"): read in the order people write it.
    const partes = valor.split(',');
    const escrito = partes.length === 2 ? `${partes[1]} ${partes[0]}` : valor;
    // A hyphenated surname ("Souza-Lima") is typed with a space too, or by one of its words.
    const palavras = dobrar(escrito.trim(), false).lido.split(/[\s-]+/).filter(Boolean);
    let base = palavras;
    while (base.length > 2 && TITULOS.has(base[0]!)) base = base.slice(1);
    while (base.length > 2 && SUFIXOS.has(base.at(-1)!)) base = base.slice(0, -1);
    if (base.length < 2 || PARTICULAS.has(base[0]!) || PARTICULAS.has(base.at(-1)!)) continue;
    const doMeio = base.slice(1, -1);
    const meio: Meio = {
      palavras: new Set(doMeio),
      iniciais: doMeio.flatMap((p) => (PARTICULAS.has(p) || !LETRA.test(p[0]!) ? [] : [p[0]!])).join(''),
      maximo: doMeio.length + 1,
    };
    const [primeira, ultima] = [base[0]!, base.at(-1)!];
    // Whole as stored, title, suffix and signs too (`Pedro (Jr.) D’Ávila`).
    if (palavras.length > 2) nome(palavras);
    nome([primeira, ultima], { meio });
    nome([ultima, primeira], { meio, invertido: true });
  }
  const digitosAlvo: Mascara['numeros'] = [];
  for (const valor of codigos) {
    if (typeof valor !== 'string') continue;
    const { partes, enviados } = partesDoCodigo(dobrar(valor.trim(), false).lido);
    const tamanho = somaDosTamanhos(partes);
    if (tamanho >= TAMANHO_MINIMO_CODIGO) formas.push({ palavras: partes, lacuna: lacunaDeCodigo, enviados, tamanho });
    // A code's number, however it is grouped: its longest run of digits.
    const numero = sequenciasDeDigitos(valor).reduce((maior, seq) => (seq.digitos.length > maior.length ? seq.digitos : maior), '');
    if (numero.length >= DIGITOS_MINIMOS) digitosAlvo.push({ digitos: numero, exato: true });
  }
  for (const valor of numeros) {
    if (typeof valor !== 'string') continue;
    const digitos = valor.replace(/\D/g, '');
    // A telephone is typed with or without its country and area codes: its last eight digits
    // (also inside a CPF's eleven). A CPF that does not read as area code + mobile: all eleven.
    const alvo = digitos.length === 11 && !/^\d{2}9/.test(digitos) ? digitos : digitos.slice(-8);
    if (alvo.length >= DIGITOS_MINIMOS) digitosAlvo.push({ digitos: alvo, exato: false });
  }
  for (const valor of frases) {
    if (typeof valor !== 'string') continue;
    const nota = inicioDaNota(valor);
    // A note copied into the description whole, or one sentence of it.
    for (const trecho of new Set([nota, ...nota.split(FIM_DE_FRASE, FRASES_POR_NOTA)])) {
      const { partes: palavras } = partesDoCodigo(dobrar(trecho, false).lido);
      const tamanho = somaDosTamanhos(palavras);
      if (palavras.length >= PALAVRAS_MINIMAS_FRASE && tamanho >= LETRAS_MINIMAS_FRASE) formas.push({ palavras, lacuna: lacunaDeFrase, tamanho });
    }
  }
  return {
    formas: formas.length < 2 ? formas : formas.sort((a, b) => b.tamanho - a.tamanho),
    numeros: digitosAlvo,
    menorNumero: Math.min(...digitosAlvo.map((alvo) => alvo.digitos.length)),
  };
}

const somaDosTamanhos = (palavras: readonly string[]): number => palavras.reduce((soma, p) => soma + p.length, 0);

/**
 * A note as searched for: whole, or its first {@link TAMANHO_DA_NOTA} characters cut between two
 * words (a word cut in two would match no text holding the note whole), whatever parts them.
 */
function inicioDaNota(nota: string): string {
  if (nota.length <= TAMANHO_DA_NOTA) return nota;
  for (let i = TAMANHO_DA_NOTA; i > 0; i--) if (!letraOuDigito(nota, i)) return nota.slice(0, i);
  return nota.slice(0, TAMANHO_DA_NOTA);
}

/** A letter or a digit: ASCII ones at a glance, others by their Unicode category. */
function letraOuDigito(texto: string, i: number): boolean {
  const n = texto.charCodeAt(i);
  if (n < 0x80) return (n >= 0x30 && n <= 0x39) || (n >= 0x61 && n <= 0x7a) || (n >= 0x41 && n <= 0x5a);
  return LETRA_OU_DIGITO_UNICODE.test(texto[i]!);
}
const LETRA_OU_DIGITO_UNICODE = /[\p{L}\p{N}]/u;

/** A code's runs of letters and digits, and what separates them as sent (`12,345-7`: `,` and `-`). */
function partesDoCodigo(codigo: string): { partes: string[]; enviados: string[] } {
  const partes: string[] = [];
  const enviados: string[] = [];
  let inicio = 0;
  let dentro = codigo.length > 0 && letraOuDigito(codigo, 0);
  for (let i = 1; i <= codigo.length; i++) {
    const agora = i < codigo.length && letraOuDigito(codigo, i);
    if (i < codigo.length && agora === dentro) continue;
    if (dentro) partes.push(codigo.slice(inicio, i));
    else if (partes.length > 0 && i < codigo.length) enviados.push(codigo.slice(inicio, i));
    inicio = i;
    dentro = agora;
  }
  return { partes, enviados };
}

/**
 * Runs of digits in groups split by one of `separadores` (`11 97777 12 34`, `529/982/247-25`,
 * `123.456`), with where each starts and ends; glued to a word too (`Tel11977771234`,
 * `CRECI123456`): only the record's own numbers are looked for in them. By hand: a pattern over
 * every text cost more than all the rest of the masking.
 */
function sequenciasDeDigitos(texto: string, minimo = 1, separadores = SEPARADORES_DE_GRUPO): { inicio: number; fim: number; digitos: string }[] {
  const sequencias: { inicio: number; fim: number; digitos: string }[] = [];
  const n = texto.length;
  let i = 0;
  while (i < n) {
    if (!ehDigito(texto.charCodeAt(i))) {
      i++;
      continue;
    }
    const inicio = i;
    let digitos = 0;
    let fim = i;
    for (;;) {
      while (fim < n && ehDigito(texto.charCodeAt(fim))) {
        fim++;
        digitos++;
      }
      // One separator, then more digits, continues the run; the signs that disguise a number may
      // have a space on either side (`3456 • 7890`).
      const depois = fimDoSeparador(texto, fim, separadores);
      if (depois > fim && depois < n && ehDigito(texto.charCodeAt(depois))) fim = depois;
      else break;
    }
    i = fim;
    if (digitos < minimo) continue;
    sequencias.push({ inicio, fim, digitos: texto.slice(inicio, fim).replace(/\D/g, '') });
  }
  return sequencias;
}
const ehDigito = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** Past the separator at `i` (one of `separadores`; a disguising sign among them with a space on either side or not), or `i`. */
function fimDoSeparador(texto: string, i: number, separadores: ReadonlySet<number>): number {
  const j = texto.charCodeAt(i) === 0x20 ? i + 1 : i;
  const sinal = texto.charCodeAt(j);
  if (SINAIS_DE_DISFARCE.has(sinal) && separadores.has(sinal)) return texto.charCodeAt(j + 1) === 0x20 ? j + 2 : j + 1;
  return separadores.has(texto.charCodeAt(i)) ? i + 1 : i;
}
/** Before an amount (folded text): `r$`, `r$:`. */
const ANTES_DE_VALOR = /r\$[\s:)]*$/;
/**
 * A measure or an amount right after a number (`95 97 98 101 m²`, `2450-2800 m²`, `45000 reais`):
 * the number is the listing's figure, neither a contact nor a private code's number. Read in
 * folded text too (`milhoes`).
 */
export const UNIDADE_DEPOIS = /^[ \t\u00a0]*(?:m²|m2\b|m\b|mil\b|metros|ha\b|hectares|alqueires|km\b|%|reais\b|milh(?:ão|ões|ao|oes)\b)/iu;
/** Space, tab, `.`, `-`, `/`, `(`, `)`. */
const SEPARADORES_DE_GRUPO = new Set([0x20, 0x09, 0x2e, 0x2d, 0x2f, 0x28, 0x29]);
/**
 * Those, and the signs typed to slip a telephone or a CPF past filters: `*`, `_`, `|`, `~`, `·`,
 * `•`. Not `,`, `;` or `:`, which part a list's figures and times: a run holding the record's
 * number is masked whole, and a list run together would be.
 */
const SINAIS_DE_DISFARCE = new Set([0x2a, 0x5f, 0x7c, 0x7e, 0xb7, 0x2022]);
const SEPARADORES_DE_CONTATO = new Set([...SEPARADORES_DE_GRUPO, ...SINAIS_DE_DISFARCE]);

/**
 * Folded for comparison: lower case, without accents (agents type "Joao" for "João"; text pasted
 * from a Mac holds "a" and a combining tilde), with where each folded character comes from.
 */
function dobrar(texto: string, comOrigem = true): { lido: string; origem: Int32Array | null } {
  if (SO_ASCII.test(texto)) return { lido: texto.toLowerCase(), origem: null };
  const origem = comOrigem ? new Int32Array(texto.length) : null;
  const partes: string[] = [];
  let n = 0;
  let i = 0;
  while (i < texto.length) {
    // ASCII up to the next other character, at once.
    let j = i;
    while (j < texto.length && texto.charCodeAt(j) < 0x80) {
      if (origem !== null) origem[n++] = j;
      j++;
    }
    if (j > i) partes.push(texto.slice(i, j).toLowerCase());
    if (j >= texto.length) break;
    const c = texto.charCodeAt(j);
    if (c < 0x300 || c > 0x36f) {
      partes.push(c < 0x250 ? DOBRADOS[c - 0x80]! : umaUnidade(texto[j]!));
      if (origem !== null) origem[n++] = j;
    }
    i = j + 1;
  }
  return { lido: partes.join(''), origem };
}
/** Nothing past U+007F. */
const SO_ASCII = /^[^\u0080-\uffff]*$/;
/** Apostrophes as phones and word processors type them (`D’Ávila`, `Sant´Anna`): read as `'`. */
const APOSTROFOS = new Set(['\u2019', '\u2018', '\u02bc', '\u00b4']);
/** `c` in lower case when that keeps it one code unit (so positions hold), else `c`; an apostrophe as `'`. */
const umaUnidade = (c: string): string => (APOSTROFOS.has(c) ? "'" : c.toLowerCase().length === 1 ? c.toLowerCase() : c);
/** U+0080–U+024F folded: Latin-1 and Latin Extended-A/B letters without their accents, in lower case. */
const DOBRADOS = Array.from({ length: 0x250 - 0x80 }, (_, k) => {
  const c = String.fromCharCode(0x80 + k);
  const base = c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return APOSTROFOS.has(c) || base.length !== 1 ? umaUnidade(c) : base;
});

/**
 * Whether the folded text's letter at a position was typed as a capital in a name typed in
 * mixed case (`Maria A Silva`, not `VITÓRIA E SERRA`): the original text decides a bare `A`.
 */
type CapitalNoNome = (posicao: number) => boolean;

/** Where `forma` starts in `texto` at `i`: its end, or -1. */
function fimDaForma(texto: string, i: number, { palavras, lacuna, enviados, meio, invertido }: Forma, capital: CapitalNoNome): number {
  let fim = i + palavras[0]!.length;
  for (let k = 1; k < palavras.length; k++) {
    passos++;
    const palavra = palavras[k]!;
    const enviado = enviados?.[k - 1];
    let proxima: number;
    if (enviado !== undefined && texto.startsWith(enviado, fim) && texto.startsWith(palavra, fim + enviado.length)) {
      proxima = fim + enviado.length;
    } else if (invertido) {
      const virgula = VIRGULA_DE_LISTA.exec(texto.slice(fim, fim + 8));
      if (virgula === null) return -1;
      proxima = fim + virgula[0].length;
    } else {
      proxima = lacuna(texto, fim);
      // Words run together are one name's when the next one starts with a capital, as a reader
      // parts them (`JosefinaAlbuquerque`, or a soft hyphen between them gone with the invisible).
      if (proxima === fim && !(lacuna === lacunaDeNome && capital(fim))) return -1;
      // The middle words the text gives between first and last name, whole or as initials.
      if (meio !== undefined) proxima = depoisDoMeio(texto, proxima, meio, palavra, capital);
      if (proxima === -1) return -1;
    }
    if (!texto.startsWith(palavra, proxima)) return -1;
    fim = proxima + palavra.length;
  }
  // Surname first: the middle words after the first name are the name's too ("Vieira, Renata S.").
  for (let seguinte = lacunaDeNome(texto, fim); invertido && meio !== undefined && seguinte > fim; ) {
    const fimDoMeio = fimDePalavraDoMeio(texto, seguinte, meio, false, capital);
    if (fimDoMeio === -1) break;
    fim = fimDoMeio;
    seguinte = lacunaDeNome(texto, fim);
  }
  return fim;
}

/**
 * Between a name's words: whitespace (line breaks too: `<p>Josefina</p><p>Albuquerque</p>`), or
 * one hyphen, `_` or `.` (`Ana-Maria`, `Ana‐Maria`, `ana.souza`), or one of the signs typed to
 * slip a name past filters (`Josefina·Albuquerque`, `•`, `*`, `~`). Not `/`, `|` or `+`, which
 * pair places ("Vila Maria/Santana" is no Maria Santana), nor a sentence's end or a spaced dash:
 * "São Paulo. Santos", "São Paulo - Santos" are no Paulo Santos.
 */
const UM_SINAL_ENTRE_NOMES = new Set(['-', '\u2010', '\u2011', '_', '.', '\u00b7', '\u2022', '*', '~']);
function lacunaDeNome(texto: string, i: number): number {
  if (UM_SINAL_ENTRE_NOMES.has(texto[i]!)) return i + 1;
  while (i < texto.length && /\s/.test(texto[i]!)) i++;
  return i;
}

/** Between a note's words: anything but a letter or a digit (punctuation typed otherwise, a line break). */
function lacunaDeFrase(texto: string, i: number): number {
  while (i < texto.length && !letraOuDigito(texto, i)) i++;
  return i;
}

/** Between a code's parts: anything but a letter, a digit, or what ends a list item. */
function lacunaDeCodigo(texto: string, i: number): number {
  while (i < texto.length && ENTRE_PARTES.test(texto[i]!)) i++;
  return i;
}

/**
 * Past the middle words the text gives at `i`, up to `ultima` (the last name): -1 when anything
 * else stands there. At most as many as the name has, and one particle more: a text repeating a
 * middle word costs no more than the name is long.
 */
function depoisDoMeio(texto: string, i: number, meio: Meio, ultima: string, capital: CapitalNoNome): number {
  for (let lidas = 0; !texto.startsWith(ultima, i); lidas++) {
    passos++;
    if (lidas > meio.maximo) return -1;
    const fim = fimDePalavraDoMeio(texto, i, meio, lidas === 0, capital);
    if (fim === -1) return -1;
    i = lacunaDeNome(texto, fim);
    // An initial's point stands for the gap (`S.Vieira`).
    if (i === fim && texto[fim - 1] !== '.') return -1;
  }
  return i;
}

/**
 * Where a word of the name's middle at `i` ends: one of its words whole (an apostrophe inside:
 * `d'avila`), a particle, or one's initial with its point (`s.`) or without it, but for a word of
 * one letter (`e`, as in "Paulo e Santos") unless typed as a capital in a mixed-case name
 * (`Maria A Silva`). `e` joining two names ("Souza e Silva") never comes first ("Maria e Silva
 * Imóveis" is no Maria Eduarda Souza e Silva). -1: none.
 */
function fimDePalavraDoMeio(texto: string, i: number, meio: Meio, primeira: boolean, capital: CapitalNoNome): number {
  let fim = i;
  while (fim < texto.length && (LETRA_OU_DIGITO.test(texto[fim]!) || (texto[fim] === "'" && fim > i && LETRA.test(texto.charAt(fim + 1))))) fim++;
  if (fim === i) return -1;
  const palavra = texto.slice(i, fim);
  // An initial with its point first: `e.` is Eduardo's, even where `e` is a word of the name.
  if (fim - i === 1 && texto[fim] === '.' && meio.iniciais.includes(palavra)) return fim + 1;
  if (palavra === 'e') return !primeira && meio.palavras.has('e') ? fim : -1;
  if (meio.palavras.has(palavra) || PARTICULAS_OPCIONAIS.has(palavra)) return fim;
  if (fim - i !== 1 || !meio.iniciais.includes(palavra)) return -1;
  return PALAVRAS_DE_UMA_LETRA.includes(palavra) && !capital(i) ? -1 : fim;
}

const ehMaiuscula = (c: string | undefined): boolean => c !== undefined && c !== c.toLowerCase();

/** `texto` with every private value of `m` (folded, not inside a word) replaced by the marker. */
function mascarar(texto: string, m: Mascara): string {
  const { lido } = dobrar(texto, false);
  // Where each folded character comes from: made only for the few texts that need it.
  let origem: Int32Array | null | undefined;
  const noTexto = (i: number): number => {
    origem ??= dobrar(texto, true).origem;
    return origem === null ? i : origem[i]!;
  };
  const achados: [number, number][] = [];
  passos = 0;
  // Most texts hold none: a form is searched for only when its first and last words are there.
  for (const forma of m.formas) {
    const primeira = forma.palavras[0]!;
    if (!lido.includes(primeira) || !lido.includes(forma.palavras.at(-1)!)) continue;
    for (let i = lido.indexOf(primeira); i !== -1; i = lido.indexOf(primeira, i + 1)) {
      if (LETRA_OU_DIGITO.test(lido.charAt(i - 1))) continue;
      // Read from the original text only when a bare one-letter initial needs it (rare).
      const capital: CapitalNoNome = (posicao) => ehMaiuscula(texto[noTexto(posicao)]) && !ehMaiuscula(texto[noTexto(i + 1)]);
      const fim = fimDaForma(lido, i, forma, capital);
      if (passos > PASSOS_MAXIMOS) return MARCADOR_REMOVIDO;
      if (fim === -1 || LETRA_OU_DIGITO.test(lido.charAt(fim))) continue;
      if (forma.lacuna === lacunaDeNome && SANTO_ANTES.test(lido.slice(Math.max(0, i - 8), i))) continue;
      // Surname first is a name's only with a capital: "luz, clara e arejada" is no Clara Luz.
      if (forma.invertido && !ehMaiuscula(texto[noTexto(i)])) continue;
      achados.push([i, fim]);
    }
  }
  // A code's number is a run exactly, read between the common separators (`45678_2` is `45.678`
  // and a 2) or across the signs that disguise a number too (`998•877`); a telephone's or CPF's
  // digits are looked for inside runs read the second way.
  if (m.numeros.some((alvo) => alvo.exato)) {
    for (const separadores of [SEPARADORES_DE_GRUPO, SEPARADORES_DE_CONTATO]) {
      for (const { inicio, fim, digitos } of sequenciasDeDigitos(lido, m.menorNumero, separadores)) {
        // A code's number is typed bare, never as an amount or a measure: `R$ 45.000`, `45.000 m²`
        // are the listing's own figures that happen to equal it.
        const valor = ANTES_DE_VALOR.test(lido.slice(Math.max(0, inicio - 6), inicio)) || UNIDADE_DEPOIS.test(lido.slice(fim, fim + 12));
        if (!valor && m.numeros.some((alvo) => alvo.exato && digitos === alvo.digitos)) achados.push([inicio, fim]);
      }
    }
  }
  if (m.numeros.some((alvo) => !alvo.exato)) {
    for (const { inicio, fim, digitos } of sequenciasDeDigitos(lido, m.menorNumero, SEPARADORES_DE_CONTATO)) {
      if (m.numeros.some((alvo) => !alvo.exato && digitos.includes(alvo.digitos))) achados.push([inicio, fim]);
    }
  }
  if (achados.length === 0) return texto;
  // Back to the text: from where the first character read comes from to past the last one's
  // (and past the accents combined with it).
  const fimNoTexto = (fim: number) => {
    let f = noTexto(fim - 1) + 1;
    while (f < texto.length && texto.charCodeAt(f) >= 0x300 && texto.charCodeAt(f) <= 0x36f) f++;
    return f;
  };
  // Overlapping values (one person's surname, another's first name) are masked as one span.
  achados.sort((a, b) => a[0] - b[0]);
  let resultado = '';
  let desde = 0;
  for (let k = 0; k < achados.length; ) {
    const inicio = achados[k]![0];
    let fim = achados[k++]![1];
    while (k < achados.length && achados[k]![0] < fim) fim = Math.max(fim, achados[k++]![1]);
    resultado += texto.slice(desde, noTexto(inicio)) + MARCADOR_REMOVIDO;
    desde = fimNoTexto(fim);
  }
  return resultado + texto.slice(desde);
}

/**
 * The record's private values masked in plain text, folded (any case, accents or none), not
 * inside another word. No pattern is built per record: over a replay, V8 compiling them cost
 * 30–40 µs an event (decision 0010).
 */
export function mascaraDePrivados(valores: ValoresPrivados): (texto: string) => string {
  const m = mascara(valores);
  return m.formas.length === 0 && m.numeros.length === 0 ? (texto) => texto : (texto) => mascarar(texto, m);
}
