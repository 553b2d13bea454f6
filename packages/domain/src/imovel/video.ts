// Video rule: any YouTube link form becomes the one canonical `watch?v=` address; anything else is dropped.

const ID_YOUTUBE = /^[A-Za-z0-9_-]{11}$/;
// youtube.com.br, YouTube's own Brazilian domain, redirects to youtube.com with the same path (rules version 18).
const HOSTS_YOUTUBE = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'gaming.youtube.com', 'youtube.googleapis.com', 'youtube.com.br', 'www.youtube.com.br', 'm.youtube.com.br']);
/** Pages that name the video in `?v=`: the watch page, and its pop-up player (rules version 18). */
const PAGINAS_DE_V = new Set(['watch', 'watch_popup']);
const HOSTS_NOCOOKIE = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com']);
const PREFIXOS_COM_ID = new Set(['embed', 'shorts', 'live', 'v', 'e']);

/** Agents paste links with or without the scheme: `youtu.be/ID` is as good as `https://youtu.be/ID`. */
function lerUrl(texto: string): URL | null {
  const comEsquema = /^[a-z][a-z0-9+.-]*:/i.test(texto) ? texto : `https://${texto}`;
  try {
    const url = new URL(comEsquema);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The path's segments, each cut at a `&`: old embed codes glued their options to the id with it
 * (`/v/ID&hl=en_US&fs=1`), having no `?`.
 */
const segmentosDe = (caminho: string): string[] =>
  caminho
    .split('/')
    .filter((segmento) => segmento !== '')
    .map((segmento) => segmento.split('&')[0]!);

/** `compartilhado`: read from a share link's `u` or a page's fragment, which is not read again. */
function idDoYoutube(url: URL, compartilhado = false): string | null {
  const host = url.hostname.toLowerCase();
  const segmentos = segmentosDe(url.pathname);
  if (host === 'youtu.be') return segmentos[0] ?? null;
  if (HOSTS_NOCOOKIE.has(host)) return segmentos[0] === 'embed' ? (segmentos[1] ?? null) : null;
  if (!HOSTS_YOUTUBE.has(host)) return null;
  const id = idDoCaminho(url, segmentos, compartilhado);
  return id !== null || compartilhado ? id : idDoFragmento(url.hash.slice(1).replace(/^!/, ''));
}

/** The id a YouTube address names in its path or query. */
function idDoCaminho(url: URL, segmentos: readonly string[], compartilhado: boolean): string | null {
  if (segmentos.length === 0 || (segmentos.length === 1 && PAGINAS_DE_V.has(segmentos[0]!))) return url.searchParams.get('v');
  // A share link (`/attribution_link?u=/watch%3Fv%3DID`): the video's path, on YouTube itself.
  if (segmentos.length === 1 && segmentos[0] === 'attribution_link') {
    const caminho = url.searchParams.get('u');
    return !compartilhado && caminho?.startsWith('/') === true ? idNoYoutube(caminho) : null;
  }
  const [prefixo, id] = segmentos;
  return prefixo !== undefined && PREFIXOS_COM_ID.has(prefixo) ? (id ?? null) : null;
}

/** The id a path on YouTube names, read from a share link or a fragment; null when it is no URL's path (`//[`). */
function idNoYoutube(caminho: string): string | null {
  let url: URL;
  try {
    url = new URL(caminho, 'https://www.youtube.com');
  } catch {
    return null;
  }
  return idDoYoutube(url, true);
}

/**
 * The id in the fragment of an address whose path and query name none: the old site's pages kept
 * the video there (`#!v=ID`, `#/watch?v=ID`, a channel's `#p/u/1/ID`).
 */
function idDoFragmento(fragmento: string): string | null {
  if (fragmento.startsWith('/')) return idNoYoutube(fragmento);
  if (fragmento.startsWith('p/')) return segmentosDe(fragmento).at(-1) ?? null;
  return fragmento === '' ? null : new URLSearchParams(fragmento).get('v');
}

export function urlVideo(valor: string | null): string | null {
  const texto = valor?.trim() ?? '';
  if (texto === '') return null;
  const url = lerUrl(texto);
  const id = url === null ? null : idDoYoutube(url);
  // `/embed/videoseries?list=…` is a playlist, and its placeholder has the shape of an id.
  if (id === null || !ID_YOUTUBE.test(id) || id === 'videoseries') return null;
  return `https://www.youtube.com/watch?v=${id}`;
}
