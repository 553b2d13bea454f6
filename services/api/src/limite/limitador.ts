// What the HTTP layer asks of a request limiter, and the per-process one.
import { LimitadorEmMemoria, type DecisaoLimite } from '@imoveis/domain';

export type { DecisaoLimite };

export interface Limitador {
  /** Requests per rolling window per key (a credential, or a client address without one). */
  readonly limite: number;
  /** Counts one request for `chave` if the window has room. Never rejects. */
  tentar(chave: string): Promise<DecisaoLimite>;
  close(): Promise<void>;
}

/**
 * The domain's LimitadorEmMemoria behind the HTTP layer's interface, with the real clock. Exact for
 * one process only: used without Redis, and as the fallback when Redis fails (LimitadorComReserva).
 */
export class LimitadorLocal implements Limitador {
  readonly limite: number;
  readonly #memoria: LimitadorEmMemoria;
  readonly #agora: () => number;

  constructor(opcoes: { limite: number; agora?: () => number }) {
    this.limite = opcoes.limite;
    // The contract's window (a minute): the one RateLimit-Policy states (acesso.hook.ts).
    this.#memoria = new LimitadorEmMemoria({ limite: opcoes.limite });
    this.#agora = opcoes.agora ?? Date.now;
  }

  tentar(chave: string): Promise<DecisaoLimite> {
    return Promise.resolve(this.#memoria.tentar(chave, this.#agora()));
  }

  /** At an instant of another clock (Redis's), for a log kept on that clock; `registrarEmMs` as LimitadorEmMemoria's. */
  tentarEm(chave: string, agoraMs: number, registrarEmMs: number = agoraMs): DecisaoLimite {
    return this.#memoria.tentar(chave, agoraMs, registrarEmMs);
  }

  /** The window as it stands at `agoraMs` (of the log's clock), counting nothing. */
  consultarEm(chave: string, agoraMs: number): DecisaoLimite {
    return this.#memoria.consultar(chave, agoraMs);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
