// One fetched Kafka batch into the projection: prepare (decode, validate, map) in chunks on the
// preparing threads, then apply each chunk with its offsets in SQLite transactions, the next
// chunk being prepared meanwhile; a transaction's bad events go to the dead-letter topic just
// before it commits. This function is what the consumer calls and what the tests call.
import type { Agregado, EventoCondominio, MotivoRejeicao } from '@imoveis/contracts';
import type { EventoPreparado } from '@imoveis/domain';
import type { Lote, MensagemRecebida } from '@imoveis/kafka';
import {
  LIMITE_PROPAGACAO_NA_TRANSACAO,
  aplicarTransacaoSeAinda,
  carimbar,
  iniciarPropagacao,
  type Efeito,
  type EscritorProjecao,
} from '@imoveis/projection-store';
import type { Logger } from 'pino';
import type { MetricasProjetor } from './metricas.ts';
import type { Preparador, MensagemPreparada } from './preparo-em-threads.ts';

export interface Rejeicao {
  topico: string;
  particao: number;
  mensagem: MensagemRecebida;
  motivo: MotivoRejeicao;
  detalhe: string;
}

export interface DependenciasLote {
  escritor: EscritorProjecao;
  preparador: Preparador;
  agora: () => number;
  /** Which aggregate each consumed topic carries. */
  agregados: ReadonlyMap<string, Agregado>;
  /** Must have stored the records durably when it resolves: their offsets are committed next. */
  enviarParaDlq(rejeicoes: readonly Rejeicao[]): Promise<void>;
  metricas?: MetricasProjetor;
  log: Logger;
  /** Serialises the writing of batches handled concurrently (see `criarExclusao`). */
  exclusivo?: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Checked inside every write transaction, under the write lock: false once the projection was
   * switched by a rebuild (another process) while this batch waited, so nothing of it lands on
   * the new projection. Staleness of the batch itself (a seek, a rebalance) is `lote.ativo`,
   * checked between transactions: a batch that is only stale may still commit what it applied,
   * since the offsets live in the projection.
   */
  aindaNaTransacao?: () => boolean;
}

export interface ResultadoLote {
  /** Next offset to read, as committed to the projection; null when nothing was committed. */
  proximoOffset: string | null;
  efeitos: Efeito[];
}

/** Messages prepared per request: a transaction's worth, small enough to overlap preparing and applying. */
export const TAMANHO_PEDACO = 500;

/**
 * A run of events applied in one transaction, ending at `ate` (the offset after its last message);
 * or a large condominium fan-out, applied in transactions of its own, and then its offset.
 */
type Trecho = {
  eventos: EventoPreparado[];
  rejeicoes: Rejeicao[];
  ate: bigint;
  propagacaoGrande: EventoCondominio | null;
  tombstones: number;
  /** Properties its condominium events reach (as the projection stands before it). */
  propagados: number;
};
const novoTrecho = (): Trecho => ({ eventos: [], rejeicoes: [], ate: 0n, propagacaoGrande: null, tombstones: 0, propagados: 0 });

export async function processarLote(lote: Lote, deps: DependenciasLote): Promise<ResultadoLote> {
  const agregado = deps.agregados.get(lote.topico);
  if (!agregado) throw new Error(`tópico não esperado: ${lote.topico}`);

  // Every chunk is handed to the preparing threads at once, before waiting for the writer.
  const pedacos: MensagemRecebida[][] = [];
  for (let i = 0; i < lote.mensagens.length; i += TAMANHO_PEDACO) pedacos.push(lote.mensagens.slice(i, i + TAMANHO_PEDACO));
  const preparos = pedacos.map((pedaco) =>
    deps.preparador.preparar(
      agregado,
      pedaco.map((m) => ({ chave: m.key?.toString('utf8') ?? null, valor: m.value })),
    ),
  );
  for (const p of preparos) p.catch(() => {}); // a batch cut short leaves later chunks unread

  return (deps.exclusivo ?? executar)(async () => {
    // A redelivered batch (Kafka's commit lags the projection's) skips what is already applied.
    const aplicadoAte = BigInt(deps.escritor.offsetDe(lote.topico, lote.particao) ?? '0');
    const resultado: ResultadoLote = { proximoOffset: null, efeitos: [] };
    for (const [i, pedaco] of pedacos.entries()) {
      if (!lote.ativo()) return resultado; // lost the partition, or a rebuild switched in: the rest is re-delivered
      const preparados = await preparos[i]!;
      const primeiraNova = pedaco.findIndex((m) => BigInt(m.offset) >= aplicadoAte);
      if (primeiraNova < 0) continue;
      const feito = await aplicarPedaco(lote, pedaco.slice(primeiraNova), preparados.slice(primeiraNova), deps);
      resultado.efeitos.push(...feito.efeitos);
      resultado.proximoOffset = feito.proximoOffset ?? resultado.proximoOffset;
      // Nothing after a transaction left unwritten: its offset would skip it.
      if (feito.interrompido) return resultado;
    }
    // A transaction's commit marker after the last message takes an offset too: without it in
    // the projection, a quiet register would look one message behind for ever.
    const avancou = lote.ativo() && (await esperandoATrava(lote, deps, () => avancarOffset(deps.escritor, lote.topico, lote.particao, lote.proximoOffset, deps.aindaNaTransacao)));
    if (avancou === true) resultado.proximoOffset = lote.proximoOffset;
    return resultado;
  });
}

