// Photo rules: which photos a partner sees, in which order, at which public (watermarked) address.
import type { Foto, FotoRegistro } from '@imoveis/contracts';

/** Code-unit order, not locale order: the result must not depend on the machine's locale. */
function compararTexto(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compararFotos(a: FotoRegistro, b: FotoRegistro): number {
  return a.ordem !== b.ordem ? a.ordem - b.ordem : compararTexto(a.arquivo, b.arquivo);
}

/** A storage key encodeURIComponent leaves as it is, segment by segment, with no leading slash. */
const ARQUIVO_SEM_CODIFICACAO = /^[\w.!~*'()-][\w.!~*'()/-]*$/;

function semBarrasNoFim(baseUrl: string): string {
  return baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
}

function urlComBase(base: string, arquivo: string, alteradaEm: string | null): string {
  const caminho = ARQUIVO_SEM_CODIFICACAO.test(arquivo)
    ? arquivo
    : arquivo.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  // Portals cache images by address: a replaced file must get a new one.
  return alteradaEm === null ? `${base}/${caminho}` : `${base}/${caminho}?v=${String(Date.parse(alteradaEm))}`;
}

/**
 * The base address joined with the storage key by exactly one slash, each key segment
 * percent-encoded (a key may hold spaces, accents, `#` or `?`).
 */
export function urlDaFoto(baseUrl: string, arquivo: string, alteradaEm: string | null): string {
  return urlComBase(semBarrasNoFim(baseUrl), arquivo, alteradaEm);
}

/**
 * A `.` or `..` segment: URLs resolve them (percent-encoded too), so the address would name
 * another key (`imoveis/./c.jpg` is read as `imoveis/c.jpg`) or leave the key's path.
 */
const SEGMENTO_RELATIVO = /(?:^|\/)\.\.?(?:\/|$)/;

/** Half of a UTF-16 pair alone (JSON can carry one as `\ud800`): no UTF-8 key names it. */
const SURROGATE_SOLITARIO = /\p{Cs}/u;

/**
 * A storage key that gives a file's address: not blank, not a folder (`/`, `imoveis/AP1/`: the
 * base address's folder, shared by every such photo), no segment a URL resolves away, and text a
 * URL can hold.
 */
function temEndereco(arquivo: string): boolean {
  return arquivo.trim() !== '' && !arquivo.endsWith('/') && !SEGMENTO_RELATIVO.test(arquivo) && !SURROGATE_SOLITARIO.test(arquivo);
}

export function mapearFotos(fotos: readonly FotoRegistro[], fotosBaseUrl: string): Foto[] {
  const publicas: FotoRegistro[] = [];
  // A photo without a usable storage key has no address to give.
  for (const foto of fotos) if (foto.publica && temEndereco(foto.arquivo)) publicas.push(foto);
  publicas.sort(compararFotos);
  const indicePrincipal = Math.max(0, publicas.findIndex((foto) => foto.principal));
  const base = semBarrasNoFim(fotosBaseUrl);
  const resultado: Foto[] = [];
  for (let i = 0; i < publicas.length; i++) {
    const foto = publicas[i]!;
    resultado.push({ url: urlComBase(base, foto.arquivo, foto.alterada_em), ordem: i + 1, principal: i === indicePrincipal });
  }
  return resultado;
}
