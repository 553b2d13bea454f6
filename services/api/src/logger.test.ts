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

  it('leaves other URLs as they are', () => {
    expect(urlParaLog('/api/v1/imoveis?por_pagina=2&alterados_desde=2026-11-21T10:00:00Z')).toBe('/api/v1/imoveis?por_pagina=2&alterados_desde=2026-11-21T10:00:00Z');
  });
});
