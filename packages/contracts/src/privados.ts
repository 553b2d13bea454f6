// The register's private values as agents type them into a property's free text ("Proprietário
// Renata Santos Vieira", "CRECI-SP 123456-F"). The schema drops the private fields, and after it
// nothing knows them: this is the last place they can be found, so here they are masked.

/** What partners read where something private was: one marker for every kind. */
export const MARCADOR_REMOVIDO = '[removido]';

/** A letter or digit (lower case), next to which a value is part of another word. */
const LETRA_OU_DIGITO = /[0-9a-z\u00c0-\u024f]/;

export interface ValoresPrivados {
  /** People: the owner's and the agent's names. */
  nomes: readonly unknown[];
  /** Codes: the agent's CRECI, the land-registry number. */
  codigos: readonly unknown[];
}

/** A way a private value is typed: its words as sent, and in lower case. */
interface Forma {
  enviadas: readonly string[];
  palavras: readonly string[];
}

/**
 * The ways the record's private values are typed: a person's name whole or by its first and last
 * words ("Renata Vieira"), not a one-word name (too likely an ordinary word of the text); a code
 * (CRECI, land-registry number) as sent, when it is long enough to be one. Longer forms first, so
 * a full name is masked whole.
 */
function formas({ nomes, codigos }: ValoresPrivados): Forma[] {
  const resultado: Forma[] = [];
  const forma = (enviadas: string[]): Forma => ({ enviadas, palavras: enviadas.map((p) => p.toLowerCase()) });
  for (const nome of nomes) {
    const palavras = typeof nome === 'string' ? nome.trim().split(/\s+/) : [];
    if (palavras.length < 2) continue;
    resultado.push(forma(palavras));
    if (palavras.length > 2) resultado.push(forma([palavras[0]!, palavras.at(-1)!]));
  }
  for (const codigo of codigos) {
    const aparado = typeof codigo === 'string' ? codigo.trim() : '';
    if (aparado.length >= 5) resultado.push(forma(aparado.split(/\s+/)));
  }
  const tamanho = (f: Forma) => f.palavras.join(' ').length;
  return resultado.sort((a, b) => tamanho(b) - tamanho(a));
}

/** Past the spaces (or an editor's `&nbsp;`) from `i`. */
function aposSeparadores(texto: string, i: number): number {
  for (;;) {
    if (/\s/.test(texto.charAt(i))) i++;
    else if (texto.startsWith('&nbsp;', i) || texto.startsWith('&#160;', i)) i += 6;
    else return i;
  }
}

/** Where `palavras`, split by spaces or `&nbsp;`, start in `texto` at `i`: their end, or -1. */
function fimDaForma(texto: string, i: number, palavras: readonly string[]): number {
  let fim = i + palavras[0]!.length;
  for (let k = 1; k < palavras.length; k++) {
    const proxima = aposSeparadores(texto, fim);
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
function mascarar(texto: string | null, todas: readonly Forma[]): string | null {
  if (texto === null) return null;
  const minusculo = emMinusculas(texto);
  const achados: [number, number][] = [];
  for (const { palavras } of todas) {
    for (let i = minusculo.indexOf(palavras[0]!); i !== -1; i = minusculo.indexOf(palavras[0]!, i + 1)) {
      const fim = fimDaForma(minusculo, i, palavras);
      if (fim === -1 || LETRA_OU_DIGITO.test(minusculo.charAt(i - 1)) || LETRA_OU_DIGITO.test(minusculo.charAt(fim))) continue;
      if (!achados.some(([inicio, final]) => i < final && fim > inicio)) achados.push([i, fim]);
    }
  }
  if (achados.length === 0) return texto;
  let resultado = '';
  let desde = 0;
  for (const [inicio, fim] of achados.sort((a, b) => a[0] - b[0])) {
    resultado += texto.slice(desde, inicio) + MARCADOR_REMOVIDO;
    desde = fim;
  }
  return resultado + texto.slice(desde);
}

/** Whether `texto` holds `palavra` as sent, in lower or in upper case: how agents type them. */
const contem = (texto: string | null, palavra: string): boolean =>
  texto !== null && (texto.includes(palavra) || texto.includes(palavra.toLowerCase()) || texto.includes(palavra.toUpperCase()));

/**
 * `titulo` and `descricao_html` with every private value of the record replaced by the marker;
 * the very record when there is none. Most texts hold none: only when one holds, as sent or in
 * lower or upper case, the first and last words of a form is it searched in any case. No pattern
 * is built per record: over a replay, V8 compiling them cost 30–40 µs an event (decision 0010).
 */
export function mascararPrivados<T extends { titulo: string | null; descricao_html: string | null }>(registro: T, valores: ValoresPrivados): T {
  const { titulo, descricao_html: descricao } = registro;
  if (titulo === null && descricao === null) return registro;
  const presentes = formas(valores).filter(({ enviadas }) =>
    [enviadas[0]!, enviadas.at(-1)!].every((palavra) => contem(titulo, palavra) || contem(descricao, palavra)),
  );
  if (presentes.length === 0) return registro;
  const [novoTitulo, novaDescricao] = [mascarar(titulo, presentes), mascarar(descricao, presentes)];
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
