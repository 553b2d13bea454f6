// The product's central promise, end to end: a partner client that follows exactly the
// synchronisation rules of partner-api.md (a full scan recording its start, then incremental runs
// from the previous start minus a 60–120 s margin, `publicado: false` items and
// /imoveis/removidos deleted, rule 1 after every full scan) ends with a copy equal, document for
// document, to what the API serves: however the projector's batches and the clock's jumps fall
// between its requests, between runs and between the pages of one run.
// Register events come from the data generator and go through the projector's own code
// (preparing, with poison and tombstones left out as the consumer leaves them; one transaction
// per topic run of a batch), stamped by a fake clock the client reads its start times from; the
// second property also switches rebuilds in meanwhile, as `pnpm run rebuild` does. Every page is
// also checked against the projection read directly (no skip, no repeat, the cursor, the total)
// and against the served OpenAPI document. The run is fixed (a seed); set FUZZ_SEED and
// FUZZ_RUNS to search further.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RegistroBruto } from '@imoveis/contracts';
import { escolherPlanoIncremental, type EventoPreparado, type PlanoIncremental } from '@imoveis/domain';
import { gerarCargaInicial, gerarMutacoesRotuladas } from '@imoveis/generator';
import {
  EscritorProjecao,
  LeitorSqlite,
  aplicarTransacaoSeAinda,
  trocarProjecao,
  type Database,
  type LeitorProjecao,
} from '../../packages/projection-store/src/index.ts';
import { FOTOS } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { prepararMensagens } from '../../services/projector/src/preparo-em-threads.ts';
import { sqliteTemporario } from '../helpers.ts';
import { criarApi, criarProjecao, type ApiDeTeste, type ProjecaoDeTeste } from './api-suporte.ts';

const RODADAS_PADRAO = 30;
const rodada = { seed: Number(process.env.FUZZ_SEED ?? 2026), numRuns: Number(process.env.FUZZ_RUNS ?? RODADAS_PADRAO) };
/** The partner's runs after the initial load stop here even if the register has more to say. */
const MAXIMO_DE_EXECUCOES = 40;
/** Rebuilds switched in per history at most (the schedule is taken in a cycle): each costs a new projection file. */
const MAXIMO_DE_RECONSTRUCOES = 3;
const BASE = '/api/v1/imoveis';
const POR_PAGINA_PADRAO = 50;
const MINUTO = 60_000;
const HORA = 60 * MINUTO;
const iso = (ms: number): string => new Date(ms).toISOString();

type Item = { id: string; publicado: boolean } & Record<string, unknown>;
interface Listagem {
  dados: Item[];
  por_pagina: number;
  proximo_cursor: string | null;
  total: number | null;
}
interface Removidos {
  dados: { id: string; codigo: string; removido_em: string }[];
}

// ---- The world: the register's records, the projector applying them, the clock ---------------

/** The photos' base address the projector is configured with; a rebuild may come with another. */
const BASES_DE_FOTOS = [FOTOS, 'https://imagens.exemplo.com.br/marca'] as const;

/** A register record, and what the generator made it, for the journal of a failing run. */
interface Registro {
  readonly bruto: RegistroBruto;
  readonly especie: string;
  /** As the projector's preparing step leaves it, per photos' base address (null: poison or a tombstone; neither reaches the projection). */
  readonly preparado: Map<string, EventoPreparado | null>;
}
const chaveDe = (r: Registro): string => `${r.bruto.topico}/${r.bruto.chave}`;

/** Prepared as the projector prepares each message it consumes (it needs no projection state), once per base address. */
function preparado(r: Registro, fotosBaseUrl: string): EventoPreparado | null {
  if (!r.preparado.has(fotosBaseUrl)) {
    const [preparo] = prepararMensagens(r.bruto.topico === 'imoveis' ? 'imovel' : 'condominio', [r.bruto], { fotosBaseUrl });
    r.preparado.set(fotosBaseUrl, preparo?.ok ? preparo.evento : null);
  }
  return r.preparado.get(fotosBaseUrl)!;
}

