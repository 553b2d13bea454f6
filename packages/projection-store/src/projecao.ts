// What each register event does to the projection: the projector's whole write logic, applied
// through the writer inside the caller's transaction. Decisions come from @imoveis/domain.
import type { EventoCondominio, ImovelExcluido } from '@imoveis/contracts';
import { comNomeCondominio, instanteDaTransacao, mudancaRelevante, revisaoAplicavel, soCamposPrivados, type EventoPreparado, type ImovelSalvoPreparado } from '@imoveis/domain';
import type { EscritorProjecao, LinhaCondominio, LinhaImovel, OffsetParticao } from './escritor-sqlite.ts';

/** What applying an event did, for metrics and tests. */
export type Efeito = 'aplicado' | 'sem-mudanca' | 'repetido' | 'apos-exclusao';

/** Condominium fan-outs larger than this are done in several transactions by the caller. */
export const LIMITE_PROPAGACAO_NA_TRANSACAO = 1_000;

export interface TransacaoProjecao<E = EventoPreparado> {
  eventos: readonly E[];
  /** Next offset of every partition the events came from; committed with their effects. */
  offsets: readonly OffsetParticao[];
}

/**
 * Applies events in one transaction stamped with one commit instant (a batch's, or a chunk of it:
 * the projector applies at most TAMANHO_PEDACO messages a transaction), together with its offsets,
 * and returns the effect of each event, in order; unless `ainda()` is false once the write lock is
 * held: then nothing is written and the result is null. `ainda` is checked inside the transaction
 * because another process (a rebuild's switch) may commit while this one waits for the lock.
 */
export function aplicarTransacaoSeAinda(escritor: EscritorProjecao, transacao: TransacaoProjecao, agora: () => number, ainda: () => boolean): Efeito[] | null {
  return escritor.transacao(() => {
    if (!ainda()) return null;
    const instante = carimbar(escritor, agora);
    const efeitos = transacao.eventos.map((evento) => aplicarEvento(escritor, evento, instante));
    for (const offset of transacao.offsets) escritor.gravarOffset(offset);
    return efeitos;
  });
}

function aplicarEvento(escritor: EscritorProjecao, evento: EventoPreparado, instante: Carimbo): Efeito {
  switch (evento.tipo) {
    case 'imovel.salvo':
      return imovelSalvo(escritor, evento, instante);
    case 'imovel.excluido':
      return imovelExcluido(escritor, evento, instante);
    case 'condominio.salvo':
    case 'condominio.excluido':
      return condominioAlterado(escritor, evento, instante);
  }
}

/**
 * Sets the condominium name on a page of the properties that point to it, after `aposId`.
 * Returns the last id handled (null when none was left) and how many rows it rewrote.
 * Idempotent: a property already carrying the name is left untouched, so a fan-out cut short is
 * simply done again.
 */
export function propagarNomeCondominio(
  escritor: EscritorProjecao,
  condominioId: string,
  nome: string | null,
  aposId: string,
  limite: number,
  instante: Carimbo,
): { ultimo: string | null; gravados: number } {
  const imoveis = escritor.imoveisDoCondominio(condominioId, aposId, limite);
  let gravados = 0;
  for (const anterior of imoveis) {
    const documento = comNomeCondominio(anterior.documento, nome);
    if (documento === anterior.documento) continue;
    const relevante = mudancaRelevante(anterior, { codigo: anterior.codigo, documento, anunciado: anterior.anunciado });
    escritor.gravarImovel({ ...anterior, documento, atualizadoEm: relevante ? instante() : anterior.atualizadoEm }, anterior);
    gravados++;
  }
  return { ultimo: imoveis.at(-1)?.id ?? null, gravados };
}

/** A transaction's commit instant, for the partner-visible changes it writes. */
export type Carimbo = () => number;

/**
 * The commit instant of the transaction under way (instanteDaTransacao), taken when a change first
 * needs it and remembered for the next: a transaction that changes nothing partners see (repeats,
 * offsets alone) moves nothing, so instants run ahead of the clock by a millisecond per stamped
 * transaction within one millisecond, and after an instant that was ahead already (a clock stepped
 * back, a long switch's foreseen commit: decision 0005).
 */
export function carimbar(escritor: EscritorProjecao, agora: () => number): Carimbo {
  let instante: number | null = null;
  return () => {
    if (instante === null) {
      instante = instanteDaTransacao(agora(), escritor.lerEstado('ultimo_instante'));
      escritor.gravarEstado('ultimo_instante', instante);
    }
    return instante;
  };
}

