// One fetched Kafka batch into the projection: decode, send the bad events to the dead-letter
// topic, apply the rest with their offsets in one SQLite transaction. This function is what
// the consumer calls and what the tests call.
import { decodificarEvento, type Agregado, type EventoCondominio, type EventoImovel, type MotivoRejeicao } from '@imoveis/contracts';
import type { Lote, MensagemRecebida } from '@imoveis/kafka';
import {
  LIMITE_PROPAGACAO_NA_TRANSACAO,
  aplicarLote,
  carimbar,
  propagarNomeCondominio,
  type ContextoProjecao,
  type Efeito,
  type EscritorProjecao,
} from '@imoveis/projection-store';
import type { Logger } from 'pino';
import type { MetricasProjetor } from './metricas.ts';

export interface Rejeicao {
  topico: string;
  particao: number;
  mensagem: MensagemRecebida;
  motivo: MotivoRejeicao;
  detalhe: string;
}

export interface DependenciasLote {
  escritor: EscritorProjecao;
  contexto: ContextoProjecao;
  agora: () => number;
  /** Which aggregate each consumed topic carries. */
  agregados: ReadonlyMap<string, Agregado>;
  /** Must have stored the records durably when it resolves: their offsets are committed next. */
  enviarParaDlq(rejeicoes: readonly Rejeicao[]): Promise<void>;
  metricas?: MetricasProjetor;
  log: Logger;
}

export interface ResultadoLote {
  /** Next offset to read, as committed to the projection; null when nothing was committed. */
  proximoOffset: string | null;
  efeitos: Efeito[];
  rejeitados: number;
}

type Evento = EventoImovel | EventoCondominio;
/** A run of events applied in one transaction, ending at `ate` (the offset after its last message). */
type Trecho = { eventos: Evento[]; ate: bigint; propagacaoGrande: boolean };

export async function processarLote(lote: Lote, deps: DependenciasLote): Promise<ResultadoLote> {
  const { escritor, log } = deps;
  const agregado = deps.agregados.get(lote.topico);
  if (!agregado) throw new Error(`tópico não esperado: ${lote.topico}`);

  // A redelivered batch (Kafka's commit lags the projection's) skips what is already applied.
  const aplicadoAte = BigInt(escritor.offsetDe(lote.topico, lote.particao) ?? '0');
  const novas = lote.mensagens.filter((m) => BigInt(m.offset) >= aplicadoAte);
  if (novas.length === 0) return { proximoOffset: null, efeitos: [], rejeitados: 0 };

  const rejeicoes: Rejeicao[] = [];
  const trechos: Trecho[] = [];
  let atual: Trecho = { eventos: [], ate: 0n, propagacaoGrande: false };
  let tombstones = 0;
  for (const mensagem of novas) {
    const ate = BigInt(mensagem.offset) + 1n;
    if (mensagem.value === null) {
      // A compaction tombstone after a deletion: carries nothing, only moves the offset.
      tombstones++;
      atual.ate = ate;
      continue;
    }
    const resultado = decodificarEvento(agregado, mensagem.key?.toString('utf8') ?? null, mensagem.value);
    if (!resultado.ok) {
      rejeicoes.push({ topico: lote.topico, particao: lote.particao, mensagem, motivo: resultado.motivo, detalhe: resultado.detalhe });
      atual.ate = ate;
      continue;
    }
    const evento = resultado.evento;
    if (evento.tipo.startsWith('condominio.') && escritor.contarImoveisDoCondominio(evento.dados.id) > LIMITE_PROPAGACAO_NA_TRANSACAO) {
      // A rename touching many properties gets transactions of its own, with heartbeats between.
      if (atual.eventos.length > 0 || atual.ate > 0n) trechos.push(atual);
      trechos.push({ eventos: [evento], ate, propagacaoGrande: true });
      atual = { eventos: [], ate: 0n, propagacaoGrande: false };
      continue;
    }
    atual.eventos.push(evento);
    atual.ate = ate;
  }
  if (atual.ate > 0n) trechos.push(atual);

  if (rejeicoes.length > 0) {
    await deps.enviarParaDlq(rejeicoes);
    for (const r of rejeicoes) {
      log.warn({ topico: r.topico, particao: r.particao, offset: r.mensagem.offset, motivo: r.motivo, detalhe: r.detalhe }, 'evento rejeitado enviado à dead-letter');
      deps.metricas?.eventosRejeitados.inc({ topico: r.topico, motivo: r.motivo });
    }
  }
  if (tombstones > 0) deps.metricas?.eventosAplicados.inc({ topico: lote.topico, efeito: 'tombstone' }, tombstones);

  const efeitos: Efeito[] = [];
  let proximoOffset: string | null = null;
  for (const trecho of trechos) {
    if (!lote.ativo()) break; // lost the partition or stopping: the rest is re-delivered
    if (trecho.propagacaoGrande) await propagarEmTransacoes(lote, deps, trecho.eventos[0] as EventoCondominio);
    const offset = { topico: lote.topico, particao: lote.particao, proximo: trecho.ate.toString() };
    const feitos = aplicarLote(escritor, { eventos: trecho.eventos, offsets: [offset] }, deps.contexto, deps.agora);
    efeitos.push(...feitos);
    proximoOffset = offset.proximo;
    // kafkajs only heartbeats between batches; a long batch must say it is alive itself.
    await lote.heartbeat();
  }
  for (const efeito of efeitos) deps.metricas?.eventosAplicados.inc({ topico: lote.topico, efeito });
  return { proximoOffset, efeitos, rejeitados: rejeicoes.length };
}

/**
 * The name change of a large condominium, a page of properties per transaction. The
 * condominium row itself is written last, with the offset, so a fan-out cut short by a crash
 * is redone from the start on restart (already renamed properties are left as they are).
 */
async function propagarEmTransacoes(lote: Lote, deps: DependenciasLote, evento: EventoCondominio): Promise<void> {
  const { escritor } = deps;
  const anterior = escritor.obterCondominio(evento.dados.id);
  if (anterior?.excluido || (anterior && evento.versao <= anterior.versao)) return;
  const nome = evento.tipo === 'condominio.salvo' ? evento.dados.nome : null;
  let apos: string | null = '';
  while (apos !== null && lote.ativo()) {
    const desde: string = apos;
    apos = escritor.transacao(() =>
      propagarNomeCondominio(escritor, evento.dados.id, nome, desde, LIMITE_PROPAGACAO_NA_TRANSACAO, carimbar(escritor, deps.agora)),
    );
    await lote.heartbeat();
  }
}
