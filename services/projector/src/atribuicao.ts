// Every projector reads every partition into a projection of its own. Partitions the group keeps
// giving another member, past what a rebalance takes (a predecessor killed with -9 stays a member
// until its session expires), mean a second projector shares the group: its events never reach
// this projection. Readiness already fails (their offsets never move); this says why.
import { rotuloDaParticao } from '@imoveis/kafka';
import type { Logger } from 'pino';

export interface VigiaDeAtribuicao {
  /** The partitions (`chaveParticao`) the group has just given this consumer. */
  atribuir(particoes: Iterable<string>): void;
  /** Compares every partition the topics have, at `instante`, with those given to this consumer. */
  conferir(particoes: Iterable<string>, instante: number): void;
}

/** Says once, at error, when partitions have stayed another member's for two sessions; and when they come back. */
export function vigiarAtribuicao(opcoes: { log: Logger; grupo: string; sessaoMs: number }): VigiaDeAtribuicao {
  const { log, grupo } = opcoes;
  let atribuidas: ReadonlySet<string> = new Set();
  let semTodasDesde: number | null = null;
  let avisou = false;
  return {
    atribuir(particoes) {
      atribuidas = new Set(particoes);
    },
    conferir(particoes, instante) {
      const alheias = [...particoes].filter((chave) => !atribuidas.has(chave));
      if (alheias.length === 0) {
        if (avisou) log.info({ grupo }, 'o projetor voltou a ler todas as partições');
        semTodasDesde = null;
        avisou = false;
        return;
      }
      semTodasDesde ??= instante;
      if (avisou || instante - semTodasDesde < 2 * opcoes.sessaoMs) return;
      avisou = true;
      log.error(
        { grupo, particoes: alheias.map(rotuloDaParticao) },
        `o grupo ${grupo} dá partições dos tópicos a outro consumidor: outro projetor usa o mesmo KAFKA_GROUP_ID? Cada projetor lê todas as partições numa projeção sua: dê a cada host o seu KAFKA_GROUP_ID`,
      );
    },
  };
}
