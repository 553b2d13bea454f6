// The mutation stream after the initial load: what agents do to the register day after day, plus
// the delivery faults (repeats, late revisions) and poison a consumer must survive.
import { acumular, Aleatorio } from './aleatorio.ts';
import { criarContexto, type Contexto } from './contexto.ts';
import { SITUACOES } from './dados-brasil.ts';
import { formatarDataHora } from './data-hora.ts';
import {
  eventoCondominioExcluido,
  eventoCondominioSalvo,
  eventoImovelExcluido,
  eventoImovelSalvo,
  registroCondominio,
  registroImovel,
} from './eventos.ts';
import { FLUXO_MUTACOES } from './fluxos.ts';
import { normalizarOpcoes, type OpcoesGerador } from './opcoes.ts';
import type { FotoGerada, ImovelCompleto } from './tipos.ts';
import type { RegistroBruto } from '@imoveis/contracts';
import { ESPECIES_VENENO, FabricaVenenos, type EspecieVeneno } from './venenos.ts';

export const ESPECIES_MUTACAO = [
  'preco',
  'fotos',
  'retirada',
  'negociacao',
  'republicacao',
  'privado',
  'exclusao',
  'tombstone',
  'condominio-renomeado',
  'condominio-privado',
  'condominio-excluido',
  'repeticao',
  'fora-de-ordem',
  ...ESPECIES_VENENO,
] as const;
export type EspecieMutacao = (typeof ESPECIES_MUTACAO)[number];

/** A mutation-stream record with what it is, for tests that need an oracle. */
export interface RegistroRotulado {
  registro: RegistroBruto;
  especie: EspecieMutacao;
}

type EspecieSorteada = Exclude<EspecieMutacao, 'tombstone' | EspecieVeneno>;
type EdicaoImovel = 'preco' | 'fotos' | 'retirada' | 'negociacao' | 'republicacao' | 'privado';

const SORTEAVEIS: readonly EspecieSorteada[] = [
  'preco', 'fotos', 'retirada', 'negociacao', 'republicacao', 'privado', 'exclusao',
  'condominio-renomeado', 'condominio-privado', 'condominio-excluido', 'repeticao', 'fora-de-ordem',
];
const PESOS_SORTEAVEIS = acumular([26, 16, 10, 5, 9, 12, 3, 4, 2, 0.5, 5, 5]);
const EDICOES: readonly EdicaoImovel[] = ['preco', 'fotos', 'retirada', 'negociacao', 'republicacao', 'privado'];
const PESOS_EDICOES = acumular([35, 20, 12, 6, 12, 15]);
/** Sold or rented, unpublished, inactivated, suspended (see Mutador.retirar). */
const FORMAS_RETIRADA: readonly number[] = [0, 1, 2, 3];
const PESOS_RETIRADA = acumular([50, 25, 15, 10]);

/** situacao codes in the state arrays: 0 = as generated, k = SITUACOES[k-1], SITUACAO_NULA = null. */
const SITUACAO_NULA = SITUACOES.length + 1;
const SEM_ALTERACAO = 0;
const FALSO = 1;
const VERDADEIRO = 2;
const CHANCE_TOMBSTONE = 0.5;
const TAMANHO_ANEL = 64;

interface AlteracoesFotos {
  /** Photos the property was generated with: added ones are numbered after them. */
  base: number;
  adicionadas: number;
  removidas: Set<string>;
  alteradaEm: Map<string, string>;
  publica: Map<string, boolean>;
}

/** Whether one more deletion leaves at least half of `total` alive (one of one: nothing would be left to mutate). */
const deixaMetade = (vivos: number, total: number): boolean => (vivos - 1) * 2 >= total;

/**
 * What mutations changed, in compact typed arrays indexed by property: a property's current state
 * is its regenerated base with these applied, so memory stays a few dozen bytes per property.
 */
class EstadoImoveis {
  readonly versao: Uint32Array;
  readonly excluido: Uint8Array;
  readonly situacao: Uint8Array;
  readonly ativo: Uint8Array;
  readonly publicar: Uint8Array;
  readonly sobConsulta: Uint8Array;
  readonly venda: Float64Array;
  readonly aluguel: Float64Array;
  // Edits of one entity: Uint32, so a long stream never wraps one back to 0, its original values.
  readonly revPrivados: Uint32Array;
  readonly fotos = new Map<number, AlteracoesFotos>();
  vivos: number;

