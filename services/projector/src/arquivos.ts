// Small file-system helpers shared by the projector's entry points.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates the folder that will hold a file, so a fresh checkout needs no manual step. */
export function garantirDiretorio(caminhoArquivo: string): void {
  mkdirSync(dirname(caminhoArquivo), { recursive: true });
}
