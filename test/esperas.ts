// For tests of waits on another process's write lock (a rebuild's switch): the lock itself, and
// the event loop's longest pause meanwhile, which SQLite's own 5 s wait would show.
import { Database } from '@imoveis/projection-store';

/** The longest the event loop goes without running a timer of 10 ms, until `parar` (which may be called again). */
export function medirPausas(): { parar(): number } {
  let maior = 0;
  let anterior = performance.now();
  const relogio = setInterval(() => {
    const agora = performance.now();
    maior = Math.max(maior, agora - anterior);
    anterior = agora;
  }, 10);
  return {
    parar: () => {
      clearInterval(relogio);
      return maior;
    },
  };
}

/**
 * Another process's write transaction on the projection at `caminho`, from now until `soltar`
 * (idempotent). `db` writes inside it, as a switch does.
 */
export function travaDeOutroProcesso(caminho: string): { db: Database.Database; soltar(): void } {
  const db = new Database(caminho);
  db.exec('BEGIN IMMEDIATE');
  return {
    db,
    soltar: () => {
      if (!db.open) return;
      db.exec('COMMIT');
      db.close();
    },
  };
}
