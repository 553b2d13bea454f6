// Free text from the register made partner-safe: rich-text HTML to plain text, contact details removed.
import { compile } from 'html-to-text';

const MARCADOR_REMOVIDO = '[removido]';

// Compiled once: html-to-text builds its selector machinery per options object.
const htmlParaTextoBruto = compile({
  wordwrap: false,
  // The source is HTML from a rich-text editor: a raw newline there is whitespace, line breaks come from tags.
  preserveNewlines: false,
  selectors: [
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
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    { selector: 'ul', options: { itemPrefix: '- ' } },
  ],
});

/**
 * `descricao_html` as plain text: tags removed, entities decoded, `<br>` and block ends as line
 * breaks, at most one blank line in a row, trimmed; `null` when nothing is left.
 * The HTML is parsed by html-to-text; only its plain-text output is tidied here.
 */
export function htmlParaTexto(html: string | null): string | null {
  if (html === null) return null;
  const linhas = htmlParaTextoBruto(html)
    .replaceAll('\u00a0', ' ')
    .split(/\r?\n/)
    .map((linha) => linha.trimEnd());
  const resultado: string[] = [];
  for (const linha of linhas) {
    const anteriorEmBranco = resultado.length > 0 && resultado[resultado.length - 1] === '';
    if (linha === '' && anteriorEmBranco) continue;
    resultado.push(linha);
  }
  const texto = resultado.join('\n').trim();
  return texto === '' ? null : texto;
}

// Digits glued to a letter, to another digit, or to a decimal/thousands separator belong to
// something else (a code such as AP1234, a price such as 1.450.000, an area such as 120,5).
const INICIO_NUMERO = String.raw`(?<![\p{L}\p{N}])(?<!\p{N}[.,])(?<!R\$\s*)`;
const FIM_NUMERO = String.raw`(?![\p{L}\p{N}])(?![.,]\p{N})`;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/** CNPJ `##.###.###/####-##` or 14 digits (separators optional, as agents type them). */
const CNPJ = new RegExp(String.raw`${INICIO_NUMERO}\d{2}\.?\d{3}\.?\d{3}/?\d{4}-?\d{2}${FIM_NUMERO}`, 'gu');
/** CPF `###.###.###-##` or 11 digits. */
const CPF = new RegExp(String.raw`${INICIO_NUMERO}\d{3}\.?\d{3}\.?\d{3}-?\d{2}${FIM_NUMERO}`, 'gu');
/** Toll-free numbers: `0800 123 4567`. */
const TELEFONE_0800 = new RegExp(String.raw`${INICIO_NUMERO}0800[\s.-]?\d{3}[\s.-]?\d{4}${FIM_NUMERO}`, 'gu');
/**
 * Brazilian telephone: optional `+55`, optional DDD (in parentheses or not, with the old leading
 * 0), then 8 or 9 digits split by a dash, space or dot (or not split).
 */
const TELEFONE = new RegExp(
  String.raw`${INICIO_NUMERO}(?<pais>\+\s?55[\s.-]?)?(?<ddd>\(\s?0?\d{2}\s?\)\s?|0?\d{2}[\s.-]?)?(?<numero>(?:9[\s.])?\d{4,5}[\s.-]?\d{4})${FIM_NUMERO}`,
  'gu',
);
/** "2019-2020", "2023 2024": a range of years has the shape of an 8-digit local number. */
const INTERVALO_DE_ANOS = /^(?:19|20)\d{2}[\s.-]?(?:19|20)\d{2}$/;

function substituirTelefone(trecho: string, ...argumentos: unknown[]): string {
  const grupos = argumentos.at(-1) as { pais: string | undefined; ddd: string | undefined; numero: string };
  const semPrefixo = grupos.pais === undefined && grupos.ddd === undefined;
  return semPrefixo && INTERVALO_DE_ANOS.test(grupos.numero) ? trecho : MARCADOR_REMOVIDO;
}

/**
 * Replaces telephone numbers, e-mail addresses and CPF/CNPJ numbers by `[removido]`.
 * Order matters: e-mails first (they may contain digits), then the longer document numbers,
 * then telephones, so a CPF is not half-eaten as a telephone.
 */
export function removerContatos(texto: string): string {
  return texto
    .replace(EMAIL, MARCADOR_REMOVIDO)
    .replace(CNPJ, MARCADOR_REMOVIDO)
    .replace(CPF, MARCADOR_REMOVIDO)
    .replace(TELEFONE_0800, MARCADOR_REMOVIDO)
    .replace(TELEFONE, substituirTelefone);
}

/** Trimmed text, `null` when empty. */
export function aparado(valor: string | null): string | null {
  const texto = valor?.trim() ?? '';
  return texto === '' ? null : texto;
}
