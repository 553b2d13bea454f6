// Makes one condominium as the register holds it, as a pure function of (seed, index, rename count).
import { Aleatorio } from './aleatorio.ts';
import {
  ADMINISTRADORAS,
  CONDOMINIO_NOMES,
  CONDOMINIO_PREFIXOS,
  CONDOMINIO_SUFIXOS,
  DOMINIOS_EMAIL,
  PRENOMES,
  PRENOMES_ASCII,
  SOBRENOMES,
  SOBRENOMES_ASCII,
} from './dados-brasil.ts';
import { PASSO_CARGA_MS, FLUXO_CONDOMINIO, FLUXO_NOME_CONDOMINIO, FLUXO_SINDICO } from './fluxos.ts';
import type { CondominioCompleto, Contato } from './tipos.ts';

export interface CondominioGerado {
  dados: CondominioCompleto;
  eventoIdInicial: string;
  versaoInicial: number;
  ocorridoInicialMs: number;
}

export class FabricaCondominios {
  private readonly semente: number;
  private readonly inicioMs: number;
  private readonly imoveis: number;
  private readonly total: number;
  private readonly rng = new Aleatorio();
  private readonly rngAuxiliar = new Aleatorio();
  /** Ids are asked for by every property that points to a condominium: computed once each. */
  private readonly ids: (string | undefined)[] = [];

  constructor(semente: number, inicioMs: number, imoveis: number, condominios: number) {
    this.semente = semente;
    this.inicioMs = inicioMs;
    this.imoveis = imoveis;
    this.total = condominios;
  }

  /**
   * Position of condominium j in the initial load: just before property `posicao`, spread evenly
   * through the load, so some properties arrive before the condominium they point to.
   */
  posicaoNaCarga(indice: number): number {
    return this.total === 0 ? 0 : Math.floor((indice * this.imoveis) / this.total);
  }

  id(indice: number): string {
    let id = this.ids[indice];
    if (id === undefined) {
      this.rngAuxiliar.semear(this.semente, FLUXO_CONDOMINIO, indice);
      id = this.rngAuxiliar.uuid();
      this.ids[indice] = id;
    }
    return id;
  }

  /**
   * Condominium j after `renomeacoes` renames and `edicoesSindico` private edits. `conhecido`, its
   * name after fewer renames, spares replaying those (a long mutation stream renames one many times).
   */
  gerar(indice: number, renomeacoes = 0, edicoesSindico = 0, conhecido?: { renomeacoes: number; nome: string }): CondominioGerado {
    const rng = this.rng;
    rng.semear(this.semente, FLUXO_CONDOMINIO, indice);
    const id = rng.uuid();
    const eventoIdInicial = rng.uuid();
    const versaoInicial = rng.chance(0.5) ? 1 : rng.inteiro(2, 12);
    const ocorridoInicialMs = this.inicioMs + this.posicaoNaCarga(indice) * PASSO_CARGA_MS;
    let nome = this.nome(rng);
    const administradora = rng.chance(0.15) ? null : rng.escolher(ADMINISTRADORAS);
    let sindico = rng.chance(0.1) ? null : this.contato(rng);
    // Replayed rename by rename so that each one differs from the name before it.
    const inicial = conhecido !== undefined && conhecido.renomeacoes <= renomeacoes ? conhecido : { renomeacoes: 0, nome };
    nome = inicial.nome;
    for (let r = inicial.renomeacoes + 1; r <= renomeacoes; r++) {
      this.rngAuxiliar.semear(this.semente, FLUXO_NOME_CONDOMINIO, indice * 65_536 + (r & 0xffff));
      // A rename is either a new name or the old one re-typed in capitals, both seen in registers.
      const novo = this.rngAuxiliar.chance(0.25) && nome !== nome.toUpperCase() ? nome.toUpperCase() : this.nome(this.rngAuxiliar);
      nome = novo === nome ? `${novo} II` : novo;
    }
    if (edicoesSindico > 0) {
      this.rngAuxiliar.semear(this.semente, FLUXO_SINDICO, indice * 65_536 + (edicoesSindico & 0xffff));
      sindico = this.contato(this.rngAuxiliar);
    }
    return { dados: { id, nome, administradora, sindico }, eventoIdInicial, versaoInicial, ocorridoInicialMs };
  }

  private nome(rng: Aleatorio): string {
    return `${rng.escolher(CONDOMINIO_PREFIXOS)} ${rng.escolher(CONDOMINIO_NOMES)}${rng.escolher(CONDOMINIO_SUFIXOS)}`;
  }

  private contato(rng: Aleatorio): Contato {
    const p = rng.inteiro(0, PRENOMES.length - 1);
    const s = rng.inteiro(0, SOBRENOMES.length - 1);
    return {
      nome: `${PRENOMES[p]!} ${SOBRENOMES[s]!}`,
      telefone: `(${rng.inteiro(11, 99)}) 9${rng.digitos(4)}-${rng.digitos(4)}`,
      email: `${PRENOMES_ASCII[p]!}.${SOBRENOMES_ASCII[s]!}@${rng.escolher(DOMINIOS_EMAIL)}`,
    };
  }
}
