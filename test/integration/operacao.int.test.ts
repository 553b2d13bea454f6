// The operating interface (operations.md): the root package.json's scripts and the environment
// variables are "kept and documented in the README". Every variable a service's settings read is
// checked here, so one added later cannot go undocumented.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lerConfiguracao } from '../../packages/config/src/index.ts';
import { ConfigApi } from '../../services/api/src/config.ts';
import { ConfigDemo } from '../../services/demo/src/config.ts';
import { ConfigProjetor, ConfigReconstrucao } from '../../services/projector/src/config.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

describe('the operating interface', () => {
  it.each(['projector', 'api', 'rebuild', 'credentials', 'start', 'test', 'bench:projector', 'bench:api'])('has the script %s, shown in the README as typed', (nome) => {
    expect(scripts).toHaveProperty([nome]);
    // pnpm 10 keeps `pnpm rebuild` for its own command: the script runs as `pnpm run rebuild`.
    expect(README).toContain(nome === 'rebuild' ? 'pnpm run rebuild' : `pnpm ${nome}`);
  });

  it("reads the variables operations.md names, and the README documents every variable the services' settings read", () => {
    const lidas = new Set([ConfigApi, ConfigDemo, ConfigProjetor, ConfigReconstrucao].flatMap((esquema) => Object.keys(esquema.shape)));
    const doContrato = ['KAFKA_BROKERS', 'KAFKA_GROUP_ID', 'IMOVEIS_TOPIC', 'CONDOMINIOS_TOPIC', 'DATABASE_PATH', 'PHOTOS_BASE_URL', 'HOST', 'PORT', 'REDIS_URL', 'CREDENTIALS_FILE', 'RATE_LIMIT_PER_MINUTE', 'LOG_LEVEL'];
    expect(doContrato.filter((nome) => !lidas.has(nome))).toEqual([]);
    expect([...lidas].filter((nome) => !README.includes(`\`${nome}\``))).toEqual([]);
  });

  it("defaults the demo's variables as operations.md's table does (the projector's, the rebuild's and the API's: their config tests)", () => {
    expect(lerConfiguracao(ConfigDemo, {})).toMatchObject({ HOST: '127.0.0.1', PORT: 3000, RATE_LIMIT_PER_MINUTE: 120, LOG_LEVEL: 'info' });
  });
});