function imovelSalvo(escritor: EscritorProjecao, evento: ImovelSalvoPreparado, instante: Carimbo): Efeito {
  if (escritor.foiRemovido(evento.id)) return 'apos-exclusao';
  const anterior = escritor.obterImovel(evento.id);
  if (!revisaoAplicavel({ versao: evento.versao, exclusao: false }, anterior?.versao ?? null)) return 'repetido';
  if (anterior !== null && soCamposPrivados(anterior, evento)) {
    escritor.gravarVersao(evento.id, evento.versao);
    return 'sem-mudanca';
  }

  const nomeCondominio = evento.condominioId ? (escritor.obterCondominio(evento.condominioId)?.nome ?? null) : null;
  const documento = nomeCondominio === null ? evento.documento : comNomeCondominio(evento.documento, nomeCondominio);
  const { anunciado } = evento;
  const relevante = mudancaRelevante(anterior, { codigo: evento.codigo, documento, anunciado });
  const novo: LinhaImovel = {
    id: evento.id,
    codigo: evento.codigo,
    versao: evento.versao,
    condominioId: evento.condominioId,
    anunciado,
    jaAnunciado: (anterior?.jaAnunciado ?? false) || anunciado,
    documento,
    atualizadoEm: relevante ? instante() : (anterior?.atualizadoEm ?? null),
    publico: evento.publico,
  };
  escritor.gravarImovel(novo, anterior);
  return relevante ? 'aplicado' : 'sem-mudanca';
}

function imovelExcluido(escritor: EscritorProjecao, evento: ImovelExcluido, instante: Carimbo): Efeito {
  const { id, codigo } = evento.dados;
  if (escritor.foiRemovido(id)) return 'repetido';
  const anterior = escritor.obterImovel(id);
  if (!revisaoAplicavel({ versao: evento.versao, exclusao: true }, anterior?.versao ?? null)) return 'repetido';
  escritor.removerImovel(id, codigo, instante());
  return 'aplicado';
}

/** Why a condominium event changes nothing (after a deletion, or no newer revision), or null when it applies. */
function condominioSemEfeito(anterior: LinhaCondominio | null, evento: EventoCondominio): 'apos-exclusao' | 'repetido' | null {
  if (anterior?.excluido) return 'apos-exclusao';
  return revisaoAplicavel({ versao: evento.versao, exclusao: evento.tipo === 'condominio.excluido' }, anterior?.versao ?? null) ? null : 'repetido';
}

/**
 * A condominium event's walk over the properties that point to it, a page at a time in the
 * caller's transactions: the name it gives them (none once deleted), and the condominium's own
 * row written by the page that finds none left, once every property carries the name. A walk cut
 * short by a crash is redone whole on redelivery (renamed properties are left as they are), and
 * one finished is a repeat (`apos-exclusao` for a deletion). The caller keeps where it is, so a
 * transaction retried repeats its page.
 */
export interface PropagacaoCondominio {
  /** One page after `apos` ('' to start): the next `apos` (null: done) and the rows rewritten. */
  passo(apos: string, instante: Carimbo): { apos: string | null; gravados: number };
  /**
   * The event's effect once the walk is done: `sem-mudanca` only if it kept the name and no
   * property changed. The walk is made even when the row already has the name: a fan-out cut
   * short by a crash, whose event compaction then removed, may have left properties with another.
   */
  efeito(gravados: number): Efeito;
}

/** A condominium event's fan-out ({@link PropagacaoCondominio}), or its effect at once when it changes nothing. */
export function iniciarPropagacao(escritor: EscritorProjecao, evento: EventoCondominio): PropagacaoCondominio | Efeito {
  const { id } = evento.dados;
  const anterior = escritor.obterCondominio(id);
  const semEfeito = condominioSemEfeito(anterior, evento);
  if (semEfeito !== null) return semEfeito;
  const nome = evento.tipo === 'condominio.salvo' ? evento.dados.nome : null;
  return {
    passo(apos, instante) {
      const pagina = propagarNomeCondominio(escritor, id, nome, apos, LIMITE_PROPAGACAO_NA_TRANSACAO, instante);
      if (pagina.ultimo === null) escritor.gravarCondominio({ id, nome, versao: evento.versao, excluido: evento.tipo === 'condominio.excluido' });
      return { apos: pagina.ultimo, gravados: pagina.gravados };
    },
    efeito: (gravados) => (anterior?.nome === nome && gravados === 0 ? 'sem-mudanca' : 'aplicado'),
  };
}

/**
 * A condominium event whose fan-out fits in the batch's transaction (the projector's
 * `propagarEmTransacoes` spreads a larger one over several): about
 * {@link LIMITE_PROPAGACAO_NA_TRANSACAO} properties at most here (counted before the chunk's own saves).
 */
function condominioAlterado(escritor: EscritorProjecao, evento: EventoCondominio, instante: Carimbo): Efeito {
  const propagacao = iniciarPropagacao(escritor, evento);
  if (typeof propagacao === 'string') return propagacao;
  let gravados = 0;
  for (let apos: string | null = ''; apos !== null; ) {
    const passo = propagacao.passo(apos, instante);
    apos = passo.apos;
    gravados += passo.gravados;
  }
  return propagacao.efeito(gravados);
}
