// Access to the projection reader behind a tiny provider, so the API can start before the
// projector has created the file (it keeps trying), and follows a file deleted and made anew. A
// rebuild needs no reopening: it switches the content inside the same file (decision 0006).
import { statSync } from 'node:fs';
import { LeitorSqlite, type LeitorProjecao } from '@imoveis/projection-store';
import { ProjecaoIndisponivel } from './erros.ts';

export interface FonteProjecao {
  /** The current reader; throws {@link ProjecaoIndisponivel} while there is none. */
  atual(): LeitorProjecao;
  close(): void;
}

export function ehFonteProjecao(x: LeitorProjecao | FonteProjecao): x is FonteProjecao {
  return 'atual' in x && typeof x.atual === 'function';
}

export function fonteFixa(leitor: LeitorProjecao): FonteProjecao {
  return { atual: () => leitor, close: () => leitor.close() };
}

/**
 * Opens the reader at `caminho` on first use and, while opening fails (file missing, not yet
 * migrated), tries again at most once per `intervaloMs`, so a missing file costs no I/O per
 * request. As often, it checks that the path still names the file it has open: one deleted and
 * made anew (a projection replayed from the topics) is reopened, not served from the old one;
 * and that the file's schema is still this code's: one a newer projector migrated in place is
 * refused as on opening (not served, not ready), not read by statements of the old schema.
 */
export class FonteReabrivel implements FonteProjecao {
  readonly #caminho: string;
  readonly #abrir: (caminho: string) => LeitorProjecao;
  readonly #intervaloMs: number;
  readonly #agora: () => number;
  readonly #aoReabrir: () => void;
  #leitor: LeitorProjecao | null = null;
  /**
   * The open file's identity (device and inode; null: unknown, the file changed while it was
   * opened), and when the path was last checked against it.
   */
  #arquivo: { identidade: string | null; verificadoEm: number } | null = null;
  #ultimaFalha: { em: number; erro: unknown } | null = null;

  constructor(
    caminho: string,
    opcoes: { abrir?: (caminho: string) => LeitorProjecao; intervaloMs?: number; agora?: () => number; aoReabrir?: () => void } = {},
  ) {
    this.#caminho = caminho;
    this.#abrir = opcoes.abrir ?? ((c) => LeitorSqlite.abrir(c));
    this.#intervaloMs = opcoes.intervaloMs ?? 1_000;
    // Monotonic: a wall clock set back would stretch the interval and serve a deleted file meanwhile.
    this.#agora = opcoes.agora ?? (() => performance.now());
    this.#aoReabrir = opcoes.aoReabrir ?? (() => {});
  }

  atual(): LeitorProjecao {
    const agora = this.#agora();
    if (this.#leitor !== null && this.#arquivo !== null) {
      if (agora - this.#arquivo.verificadoEm < this.#intervaloMs) return this.#leitor;
      const { identidade } = this.#arquivo;
      if (identidade !== null && identidadeDe(this.#caminho) === identidade && esquemaAindaLegivel(this.#leitor)) {
        this.#arquivo.verificadoEm = agora;
        return this.#leitor;
      }
      this.close(); // replaced, deleted or migrated: this reader is not the one for the file now
      if (identidade !== null) this.#aoReabrir();
    }
    if (this.#ultimaFalha !== null && agora - this.#ultimaFalha.em < this.#intervaloMs) {
      throw new ProjecaoIndisponivel({ cause: this.#ultimaFalha.erro });
    }
    try {
      const antes = identidadeDe(this.#caminho);
      this.#leitor = this.#abrir(this.#caminho);
      const depois = identidadeDe(this.#caminho);
      // Made or replaced while opening: which file the reader holds is unknown, so it is opened again next time.
      this.#arquivo = { identidade: antes !== null && antes === depois ? antes : null, verificadoEm: agora };
      this.#ultimaFalha = null;
      return this.#leitor;
    } catch (erro) {
      this.#ultimaFalha = { em: agora, erro };
      throw new ProjecaoIndisponivel({ cause: erro });
    }
  }

  close(): void {
    this.#leitor?.close();
    this.#leitor = null;
    this.#arquivo = null;
  }
}

/** The reader's schema still the file's; not when the file cannot be read (opening again says why). */
function esquemaAindaLegivel(leitor: LeitorProjecao): boolean {
  try {
    return leitor.esquemaAindaLegivel();
  } catch {
    return false;
  }
}

/** Which file a path names now (device and inode); null when none can be read there. */
function identidadeDe(caminho: string): string | null {
  try {
    const s = statSync(caminho, { throwIfNoEntry: false });
    return s === undefined ? null : `${s.dev}:${s.ino}`;
  } catch {
    return null; // not a path that can name a file now (permissions, a file where a folder should be)
  }
}