  constructor(n: number) {
    this.versao = new Uint32Array(n);
    this.excluido = new Uint8Array(n);
    this.situacao = new Uint8Array(n);
    this.ativo = new Uint8Array(n);
    this.publicar = new Uint8Array(n);
    this.sobConsulta = new Uint8Array(n);
    this.venda = new Float64Array(n).fill(Number.NaN);
    this.aluguel = new Float64Array(n).fill(Number.NaN);
    this.revPrivados = new Uint32Array(n);
    this.vivos = n;
  }
}

class EstadoCondominios {
  readonly versao: Uint32Array;
  readonly excluido: Uint8Array;
  readonly renomeacoes: Uint32Array;
  readonly edicoesSindico: Uint32Array;
  /** Each edited one's name and its rename count then: the next rename starts from it. */
  readonly nomes: ({ renomeacoes: number; nome: string } | undefined)[] = [];
  vivos: number;

  constructor(n: number) {
    this.versao = new Uint32Array(n);
    this.excluido = new Uint8Array(n);
    this.renomeacoes = new Uint32Array(n);
    this.edicoesSindico = new Uint32Array(n);
    this.vivos = n;
  }
}

function arredondar(valor: number, passo: number): number {
  return Math.round(valor / passo) * passo;
}

/** A mutation stream's whole state: one instance per call of gerarMutacoes. */
class Mutador {
  private readonly ctx: Contexto;
  private readonly rng: Aleatorio;
  private readonly imoveis: EstadoImoveis;
  private readonly condominios: EstadoCondominios;
  private readonly venenos: FabricaVenenos;
  /** Recently sent events, the pool exact repeats are drawn from. */
  private readonly anel: RegistroBruto[] = [];
  private posicaoAnel = 0;
  /** Records already decided but not yet emitted: late revisions and tombstones. */
  readonly pendentes: RegistroRotulado[] = [];
  agoraMs: number;

  constructor(ctx: Contexto) {
    this.ctx = ctx;
    this.rng = new Aleatorio(ctx.opcoes.seed, FLUXO_MUTACOES, 0);
    this.imoveis = new EstadoImoveis(ctx.opcoes.imoveis);
    this.condominios = new EstadoCondominios(ctx.opcoes.condominios);
    this.venenos = new FabricaVenenos(ctx);
    this.agoraMs = ctx.inicioMutacoesMs;
  }

  proxima(): RegistroRotulado {
    const rng = this.rng;
    this.agoraMs += rng.inteiro(200, 20_000);
    const { imoveis, condominios, taxaVenenos } = this.ctx.opcoes;
    if ((imoveis === 0 && condominios === 0) || rng.chance(taxaVenenos)) {
      const especie = rng.escolher(ESPECIES_VENENO);
      return { registro: this.venenos.gerar(rng, especie, this.agoraMs), especie };
    }
    let especie = rng.escolherPonderado(SORTEAVEIS, PESOS_SORTEAVEIS);
    // Fall back to what the universe allows: no condominiums, no properties, or too few left.
    const ehCondominio = especie === 'condominio-renomeado' || especie === 'condominio-privado' || especie === 'condominio-excluido';
    if (ehCondominio && this.condominios.vivos === 0) especie = 'preco';
    if (!ehCondominio && especie !== 'repeticao' && this.imoveis.vivos === 0) especie = 'condominio-renomeado';
    if (especie === 'repeticao' && this.anel.length === 0) especie = this.imoveis.vivos > 0 ? 'preco' : 'condominio-renomeado';
    if (especie === 'exclusao' && !deixaMetade(this.imoveis.vivos, imoveis)) especie = 'preco';
    if (especie === 'condominio-excluido' && !deixaMetade(this.condominios.vivos, condominios)) especie = 'condominio-renomeado';

    switch (especie) {
      case 'preco':
      case 'fotos':
      case 'retirada':
      case 'negociacao':
      case 'republicacao':
      case 'privado':
        return this.lembrar({ registro: this.editarImovel(this.imovelVivo(), especie), especie });
      case 'exclusao':
        return this.lembrar({ registro: this.excluirImovel(this.imovelVivo()), especie });
      case 'condominio-renomeado':
      case 'condominio-privado':
        return this.lembrar({ registro: this.editarCondominio(this.condominioVivo(), especie === 'condominio-renomeado'), especie });
      case 'condominio-excluido':
        return this.lembrar({ registro: this.excluirCondominio(this.condominioVivo()), especie });
      case 'repeticao':
        return { registro: this.anel[rng.inteiro(0, this.anel.length - 1)]!, especie };
      case 'fora-de-ordem':
        return this.foraDeOrdem();
    }
  }

