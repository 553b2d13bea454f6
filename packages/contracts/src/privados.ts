// The register's private values as agents type them into a property's free text ("Proprietário
// Renata Santos Vieira", "CRECI-SP 123456-F"). The schema drops the private fields, and after it
// nothing knows them: this is the last place they can be found, so here they are masked.

/** What partners read where something private was: one marker for every kind. */
export const MARCADOR_REMOVIDO = '[removido]';

/** Between the words of a name typed in a rich-text editor: spaces, or its `&nbsp;`. */
const ENTRE_PALAVRAS = String.raw`(?:\s|&nbsp;|&#160;)+`;
const escapar = (texto: string): string => texto.replace(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);

export interface ValoresPrivados {
  /** People: the owner's and the agent's names. */
  nomes: readonly unknown[];
  /** Codes: the agent's CRECI, the land-registry number. */
  codigos: readonly unknown[];
}

/** A value to look for: words any typing of it contains, and its patterns. */
interface Procurado {
  palavras: readonly string[];
  formas: () => string[];
}

/**
 * A person's name is typed whole or by its first and last words ("Renata Vieira"); a one-word
 * name is too likely an ordinary word of the text, and is left alone. A code (CRECI,
 * land-registry number) is typed as it was sent, when it is long enough to be one.
 */
function procurados({ nomes, codigos }: ValoresPrivados): Procurado[] {
  const resultado: Procurado[] = [];
  for (const nome of nomes) {
    const palavras = typeof nome === 'string' ? nome.trim().split(/\s+/) : [];
    if (palavras.length < 2) continue;
    const [primeira, ultima] = [palavras[0]!, palavras.at(-1)!];
    resultado.push({
      palavras: [ultima, primeira],
      formas: () => {
        const inteiro = palavras.map(escapar).join(ENTRE_PALAVRAS);
        return palavras.length === 2 ? [inteiro] : [inteiro, `${escapar(primeira)}${ENTRE_PALAVRAS}${escapar(ultima)}`];
      },
    });
  }
  for (const codigo of codigos) {
    const aparado = typeof codigo === 'string' ? codigo.trim() : '';
    if (aparado.length >= 5) resultado.push({ palavras: [aparado], formas: () => [escapar(aparado)] });
  }
  return resultado;
}

/** Whether `texto` holds `palavra` as sent, in lower or in upper case: how agents type them. */
const contem = (texto: string | null, palavra: string): boolean =>
  texto !== null && (texto.includes(palavra) || texto.includes(palavra.toLowerCase()) || texto.includes(palavra.toUpperCase()));

/**
 * `titulo` and `descricao_html` with every private value of the record replaced by the marker;
 * the very record when there is none. Most texts hold none, and a pattern costs about 15 µs to
 * build (its Unicode classes): one is built only for the values whose words (a name's last and
 * first, a code) the text holds, as sent or in lower or upper case; the pattern then matches in
 * any case.
 */
export function mascararPrivados<T extends { titulo: string | null; descricao_html: string | null }>(registro: T, valores: ValoresPrivados): T {
  const { titulo, descricao_html: descricao } = registro;
  if (titulo === null && descricao === null) return registro;
  const presentes = procurados(valores).filter((p) => p.palavras.every((palavra) => contem(titulo, palavra) || contem(descricao, palavra)));
  if (presentes.length === 0) return registro;
  // Longer forms first, so a full name is masked whole rather than its first and last words apart.
  const formas = presentes.flatMap((p) => p.formas()).sort((a, b) => b.length - a.length);
  const padrao = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${formas.join('|')})(?![\p{L}\p{N}])`, 'giu');
  const [novoTitulo, novaDescricao] = [titulo?.replace(padrao, MARCADOR_REMOVIDO) ?? null, descricao?.replace(padrao, MARCADOR_REMOVIDO) ?? null];
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
