// Access to the projection reader behind a tiny provider, so the API can start before the
// projector has created the file (it keeps trying). A rebuild needs no reopening: it switches the
// content inside the same file (decision 0006).
import type { LeitorProjecao } from '@imoveis/projection-store';
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
 * Opens the reader on first use and, while opening fails (file missing, not yet migrated),
 * tries again at most once per `intervaloMs`, so a missing file costs no I/O per request.
 */
export class FonteReabrivel implements FonteProjecao {
  readonly #abrir: () => LeitorProjecao;
  readonly #intervaloMs: number;
  readonly #agora: () => number;
  #leitor: LeitorProjecao | null = null;
  #ultimaFalha: { em: number; erro: unknown } | null = null;

  constructor(abrir: () => LeitorProjecao, opcoes: { intervaloMs?: number; agora?: () => number } = {}) {
    this.#abrir = abrir;
    this.#intervaloMs = opcoes.intervaloMs ?? 1_000;
    this.#agora = opcoes.agora ?? Date.now;
  }

  atual(): LeitorProjecao {
    if (this.#leitor !== null) return this.#leitor;
    const agora = this.#agora();
    if (this.#ultimaFalha !== null && agora - this.#ultimaFalha.em < this.#intervaloMs) {
      throw new ProjecaoIndisponivel({ cause: this.#ultimaFalha.erro });
    }
    try {
      this.#leitor = this.#abrir();
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
  }
}
