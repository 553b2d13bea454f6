// Deferred fsync while the projector is far behind Kafka (decision 0007). With
// `synchronous = OFF` a process crash loses nothing (the OS still holds every write), but an
// OS crash may leave the file corrupt. So a marker beside the file records the boot during which
// syncing was deferred; a file still marked from an earlier boot is refused, never guessed at.
// Only the deferring writer removes the marker, after an fsync of both files.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class ProjecaoNaoConfiavel extends Error {
  override readonly name = 'ProjecaoNaoConfiavel';
  readonly code = 'PROJECAO_NAO_CONFIAVEL';
}

/** This boot of the operating system; null where the OS does not say (then syncing is never deferred). */
export type IdDoBoot = () => string | null;

export const idDoBootLinux: IdDoBoot = () => {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
};

export const marcadorDe = (caminho: string): string => `${caminho}-sincronia-adiada`;

/** Deletes a projection no process has open: the file, its WAL files and its deferred-sync marker. */
export function apagarProjecao(caminho: string): void {
  for (const arquivo of [caminho, `${caminho}-wal`, `${caminho}-shm`, marcadorDe(caminho)]) rmSync(arquivo, { force: true });
}

function fsyncCaminho(caminho: string): void {
  if (!existsSync(caminho)) return;
  const fd = openSync(caminho, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the marker durably, before the first write that skips fsync. */
export function marcarSincroniaAdiada(caminho: string, boot: string): void {
  const marcador = marcadorDe(caminho);
  if (existsSync(marcador)) return;
  writeFileSync(marcador, `${boot}\n`, { flush: true });
  fsyncCaminho(dirname(marcador));
}

export const sincroniaPendente = (caminho: string): boolean => existsSync(marcadorDe(caminho));

/**
 * Makes every write so far durable (Linux's fsync flushes the whole file, whichever descriptor
 * wrote it), then drops the marker.
 */
export function concluirSincroniaAdiada(caminho: string): void {
  for (const arquivo of [`${caminho}-wal`, caminho]) fsyncCaminho(arquivo);
  rmSync(marcadorDe(caminho), { force: true });
  fsyncCaminho(dirname(caminho));
}

/**
 * On open: a marker from this boot means a deferring writer is running or was killed, which
 * loses nothing; from another boot (or when the OS gives no boot id), the OS may have dropped
 * writes the file depends on.
 */
export function verificarSincroniaAdiada(caminho: string, idDoBoot: IdDoBoot): void {
  const marcador = marcadorDe(caminho);
  if (!existsSync(marcador)) return;
  const marcado = readFileSync(marcador, 'utf8').trim();
  const atual = idDoBoot();
  if (atual === null || marcado !== atual) {
    throw new ProjecaoNaoConfiavel(
      `a projeção ${caminho} estava gravando sem fsync quando o sistema operacional reiniciou e pode estar corrompida: ` +
        `apague-a com os arquivos -wal, -shm e ${marcadorDe(caminho)} para que o projetor a refaça a partir do Kafka`,
    );
  }
}
