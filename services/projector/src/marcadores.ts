// Offsets moved over transaction markers. A kafkajs fetch of nothing but commit or abort markers
// brings no batch of ours, only the partition's new end: the projection stores it, or a quiet
// register behind a transactional producer would look one message behind for ever. One waiter
// writes every partition's latest end, waiting out another process's write lock (a rebuild's
// switch) outside the write queue, which its wait would otherwise hold up.
//
// Safe beside the batches in any order: kafkajs hands a partition's batches over one after
// another, and tells of a markers-only fetch only once the batches before it have returned, so
// an end never passes a message of that partition still to apply; the offset only moves forward
// (`avancarOffset`), and each end is written only on the generation its consumer was assigned.
import { chaveParticao } from '@imoveis/kafka';
import { ehTravaOcupada, type EscritorProjecao } from '@imoveis/projection-store';
import { avancarOffset } from './processar-lote.ts';

export interface FimSemMensagens {
  topico: string;
  particao: number;
  /** The offset after the markers. */
  proximoOffset: string;
}

export interface AvancoSobreMarcadores {
  /** A partition's end past markers, for the projection of generation `geracao` (its consumer's). */
  anotar(fim: FimSemMensagens, geracao: number): void;
  /** Resolves once nothing is being written or waited for (a stop waits for it). */
  ocioso(): Promise<void>;
}

export function criarAvancoSobreMarcadores(
  escritor: EscritorProjecao,
  opcoes: {
    /** True once the projector stops: nothing more is noted, and a wait ends. */
    parando(): boolean;
    /** Another process holds the write lock: said once per wait. */
    aoEsperar(): void;
    aoFalhar(erro: unknown): void;
  },
): AvancoSobreMarcadores {
  const pendentes = new Map<string, FimSemMensagens & { geracao: number }>();
  let avancando: Promise<void> | null = null;
  const atual = (geracao: number) => escritor.geracao() === geracao;

  async function avancar(): Promise<void> {
    try {
      while (pendentes.size > 0 && !opcoes.parando()) {
        const fins = [...pendentes.values()];
        pendentes.clear();
        // Given up when every end is of a projection switched out since: the consumer then seeks
        // to the rebuild's offsets and meets the markers again.
        await escritor.quandoATravaLivre(
          () => {
            for (const fim of fins) {
              try {
                avancarOffset(escritor, fim.topico, fim.particao, fim.proximoOffset, () => atual(fim.geracao));
              } catch (erro) {
                // The lock is waited for with every end (those written already are no-ops then);
                // another failure is one partition's, and the others are written all the same.
                if (ehTravaOcupada(erro)) throw erro;
                opcoes.aoFalhar(erro);
              }
            }
          },
          { continuar: () => !opcoes.parando() && fins.some((fim) => atual(fim.geracao)), aoEsperar: opcoes.aoEsperar },
        );
      }
    } catch (erro) {
      opcoes.aoFalhar(erro);
    } finally {
      // Here, not in a callback of the promise: an end noted from now on starts a new waiter.
      // The loop has awaited at least once, so `avancando` was set before this runs.
      avancando = null;
    }
  }

  return {
    anotar(fim, geracao) {
      if (opcoes.parando()) return;
      const chave = chaveParticao(fim.topico, fim.particao);
      const anterior = pendentes.get(chave);
      if (anterior === undefined || anterior.geracao !== geracao || BigInt(fim.proximoOffset) > BigInt(anterior.proximoOffset)) {
        pendentes.set(chave, { ...fim, geracao });
      }
      avancando ??= avancar();
    },
    ocioso: () => avancando ?? Promise.resolve(),
  };
}
