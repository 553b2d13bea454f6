// Builds a service as `pnpm api` / `pnpm projector` do (scripts/build.ts), for the tests and the
// benches that run it as operators do: node alone on services/<servico>/dist.
import { spawnSync } from 'node:child_process';

const RAIZ = new URL('../../', import.meta.url).pathname;
const construidos = new Set<string>();

/** `[node, [entry point]]` of a built service; builds it once per process. */
export function comandoServico(servico: 'api' | 'projector', entrada = 'server.js'): [string, string[]] {
  if (!construidos.has(servico)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', servico], { cwd: RAIZ, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`o build de ${servico} falhou (código ${String(r.status)}):\n${r.stderr}`);
    construidos.add(servico);
  }
  return [process.execPath, [`services/${servico}/dist/${entrada}`]];
}
