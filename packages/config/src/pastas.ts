// The folder a configured file goes in, made at start so a fresh checkout needs no manual step.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes the folder that will hold `caminhoArquivo`, and the folders above it. One level at a time,
 * not `mkdirSync(…, { recursive: true })`: on a path the kernel refuses with ENOENT whatever exists
 * (`/proc/x/y`), Node's recursive mkdir loops for ever; this fails with the error, which the
 * caller reports naming the setting.
 */
export function garantirPastaDe(caminhoArquivo: string): void {
  criarPasta(dirname(resolve(caminhoArquivo)));
}

function criarPasta(pasta: string): void {
  if (existsSync(pasta)) return;
  const acima = dirname(pasta);
  if (acima !== pasta) criarPasta(acima);
  try {
    mkdirSync(pasta);
  } catch (erro) {
    // Made meanwhile by another process starting beside this one.
    if ((erro as NodeJS.ErrnoException).code !== 'EEXIST') throw erro;
  }
}