/**
 * Moves a partition's stored offset forward to `proximo` over records that carry nothing (commit
 * markers, aborted records), never backwards, and only while `ainda()` holds under the write
 * lock. True when it moved.
 */
export function avancarOffset(escritor: EscritorProjecao, topico: string, particao: number, proximo: string, ainda: () => boolean = () => true): boolean {
  // Read first outside a transaction, as most batches end on a message; again under the lock.
  const adiante = () => BigInt(escritor.offsetDe(topico, particao) ?? '0') >= BigInt(proximo);
  if (adiante()) return false;
  return escritor.transacao(() => {
    if (!ainda() || adiante()) return false;
    escritor.gravarOffset({ topico, particao, proximo });
    return true;
  });
}

const executar = <T>(fn: () => Promise<T>): Promise<T> => fn();
const sempre = (): boolean => true;

/**
 * A batch's write transaction, waiting out another process's write lock with heartbeats between
 * attempts, so the group keeps the consumer. Null when the batch stopped being this consumer's
 * while it waited, or the consumer is closing: a stop does not wait out a switch past its
 * deadline, and what was not written is fetched again.
 */
function esperandoATrava<T>(lote: Lote, deps: DependenciasLote, transacao: () => T): Promise<T | null> {
  return deps.escritor.quandoATravaLivre(transacao, {
    continuar: async () => {
      await lote.heartbeat();
      return lote.ativo() && !lote.parando();
    },
    aoEsperar: () => deps.log.warn({ topico: lote.topico, particao: lote.particao }, 'projeção travada por outro processo (uma reconstrução trocando?): esperando'),
  });
}

/**
 * Runs functions one at a time, in call order: batches of several partitions are prepared
 * concurrently but written as if consumed one after another, so a condominium fan-out spread
 * over several transactions never interleaves with another batch.
 */
export function criarExclusao(): <T>(fn: () => Promise<T>) => Promise<T> {
  let fila: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const vez = fila.then(fn);
    fila = vez.catch(() => {});
    return vez;
  };
}

/**
 * A chunk's messages as the runs applied one transaction each: events, rejections and compaction
 * tombstones in order; a condominium event that reaches many properties apart (transactions of its
 * own); smaller ones together up to a page of properties reached in all.
 */
function dividirEmTrechos(
  lote: Pick<Lote, 'topico' | 'particao'>,
  mensagens: readonly MensagemRecebida[],
  preparos: readonly MensagemPreparada[],
  imoveisDoCondominio: (id: string) => number,
): Trecho[] {
  const trechos: Trecho[] = [];
  let atual = novoTrecho();
  for (const [i, mensagem] of mensagens.entries()) {
    const ate = BigInt(mensagem.offset) + 1n;
    const preparo = preparos[i];
    if (!preparo) {
      // A compaction tombstone after a deletion: carries nothing, only moves the offset.
      atual.tombstones++;
      atual.ate = ate;
      continue;
    }
    if (!preparo.ok) {
      atual.rejeicoes.push({ topico: lote.topico, particao: lote.particao, mensagem, motivo: preparo.motivo, detalhe: preparo.detalhe });
      atual.ate = ate;
      continue;
    }
    const evento = preparo.evento;
    if (evento.tipo === 'condominio.salvo' || evento.tipo === 'condominio.excluido') {
      const alcance = imoveisDoCondominio(evento.dados.id);
      if (alcance > LIMITE_PROPAGACAO_NA_TRANSACAO) {
        // A rename touching many properties gets transactions of its own, with heartbeats between.
        if (atual.ate > 0n) trechos.push(atual);
        trechos.push({ ...novoTrecho(), ate, propagacaoGrande: evento });
        atual = novoTrecho();
        continue;
      }
      // Smaller renames share a transaction up to a page of properties in all: its instant is
      // stamped at its first change, and hundreds of renames together would commit it seconds
      // after the instant they carry (decision 0005).
      if (atual.propagados + alcance > LIMITE_PROPAGACAO_NA_TRANSACAO && atual.ate > 0n) {
        trechos.push(atual);
        atual = novoTrecho();
      }
      atual.propagados += alcance;
    }
    atual.eventos.push(evento);
    atual.ate = ate;
  }
  if (atual.ate > 0n) trechos.push(atual);
  return trechos;
}