interface Lote {
  /** How many register records the projector takes in this batch. */
  readonly registros: number;
  /** How long before its commit the batch was stamped (a long transaction): under the margin. */
  readonly atrasoMs: number;
}
/**
 * A rebuild switched in (decision 0006): replayed from topics compacted up to a point, caught up
 * behind the live projector (which then applies what followed again, from the switched offsets)
 * or ahead of it (which then goes on from there).
 */
interface Reconstrucao {
  /** How many records the rebuild had read when it switched, beyond (or, negative, short of) what the live projector had applied. */
  readonly adiante: number;
  /** The share of the log the cleaner had compacted: a key's earlier records gone, its last kept. */
  readonly compactado: number;
  /** Whether the compacted tombstones were gone too, and with them every record of their keys. */
  readonly semTombstones: boolean;
  /** Whether the photos' base address changed with it (every document differs), for the live projector too. */
  readonly novaBaseDeFotos: boolean;
}
/** What happens before a client request: the clock moves, some batches commit, maybe a rebuild is switched in. */
interface Intervalo {
  readonly saltoMs: number;
  readonly lotes: readonly Lote[];
  readonly reconstrucao: Reconstrucao | null;
}

/** What a compacted topic still holds of `registros`, in order: compaction applies to those before `ate`. */
function compactar(registros: readonly Registro[], ate: number, semTombstones: boolean): Registro[] {
  const ultimo = new Map(registros.map((r, i) => [chaveDe(r), i]));
  const idos = new Set(registros.flatMap((r, i) => (semTombstones && r.bruto.valor === null && i < ate && ultimo.get(chaveDe(r)) === i ? [chaveDe(r)] : [])));
  return registros.filter((r, i) => !idos.has(chaveDe(r)) && (i >= ate || r.bruto.chave === null || ultimo.get(chaveDe(r)) === i));
}

/**
 * Records as the consumer writes a batch of them: a transaction per run of one topic, stamped by
 * the projector's code from a clock reading `instante`.
 */
function aplicarEmLotes(escritor: EscritorProjecao, registros: readonly Registro[], instante: number, fotosBaseUrl: string): void {
  for (let i = 0; i < registros.length; ) {
    let fim = i + 1;
    while (fim < registros.length && registros[fim]!.bruto.topico === registros[i]!.bruto.topico) fim++;
    const eventos = registros.slice(i, fim).flatMap((r) => preparado(r, fotosBaseUrl) ?? []);
    aplicarTransacaoSeAinda(escritor, { eventos, offsets: [] }, () => instante, () => true);
    i = fim;
  }
}

/**
 * Rebuilds switched in, over all runs; those that lacked what the live projection knew (later
 * revisions, properties they never saw); those that changed what partners see (what the live
 * projector had not applied yet, another photos' address), stamped with the switch instant.
 */
const reconstrucoes = { trocadas: 0, atrasadas: 0, alteradoras: 0 };

class Mundo {
  agora: number;
  /** Once set, requests land with nothing in between (the last run and the verification). */
  parado = false;
  readonly diario: string[] = [];
  readonly #projecao: ProjecaoDeTeste;
  readonly #registros: readonly Registro[];
  readonly #intervalos: readonly Intervalo[];
  #aplicados = 0;
  #proximoIntervalo = 0;
  #fotosBaseUrl: string = FOTOS;
  #reconstrucoes = 0;

  constructor(projecao: ProjecaoDeTeste, registros: readonly Registro[], intervalos: readonly Intervalo[], inicio: number) {
    this.#projecao = projecao;
    this.#registros = registros;
    this.#intervalos = intervalos;
    this.agora = inicio;
  }

  get restantes(): number {
    return this.#registros.length - this.#aplicados;
  }

