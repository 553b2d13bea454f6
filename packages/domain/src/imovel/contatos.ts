// Contact details in free text (telephone numbers, e-mail addresses, CPF and CNPJ) found by shape
// and replaced by `[removido]`, as register-events.md asks (decision 0010; the shapes one by one
// in docs/free-text.md).
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { MARCADOR_REMOVIDO, UNIDADE_DEPOIS } from './mascara-de-privados.ts';

/** `palavra` in any case, for patterns that otherwise care about case. */
const emQualquerCaixa = (palavra: string): string => [...palavra].map((c) => `[${c}${c.toUpperCase()}]`).join('');
/** Words that say a telephone number follows, glued to it (PALAVRA_COLADA). */
const PALAVRAS_DE_TELEFONE = 'telefones telefone tels tel fones fone celular cel whatsapp whats wpp zapzap zap contato ligue ligar fax'.split(' ');
/**
 * The same before it (PALAVRA_DE_TELEFONE): the short ones as whole words (`Celso`, `Telhado`,
 * `Faxinal` say nothing), the others as the start of one (`Telefonar`, `Celulares`, `Whatsaap`;
 * not `Telefonia`, `Contatar`, which amenities and other sentences use).
 */
const PALAVRAS_INTEIRAS_DE_TELEFONE = 'tels? cel fones? fax zapp? wpp'.split(' ');
const INICIOS_DE_PALAVRA_DE_TELEFONE = 'telefone telefonar telefonem celular whats watsap zapzap contato ligue ligar'.split(' ');
/** Words a number typed right after still belongs to the contact: `TEL98765-4321`, `CPF529.982.247-25`. */
const PALAVRA_COLADA = String.raw`(?<!\p{L})(?:${[...PALAVRAS_DE_TELEFONE, 'cpf', 'cnpj'].map(emQualquerCaixa).join('|')})`;
// Digits glued to a letter, to another digit, or to a decimal/thousands separator belong to
// something else (a code such as AP1234, a price such as 1.450.000, an area such as 120,5). The
// ordinal signs are no such letter: "nº123.456.789-09" is a CPF; nor is a word that says contact.
// A comma glued to digits is a decimal one only when one to three digits follow (`120,50`): a
// longer run after it is the next item of a list typed without spaces (`98765-4321,98765-1234`).
const INICIO_NUMERO = String.raw`(?<![\p{L}\p{N}](?<![ºª]|${PALAVRA_COLADA}))(?<!\p{N}\.)(?<!R\$[\s:)]*)`;
/**
 * Where a number checked by more than its shape ends (a telephone's structure and the decisions
 * of its replacer, a document's check digits): a letter may follow, since an editor's inline tags
 * glue the next word on (`<b>(11) 98765-4321</b>Chame`) and agents type so (`98765-4321agora`).
 */
const FIM_OU_PALAVRA = String.raw`(?!\p{N})(?!\.\p{N})(?!,\p{N}{1,3}(?![\p{N}.]))`;
/** Where a number found by its shape alone ends: no letter either. */
const FIM_NUMERO = String.raw`(?!\p{L})${FIM_OU_PALAVRA}`;
/** A dash as typed: rich-text editors turn - into – or —; Unicode's hyphens and dashes U+2010–U+2014 all count. */
const TRACO = String.raw`[\-\u2010-\u2014]`;
/** Between groups of digits: a space, dot or dash, never a line break (list items end there). */
const SEP = String.raw`[ \t\u00a0.\-\u2010-\u2014]`;
/** A dash with spaces around it, on one line. */
const TRACO_ESPACADO = String.raw`[ \t\u00a0]*${TRACO}[ \t\u00a0]*`;
/** A space on one line. */
const ESPACO = String.raw`[ \t\u00a0]`;
/** Before the check digits of a CPF or CNPJ: a dash or a space. */
const ANTES_DO_DV = String.raw`(?:${TRACO}|[ \t\u00a0])?`;
/**
 * Between the groups of a CPF or CNPJ as they are typed when the check digits decide: nothing, up
 * to three spaces (a table's cells), a dot, a dash or a sign typed to slip past filters (`•`, `·`,
 * `*`) with spaces around it or not (`529 . 982 . 247 - 25`, `529-982-247-25`, `111.444.777.35`,
 * `111•444•777-35`), or a comma between the first groups (`529,982,247-25`); a slash before a
 * CNPJ's branch too (`11 222 333 / 0001-81`). Never a comma before the check digits: that is an
 * amount's (`VGV de 172.000.000,00`).
 */
const SINAL_ENTRE_GRUPOS = String.raw`.\-\u2010-\u2014*\u2022\u00b7\u2219\u22c5\u25cf`;
const separadorDeDocumento = (sinais: string, virgula: boolean): string =>
  String.raw`(?:[ \t\u00a0]{0,3}[${sinais}][ \t\u00a0]{0,3}|[ \t\u00a0]{1,3}${virgula ? '|,' : ''})?`;
