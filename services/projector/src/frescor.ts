// The projection's freshness against Kafka, measured every few seconds (and on demand): how far
// behind each partition's end the stored offsets are, and since when the projection has been
// caught up (the domain's rules: em-dia.ts). What is still to read also decides whether commits
// skip fsync (decision 0007).
import { emDiaEmSeguinte, particoesRecuadas, ultimaAlcancada, type AmostraDeFins } from '@imoveis/domain';
import { chaveParticao, rotuloDaParticao, type ClienteKafka } from '@imoveis/kafka';
import { ehTravaOcupada, type EscritorProjecao } from '@imoveis/projection-store';
import type { Logger } from 'pino';
import type { MetricasProjetor } from './metricas.ts';

/** Messages still to read per partition (from each batch's high watermark and each measurement): far behind, commits skip fsync. */
export interface AjusteDeSincronia {
  registrar(chave: string, falta: number): void;
  /** Defers fsync while the total is above the threshold (0: never), and makes it durable again once below. */
  ajustar(): void;
}

export function criarAjusteDeSincronia(escritor: EscritorProjecao, limiar: number, log: Logger): AjusteDeSincronia {
  const atrasos = new Map<string, number>();
  return {
    registrar: (chave, falta) => void atrasos.set(chave, falta),
    ajustar() {
      let total = 0;
      for (const atraso of atrasos.values()) total += atraso;
      const antes = escritor.sincroniaAdiada;
      escritor.adiarSincronia(limiar > 0 && total > limiar);
      if (escritor.sincroniaAdiada === antes) return;
      if (escritor.sincroniaAdiada) log.info({ atraso: total }, 'muito atrás do Kafka: gravando sem fsync até alcançá-lo');
      else log.info({ atraso: total }, 'em dia com o Kafka: gravação durável de novo');
    },
  };
}

export interface DependenciasFrescor {
  readonly kafka: ClienteKafka;
  readonly escritor: EscritorProjecao;
  readonly topicos: readonly string[];
  readonly agora: () => number;
  readonly log: Logger;
  readonly metricas?: MetricasProjetor | undefined;
  readonly sincronia: AjusteDeSincronia;
  /** Each measurement's partitions, as the brokers list them now (the assignment watch compares them). */
  readonly aoLerFins: (chaves: Iterable<string>, amostradoEm: number) => void;
}

export interface MedidorDeFrescor {
  /**
   * Measures, and records in the projection (under the write lock, and only while its generation
   * is still `geracaoLida`: a rebuild switched in since brings its own record): the lag in all,
   * and since when the projection is caught up.
   */
  medir(geracaoLida: number): Promise<{ atraso: number; emDiaEm: number | null }>;
}

export function criarMedidorDeFrescor(deps: DependenciasFrescor): MedidorDeFrescor {
  const { kafka, escritor, agora, log } = deps;
  // The partitions' ends at each measurement not yet reached by the stored offsets: the
  // projection is caught up as of the latest one it has reached (ultimaAlcancada).
  let amostrasDeFins: AmostraDeFins[] = [];

  /**
   * Every partition's end (its high watermark) beside the offset the projection stored for it:
   * what is still to consume, per partition (kept for the fsync decision and the metrics) and in all.
   */
  const lerFins = async () => {
    // Read before the ends: every message produced before this instant is below them.
    const amostradoEm = agora();
    // And the stored offsets too: read after, they may have passed ends the consumer read beyond
    // meanwhile (kafkajs fetches the high and the low offsets in two round trips), which looks
    // like a topic made anew. Read before, they only make the lag seem a little larger.
    const gravados = new Map(escritor.offsets().map((o) => [chaveParticao(o.topico, o.particao), BigInt(o.proximo)]));
    const fins = new Map<string, bigint>();
    const lidos = new Map<string, bigint>();
    let atraso = 0;
    for (const topico of deps.topicos) {
      for (const [particao, fim] of await kafka.fimDasParticoes(topico)) {
        const chave = chaveParticao(topico, particao);
        fins.set(chave, BigInt(fim));
        lidos.set(chave, gravados.get(chave) ?? 0n);
        const falta = Math.max(0, Number(BigInt(fim) - lidos.get(chave)!));
        deps.sincronia.registrar(chave, falta);
        deps.metricas?.atraso.set({ topico, particao: String(particao) }, falta);
        atraso += falta;
      }
    }
    return { amostradoEm, fins, lido: (chave: string): bigint => lidos.get(chave) ?? 0n, atraso };
  };

  /** The latest sampled instant whose ends the stored offsets have all reached (null: none yet, or never again). */
  const alcancadaEm = (amostradoEm: number, fins: ReadonlyMap<string, bigint>, lido: (chave: string) => bigint): number | null => {
    // Offsets past a partition's end: its topic was created anew, and the consumer would skip its
    // messages up to them. The projection then stops counting itself fresh (readiness fails).
    const recuadas = particoesRecuadas(fins, lido);
    if (recuadas.length > 0) {
      log.error({ particoes: recuadas.map(rotuloDaParticao) }, 'offsets gravados além do fim da partição: o tópico foi recriado? a projeção deixa de se dizer em dia');
      amostrasDeFins = [];
      return null;
    }
    const { alcancadaEm: instante, pendentes } = ultimaAlcancada([...amostrasDeFins, { instante: amostradoEm, fins }], lido);
    amostrasDeFins = pendentes;
    return instante;
  };

  return {
    async medir(geracaoLida) {
      const { amostradoEm, fins, lido, atraso } = await lerFins();
      deps.aoLerFins(fins.keys(), amostradoEm);
      const alcancada = alcancadaEm(amostradoEm, fins, lido);
      const instante = agora();
      deps.sincronia.ajustar();
      // Not written while a switch holds the lock, rather than blocking the event loop in
      // SQLite's wait: the next measurement writes it.
      let emDiaEm: number | null | undefined;
      try {
        emDiaEm = escritor.semEsperarPelaTrava(() =>
          escritor.transacao(() => {
            // The switch moved the offsets back and brought the rebuild's own record (trocarProjecao).
            if (escritor.geracao() !== geracaoLida) return undefined;
            const valor = emDiaEmSeguinte(escritor.emDiaEm(), alcancada);
            escritor.registrarFrescor({ registradoEm: instante, emDiaEm: valor, atraso });
            return valor;
          }),
        );
      } catch (erro) {
        if (!ehTravaOcupada(erro)) throw erro;
      }
      return { atraso, emDiaEm: emDiaEm === undefined ? escritor.emDiaEm() : emDiaEm };
    },
  };
}