  /** Called before every client request: the next interval of the schedule, taken in a cycle. */
  entreRequisicoes(): void {
    if (this.parado) return;
    const intervalo = this.#intervalos[this.#proximoIntervalo++ % this.#intervalos.length]!;
    this.agora += intervalo.saltoMs;
    for (const lote of intervalo.lotes) this.aplicar(lote.registros, this.agora - lote.atrasoMs);
    if (intervalo.reconstrucao !== null && this.#reconstrucoes++ < MAXIMO_DE_RECONSTRUCOES) this.reconstruir(intervalo.reconstrucao);
  }

  /** The next `quantos` records as one projector batch. */
  aplicar(quantos: number, instante: number): void {
    const lote = this.#registros.slice(this.#aplicados, this.#aplicados + quantos);
    if (lote.length === 0) return;
    this.#aplicados += lote.length;
    this.diario.push(`${iso(this.agora)} lote carimbado em ${iso(instante)}: ${lote.map((r) => `${r.especie} ${r.bruto.chave?.slice(0, 8) ?? '-'}`).join(', ')}`);
    aplicarEmLotes(this.#projecao.escritor, lote, instante, this.#fotosBaseUrl);
  }

  reconstruir({ adiante, compactado, semTombstones, novaBaseDeFotos }: Reconstrucao): void {
    if (novaBaseDeFotos) this.#fotosBaseUrl = BASES_DE_FOTOS.find((b) => b !== this.#fotosBaseUrl)!;
    const lidos = Math.min(this.#registros.length, Math.max(0, this.#aplicados + adiante));
    const entrada = compactar(this.#registros.slice(0, lidos), Math.floor(lidos * compactado), semTombstones);
    this.diario.push(`${iso(this.agora)} reconstrução trocada: ${entrada.length} registros dos ${lidos} lidos; o projetor estava em ${this.#aplicados}`);
    const arquivo = sqliteTemporario('reconstrucao.db');
    try {
      const novo = EscritorProjecao.abrir(arquivo.caminho);
      aplicarEmLotes(novo, entrada, this.agora, this.#fotosBaseUrl);
      novo.close();
      const resumo = trocarProjecao(this.#projecao.escritor, arquivo.caminho, () => this.agora);
      reconstrucoes.trocadas++;
      if (resumo.maisNovos + resumo.ausentes > 0) reconstrucoes.atrasadas++;
      if (resumo.alterados + resumo.removidosNovos > 0) reconstrucoes.alteradoras++;
    } finally {
      arquivo.remover();
    }
    // The live projector sees the new generation and seeks to the rebuild's offsets: it applies
    // again what followed them, or goes on from there.
    aplicarEmLotes(this.#projecao.escritor, this.#registros.slice(lidos, this.#aplicados), this.agora, this.#fotosBaseUrl);
    this.#aplicados = Math.max(this.#aplicados, lidos);
  }

  aplicarRestantes(): void {
    while (this.restantes > 0) {
      this.agora += 1_000;
      this.aplicar(50, this.agora);
    }
  }
}

// ---- The oracle: the projection read directly, in plain SQL ------------------------------------

class Oraculo {
  readonly #anunciados;
  readonly #alterados;
  readonly #removidos;

  constructor(db: Database.Database) {
    this.#anunciados = db.prepare<[string], { id: string }>('SELECT id FROM imoveis WHERE anunciado = 1 AND id > ? ORDER BY id');
    this.#alterados = db.prepare<[number, string], { id: string; anunciado: number }>(
      'SELECT id, anunciado FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em >= ? AND id > ? ORDER BY id',
    );
    this.#removidos = db.prepare<[number], { id: string }>('SELECT id FROM removidos WHERE removido_em >= ? ORDER BY id');
  }

  /** What a listing (null: the full scan) holds after `aposId` ('' for all): ids in order, and whether each is advertised. */
  listagem(desdeMs: number | null, aposId: string): { id: string; publicado: boolean }[] {
    return desdeMs === null
      ? this.#anunciados.all(aposId).map((r) => ({ id: r.id, publicado: true }))
      : this.#alterados.all(desdeMs, aposId).map((r) => ({ id: r.id, publicado: r.anunciado === 1 }));
  }

  removidos(desdeMs: number): string[] {
    return this.#removidos.all(desdeMs).map((r) => r.id);
  }
}

// ---- The partner client, as partner-api.md tells it to behave ----------------------------------

/**
 * What the runs went through, over all of them: a schedule that never put a write between two
 * pages, or never made the copy drop anything, would pass without testing the promise.
 */
const cobertura = {
  escritasEntrePaginasDaVarredura: 0,
  escritasEntrePaginasDoIncremental: 0,
  retiradosPeloIncremental: 0,
  removidosPelosRemovidos: 0,
  removidosPelaRegra1: 0,
};

/** How the client writes an instant: the contract takes any ISO 8601 date-time with an offset. */
type FormatoInstante = 'Z' | 'Z-segundos' | '-03:00' | '+05:30';

/** The instant as the client sends it in a query string, and the instant that text means (a client writing whole seconds rounds down). */
function instanteNaUrl(ms: number, formato: FormatoInstante): { texto: string; ms: number } {
  if (formato === 'Z') return { texto: iso(ms), ms };
  if (formato === 'Z-segundos') {
    const segundos = Math.floor(ms / 1000) * 1000;
    return { texto: iso(segundos).replace('.000Z', 'Z'), ms: segundos };
  }
  const minutos = formato === '-03:00' ? -180 : 330;
  const local = iso(ms + minutos * MINUTO).replace('Z', formato);
  // A + in a query string is a space: the contract asks for %2B.
  return { texto: local.replace('+', '%2B'), ms };
}

interface OpcoesParceiro {
  readonly margemMs: number;
  /** null: the parameter left out, for the default page size. */
  readonly porPaginaCompleta: number | null;
  readonly porPaginaIncremental: number | null;
  readonly formatoInstante: FormatoInstante;
  /** Whether a reconciling scan's start also restarts the incremental window: either reading of rule 2 keeps the copy right. */
  readonly varreduraReiniciaJanela: boolean;
}

class Parceiro {
  readonly copia = new Map<string, Item>();
  /** The start from which the next window is taken (rule 2); null before the initial load. */
  inicioAnterior: number | null = null;
  readonly #api: ApiDeTeste;
  readonly #mundo: Mundo;
  readonly #oraculo: Oraculo;
  readonly #opcoes: OpcoesParceiro;

  constructor(api: ApiDeTeste, mundo: Mundo, oraculo: Oraculo, opcoes: OpcoesParceiro) {
    this.#api = api;
    this.#mundo = mundo;
    this.#oraculo = oraculo;
    this.#opcoes = opcoes;
  }

  /** Stage 1, and rule 5: every page until proximo_cursor is null, then rule 1. */
  async varreduraCompleta(porPagina = this.#opcoes.porPaginaCompleta): Promise<Map<string, Item>> {
    const inicio = this.#mundo.agora;
    const vistos = await this.#varrer(null, porPagina);
    for (const item of vistos.values()) {
      expect(item.publicado, `${item.id}: a varredura completa só traz Imovel`).toBe(true);
      this.copia.set(item.id, item);
    }
    // Rule 1: in the copy but absent from the scan: no longer advertised.
    for (const id of [...this.copia.keys()]) if (!vistos.has(id) && this.copia.delete(id)) cobertura.removidosPelaRegra1++;
    if (this.inicioAnterior === null || this.#opcoes.varreduraReiniciaJanela) this.inicioAnterior = inicio;
    this.#mundo.diario.push(`${iso(inicio)} varredura completa: ${vistos.size} imóveis`);
    return vistos;
  }

  /** Stage 2: rules 2 to 4. */
  async incremental(): Promise<void> {
    if (this.inicioAnterior === null) throw new Error('a carga inicial vem antes do incremental');
    const inicio = this.#mundo.agora;
    const desde = instanteNaUrl(this.inicioAnterior - this.#opcoes.margemMs, this.#opcoes.formatoInstante);
    const itens = await this.#varrer(desde, this.#opcoes.porPaginaIncremental);
    // Rule 3: publicado true is inserted or updated, publicado false removed.
    for (const item of itens.values()) {
      if (item.publicado) this.copia.set(item.id, item);
      else if (this.copia.delete(item.id)) cobertura.retiradosPeloIncremental++;
    }
    // Rule 4: every removal since the previous start minus the margin.
    const removidos = await this.#pedir<Removidos>(`${BASE}/removidos?desde=${desde.texto}`);
    expect(removidos.dados.map((r) => r.id).sort(), `removidos desde ${desde.texto}`).toEqual(this.#oraculo.removidos(desde.ms));
    for (const r of removidos.dados) if (this.copia.delete(r.id)) cobertura.removidosPelosRemovidos++;
    this.inicioAnterior = inicio;
    this.#mundo.diario.push(`${iso(inicio)} incremental desde ${desde.texto}: ${itens.size} itens, ${removidos.dados.length} removidos`);
  }

  /** Follows the cursor to the end, checking each page against the projection as it stood when served. */
  async #varrer(desde: { texto: string; ms: number } | null, porPagina: number | null): Promise<Map<string, Item>> {
    const parametros = [...(desde === null ? [] : [`alterados_desde=${desde.texto}`]), ...(porPagina === null ? [] : [`por_pagina=${porPagina}`])];
    const itens = new Map<string, Item>();
    let cursor: string | null = null;
    let restantesNaPrimeira: number | null = null;
    do {
      const pagina: Listagem = await this.#pedir<Listagem>(`${BASE}?${[...parametros, ...(cursor === null ? [] : [`cursor=${cursor}`])].join('&')}`);
      this.#conferirPagina(pagina, desde?.ms ?? null, porPagina ?? POR_PAGINA_PADRAO, cursor);
      for (const item of pagina.dados) itens.set(item.id, item);
      cursor = pagina.proximo_cursor;
      restantesNaPrimeira ??= this.#mundo.restantes;
    } while (cursor !== null);
    if (this.#mundo.restantes < restantesNaPrimeira) cobertura[desde === null ? 'escritasEntrePaginasDaVarredura' : 'escritasEntrePaginasDoIncremental']++;
    return itens;
  }

  /** What partner-api.md promises of one page, at the moment it was served (nothing lands while it is). */
  #conferirPagina(pagina: Listagem, desdeMs: number | null, porPagina: number, cursor: string | null): void {
    const onde = `${desdeMs === null ? 'varredura' : `incremental desde ${iso(desdeMs)}`}, por_pagina ${porPagina}, cursor ${cursor}`;
    const aposCursor = this.#oraculo.listagem(desdeMs, cursor ?? '');
    expect(pagina.por_pagina, onde).toBe(porPagina);
    expect(pagina.total, `${onde}: total é o do filtro inteiro`).toBe(this.#oraculo.listagem(desdeMs, '').length);
    // In id order from the cursor: nothing skipped, nothing repeated, withdrawn items as such.
    expect(pagina.dados.map((d) => ({ id: d.id, publicado: d.publicado })), `${onde}: a página`).toEqual(aposCursor.slice(0, porPagina));
    // proximo_cursor is null exactly on the last page, and an intermediate page is never empty.
    expect(pagina.proximo_cursor !== null, `${onde}: proximo_cursor só quando outra página tem dados`).toBe(aposCursor.length > porPagina);
    if (pagina.proximo_cursor !== null) {
      expect(pagina.dados.length, `${onde}: página intermediária vazia`).toBeGreaterThan(0);
      // Sent back, the cursor resumes right after this page.
      expect(this.#oraculo.listagem(desdeMs, pagina.proximo_cursor), `${onde}: o que segue o cursor`).toEqual(aposCursor.slice(pagina.dados.length));
    }
  }

  /** A GET as the partner sends it (validated against the OpenAPI document); the projector and the clock may move first. */
  async #pedir<T>(url: string): Promise<T> {
    this.#mundo.entreRequisicoes();
    const resposta = await this.#api.get(url);
    expect(resposta.statusCode, `${url}: ${resposta.body}`).toBe(200);
    return JSON.parse(resposta.body) as T;
  }
}

// ---- The property --------------------------------------------------------------------------------

/** The ids, and the fields, on which the copy and what the API serves disagree. */
function diferencas(copia: ReadonlyMap<string, Item>, servido: ReadonlyMap<string, Item>) {
  const faltam = [...servido.keys()].filter((id) => !copia.has(id)).sort();
  const sobram = [...copia.keys()].filter((id) => !servido.has(id)).sort();
  const diferem = [...copia.entries()].flatMap(([id, doc]) => {
    const outro = servido.get(id);
    if (outro === undefined) return [];
    const campos = [...new Set([...Object.keys(doc), ...Object.keys(outro)])].filter((k) => JSON.stringify(doc[k]) !== JSON.stringify(outro[k]));
    return campos.length === 0 ? [] : [{ id, campos }];
  });
  return { faltam, sobram, diferem };
}

const PLANOS: readonly (PlanoIncremental | 'do-produto')[] = ['do-produto', 'por-id', 'por-instante', 'por-faixa'];

// Small pages matter most: they put the most page boundaries between the projector's writes.
const porPagina = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 8 },
  { arbitrary: fc.integer({ min: 4, max: 25 }), weight: 4 },
  { arbitrary: fc.integer({ min: 26, max: 200 }), weight: 2 },
  { arbitrary: fc.constant(null), weight: 1 },
);
// Nothing at all (a write in the very millisecond of a recorded start), milliseconds, seconds, minutes, hours.
const salto = fc.oneof(
  { arbitrary: fc.constant(0), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 999 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1_000, max: 59_999 }), weight: 3 },
  { arbitrary: fc.integer({ min: MINUTO, max: HORA }), weight: 2 },
  { arbitrary: fc.integer({ min: HORA, max: 30 * HORA }), weight: 1 },
);
const lote: fc.Arbitrary<Lote> = fc.record({
  registros: fc.integer({ min: 1, max: 12 }),
  // Committed up to 50 s after its stamp: under the smallest margin (60 s), which is there for it.
  atrasoMs: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: 50_000 }), weight: 1 }),
});
const reconstrucao: fc.Arbitrary<Reconstrucao> = fc.record({
  adiante: fc.oneof(fc.constant(0), fc.integer({ min: -30, max: 30 })),
  compactado: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  semTombstones: fc.boolean(),
  novaBaseDeFotos: fc.boolean(),
});
const intervalo = (comReconstrucoes: boolean): fc.Arbitrary<Intervalo> =>
  fc.record({
    saltoMs: salto,
    lotes: fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: fc.array(lote, { minLength: 1, maxLength: 3 }), weight: 2 }),
    reconstrucao: comReconstrucoes ? fc.oneof({ arbitrary: fc.constant(null), weight: 8 }, { arbitrary: reconstrucao, weight: 1 }) : fc.constant(null),
  });
