// The image's dependency layer, without a Docker engine (none on the CI machines): what the
// Dockerfile copies before `RUN pnpm fetch` must be enough for pnpm to fetch. A patch named in
// pnpm-workspace.yaml and not copied there broke `docker compose up` once. And docker compose
// runs each service with the node flags its pnpm script gives it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { flagsNode } from '../infra/construir.ts';

const RAIZ = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'imagem-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sources of the Dockerfile's COPY instructions before its `RUN pnpm fetch`. */
function copiadosAntesDoFetch(): string[] {
  const linhas = readFileSync(join(RAIZ, 'Dockerfile'), 'utf8').split('\n');
  const fetch = linhas.findIndex((linha) => /^RUN pnpm fetch\b/.test(linha));
  expect(fetch, 'o Dockerfile busca as dependências com `RUN pnpm fetch`').toBeGreaterThan(0);
  return linhas
    .slice(0, fetch)
    .filter((linha) => linha.startsWith('COPY '))
    .flatMap((linha) => linha.split(/\s+/).slice(1, -1).filter((parte) => !parte.startsWith('--')));
}

describe('Dockerfile', () => {
  it('fetches the dependencies from what it copies before `pnpm fetch`', () => {
    const fontes = copiadosAntesDoFetch();
    expect(fontes).toContain('pnpm-lock.yaml');
    for (const fonte of fontes) cpSync(join(RAIZ, fonte), join(dir, fonte), { recursive: true });
    // The packages are in this machine's store already (the suite runs after `pnpm install`).
    const pnpm = spawnSync('pnpm', ['fetch', '--offline'], { cwd: dir, env: { ...process.env, CI: 'true' }, encoding: 'utf8', timeout: 120_000 });
    expect(pnpm.status, `${pnpm.stdout}\n${pnpm.stderr}`).toBe(0);
    // Longer than the fetch's own bound: linking the whole lockfile is heavy on a busy disk.
  }, 150_000);
});

describe('docker-compose.yml', () => {
  it('runs each service with the node flags of its pnpm script', () => {
    const comandos = readFileSync(join(RAIZ, 'docker-compose.yml'), 'utf8')
      .split('\n')
      .flatMap((linha) => /^\s*command: (\["node",.*\])\s*$/.exec(linha)?.[1] ?? [])
      .map((json) => JSON.parse(json) as string[]);
    const rodados = comandos.map((comando) => comando.at(-1));
    expect(rodados).toEqual(['services/projector/dist/server.js', 'services/api/dist/server.js']);
    for (const comando of comandos) {
      const [, servico, entrada] = /^services\/(api|projector)\/dist\/(.+)$/.exec(comando.at(-1)!)!;
      expect(comando.slice(1, -1), comando.at(-1)).toEqual(flagsNode(servico as 'api' | 'projector', entrada));
    }
  });
});
