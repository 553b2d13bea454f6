// URLs are logged without tokens.
import { describe, expect, it } from 'vitest';
import { urlParaLog } from './logger.ts';

describe('urlParaLog', () => {
  const token = `imv_${'Z'.repeat(43)}`;
  it('blanks token parameters and token-shaped values anywhere in the URL', () => {
    expect(urlParaLog(`/api/v1/imoveis?access_token=segredo&por_pagina=2`)).toBe('/api/v1/imoveis?access_token=[REDACTED]&por_pagina=2');
    expect(urlParaLog(`/api/v1/imoveis?por_pagina=2&token=segredo`)).toBe('/api/v1/imoveis?por_pagina=2&token=[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis?cursor=${token}`)).toBe('/api/v1/imoveis?cursor=[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis/${token}`)).toBe('/api/v1/imoveis/[REDACTED]');
  });

  it('blanks a token however it is percent-encoded, in the path, a value or a parameter name', () => {
    const codificado = token.replace('_', '%5F').replace('ZZZ', '%5A%5a%5A');
    expect(urlParaLog(`/api/v1/imoveis?x=${codificado}&por_pagina=2`)).toBe('/api/v1/imoveis?x=[REDACTED]&por_pagina=2');
    expect(urlParaLog(`/api/v1/imoveis?acc%65ss_token=segredo`)).toBe('/api/v1/imoveis?acc%65ss_token=[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis/${codificado}`)).toBe('/api/v1/imoveis/[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis?${codificado}`)).toBe('/api/v1/imoveis?[REDACTED]=[REDACTED]');
    expect(JSON.stringify(urlParaLog(`/api/v1/imoveis?a=%E0%A4%A&b=${codificado}`))).not.toContain('%5A');
  });

  it('blanks an encoded token beside a malformed escape, which a decoder of the whole part gives up on', () => {
    const codificado = token.replace('_', '%5F').replace('ZZZ', '%5A%5a%5A');
    expect(urlParaLog(`/api/v1/imoveis?x=${codificado}%ZZ`)).toBe('/api/v1/imoveis?x=[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis/${codificado}%E0%A4`)).toBe('/api/v1/imoveis/[REDACTED]');
  });

  it('blanks a token encoded twice or more, one decoding away for whoever reads the log', () => {
    const duas = token.replace('imv_', '%2569mv_');
    expect(urlParaLog(`/api/v1/imoveis?x=${duas}`)).toBe('/api/v1/imoveis?x=[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis/${token.replace('_', '%255F')}%25ZZ`)).toBe('/api/v1/imoveis/[REDACTED]');
    expect(urlParaLog(`/api/v1/imoveis?x=${token.replace('_', '%25252525255F')}`)).toBe('/api/v1/imoveis?x=[REDACTED]');
  });

  it('leaves other URLs as they are', () => {
    expect(urlParaLog('/api/v1/imoveis?por_pagina=2&alterados_desde=2026-11-21T10:00:00Z')).toBe('/api/v1/imoveis?por_pagina=2&alterados_desde=2026-11-21T10:00:00Z');
  });
});