  /**
   * Two successive saves of one property delivered in reverse order: the newer first, the older
   * (lower versao) later. Sometimes the newer one is the deletion, which must stay final.
   */
  private foraDeOrdem(): RegistroRotulado {
    const i = this.imovelVivo();
    const antiga = this.editarImovel(i, this.rng.escolherPonderado(EDICOES, PESOS_EDICOES));
    this.agoraMs += this.rng.inteiro(200, 5_000);
    const exclui = deixaMetade(this.imoveis.vivos, this.ctx.opcoes.imoveis) && this.rng.chance(0.1);
    const edicao = this.rng.escolherPonderado(EDICOES, PESOS_EDICOES);
    const nova = exclui ? this.excluirImovel(i) : this.editarImovel(i, edicao);
    // The tombstone a deletion may have queued must come after the late revision.
    const tombstones = this.pendentes.splice(0);
    this.pendentes.push({ registro: antiga, especie: 'fora-de-ordem' }, ...tombstones);
    this.lembrar({ registro: antiga, especie: 'fora-de-ordem' });
    return this.lembrar({ registro: nova, especie: exclui ? 'exclusao' : edicao });
  }

  private lembrar(r: RegistroRotulado): RegistroRotulado {
    if (this.anel.length < TAMANHO_ANEL) this.anel.push(r.registro);
    else this.anel[this.posicaoAnel] = r.registro;
    this.posicaoAnel = (this.posicaoAnel + 1) % TAMANHO_ANEL;
    return r;
  }

  private imovelVivo(): number {
    return this.vivo(this.imoveis.excluido);
  }

  private condominioVivo(): number {
    return this.vivo(this.condominios.excluido);
  }

  /** A uniformly drawn live index; at least half are alive, so a few draws almost always do. */
  private vivo(excluido: Uint8Array): number {
    const n = excluido.length;
    for (let tentativa = 0; tentativa < 8; tentativa++) {
      const i = this.rng.inteiro(0, n - 1);
      if (excluido[i] === 0) return i;
    }
    const inicio = this.rng.inteiro(0, n - 1);
    for (let k = 0; k < n; k++) {
      const i = (inicio + k) % n;
      if (excluido[i] === 0) return i;
    }
    throw new Error('nenhum agregado vivo');
  }

  /** Regenerates property i as it stands now (base plus every mutation applied so far). */
  private imovelAtual(i: number): { dados: ImovelCompleto; versaoAtual: number } {
    const e = this.imoveis;
    const gerado = this.ctx.imoveis.gerar(i);
    const d = gerado.dados;
    if (e.versao[i] === 0) e.versao[i] = gerado.versaoInicial;
    const situacao = e.situacao[i]!;
    if (situacao !== SEM_ALTERACAO) d.situacao = situacao === SITUACAO_NULA ? null : SITUACOES[situacao - 1]!;
    if (e.ativo[i] !== SEM_ALTERACAO) d.ativo = e.ativo[i] === VERDADEIRO;
    if (e.publicar[i] !== SEM_ALTERACAO) d.publicar_no_site = e.publicar[i] === VERDADEIRO;
    if (e.sobConsulta[i] !== SEM_ALTERACAO) d.valores.preco_sob_consulta = e.sobConsulta[i] === VERDADEIRO;
    if (!Number.isNaN(e.venda[i]!)) d.valores.venda = e.venda[i]!;
    if (!Number.isNaN(e.aluguel[i]!)) d.valores.aluguel = e.aluguel[i]!;
    if (e.revPrivados[i]! > 0) this.ctx.imoveis.revisarPrivados(d, i, e.revPrivados[i]!);
    const fotos = e.fotos.get(i);
    if (fotos !== undefined) this.aplicarFotos(d, i, fotos);
    return { dados: d, versaoAtual: e.versao[i]! };
  }

