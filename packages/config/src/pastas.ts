// The folder a configured file goes in, made at start so a fresh checkout needs no manual step.
import { mkdirSync, statSync } from 'node:fs';
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
  try {
    mkdirSync(pasta);
    return;
  } catch (erro) {
    const { code } = erro as NodeJS.ErrnoException;
    // There already: fine if a folder (made meanwhile by a process starting beside this one, too).
    if (code === 'EEXIST') {
      if (statSync(pasta).isDirectory()) return;
      // Node's message ("file already exists, mkdir …") reads as if making it were the problem.
      throw Object.assign(new Error(`${pasta} existe e não é uma pasta`), { code });
    }
    if (code !== 'ENOENT' || dirname(pasta) === pasta) throw erro;
  }
  // The folder above is missing: make it, then this one.
  criarPasta(dirname(pasta));
  try {
    mkdirSync(pasta);
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(pasta).isDirectory()) throw erro;
  }
}