const cenario = (comReconstrucoes: boolean) =>
  fc.record({
    gerador: fc.record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      // At least 2: with one, the generator may delete it and then find no aggregate left to mutate.
      imoveis: fc.integer({ min: 2, max: 40 }),
      condominios: fc.integer({ min: 0, max: 4 }),
      mutacoes: fc.integer({ min: 0, max: 160 }),
    }),
    /** Register records the projector has applied before the partner's initial load starts. */
    antesDaCarga: fc.nat({ max: 80 }),
    inicio: fc.integer({ min: Date.parse('2026-11-21T00:00:00.000Z'), max: Date.parse('2026-11-22T00:00:00.000Z') }),
    margemMs: fc.integer({ min: 60_000, max: 120_000 }),
    porPaginaCompleta: porPagina,
    porPaginaIncremental: porPagina,
    formatoInstante: fc.constantFrom<FormatoInstante>('Z', 'Z-segundos', '-03:00', '+05:30'),
    varreduraReiniciaJanela: fc.boolean(),
    plano: fc.constantFrom(...PLANOS),
    /** The partner's runs after the initial load, in a cycle: mostly incremental, now and then a reconciling full scan (rule 5). */
    execucoes: fc.array(fc.oneof({ arbitrary: fc.constant('incremental' as const), weight: 3 }, { arbitrary: fc.constant('completa' as const), weight: 1 }), {
      minLength: 1,
      maxLength: 8,
    }),
    intervalos: fc.array(intervalo(comReconstrucoes), { minLength: 1, maxLength: 40 }),
  });