  private aplicarFotos(d: ImovelCompleto, i: number, alt: AlteracoesFotos): void {
    for (let k = 0; k < alt.adicionadas; k++) d.fotos.push(this.ctx.imoveis.fotoExtra(d.codigo, i, alt.base + k));
    if (alt.removidas.size > 0) d.fotos = d.fotos.filter((f) => !alt.removidas.has(f.arquivo));
    for (const f of d.fotos) {
      const alterada = alt.alteradaEm.get(f.arquivo);
      if (alterada !== undefined) f.alterada_em = alterada;
      const publica = alt.publica.get(f.arquivo);
      if (publica !== undefined) f.publica = publica;
    }
  }

  private editarImovel(i: number, edicao: EdicaoImovel): RegistroBruto {
    const { dados: d } = this.imovelAtual(i);
    const e = this.imoveis;
    const rng = this.rng;
    switch (edicao) {
      case 'preco': {
        const v = d.valores;
        if (rng.chance(0.08)) {
          v.preco_sob_consulta = !v.preco_sob_consulta;
          e.sobConsulta[i] = v.preco_sob_consulta ? VERDADEIRO : FALSO;
        } else if (v.venda !== null && (v.aluguel === null || rng.chance(0.6))) {
          const novo = arredondar(v.venda * rng.entre(0.85, 1.08), 1000);
          v.venda = novo === v.venda ? novo - 5000 : novo;
          e.venda[i] = v.venda;
        } else {
          const novo = arredondar((v.aluguel ?? 2000) * rng.entre(0.85, 1.1), 50);
          v.aluguel = novo === v.aluguel ? novo + 50 : novo;
          e.aluguel[i] = v.aluguel;
        }
        break;
      }
      case 'fotos':
        this.editarFotos(d, i);
        break;
      case 'retirada':
        this.retirar(d, i);
        break;
      case 'negociacao':
        this.mudarSituacao(d, i, rng.chance(0.05) ? null : rng.chance(0.5) ? 'Reservado' : 'Em negociação');
        break;
      case 'republicacao':
        this.mudarSituacao(d, i, 'Disponível');
        d.ativo = true;
        e.ativo[i] = VERDADEIRO;
        d.publicar_no_site = true;
        e.publicar[i] = VERDADEIRO;
        break;
      case 'privado': {
        const rev = e.revPrivados[i]! + 1;
        e.revPrivados[i] = rev;
        this.ctx.imoveis.revisarPrivados(d, i, rev);
        break;
      }
    }
    const versao = ++e.versao[i]!;
    return registroImovel(eventoImovelSalvo(rng.uuid(), versao, this.agoraMs, d));
  }

  /**
   * Withdraws the property one of four ways (sold or rented, unpublished, inactivated,
   * suspended): the drawn one, or the next that still changes something. One always does, since
   * situacao cannot already be both Vendido/Alugado and Suspenso.
   */
  private retirar(d: ImovelCompleto, i: number): void {
    const e = this.imoveis;
    const fechamento = d.valores.venda !== null && (d.finalidade !== 'Locação' || this.rng.chance(0.2)) ? 'Vendido' : 'Alugado';
    const sorteada = this.rng.escolherPonderado(FORMAS_RETIRADA, PESOS_RETIRADA);
    for (let k = 0; k < FORMAS_RETIRADA.length; k++) {
      const forma = (sorteada + k) % FORMAS_RETIRADA.length;
      if (forma === 0 && d.situacao !== fechamento) return this.mudarSituacao(d, i, fechamento);
      if (forma === 1 && d.publicar_no_site) {
        d.publicar_no_site = false;
        e.publicar[i] = FALSO;
        return;
      }
      if (forma === 2 && d.ativo) {
        d.ativo = false;
        e.ativo[i] = FALSO;
        return;
      }
      if (forma === 3 && d.situacao !== 'Suspenso') return this.mudarSituacao(d, i, 'Suspenso');
    }
  }

  private mudarSituacao(d: ImovelCompleto, i: number, situacao: string | null): void {
    d.situacao = situacao;
    this.imoveis.situacao[i] = situacao === null ? SITUACAO_NULA : SITUACOES.indexOf(situacao as (typeof SITUACOES)[number]) + 1;
  }