/** What a committed run did, counted and said: each effect, its tombstones, each rejection. */
function contarTrecho(lote: Lote, trecho: Trecho, feitos: readonly Efeito[], deps: DependenciasLote): void {
  for (const efeito of feitos) deps.metricas?.eventosAplicados.inc({ topico: lote.topico, efeito });
  if (trecho.tombstones > 0) deps.metricas?.eventosAplicados.inc({ topico: lote.topico, efeito: 'tombstone' }, trecho.tombstones);
  for (const r of trecho.rejeicoes) {
    deps.log.warn({ topico: r.topico, particao: r.particao, offset: r.mensagem.offset, motivo: r.motivo, detalhe: r.detalhe }, 'evento rejeitado');
    deps.metricas?.eventosRejeitados.inc({ topico: r.topico, motivo: r.motivo });
  }
}

/** `interrompido`: a transaction of the chunk was left unwritten (see esperandoATrava), and so was the rest. */
async function aplicarPedaco(
  lote: Lote,
  mensagens: MensagemRecebida[],
  preparos: MensagemPreparada[],
  deps: DependenciasLote,
): Promise<ResultadoLote & { interrompido: boolean }> {
  const { escritor } = deps;
  const trechos = dividirEmTrechos(lote, mensagens, preparos, (id) => escritor.contarImoveisDoCondominio(id));
  const efeitos: Efeito[] = [];
  let proximoOffset: string | null = null;
  for (const trecho of trechos) {
    if (!lote.ativo()) break;
    const propagado = trecho.propagacaoGrande ? await propagarEmTransacoes(lote, deps, trecho.propagacaoGrande) : [];
    if (propagado === null) return { proximoOffset, efeitos, interrompido: true };
    // Durably in the dead letters before the offset moves past them: a failure in between
    // sends them again on redelivery (at least once), never loses them.
    if (trecho.rejeicoes.length > 0) await deps.enviarParaDlq(trecho.rejeicoes);
    const offset = { topico: lote.topico, particao: lote.particao, proximo: trecho.ate.toString() };
    const feitos = await esperandoATrava(lote, deps, () =>
      aplicarTransacaoSeAinda(escritor, { eventos: trecho.eventos, offsets: [offset] }, deps.agora, deps.aindaNaTransacao ?? sempre),
    );
    if (feitos === null) return { proximoOffset, efeitos, interrompido: true };
    feitos.unshift(...propagado);
    // Counted once committed: a failed heartbeat below must not lose what is already applied,
    // and a redelivered batch must not count twice what it skips.
    contarTrecho(lote, trecho, feitos, deps);
    efeitos.push(...feitos);
    proximoOffset = offset.proximo;
    // kafkajs only heartbeats between batches; a long batch must say it is alive itself.
    await lote.heartbeat();
  }
  return { proximoOffset, efeitos, interrompido: false };
}

/**
 * A condominium event whose name reaches many properties, a page of them per transaction
 * (`PropagacaoCondominio`), with heartbeats between. Its effect, for the caller to count with the
 * offset's commit; null when the batch stopped being this consumer's on the way (checked under
 * the write lock).
 */
async function propagarEmTransacoes(lote: Lote, deps: DependenciasLote, evento: EventoCondominio): Promise<Efeito[] | null> {
  const { escritor } = deps;
  const propagacao = iniciarPropagacao(escritor, evento);
  if (typeof propagacao === 'string') return [propagacao];
  let gravados = 0;
  for (let apos: string | null = ''; apos !== null; ) {
    const desde: string = apos;
    const passo = await esperandoATrava(lote, deps, () =>
      escritor.transacao(() => {
        // A fan-out cut short is redone whole on redelivery: stale is enough to stop it.
        if (!(lote.ativo() && (deps.aindaNaTransacao ?? sempre)())) return null;
        return propagacao.passo(desde, carimbar(escritor, deps.agora));
      }),
    );
    if (passo === null) return null;
    apos = passo.apos;
    gravados += passo.gravados;
    await lote.heartbeat();
  }
  return [propagacao.efeito(gravados)];
}
