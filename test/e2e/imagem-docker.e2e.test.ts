// The image's dependency layer, without a Docker engine (none on the CI machines): what the
// Dockerfile copies before `RUN pnpm fetch` must be enough for pnpm to fetch. A patch named in
// pnpm-workspace.yaml and not copied there broke `docker compose up` once. And docker compose
// runs each service with the node flags its pnpm script gives it, and settings it accepts.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lerConfiguracao } from '@imoveis/config';
import { ConfigApi } from '../../services/api/src/config.ts';
import { ConfigProjetor } from '../../services/projector/src/config.ts';
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

  it('gives the projector and the API settings their own schemas accept, one projection file, and the ports they listen on', () => {
    const bruto = readFileSync(join(RAIZ, 'docker-compose.yml'), 'utf8');
    // Compose's `${NAME:-default}` as compose reads it when NAME is unset.
    const texto = bruto.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
    interface Servico {
      environment: Record<string, string>;
      ports: string[];
      healthcheck: { test: string[] };
    }
    const { services } = parse(texto) as { services: Record<string, Servico> };
    const projetor = services['projector']!;
    const api = services['api']!;
    // Every name one the service reads (a misspelt one would be ignored for its default), and
    // every value one it accepts (a bad one stops it at start).
    expect(Object.keys(projetor.environment).filter((nome) => !(nome in ConfigProjetor.shape))).toEqual([]);
    expect(Object.keys(api.environment).filter((nome) => !(nome in ConfigApi.shape))).toEqual([]);
    const configProjetor = lerConfiguracao(ConfigProjetor, projetor.environment);
    const configApi = lerConfiguracao(ConfigApi, api.environment);
    // One projection file, on the volume both mount; reachable from outside their containers.
    expect(configApi.DATABASE_PATH).toBe(configProjetor.DATABASE_PATH);
    expect([configApi.HOST, configProjetor.METRICS_HOST]).toEqual(['0.0.0.0', '0.0.0.0']);
    // Published and health-checked on the ports they listen on.
    expect(api.ports).toEqual([`127.0.0.1:3000:${configApi.PORT}`]);
    expect(projetor.ports).toEqual([`127.0.0.1:9464:${configProjetor.METRICS_PORT}`]);
    expect(api.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${configApi.PORT}/health/live`);
    expect(projetor.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${configProjetor.METRICS_PORT}/health/live`);
    // The brokers the projector is given are the ones Kafka tells the other containers of.
    const kafka = services['kafka']!.environment;
    expect(kafka['KAFKA_ADVERTISED_LISTENERS']).toContain(`INTERNO://${configProjetor.KAFKA_BROKERS.join(',')}`);
    // And the one it tells the host of is the one published there, whatever KAFKA_HOST_PORT says.
    const kafkaBruto = (parse(bruto) as { services: Record<string, Servico> }).services['kafka']!;
    const [publicado] = kafkaBruto.ports.map((mapa) => mapa.slice(0, mapa.lastIndexOf(':')));
    expect(kafkaBruto.environment['KAFKA_ADVERTISED_LISTENERS']).toContain(`EXTERNO://${publicado}`);
  });
});
