// Builds a service as `pnpm api` / `pnpm projector` do (scripts/build.ts), for the tests and the
// benches that run it as operators do: node alone on services/<servico>/dist, with the node flags
// of the package.json script that runs that file.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RAIZ = fileURLToPath(new URL('../../', import.meta.url));
const construidos = new Set<string>();

/** The package.json script that runs each built entry point. */
const SCRIPTS: Record<string, string> = {
  'api/server.js': 'api',
  'projector/server.js': 'projector',
  'projector/rebuild.js': 'rebuild',
};

/**
 * The node flags of the package.json script that runs `services/<servico>/dist/<entrada>`
 * (`… && exec node --max-semi-space-size=4 … services/api/dist/server.js`): the one place they are
 * set for `pnpm`, the tests and the benches (docker-compose.yml is checked against it). A script of
 * another shape, or a flag the shell would change (quotes, `$`), is refused rather than misread.
 */
export function flagsNode(servico: 'api' | 'projector', entrada = 'server.js'): string[] {
  const nome = SCRIPTS[`${servico}/${entrada}`];
  const { scripts } = JSON.parse(readFileSync(`${RAIZ}package.json`, 'utf8')) as { scripts: Record<string, string | undefined> };
  const arquivo = `services/${servico}/dist/${entrada}`;
  const casamento = /\bexec node((?:\s+--[^\s'"$`\\]+)*)\s+(\S+)$/.exec(scripts[nome ?? ''] ?? '');
  if (casamento?.[2] !== arquivo) throw new Error(`o script "${nome ?? '?'}" do package.json deveria terminar em \`exec node [--flags] ${arquivo}\``);
  return casamento[1]!.split(/\s+/).filter(Boolean);
}

/** `[node, [flags…, entry point]]` of a built service, as its package.json script runs it; builds it once per process. */
export function comandoServico(servico: 'api' | 'projector', entrada = 'server.js'): [string, string[]] {
  if (!construidos.has(servico)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', servico], { cwd: RAIZ, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`o build de ${servico} falhou (código ${String(r.status)}):\n${r.stderr}`);
    construidos.add(servico);
  }
  return [process.execPath, [...flagsNode(servico, entrada), `services/${servico}/dist/${entrada}`]];
}
