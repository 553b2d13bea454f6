// Photo rules: which photos a partner sees, in which order, at which public (watermarked) address.
import type { Foto, FotoRegistro } from '@imoveis/contracts';

/** Code-unit order, not locale order: the result must not depend on the machine's locale. */
function compararTexto(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compararFotos(a: FotoRegistro, b: FotoRegistro): number {
  return a.ordem !== b.ordem ? a.ordem - b.ordem : compararTexto(a.arquivo, b.arquivo);
}

/**
 * The base address joined with the storage key by exactly one slash, each key segment
 * percent-encoded (a key may hold spaces, accents, `#` or `?`).
 */
export function urlDaFoto(baseUrl: string, arquivo: string, alteradaEm: string | null): string {
  const base = baseUrl.replace(/\/+$/, '');
  const caminho = arquivo.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  // Portals cache images by address: a replaced file must get a new one.
  const versao = alteradaEm === null ? '' : `?v=${String(new Date(alteradaEm).getTime())}`;
  return `${base}/${caminho}${versao}`;
}

export function mapearFotos(fotos: readonly FotoRegistro[], fotosBaseUrl: string): Foto[] {
  const publicas = fotos.filter((foto) => foto.publica).sort(compararFotos);
  const indicePrincipal = Math.max(0, publicas.findIndex((foto) => foto.principal));
  return publicas.map((foto, indice) => ({
    url: urlDaFoto(fotosBaseUrl, foto.arquivo, foto.alterada_em),
    ordem: indice + 1,
    principal: indice === indicePrincipal,
  }));
}