  private editarFotos(d: ImovelCompleto, i: number): void {
    const rng = this.rng;
    let alt = this.imoveis.fotos.get(i);
    if (alt === undefined) {
      // d.fotos is still exactly the generated list here, since nothing was ever changed.
      alt = { base: d.fotos.length, adicionadas: 0, removidas: new Set(), alteradaEm: new Map(), publica: new Map() };
      this.imoveis.fotos.set(i, alt);
    }
    const r = rng.real();
    const escolhida: FotoGerada | undefined = d.fotos.length > 0 ? rng.escolher(d.fotos) : undefined;
    if (escolhida === undefined || (r >= 0.55 && r < 0.75)) {
      // A new photo, numbered after every photo the property ever had.
      const nova = this.ctx.imoveis.fotoExtra(d.codigo, i, alt.base + alt.adicionadas);
      alt.adicionadas++;
      d.fotos.push(nova);
    } else if (r < 0.55) {
      // The image file was replaced: same key, new alterada_em, so portals must fetch it again.
      const quando = formatarDataHora(this.agoraMs - rng.inteiro(1_000, 60_000));
      escolhida.alterada_em = quando;
      alt.alteradaEm.set(escolhida.arquivo, quando);
    } else if (r < 0.9) {
      alt.removidas.add(escolhida.arquivo);
      d.fotos = d.fotos.filter((f) => f !== escolhida);
    } else {
      escolhida.publica = !escolhida.publica;
      alt.publica.set(escolhida.arquivo, escolhida.publica);
    }
  }

  /** Only saves raise `versao`: a register may send a deletion with its last save's, or the next. */
  private versaoDaExclusao(versoes: Uint32Array, i: number): number {
    return this.rng.chance(0.5) ? versoes[i]! : ++versoes[i]!;
  }

  private excluirImovel(i: number): RegistroBruto {
    const { dados: d } = this.imovelAtual(i);
    const e = this.imoveis;
    e.excluido[i] = 1;
    e.vivos--;
    e.fotos.delete(i);
    const versao = this.versaoDaExclusao(e.versao, i);
    const registro = registroImovel(eventoImovelExcluido(this.rng.uuid(), versao, this.agoraMs, d.id, d.codigo));
    if (this.rng.chance(CHANCE_TOMBSTONE)) this.pendentes.push({ registro: { topico: 'imoveis', chave: d.id, valor: null }, especie: 'tombstone' });
    return registro;
  }

  private editarCondominio(j: number, renomear: boolean): RegistroBruto {
    const e = this.condominios;
    if (renomear) e.renomeacoes[j]!++;
    else e.edicoesSindico[j]!++;
    const c = this.ctx.condominios.gerar(j, e.renomeacoes[j], e.edicoesSindico[j], e.nomes[j]);
    e.nomes[j] = { renomeacoes: e.renomeacoes[j]!, nome: c.dados.nome };
    if (e.versao[j] === 0) e.versao[j] = c.versaoInicial;
    const versao = ++e.versao[j]!;
    return registroCondominio(eventoCondominioSalvo(this.rng.uuid(), versao, this.agoraMs, c.dados));
  }

  private excluirCondominio(j: number): RegistroBruto {
    const e = this.condominios;
    const c = this.ctx.condominios.gerar(j);
    if (e.versao[j] === 0) e.versao[j] = c.versaoInicial;
    e.excluido[j] = 1;
    e.vivos--;
    const versao = this.versaoDaExclusao(e.versao, j);
    const registro = registroCondominio(eventoCondominioExcluido(this.rng.uuid(), versao, this.agoraMs, c.dados.id));
    if (this.rng.chance(CHANCE_TOMBSTONE)) this.pendentes.push({ registro: { topico: 'condominios', chave: c.dados.id, valor: null }, especie: 'tombstone' });
    return registro;
  }
}

/** The mutation stream with each record's kind. Same options as the initial load it follows. */
export function* gerarMutacoesRotuladas(opcoes: Partial<OpcoesGerador> = {}): Generator<RegistroRotulado, void, undefined> {
  const ctx = criarContexto(normalizarOpcoes(opcoes));
  const total = ctx.opcoes.mutacoes;
  if (total === 0) return;
  const mutador = new Mutador(ctx);
  for (let emitidos = 0; emitidos < total; emitidos++) {
    yield mutador.pendentes.shift() ?? mutador.proxima();
  }
}

/** Streams `mutacoes` records that follow the initial load generated from the same options. */
export function* gerarMutacoes(opcoes: Partial<OpcoesGerador> = {}): Generator<RegistroBruto, void, undefined> {
  for (const r of gerarMutacoesRotuladas(opcoes)) yield r.registro;
}