const ENTRE_GRUPOS = separadorDeDocumento(SINAL_ENTRE_GRUPOS, true);
const ANTES_DA_FILIAL = separadorDeDocumento(`/${SINAL_ENTRE_GRUPOS}`, true);
const ANTES_DOS_DIGITOS_VERIFICADORES = separadorDeDocumento(SINAL_ENTRE_GRUPOS, false);

/**
 * The local part takes the signs an address may hold (`joao#x@`, `a&b@`), so none of it is left
 * behind; not `/` or `?`, which end a URL's path before a handle (`instagram.com/@imobiliaria`).
 * It starts only where such a run starts: tried from inside one, a long run without `@` would
 * cost time quadratic in its length.
 */
const EMAIL = /(?<![\p{L}\p{N}.!#$%&'*+=^_`{|}~-])[\p{L}\p{N}.!#$%&'*+=^_`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/**
 * An e-mail address typed so that filters miss it, as agents do to reach buyers directly: spaces
 * around `@` or the dots (`joao @ gmail . com`), the sign written out or bracketed (`joao arroba
 * gmail ponto com`, `joao[at]gmail(dot)com`), a full-width `＠`, or a well-known provider with no
 * domain ending right after `@` (`maria@uol`), or one no word shares after a spaced `@` or `arroba`
 * (`maria @ uol`, `maria arroba gmail`; not `Festa @ terra`, nor after `at`: `Living at Terra
 * Nova`). What decides is the domain: a known ending in lower or upper case (`Com` opens a
 * sentence), its dots unspaced or written out when the sign is written out. Look-alikes stay: a
 * handle (`Siga @joao.imoveis`: a space before `@`, none after; an address only with a `.com`,
 * `.net`, `.org` or `.br` ending), a provider's name as a word (`Living at Terra Nova`), cattle
 * weights (`20@ cada. Com pasto`: the local part needs a letter).
 */
const ESPACOS = String.raw`${ESPACO}*`;
const palavras = (...lista: string[]): string => lista.map(emQualquerCaixa).join('|');
/** Lower or upper case, not a capital first: `com`, `COM`, not `Com`. */
const emUmaCaixa = (...lista: string[]): string => lista.flatMap((p) => [p, p.toUpperCase()]).join('|');
const ESPACADO = (alternativas: string): string => String.raw`${ESPACO}+(?:${alternativas})${ESPACO}+`;
const ENTRE_PARENTESES = (alternativas: string): string => String.raw`${ESPACOS}[(\[{<]${ESPACOS}(?:${alternativas})${ESPACOS}[)\]}>]${ESPACOS}`;
/** `@` with spaces after it (before it too, or not), `＠`, or bracketed. */
const ARROBA_SOLTA = String.raw`(?:[ \t\u00a0]*@[ \t\u00a0]+|${ESPACOS}[\uff20\ufe6b]${ESPACOS}|${ENTRE_PARENTESES(String.raw`${palavras('at', 'arroba')}|[@\uff20\ufe6b]`)})`;
// The two kinds of dot share no way of matching: overlapping alternatives in a repeated group
// would make a long domain cost exponential time.
const PONTO_ESCRITO = String.raw`${ENTRE_PARENTESES(String.raw`${palavras('dot', 'ponto')}|\.`)}|${ESPACADO(palavras('dot', 'ponto'))}`;
const PONTO_ESTRITO = String.raw`(?:\.|${PONTO_ESCRITO})`;
const PONTO = String.raw`(?:${ESPACOS}\.${ESPACOS}|${PONTO_ESCRITO})`;
const ROTULO = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
/** Domain endings seen in Brazilian listings (the last label: `com`, `br`, `adv` of adv.br…). */
const FIM_DE_DOMINIO = emUmaCaixa(...'com net org br edu gov info biz io me co pt us uk es tv app dev adv eng arq imb online site store tech xyz'.split(' '));
const FIM_DE_ENDERECO = emUmaCaixa('com', 'net', 'org', 'br');
const PROVEDOR = emUmaCaixa(...'gmail googlemail hotmail outlook live msn yahoo icloud bol uol terra ig globo globomail zipmail aol protonmail proton'.split(' '));
/**
 * Those no Portuguese or English word shares (not `live`, `terra`, `ig`, `globo`): in any case
 * (`Gmail`, as phones capitalise it), and alone after a spaced `@` or `arroba`.
 */
const PROVEDOR_INCONFUNDIVEL = palavras(...'gmail googlemail hotmail outlook msn yahoo icloud uol bol globomail zipmail protonmail'.split(' '));
const dominio = (ponto: string, fim: string): string => String.raw`(?:${ROTULO}${ponto})+(?:${fim})`;
const EMAIL_DISFARCADO = new RegExp(
  String.raw`(?<![\p{L}\p{N}._%+\-])(?=[\p{N}._%+\-]*\p{L})[\p{L}\p{N}._%+\-]+(?:` +
    [
      String.raw`@(?:${dominio(PONTO, FIM_DE_DOMINIO)}|(?:${PROVEDOR})|(?:${PROVEDOR_INCONFUNDIVEL}))`,
      String.raw`${ARROBA_SOLTA}(?:${dominio(PONTO, FIM_DE_DOMINIO)}|(?:${PROVEDOR_INCONFUNDIVEL}))`,
      String.raw`${ESPACADO(palavras('at'))}${dominio(PONTO_ESTRITO, FIM_DE_DOMINIO)}`,
      String.raw`${ESPACADO(palavras('arroba'))}(?:${dominio(PONTO_ESTRITO, FIM_DE_DOMINIO)}|(?:${PROVEDOR_INCONFUNDIVEL}))`,
      String.raw`[ \t\u00a0]+@${dominio(PONTO_ESTRITO, FIM_DE_ENDERECO)}`,
    ].join('|') +
    String.raw`)(?![\p{L}\p{N}])`,
  'gu',
);
/**
 * Words that introduce a handle (`Siga @imobiliaria.com.br`, `no insta @casa.com.br`), never an
 * address's local part: `vendas @imobiliaria.com.br` is an address typed apart, `Siga @…` is not.
 */
const ANTES_DE_PERFIL = new Set('siga sigam segue seguir perfil insta instagram no na nosso nossa by em por via confira acesse acompanhe visite veja curta'.split(' '));
const PERFIL_APARTADO = /^([\p{L}\p{N}._%+-]+)[ \t\u00a0]+@[^ \t\u00a0]+$/u;
function substituirEmailDisfarcado(trecho: string): string {
  const palavra = PERFIL_APARTADO.exec(trecho)?.[1];
  return palavra !== undefined && ANTES_DE_PERFIL.has(palavra.toLowerCase()) ? trecho : MARCADOR_REMOVIDO;
}

/** Only a text holding one of these can hold a disguised address. */
const TALVEZ_EMAIL_DISFARCADO = /[@\uff20\ufe6b]|\bat\b|arroba/i;

/** CNPJ `##.###.###/####-##` or 14 digits, as formatted or not at all. */
const CNPJ = new RegExp(String.raw`(?=\d)${INICIO_NUMERO}\d{2}\.?\d{3}\.?\d{3}/?\d{4}${ANTES_DO_DV}\d{2}${FIM_NUMERO}`, 'gu');
/** CPF `###.###.###-##` or 11 digits, likewise. */
const CPF = new RegExp(String.raw`(?=\d)${INICIO_NUMERO}\d{3}\.?\d{3}\.?\d{3}${ANTES_DO_DV}\d{2}${FIM_NUMERO}`, 'gu');
/**
 * CNPJ and CPF in any other grouping (`529 982 247 25`, `529-982-247-25`, `12.345.678.0001-95`,
 * `529.982.247 - 25`, `11.222.333 0001-81`): the shapes of lists of numbers and measures too
 * (`120-145-200-30`), so only valid check digits make them documents.
 */
const CNPJ_AGRUPADO = new RegExp(
  String.raw`(?=\d)${INICIO_NUMERO}\d{2}${ENTRE_GRUPOS}\d{3}${ENTRE_GRUPOS}\d{3}${ANTES_DA_FILIAL}\d{4}${ANTES_DOS_DIGITOS_VERIFICADORES}\d{2}${FIM_OU_PALAVRA}`,
  'gu',
);
const CPF_AGRUPADO = new RegExp(String.raw`(?=\d)${INICIO_NUMERO}\d{3}${ENTRE_GRUPOS}\d{3}${ENTRE_GRUPOS}\d{3}${ANTES_DOS_DIGITOS_VERIFICADORES}\d{2}${FIM_OU_PALAVRA}`, 'gu');
/**
 * The alphanumeric CNPJ issued since July 2026 (`12.ABC.345/01DE-35`): twelve digits or capital
 * letters, then two check digits; one letter at least, since the patterns above take the others.
 */
const CNPJ_ALFANUMERICO = new RegExp(
  String.raw`(?=[0-9A-Z]{2}[.0-9A-Z]{3})(?<![\p{L}\p{N}])(?=[0-9A-Z./]{0,14}[A-Z])[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}/?[0-9A-Z]{4}${ANTES_DO_DV}\d{2}${FIM_OU_PALAVRA}`,
  'gu',
);
/**
 * Non-geographic numbers: toll-free `0800 123 4567`, and the shared-cost, donation and premium
 * 0300, 0500 and 0900; seven digits after the prefix, in groups of three and four or three, two
 * and two (`0800 707 12 34`), or the six of older 0800 numbers, grouped (`0800 70 1234`: bare,
 * `0800123456` is as often a code).
 */
const TELEFONE_NAO_GEOGRAFICO = new RegExp(
  String.raw`(?=0)${INICIO_NUMERO}(?:0[3589]00${SEP}?(?:\d{3}${SEP}?\d{2}${SEP}?\d{2}|\d{3}${SEP}?\d{4})|0800${SEP}\d{2}${SEP}?\d{4})${FIM_OU_PALAVRA}`,
  'gu',
);
const TALVEZ_NAO_GEOGRAFICO = /0[3589]00/;
/**
 * Brazilian telephone: optional `+55`, optional DDD (in parentheses or not, with the old leading
 * 0), then 8 or 9 digits split by a space, dot or dash (- – —), by a dash with spaces, or not split.
 */
const TELEFONE = new RegExp(
  String.raw`(?=[+(\d])${INICIO_NUMERO}(?<pais>\+\s?55${SEP}?)?(?<ddd>\(\s?0?\d{2}\s?\)[ \t\u00a0]?|0?\d{2}${SEP}?)?(?<numero>(?:9[ .])?\d{4,5}(?:${TRACO_ESPACADO}|${SEP})?\d{4})${FIM_OU_PALAVRA}`,
  'gu',
);
/**
 * A Brazilian number with the country code and no `+`, all digits, as WhatsApp links write it
 * (`wa.me/5511987654321`, `phone=551133334444`): 55, an area code, then a mobile number (with or
 * without its leading 9, as WhatsApp ids often drop it) or a landline number.
 */
const TELEFONE_55 = new RegExp(String.raw`(?=5)${INICIO_NUMERO}55[1-9]{2}(?:9\d{8}|[2-9]\d{7})${FIM_OU_PALAVRA}`, 'gu');
/**
 * A number glued to the word before it: a mobile or landline number split by a dash
 * ("Ligue98765-4321"), or a whole mobile number with its area code ("Tel11987654321"; ten digits
 * glued to letters are as often a product code).
 */
const TELEFONE_COLADO = new RegExp(String.raw`(?<=\p{Ll})(?:(?:9\d{4}|[2-5]\d{3})${TRACO}\d{4}|[1-9]{2}9\d{8})${FIM_OU_PALAVRA}`, 'gu');
/**
 * A number with a country code (`+55` too): `+`, the code (never starting with 0: `+01310-200`
 * in a map link is a CEP), then groups (some in parentheses) of 8
 * or more digits in all, split by a space or a dash; the last group of four may follow a dash
 * with spaces (`+55 11 98765 - 4321`), but a dash with spaces ends the number otherwise (a list's
 * next item: `+55 11 98765-4321 - 2 quartos`). Each group takes all the digits it can and keeps
 * them (`(?=(…))\1`, an atomic group): tried split every way, a long run of digits cost seconds.
 */
const TELEFONE_INTERNACIONAL = new RegExp(
  String.raw`(?<![\p{L}\p{N}])\+[1-9]\d{0,2}(?:[ \t\u00a0\-\u2010-\u2014]?\(?(?=(\d{1,5}))\1\)?){2,5}(?:${TRACO_ESPACADO}\d{4})?(?!\p{N})`,
  'gu',
);

/**
 * A number typed in groups the patterns above do not know (`987 654 321`, `98 765 4321`,
 * `(11) 9 87 65 43 21`, `33 33 44 44`, `9876-54321`, `98765  4321`, `9 8 7 6 5 4 3 2 1`,
 * `11 98765*4321`, `11 • 98765 • 4321`): two to eleven groups of one to five digits, split as a
 * telephone's are, by two or three spaces, or by a `*`, `•`, `●` or `·` (typed to slip past filters),
 * with spaces around or not, after an optional area code in parentheses. Only its digits decide
 * (substituirAgrupado), since lists of numbers take these shapes too.
 */
// Its separators share no way of matching, so that the repeated group never backtracks through
// two readings of the same dash.
const SINAL_ESPACADO = String.raw`[ \t\u00a0]*[\-\u2010-\u2014*\u2022\u00b7\u2219\u22c5\u25cf][ \t\u00a0]*`;
const TELEFONE_AGRUPADO = new RegExp(
  String.raw`(?=[(\d])${INICIO_NUMERO}(?<ddd>\(\s?0?\d{2}\s?\)[ \t\u00a0]?)?(?<grupos>\d{1,5}(?:(?:${SINAL_ESPACADO}|[ \t\u00a0]{1,3}|\.)\d{1,5}){1,10})${FIM_NUMERO}`,
  'gu',
);
/**
 * A word or sign that introduces a telephone number (`Tel.: `, `fone (`, `📞 `), right before it or
 * a few words before, with no digit between (`Telefone/WhatsApp da Ana: `).
 */
const PALAVRA_DE_TELEFONE = new RegExp(
  String.raw`(?:(?<!\p{L})(?:(?:${PALAVRAS_INTEIRAS_DE_TELEFONE.join('|')})(?!\p{L})|${INICIOS_DE_PALAVRA_DE_TELEFONE.join('|')})|\u{1f4de}|\u{1f4f1}|\u{1f4f2}|\u260e)[^\d\n]{0,24}$`,
  'iu',
);
/** `CEP` right before a number, and a CEP's shape (`30140-000`, `30.140-000`, `30140000`). */
const CEP_ANTES = /(?<!\p{L})CEP[ \t\u00a0]*[:.]?[ \t\u00a0]*$/iu;
const FORMA_DE_CEP = /^\d{2}\.?\d{3}[-. ]?\d{3}$/;
/** How far before a number PALAVRA_DE_TELEFONE looks. */
const ALCANCE_DA_PALAVRA = 40;
/** A mobile number (9 and eight digits), with its area code or not. */
const CELULAR = /^(?:[1-9]{2})?9\d{8}$/;
/** Likewise as mobile numbers are handed out (a 9 and a digit other than 0): not `901 902 903`. */
const CELULAR_EM_USO = /^(?:[1-9]{2})?9[1-9]\d{7}$/;
/** A landline number (2 to 5 and seven digits), with its area code or not. */
const FIXO_COMPLETO = /^(?:[1-9]{2})?[2-5]\d{7}$/;
/** `987.654.321`: thousands split by dots, as an amount is written (or a registration number: `9.765.432-10`). */
const MILHARES = /^\d{1,3}(?:\.\d{3})+(?:-\d{1,2})?$/;

/** "2019-2020", "2023 2024": a range of years has the shape of an 8-digit local number. */
const INTERVALO_DE_ANOS = new RegExp(String.raw`^(?:19|20)\d{2}(?:${TRACO_ESPACADO}|${SEP})?(?:19|20)\d{2}$`, 'u');
/** "1200–1500", "2500 - 3000": two round 4-digit values, the second larger, read as a range. */
function intervaloRedondo(numero: string): boolean {
  const [, de, ate] = /^(\d{4})\D+(\d{4})$/.exec(numero) ?? [];
  return de !== undefined && ate !== undefined && de.endsWith('00') && ate.endsWith('00') && Number(de) < Number(ate);
}
const ESPACO_EM_VOLTA_DO_TRACO = new RegExp(String.raw`\d[ \t\u00a0]+${TRACO}|${TRACO}[ \t\u00a0]+\d`, 'u');

/** A date as listings write one (`25.12.2026`, `12/03/2026`, `2026-03-12`): a telephone's digits are never grouped so. */
const DATA = /^(?:(?:0[1-9]|[12]\d|3[01])[./-](?:0[1-9]|1[0-2])[./-](?:19|20)\d{2}|(?:19|20)\d{2}[./-](?:0[1-9]|1[0-2])[./-](?:0[1-9]|[12]\d|3[01]))$/;
/** A CEP's five and three digits: a telephone's are four and four, or five and four. */
const CINCO_E_TRES = /^\d{5}[-.]\d{3}$/;

/**
 * A web address up to the match (`https://…/apartamento-3-quartos-1234567890`): listings' and
 * portals' ids take a telephone's shape there. And one that carries a telephone (a WhatsApp or
 * call link, a `fone=` parameter).
 */
const EM_ENDERECO_WEB = /(?:https?:\/\/|www\.)[^\s]*$/iu;
const ENDERECO_DE_CONTATO = /(?:wa\.me|whatsapp|phone=|fone=|telefone=|celular=|whats=|tel[:=])[^\s]*$/iu;
/** Whether a match stands in a web address that is no contact link: there, only a mobile number as handed out is a telephone. */
function emEnderecoSemContato(a: Achado, digitosDoNumero: string): boolean {
  const anterior = antes(a, 300);
  return EM_ENDERECO_WEB.test(anterior) && !ENDERECO_DE_CONTATO.test(anterior) && !CELULAR_EM_USO.test(digitosDoNumero);
}

/** An area code as written before a number: two digits, neither a zero (the old leading 0 aside). */
const DDD = /^\(?\s?0?[1-9]{2}\b/;
/** A landline number starts with 2 to 5. */
const FIXO = /^[2-5]/;

/**
 * Whether digits with no area code can be a local number: none starts with 0 or 1, and only a
 * mobile number's first group has five digits (a 9 first). Two groups of four a few apart, or the
 * second some floors above (`Aptos 2201 2202`, `2203 2202`, `2304 2404`), are neighbouring units:
 * a telephone's are that close about one time in a thousand.
 */
function soPodeSerLocal(numero: string): boolean {
  const grupos = numero.split(/\D+/);
  if (/^[01]/.test(numero) || (grupos[0]!.length === 5 && !numero.startsWith('9'))) return false;
  // Nine digits are a mobile number's, which starts with 9 (`Renavam 12345678900` after `12`).
  if (grupos.join('').length === 9 && !numero.startsWith('9')) return false;
  if (grupos.length !== 2 || grupos[0]!.length !== 4 || grupos[1]!.length !== 4) return true;
  const distancia = Number(grupos[1]) - Number(grupos[0]);
  return !(Math.abs(distancia) <= 9 || (distancia > 0 && distancia % 100 === 0 && distancia <= 900));
}

/** A match a replacer was called with, in the text it was found in. */
interface Achado {
  texto: string;
  inicio: number;
  fim: number;
}
/** The match `trecho` in its text, from a replacer's arguments (…, offset, string, and groups when the pattern names some). */
function achado(trecho: string, argumentos: readonly unknown[]): Achado {
  const [inicio, texto] = (typeof argumentos.at(-1) === 'string' ? argumentos.slice(-2) : argumentos.slice(-3, -1)) as [number, string];
  return { texto, inicio, fim: inicio + trecho.length };
}
const antes = ({ texto, inicio }: Achado, alcance: number): string => texto.slice(Math.max(0, inicio - alcance), inicio);
const depois = ({ texto, fim }: Achado, alcance: number): string => texto.slice(fim, fim + alcance);

/** Two groups of four split by a space, and such a group right before or after them. */
const DOIS_GRUPOS_DE_QUATRO = /^(\d{4})[ \t\u00a0](\d{4})$/;
const GRUPO_DE_QUATRO_ANTES = /(?<!\d)(\d{4})[ \t\u00a0]+$/;
const GRUPO_DE_QUATRO_DEPOIS = /^[ \t\u00a0]+(\d{4})(?!\d)/;
/**
 * Whether two groups of four split by a space stand in a row of such groups all within a thousand
 * (`Unidades 2201 2302 2404 2501`): units or lots. Two telephones' halves (`3232 4545 3232 4646`)
 * are further apart.
 */
function emFileiraDeUnidades(numero: string, a: Achado): boolean {
  const par = DOIS_GRUPOS_DE_QUATRO.exec(numero);
  if (par === null) return false;
  const vizinho = GRUPO_DE_QUATRO_ANTES.exec(antes(a, 8))?.[1] ?? GRUPO_DE_QUATRO_DEPOIS.exec(depois(a, 8))?.[1];
  if (vizinho === undefined) return false;
  const valores = [par[1], par[2], vizinho].map(Number);
  return Math.max(...valores) - Math.min(...valores) < 1000;
}

/** Whether a match is a CEP right after `CEP`. */
const depoisDeCep = (numero: string, a: Achado): boolean => FORMA_DE_CEP.test(numero) && CEP_ANTES.test(antes(a, 8));
/** Whether a match comes right after a word that says telephone. */
const depoisDePalavraDeTelefone = (a: Achado): boolean => PALAVRA_DE_TELEFONE.test(antes(a, ALCANCE_DA_PALAVRA));
/** Whether a match is followed by a measure or amount. */
const antesDeUnidade = (a: Achado): boolean => UNIDADE_DEPOIS.test(depois(a, 12));

/**
 * A mobile number spelled out, after its area code or not: a digit at a time (`9 8 7 6 5 4 3 2
 * 1`), or a digit or two at a time from its 9 (`11 9 87 65 43 21`, `98 76 54 32 1`); not when what
 * follows the first group only grows (`Unidades 9 1 2 3 4 5 6 7 8`, `Lotes 9 17 18 21 30`), as a
 * list does.
 */
function soletrado(partes: readonly string[], numero: string): boolean {
  const resto = numero.length === 11 && partes[0]!.length === 2 ? partes.slice(1) : partes;
  const forma = resto.every((p) => p.length === 1) || (resto[0]!.startsWith('9') && resto.every((p) => p.length <= 2));
  const cresce = resto.slice(1).every((p, i, seguintes) => i === 0 || Number(p) > Number(seguintes[i - 1]));
  return forma && !cresce;
}

/** Groups each a little larger than the one before (`951 952 953`, `95 97 98 101`): a list of values. */
function listaCrescente(partes: readonly string[]): boolean {
  const valores = partes.map(Number);
  return valores.every((v, i) => i === 0 || (v > valores[i - 1]! && v <= valores[i - 1]! * 1.2));
}

/**
 * Keeps what only looks like a local number: a range of years or of round values without an area
 * code; and a dash with spaces around it, unless something says telephone: a mobile number (9 and
 * 4 digits), the country code, an area code in parentheses, or one without them before a landline
 * number that is no range (`11 3333 - 4444`, but `Lote 12 1200 - 1500`, `Apto 45 1250 - 1380`).
 * Without a country code or an area code in parentheses: nothing after `CEP`, before a measure or
 * an amount, or starting with 0 or 1 (no local number does: `Contato 1203-1204`, `Código 11
 * 1234-5678`), and neighbouring units, a row of groups of four or a range unless a word says
 * telephone (`Apto 45 2304-2305`, but `fone 45 2304-2305`). In a web address, a listing's id.
 */
function substituirTelefone(trecho: string, ...argumentos: unknown[]): string {
  const { pais, ddd, numero } = argumentos.at(-1) as { pais: string | undefined; ddd: string | undefined; numero: string };
  const a = achado(trecho, argumentos);
  if (emEnderecoSemContato(a, trecho.replace(/\D/g, ''))) return trecho;
  const intervalo = INTERVALO_DE_ANOS.test(numero) || intervaloRedondo(numero);
  if (pais === undefined && ddd?.startsWith('(') !== true) {
    if (antesDeUnidade(a) || (ddd === undefined && depoisDeCep(numero, a)) || /^[01]/.test(numero)) return trecho;
    if (ddd !== undefined && !DDD.test(ddd)) return trecho;
    const soParece = !soPodeSerLocal(numero) || emFileiraDeUnidades(numero, a) || (ddd !== undefined && intervalo);
    if (soParece && !depoisDePalavraDeTelefone(a)) return trecho;
  }
  if (pais === undefined && ddd === undefined && intervalo) return trecho;
  const telefoneExplicito =
    pais !== undefined ||
    ddd?.startsWith('(') === true ||
    /^9\d{4}/.test(numero) ||
    (ddd !== undefined && DDD.test(ddd) && FIXO.test(numero) && !intervalo);
  if (ESPACO_EM_VOLTA_DO_TRACO.test(numero) && !telefoneExplicito) return trecho;
  return MARCADOR_REMOVIDO;
}

/**
 * A grouped number is a telephone when something says so (a word such as `Tel.` right before it,
 * or an area code in parentheses) and its digits are a mobile or landline number's. Alone, only
 * a mobile number as handed out, in at most four groups besides its area code or spelled out
 * (soletrado), or a landline number after a bare area code, in pairs (`11 3333 44 44`), not
 * written as an amount (`987.654.321`), and no list: all round (`950
 * 970 990`), each a little larger than the one before (`951 952 953`, a table's row too), or
 * followed by a measure (`m²`, `mil`). Lists of measures, flats and years take the other shapes
 * too. Never a CEP after `CEP`.
 */
function substituirAgrupado(trecho: string, ...argumentos: unknown[]): string {
  const { ddd, grupos } = argumentos.at(-1) as { ddd: string | undefined; grupos: string };
  const numero = grupos.replace(/\D/g, '');
  const a = achado(trecho, argumentos);
  if ((ddd !== undefined && numero.length > 9) || (ddd === undefined && (antesDeUnidade(a) || depoisDeCep(grupos, a)))) return trecho;
  if (DATA.test(grupos) || emEnderecoSemContato(a, numero)) return trecho;
  const partes = grupos.split(/\D+/);
  const ditoTelefone = ddd !== undefined || depoisDePalavraDeTelefone(a);
  if (ditoTelefone) {
    const intervalo = INTERVALO_DE_ANOS.test(grupos) || intervaloRedondo(grupos);
    // Said to be a telephone, yet a CEP's shape, or floors or units in a row (`Whats: andares 22 23 24 25`).
    if (ddd === undefined && (CINCO_E_TRES.test(grupos) || (partes.length > 2 && listaCrescente(partes)))) return trecho;
    return CELULAR.test(numero) || (FIXO_COMPLETO.test(numero) && !intervalo) ? MARCADOR_REMOVIDO : trecho;
  }
  const quantosGrupos = partes.length - (numero.length === 11 ? 1 : 0);
  const lista = partes.every((p) => p.length >= 2 && p.endsWith('0')) || listaCrescente(partes);
  if (MILHARES.test(grupos) || lista) return trecho;
  if (CELULAR_EM_USO.test(numero) && (quantosGrupos <= 4 || soletrado(partes, numero))) return MARCADOR_REMOVIDO;
  // A landline number after its area code, its last four digits in pairs: `11 3333 44 44`, and no
  // other grouping, which lists take (`Parcelas 12 24 36 48 60`, `Rua X 45 51020-000`); no spaced
  // dash either, a list's or a range's (`Aptos de 45 2500 - 3000`).
  const fixoComDdd = FIXO_COMPLETO.test(numero) && partes.map((p) => p.length).join() === '2,4,2,2';
  return fixoComDdd && !ESPACO_EM_VOLTA_DO_TRACO.test(grupos) ? MARCADOR_REMOVIDO : trecho;
}

/**
 * A CPF or CNPJ as formatted (by its shape), or as a bare run of 11 or 14 digits when its check
 * digits are valid or the word says which it is (`CPF 12345678900`, mistyped): a bare run is as
 * often a code (`Renavam 12345678900`, a barcode).
 */
const DITO_DOCUMENTO = /(?<!\p{L})(?:cpf|cnpj)\b[^\d\n]{0,16}$/iu;
const documentoFormatadoOuValido =
  (valido: (digitos: string) => boolean) =>
  (trecho: string, ...argumentos: unknown[]): string =>
    /^\d+$/.test(trecho) && !valido(trecho) && !DITO_DOCUMENTO.test(antes(achado(trecho, argumentos), 24)) ? trecho : MARCADOR_REMOVIDO;

/** A CPF or CNPJ found by shape alone, when its check digits are valid. */
const documentoValido = (valido: (digitos: string) => boolean) => (trecho: string) =>
  valido(trecho.replace(/\D/g, '')) ? MARCADOR_REMOVIDO : trecho;
const substituirCnpjSeValido = documentoValido((digitos) => isValidCnpj(digitos));

/**
 * The check digit of an alphanumeric CNPJ's first 12 or 13 characters, as the Receita Federal
 * defines it: each character's code minus 48 (digits keep their value, `A` is 17), weighted 2 to
 * 9 from the right, modulo 11.
 */
function digitoVerificadorCnpj(base: string): number {
  let soma = 0;
  for (let i = 0; i < base.length; i++) soma += (base.charCodeAt(i) - 48) * (((base.length - 1 - i) % 8) + 2);
  const resto = soma % 11;
  return resto < 2 ? 0 : 11 - resto;
}
/** An alphanumeric CNPJ when its check digits are valid (`@brazilian-utils` knows digits only). */
function substituirCnpjAlfanumerico(trecho: string): string {
  const caracteres = trecho.replace(/[^0-9A-Z]/g, '');
  const base = caracteres.slice(0, 12);
  const primeiro = digitoVerificadorCnpj(base);
  return caracteres === `${base}${primeiro}${digitoVerificadorCnpj(base + primeiro)}` ? MARCADOR_REMOVIDO : trecho;
}
const substituirCpfSeValido = documentoValido(isValidCpf);
const substituirCnpjFormatado = documentoFormatadoOuValido((digitos) => isValidCnpj(digitos));
const substituirCpfFormatado = documentoFormatadoOuValido(isValidCpf);

const substituirColado = (trecho: string): string => (INTERVALO_DE_ANOS.test(trecho) ? trecho : MARCADOR_REMOVIDO);
const substituirInternacional = (trecho: string): string => (digitos(trecho, 8) >= 8 ? MARCADOR_REMOVIDO : trecho);

/** Decimal digits in `texto` (what `\d` matches), counted up to `limite`. */
function digitos(texto: string, limite: number): number {
  let n = 0;
  for (let i = 0; i < texto.length && n < limite; i++) {
    const c = texto.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) n++;
  }
  return n;
}

/**
 * A line ending in a dash right after a digit, the next one starting with a digit: `98765-<br>4321`
 * is a number typed across two lines to slip past filters. The halves are joined only where that
 * removes more: a table's rows or a list's items that end so (`Suítes: 1-<br>2 vagas`) keep their
 * lines.
 */
const TRACO_NO_FIM_DA_LINHA = /(\d[-\u2010-\u2014])[^\S\n]*\n[^\S\n]*(?=\d)/g;
const TEM_TRACO_NO_FIM_DA_LINHA = new RegExp(TRACO_NO_FIM_DA_LINHA.source);

/**
 * Replaces telephone numbers, e-mail addresses and CPF/CNPJ numbers by `[removido]`, one typed
 * across two lines after its dash too ({@link TRACO_NO_FIM_DA_LINHA}).
 */
export function removerContatos(texto: string): string {
  const removido = removerNaLinha(texto);
  if (!texto.includes('\n') || !TEM_TRACO_NO_FIM_DA_LINHA.test(texto)) return removido;
  const unido = removerNaLinha(texto.replace(TRACO_NO_FIM_DA_LINHA, '$1'));
  return marcadores(unido) > marcadores(removido) ? unido : removido;
}

const marcadores = (texto: string): number => texto.split(MARCADOR_REMOVIDO).length - 1;

/**
 * The removal, each contact within a line. Order matters: e-mails first (they may contain digits),
 * plain then disguised, then the longer document numbers, then telephones (with a country code,
 * then without, then in other groupings), so a CPF is not half-eaten as a telephone.
 * Most texts hold no `@` and few digits: a pattern that cannot match is not run (the leading
 * lookaheads likewise only skip positions where no match can start).
 */
function removerNaLinha(texto: string): string {
  let resultado = texto.includes('@') ? texto.replace(EMAIL, MARCADOR_REMOVIDO) : texto;
  if (TALVEZ_EMAIL_DISFARCADO.test(resultado)) resultado = resultado.replace(EMAIL_DISFARCADO, substituirEmailDisfarcado);
  if (/[A-Z]/.test(resultado) && /\d\d/.test(resultado)) resultado = resultado.replace(CNPJ_ALFANUMERICO, substituirCnpjAlfanumerico);
  // A CNPJ has 14 digits, a CPF 11, a non-geographic number 10 or 11 and a telephone at least 8.
  const n = digitos(resultado, 14);
  if (n < 8) return resultado;
  if (n >= 14) resultado = resultado.replace(CNPJ, substituirCnpjFormatado).replace(CNPJ_AGRUPADO, substituirCnpjSeValido);
  if (n >= 11) resultado = resultado.replace(CPF, substituirCpfFormatado).replace(CPF_AGRUPADO, substituirCpfSeValido);
  if (n >= 10 && TALVEZ_NAO_GEOGRAFICO.test(resultado)) resultado = resultado.replace(TELEFONE_NAO_GEOGRAFICO, MARCADOR_REMOVIDO);
  // Another country's number first: its groups could pass for a DDD and a local number.
  if (resultado.includes('+')) resultado = resultado.replace(TELEFONE_INTERNACIONAL, substituirInternacional);
  if (n >= 12 && resultado.includes('55')) resultado = resultado.replace(TELEFONE_55, MARCADOR_REMOVIDO);
  resultado = resultado.replace(TELEFONE, substituirTelefone).replace(TELEFONE_COLADO, substituirColado);
  return resultado.replace(TELEFONE_AGRUPADO, substituirAgrupado);
}