type Cenario = ReturnType<typeof cenario> extends fc.Arbitrary<infer C> ? C : never;

let api: ApiDeTeste;
/** The reader of the run under way: one app serves every run, each from its own projection. */
let leitorAtual: LeitorProjecao | null = null;

beforeAll(async () => {
  const fonte = {
    atual: (): LeitorProjecao => {
      if (leitorAtual === null) throw new Error('nenhuma projeção aberta');
      return leitorAtual;
    },
    close: () => {},
  };
  // A limit no run reaches: a 429 here would be the test's doing, not the contract's.
  api = await criarApi({ leitor: fonte, limite: 10_000_000 });
});

afterAll(async () => {
  await api.fechar();
});

/** One partner's whole life against one register history: the property's body. */
async function sincronizar(c: Cenario): Promise<void> {
  const registros: Registro[] = [
    ...[...gerarCargaInicial(c.gerador)].map((bruto) => ({ bruto, especie: 'carga', preparado: new Map() })),
    ...[...gerarMutacoesRotuladas(c.gerador)].map(({ registro, especie }) => ({ bruto: registro, especie, preparado: new Map() })),
  ];
  const projecao = criarProjecao();
  // Each incremental plan of the reader forced in turn, or chosen by the product.
  const plano = c.plano;
  const escolherPlano = plano === 'do-produto' ? escolherPlanoIncremental : () => plano;
  const leitor = LeitorSqlite.abrir(projecao.arquivo.caminho, { escolherPlano });
  leitorAtual = leitor;
  try {
    const mundo = new Mundo(projecao, registros, c.intervalos, c.inicio);
    const oraculo = new Oraculo(projecao.escritor.db);
    const parceiro = new Parceiro(api, mundo, oraculo, c);
    mundo.aplicar(c.antesDaCarga, mundo.agora);

    await parceiro.varreduraCompleta();
    // The runs in a cycle, until the register has said everything (or for long enough).
    for (let i = 0; i < MAXIMO_DE_EXECUCOES && (i < c.execucoes.length || mundo.restantes > 0); i++) {
      if (c.execucoes[i % c.execucoes.length] === 'completa') await parceiro.varreduraCompleta();
      else await parceiro.incremental();
    }
    // The register goes quiet: one more incremental run, with nothing landing during it, must
    // bring the copy to what is served.
    mundo.aplicarRestantes();
    mundo.agora += 1_000;
    mundo.parado = true;
    await parceiro.incremental();

    // What is served now: a full scan by a client starting from nothing, its pages checked as well.
    const servido = await new Parceiro(api, mundo, oraculo, c).varreduraCompleta(200);
    const diferenca = diferencas(parceiro.copia, servido);
    expect(diferenca, `a cópia difere do servido; últimos passos:\n${mundo.diario.slice(-40).join('\n')}`).toEqual({ faltam: [], sobram: [], diferem: [] });
    // The detail agrees with the copy, and answers 404 for everything else the register held.
    for (const [id, doc] of parceiro.copia) {
      const r = await api.get(`${BASE}/${id}`);
      expect(r.statusCode, id).toBe(200);
      expect(JSON.parse(r.body), id).toEqual(doc);
    }
    const conhecidos = projecao.escritor.db.prepare<[], { id: string }>('SELECT id FROM imoveis UNION SELECT id FROM removidos').all();
    for (const { id } of conhecidos) {
      if (!parceiro.copia.has(id)) expect((await api.get(`${BASE}/${id}`)).statusCode, id).toBe(404);
    }
  } finally {
    leitorAtual = null;
    leitor.close();
    projecao.remover();
  }
}

// Only a search of the default size or more is sure to have gone through every case.
const conferirCobertura = (casos: Record<string, number>) => {
  if (rodada.numRuns >= RODADAS_PADRAO) for (const [caso, vezes] of Object.entries(casos)) expect(vezes, caso).toBeGreaterThan(0);
};

describe('a partner keeping a copy by the synchronisation rules of partner-api.md', () => {
  it('ends with a copy equal, document for document, to what the API serves, whatever lands between its requests', async () => {
    await fc.assert(fc.asyncProperty(cenario(false), sincronizar), rodada);
    conferirCobertura(cobertura);
  }, 30_000 + rodada.numRuns * 3_000);

  it('ends so too when rebuilds of the projection are switched in meanwhile, from compacted topics, behind or ahead of the live projector', async () => {
    await fc.assert(fc.asyncProperty(cenario(true), sincronizar), rodada);
    conferirCobertura(reconstrucoes);
  }, 30_000 + rodada.numRuns * 3_000);
});
