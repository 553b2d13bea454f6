// Builds a service into plain JavaScript, so production processes run on node alone: running
// through tsx costs each process its loader thread (about 40 MB of RSS, and as much again for each
// worker thread that registers it). Usage: tsx scripts/build.ts <api|projector>
//
// Workspace packages and the third-party code they use are bundled in; the service's own declared
// dependencies stay outside and load from its node_modules as usual (native addons, packages that
// read their own files at run time).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const ENTRADAS = {
  api: ['src/server.ts'],
  projector: ['src/server.ts', 'src/rebuild.ts', 'src/preparo-em-threads.worker.ts'],
} as const;

const servico = process.argv[2];
if (servico !== 'api' && servico !== 'projector') {
  console.error(`uso: tsx scripts/build.ts <${Object.keys(ENTRADAS).join('|')}>`);
  process.exit(2);
}

const dir = join(import.meta.dirname, '..', 'services', servico);
const pacote = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const externos = Object.entries({ ...pacote.dependencies, ...pacote.optionalDependencies })
  .filter(([, versao]) => !versao.startsWith('workspace:'))
  .map(([nome]) => nome);

const { outputFiles } = await build({
  absWorkingDir: dir,
  write: false,
  entryPoints: [...ENTRADAS[servico]],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: externos,
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS code calls require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __criarRequire } from 'node:module'; const require = __criarRequire(import.meta.url);" },
});

// A running process may start a thread from these files at any time (a preparing thread that
// died is replaced): each file is replaced whole, by a rename, and only when it changed.
for (const arquivo of outputFiles) {
  let atual: Buffer | null = null;
  try {
    atual = readFileSync(arquivo.path);
  } catch {
    // not built yet
  }
  if (atual?.equals(arquivo.contents)) continue;
  mkdirSync(dirname(arquivo.path), { recursive: true });
  const temporario = `${arquivo.path}.${process.pid}.tmp`;
  writeFileSync(temporario, arquivo.contents);
  renameSync(temporario, arquivo.path);
}
