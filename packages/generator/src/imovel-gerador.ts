// Makes one property as the register holds it, as a pure function of (seed, index): the initial
// load and every later mutation regenerate it from scratch instead of keeping a million objects.
import { acumular, Aleatorio, misturar } from './aleatorio.ts';
import {
  ADJETIVOS_TITULO,
  CARACTERISTICAS,
  CIDADES,
  DOMINIOS_EMAIL,
  FRASES_DESCRICAO,
  IMOBILIARIAS,
  LOCAIS_CHAVES,
  OBSERVACOES_INTERNAS,
  PRENOMES,
  PRENOMES_ASCII,
  SITUACOES,
  SOBRENOMES,
  SOBRENOMES_ASCII,
  TIPOS,
  type Cidade,
  type TipoImovel,
} from './dados-brasil.ts';
import { formatarDataHora } from './data-hora.ts';
import { FLUXO_CORRETORES, FLUXO_FOTO_EXTRA, FLUXO_IMOVEL, FLUXO_PRIVADOS_IMOVEL, FLUXO_VALORES_RUINS, PASSO_CARGA_MS } from './fluxos.ts';
import type { Corretor, FotoGerada, ImovelCompleto, Proprietario } from './tipos.ts';

/** The wrong values register-events.md lists; each appears at `taxaValoresRuins`. */
export const VALORES_RUINS = [
  'cep-invalido',
  'vagas-negativas',
  'uf-minuscula',
  'foto-ordem-zero',
  'duas-fotos-principais',
  'tour-http',
  'titulo-vazio',
  'dormitorios-fracionados',
  'preco-negativo',
  'exibicao-desconhecida',
  // Drawn from a stream of their own (FLUXO_VALORES_RUINS): adding them left every property's
  // clean part, and its earlier wrong values, as they were.
  'uf-desconhecida',
  'bairro-ou-cidade-vazio',
  'tipo-vazio',
  'valor-nao-permitido',
  'coordenada-fora',
  'area-ou-valor-negativo',
  'contagem-invalida',
  'documento-no-titulo',
] as const;
/** How many of VALORES_RUINS are drawn from the property's own stream. */
const RUINS_DO_FLUXO_DO_IMOVEL = 10;
export type ValorRuim = (typeof VALORES_RUINS)[number];

export interface ConfigFabricaImoveis {
  semente: number;
  taxaValoresRuins: number;
  inicioMs: number;
  /** How many condominiums exist, so condominio_id points at real ones. */
  condominios: number;
  /** Id of condominium j (shared with the condominium maker, which owns that stream). */
  idCondominio: (indice: number) => string;
}

/** A regenerated property and what the event stream needs to know about its first event. */
export interface ImovelGerado {
  dados: ImovelCompleto;
  eventoIdInicial: string;
  versaoInicial: number;
  ocorridoInicialMs: number;
  /** Bit k set when VALORES_RUINS[k] was applied. */
  ruins: number;
}

const PESOS_TIPOS = acumular(TIPOS.map((t) => t.peso));
const PESOS_CIDADES = acumular(CIDADES.map((c) => c.peso));
const SITUACOES_COM_NULO: readonly (string | null)[] = [...SITUACOES, null];
const PESOS_SITUACAO = acumular([76, 5, 5, 4, 4, 3, 3]);
const FINALIDADES: readonly (string | null)[] = ['Venda', 'Locação', 'Venda e Locação', null];
const PESOS_FINALIDADE = acumular([55, 35, 8, 2]);
const CORRETORES_POR_CIDADE = 8;
const ALFABETO_YOUTUBE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const UM_DIA_MS = 86_400_000;


interface Bairro {
  nome: string;
  fatorPreco: number;
  latitude: number;
  longitude: number;
  cepBase: number;
}

/** Per-neighbourhood price level, centre and CEP block, fixed by a hash so they never depend on the seed. */
const BAIRROS: readonly (readonly Bairro[])[] = CIDADES.map((cidade, c) =>
  cidade.bairros.map((nome, b) => {
    const h1 = misturar(c * 7919 + b * 104_729 + 1);
    const h2 = misturar(h1 ^ 0x5bd1e995);
    const h3 = misturar(h2 ^ 0x27d4eb2f);
    return {
      nome,
      fatorPreco: 0.7 + (h1 % 1000) / 1000,
      latitude: cidade.latitude + ((h2 % 1000) / 1000 - 0.5) * 0.12,
      longitude: cidade.longitude + ((h3 % 1000) / 1000 - 0.5) * 0.12,
      cepBase: cidade.cepMin + (h1 % (cidade.cepMax - cidade.cepMin + 1)),
    };
  }),
);

function arredondar(valor: number, passo: number): number {
  return Math.round(valor / passo) * passo;
}

function duasCasas(valor: number): number {
  return Math.round(valor * 100) / 100;
}

const P2: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const P3: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

function pad(n: number, largura: number): string {
  return largura === 2 && n < 100 ? P2[n]! : String(n).padStart(largura, '0');
}

/** A CPF with valid check digits, formatted as agents type it (000.000.000-00). */
function gerarCpf(rng: Aleatorio): string {
  const a = rng.inteiro(0, 999);
  const b = rng.inteiro(0, 999);
  const c = rng.inteiro(0, 999);
  // Digits by position, without an array: this runs once per event.
  const d1 = Math.floor(a / 100), d2 = Math.floor(a / 10) % 10, d3 = a % 10;
  const d4 = Math.floor(b / 100), d5 = Math.floor(b / 10) % 10, d6 = b % 10;
  const d7 = Math.floor(c / 100), d8 = Math.floor(c / 10) % 10, d9 = c % 10;
  const s1 = 10 * d1 + 9 * d2 + 8 * d3 + 7 * d4 + 6 * d5 + 5 * d6 + 4 * d7 + 3 * d8 + 2 * d9;
  const v1 = ((s1 * 10) % 11) % 10;
  const s2 = 11 * d1 + 10 * d2 + 9 * d3 + 8 * d4 + 7 * d5 + 6 * d6 + 5 * d7 + 4 * d8 + 3 * d9 + 2 * v1;
  const v2 = ((s2 * 10) % 11) % 10;
  return P3[a]! + '.' + P3[b]! + '.' + P3[c]! + '-' + String(v1) + String(v2);
}

function gerarCelular(rng: Aleatorio, ddd: string): string {
  return `(${ddd}) 9${rng.digitos(4)}-${rng.digitos(4)}`;
}

export class FabricaImoveis {
  private readonly config: ConfigFabricaImoveis;
  private readonly rng = new Aleatorio();
  private readonly rngAuxiliar = new Aleatorio();
  private readonly rngRuins = new Aleatorio();
  /** Reused for every property: a fresh uniform per wrong value, for its variant. */
  private readonly sorteioRuim = new Float64Array(VALORES_RUINS.length);
  /** A small team of agents per city: the same people appear on many listings, as in an agency. */
  private readonly corretores: readonly (readonly Corretor[])[];

  constructor(config: ConfigFabricaImoveis) {
    this.config = config;
    const rng = new Aleatorio(config.semente, FLUXO_CORRETORES, 0);
    this.corretores = CIDADES.map((cidade) =>
      Array.from({ length: CORRETORES_POR_CIDADE }, () => {
        const p = rng.inteiro(0, PRENOMES.length - 1);
        const s = rng.inteiro(0, SOBRENOMES.length - 1);
        return {
          nome: `${PRENOMES[p]!} ${SOBRENOMES[s]!}`,
          creci: rng.chance(0.8) ? `CRECI-${cidade.uf} ${rng.inteiro(20_000, 299_999)}-F` : `${rng.inteiro(10_000, 99_999)}-J`,
          telefone: gerarCelular(rng, cidade.ddd),
          email: `${PRENOMES_ASCII[p]!}.${SOBRENOMES_ASCII[s]!}@${rng.escolher(IMOBILIARIAS)}`,
        };
      }),
    );
  }

  /** Instant of the property's event in the initial load (and the jitter drawn for it). */
  static instanteInicial(inicioMs: number, indice: number, jitter: number): number {
    // Within its 250 ms slot and never on the slot's first millisecond, which belongs to the
    // condominium interleaved there: the load's clock then never goes backwards.
    return inicioMs + indice * PASSO_CARGA_MS + 1 + jitter;
  }

  gerar(indice: number): ImovelGerado {
    const rng = this.rng;
    const cfg = this.config;
    rng.semear(cfg.semente, FLUXO_IMOVEL, indice);

    const id = rng.uuid();
    const eventoIdInicial = rng.uuid();
    const versaoInicial = rng.chance(0.4) ? 1 : rng.inteiro(2, 30);
    const ocorridoInicialMs = FabricaImoveis.instanteInicial(cfg.inicioMs, indice, rng.inteiro(0, PASSO_CARGA_MS - 2));

    // Always as many draws whatever the rate, so the clean part of a property is the same at any rate.
    let ruins = 0;
    const sorteioRuim = this.sorteioRuim;
    this.rngRuins.semear(cfg.semente, FLUXO_VALORES_RUINS, indice);
    for (let k = 0; k < VALORES_RUINS.length; k++) {
      const r = (k < RUINS_DO_FLUXO_DO_IMOVEL ? rng : this.rngRuins).real();
      if (r < cfg.taxaValoresRuins) ruins |= 1 << k;
      sorteioRuim[k] = r < cfg.taxaValoresRuins ? r / cfg.taxaValoresRuins : 0;
    }

    const tipo: TipoImovel = rng.escolherPonderado(TIPOS, PESOS_TIPOS);
    const cidadeIndice = CIDADES.indexOf(rng.escolherPonderado(CIDADES, PESOS_CIDADES));
    const cidade: Cidade = CIDADES[cidadeIndice]!;
    const bairro = rng.escolher(BAIRROS[cidadeIndice]!);
    const codigo = tipo.prefixo + String(1000 + indice);

    // Where and what
    const residencial = tipo.dormitorios !== null;
    const finalidade = rng.escolherPonderado(FINALIDADES, PESOS_FINALIDADE);
    const venda = finalidade === 'Venda' || finalidade === 'Venda e Locação' || (finalidade === null && rng.chance(0.6));
    const aluguel = finalidade === 'Locação' || finalidade === 'Venda e Locação' || (finalidade === null && !venda);

    // Skewed towards small units, as listings are. r·√r rather than r ** 1.5: sqrt is correctly
    // rounded by IEEE 754 everywhere, pow is not, and the output must be identical on every machine.
    const sorteioArea = rng.real();
    const areaBase = tipo.areaMin + (tipo.areaMax - tipo.areaMin) * sorteioArea * Math.sqrt(sorteioArea);
    const areaUtil = tipo.terreno || rng.chance(0.03) ? null : rng.chance(0.3) ? Math.round(areaBase) : Math.round(areaBase * 10) / 10;
    const areaTotal = tipo.terreno
      ? Math.round(areaBase)
      : rng.chance(0.05)
        ? null
        : duasCasas(areaBase * (tipo.emCondominio > 0.5 ? rng.entre(1.05, 1.45) : rng.entre(1.2, 3.5)));

    let dormitorios: number | null = null;
    let suites: number | null = null;
    let banheiros: number | null = null;
    let vagas: number | null = null;
    if (tipo.dormitorios !== null) {
      dormitorios = rng.inteiro(tipo.dormitorios[0], tipo.dormitorios[1]);
      suites = dormitorios > 1 ? rng.inteiro(0, dormitorios - 1) : rng.inteiro(0, 1);
      banheiros = suites + rng.inteiro(1, 2);
      vagas = tipo.prefixo === 'KI' || tipo.prefixo === 'ST' ? rng.inteiro(0, 1) : rng.inteiro(1, Math.min(4, dormitorios + 1));
    } else if (!tipo.terreno) {
      banheiros = rng.inteiro(1, tipo.prefixo === 'GA' ? 6 : 3);
      vagas = rng.inteiro(0, tipo.prefixo === 'GA' ? 20 : 4);
    }
    if (rng.chance(0.03)) vagas = null;

    // Prices
    const area = areaUtil ?? areaTotal ?? areaBase;
    const valorImovel = Math.max(
      80_000,
      area * tipo.precoM2 * cidade.fatorPreco * bairro.fatorPreco * rng.entre(0.8, 1.25),
    );
    const valorVenda = venda ? arredondar(valorImovel, valorImovel > 1_000_000 ? 10_000 : 1_000) : null;
    const valorAluguel = aluguel || rng.chance(0.04) ? Math.max(450, arredondar(valorImovel * rng.entre(0.0035, 0.006), 50)) : null;
    const condominioId = cfg.condominios > 0 && rng.chance(tipo.emCondominio) ? this.condominioNaCidade(cidadeIndice) : null;
    const valorCondominio =
      condominioId !== null || (residencial && rng.chance(0.1)) ? arredondar(area * rng.entre(6, 16), 10) : null;
    const periodicidade = rng.chance(0.05) ? null : rng.chance(0.52) ? 'anual' : 'mensal';
    const iptuAnual = valorImovel * rng.entre(0.003, 0.009);
    const iptu = rng.chance(0.06) ? null : periodicidade === 'mensal' ? duasCasas(iptuAnual / 12) : Math.round(iptuAnual);

    // Address
    const cep = rng.chance(0.05)
      ? null
      : pad(Math.min(cidade.cepMax, bairro.cepBase + rng.inteiro(0, 12)), 5) + (rng.chance(0.7) ? '-' : '') + rng.digitos(3);
    const semCoordenadas = rng.chance(0.05);
    const latitude = semCoordenadas ? null : Math.round((bairro.latitude + rng.entre(-0.008, 0.008)) * 1e6) / 1e6;
    const longitude = semCoordenadas ? null : Math.round((bairro.longitude + rng.entre(-0.008, 0.008)) * 1e6) / 1e6;
    const logradouro = rng.chance(0.02) ? null : rng.escolher(cidade.ruas);
    const numero = rng.chance(0.04) ? 's/n' : String(rng.inteiro(1, 3500));
    let complemento: string | null | undefined;
    if (rng.chance(0.08)) complemento = undefined;
    else if (tipo.emCondominio > 0.5 && !tipo.terreno) {
      complemento = tipo.categoria === 'Comercial'
        ? `Sala ${rng.inteiro(1, 25)}${pad(rng.inteiro(1, 20), 2)}`
        : rng.chance(0.3)
          ? `Bloco ${String.fromCharCode(65 + rng.inteiro(0, 3))}, apto ${rng.inteiro(1, 25)}${pad(rng.inteiro(1, 8), 2)}`
          : `Apto ${rng.inteiro(1, 25)}${pad(rng.inteiro(1, 8), 2)}`;
    } else complemento = rng.chance(0.7) ? null : rng.escolher(['Fundos', 'Casa 2', 'Lote 14', 'Quadra B']);
    const exibicao = rng.chance(0.25) ? 'somente_bairro' : 'completo';

    // People
    const p = rng.inteiro(0, PRENOMES.length - 1);
    const s1 = rng.inteiro(0, SOBRENOMES.length - 1);
    const s2 = rng.inteiro(0, SOBRENOMES.length - 1);
    const proprietario: Proprietario = {
      nome: `${PRENOMES[p]!} ${SOBRENOMES[s1]!} ${SOBRENOMES[s2]!}`,
      cpf: gerarCpf(rng),
      telefone: gerarCelular(rng, cidade.ddd),
      email: `${PRENOMES_ASCII[p]!}${rng.chance(0.5) ? '.' : '_'}${SOBRENOMES_ASCII[s2]!}${rng.chance(0.4) ? String(rng.inteiro(1, 99)) : ''}@${rng.escolher(DOMINIOS_EMAIL)}`,
    };
    const corretor = this.corretores[cidadeIndice]![rng.inteiro(0, CORRETORES_POR_CIDADE - 1)]!;

    // Text
    const caracteristicas = this.caracteristicas(rng, tipo);
    const titulo = this.titulo(rng, tipo, dormitorios, areaUtil, bairro.nome, cidade.nome, venda, corretor.telefone);
    const { html: descricao, comNota } = this.descricao(rng, titulo, caracteristicas, areaUtil, corretor, proprietario);

    // Media
    const criadoMs = cfg.inicioMs - rng.inteiro(2 * UM_DIA_MS, 6 * 365 * UM_DIA_MS);
    const fotos = this.fotos(rng, codigo, tipo, criadoMs);
    const videoUrl = rng.chance(0.3) ? this.video(rng) : null;
    const tourUrl = rng.chance(0.12) ? this.tour(rng, codigo) : null;

    // Private
    const referencia = valorVenda ?? valorAluguel ?? valorImovel;
    const valorMinimo = arredondar(referencia * rng.entre(0.82, 0.97), valorVenda !== null ? 1000 : 50);
    const comissao = valorVenda !== null ? rng.escolher([5, 5.5, 6, 6, 6, 8]) : rng.escolher([6, 8, 10, 10]);
    const matricula = rng.chance(0.5)
      ? String(rng.inteiro(1000, 299_999))
      : `${rng.inteiro(1, 299)}.${rng.digitos(3)} - ${rng.inteiro(1, 18)}º CRI de ${cidade.nome}`;

    const dados: ImovelCompleto = {
      id,
      codigo,
      ativo: rng.chance(0.95),
      publicar_no_site: rng.chance(0.9),
      situacao: rng.escolherPonderado(SITUACOES_COM_NULO, PESOS_SITUACAO),
      tipo: rng.chance(0.03) ? `${tipo.nome} ` : rng.chance(0.02) ? tipo.nome.toLowerCase() : tipo.nome,
      categoria: rng.chance(0.04) ? null : tipo.categoria,
      finalidade,
      lancamento: rng.chance(0.05) ? undefined : rng.chance(0.07) ? null : rng.chance(0.09),
      titulo,
      descricao_html: descricao,
      endereco: {
        logradouro,
        numero,
        complemento,
        bairro: bairro.nome,
        cidade: cidade.nome,
        uf: cidade.uf,
        cep,
        latitude,
        longitude,
        exibicao,
      },
      valores: {
        venda: valorVenda,
        aluguel: valorAluguel,
        condominio: valorCondominio,
        iptu,
        iptu_periodicidade: iptu === null ? null : periodicidade,
        preco_sob_consulta: rng.chance(0.04),
      },
      aceita_financiamento: valorVenda === null ? null : rng.chance(0.1) ? null : rng.chance(0.8),
      aceita_permuta: rng.chance(0.2) ? null : rng.chance(0.25),
      mobiliado: rng.chance(0.15) ? null : rng.chance(0.18),
      dormitorios,
      suites,
      banheiros,
      vagas,
      area_util_m2: areaUtil,
      area_total_m2: areaTotal,
      condominio_id: condominioId,
      caracteristicas,
      fotos,
      video_url: videoUrl,
      tour_virtual_url: tourUrl,
      criado_em: rng.chance(0.03) ? null : formatarDataHora(criadoMs),
      proprietario,
      corretor,
      observacoes_internas: rng.escolher(OBSERVACOES_INTERNAS),
      chaves_local: rng.escolher(LOCAIS_CHAVES),
      valor_minimo_aceito: valorMinimo,
      comissao_percentual: comissao,
      matricula,
    };

    // The internal note pasted into the description, as an agent does by mistake (drawn above, so
    // every other value stays as it was).
    if (comNota && dados.descricao_html) dados.descricao_html += `<p>Obs.: ${dados.observacoes_internas}</p>`;
    if (ruins !== 0) aplicarRuins(dados, ruins, sorteioRuim);
    return { dados, eventoIdInicial, versaoInicial, ocorridoInicialMs, ruins };
  }

  /**
   * Rewrites only the private fields, as a back-office edit does (revision `rev` of them).
   * Nothing public moves, so the projection must leave the partner document untouched.
   */
  revisarPrivados(dados: ImovelCompleto, indice: number, rev: number): void {
    const rng = this.rngAuxiliar;
    rng.semear(this.config.semente, FLUXO_PRIVADOS_IMOVEL, indice * 65_536 + (rev & 0xffff));
    const referencia = dados.valor_minimo_aceito;
    // The note stays: a description it was pasted into must read the same after a private-only
    // edit, which another note would unmask. (The draw that once chose another note is kept, so
    // that the values after it stay as they were.)
    rng.real();
    dados.chaves_local = rng.escolher(LOCAIS_CHAVES);
    dados.valor_minimo_aceito = arredondar(referencia * rng.entre(0.9, 1.05), referencia > 50_000 ? 1000 : 50);
    dados.comissao_percentual = rng.escolher([5, 5.5, 6, 8, 10]);
    if (rng.chance(0.3)) {
      const cidadeIndice = Math.max(0, CIDADES.findIndex((c) => c.nome === dados.endereco.cidade));
      dados.corretor = this.corretores[cidadeIndice]![rng.inteiro(0, CORRETORES_POR_CIDADE - 1)]!;
    }
    if (rng.chance(0.3)) {
      dados.proprietario = { ...dados.proprietario, telefone: gerarCelular(rng, dados.proprietario.telefone.slice(1, 3)) };
    }
  }

  /** The k-th photo added after the load (k counts from the property's original photos). */
  fotoExtra(codigo: string, indice: number, k: number): FotoGerada {
    const rng = this.rngAuxiliar;
    rng.semear(this.config.semente, FLUXO_FOTO_EXTRA, indice * 256 + (k & 0xff));
    return {
      arquivo: `imoveis/${codigo}/${pad(k + 1, 2)}.jpg`,
      ordem: k + 1,
      principal: false,
      publica: rng.chance(0.9),
      alterada_em: null,
    };
  }

  /** A condominium of the same city when there is one (condominium j lies in city j mod N). */
  private condominioNaCidade(cidadeIndice: number): string {
    const total = this.config.condominios;
    const n = CIDADES.length;
    const naCidade = cidadeIndice < total ? Math.floor((total - 1 - cidadeIndice) / n) + 1 : 0;
    const j = naCidade > 0 ? cidadeIndice + n * this.rng.inteiro(0, naCidade - 1) : this.rng.inteiro(0, total - 1);
    return this.config.idCondominio(j);
  }

  private caracteristicas(rng: Aleatorio, tipo: TipoImovel): string[] {
    const quantidade = tipo.terreno ? rng.inteiro(0, 3) : rng.inteiro(2, 12);
    const lista: string[] = [];
    let usados = 0;
    for (let i = 0; i < quantidade; i++) {
      const k = rng.inteiro(0, CARACTERISTICAS.length - 1);
      const variantes = CARACTERISTICAS[k]!;
      // Mostly the tidy spelling; agents re-type an existing one now and then.
      const repetida = (usados & (1 << (k % 30))) !== 0;
      if (repetida && rng.chance(0.7)) continue;
      usados |= 1 << (k % 30);
      lista.push(rng.chance(0.75) ? variantes[0]! : rng.escolher(variantes));
    }
    if (lista.length > 0 && rng.chance(0.08)) lista.push(rng.escolher(CARACTERISTICAS[rng.inteiro(0, 2)]!));
    if (rng.chance(0.03)) lista.push(rng.chance(0.5) ? '' : '  ');
    return lista;
  }

  private titulo(
    rng: Aleatorio,
    tipo: TipoImovel,
    dormitorios: number | null,
    areaUtil: number | null,
    bairro: string,
    cidade: string,
    venda: boolean,
    telefone: string,
  ): string {
    const nomeTipo = tipo.nome.toLowerCase();
    let titulo: string;
    switch (rng.inteiro(0, 4)) {
      case 0:
        titulo = dormitorios !== null
          ? `${rng.escolher(ADJETIVOS_TITULO)} ${nomeTipo} com ${dormitorios} ${dormitorios === 1 ? 'dormitório' : 'dormitórios'} em ${bairro}`
          : `${rng.escolher(ADJETIVOS_TITULO)} ${nomeTipo} em ${bairro}`;
        break;
      case 1:
        titulo = `${tipo.nome} ${areaUtil !== null ? `${Math.round(areaUtil)} m² ` : ''}- ${bairro}`;
        break;
      case 2:
        titulo = `${tipo.nome} ${venda ? 'à venda' : 'para locação'} no ${bairro}`;
        break;
      case 3:
        titulo = `${rng.escolher(ADJETIVOS_TITULO)} ${nomeTipo} no bairro ${bairro}, ${cidade}`;
        break;
      default:
        titulo = `${tipo.nome} ${dormitorios !== null ? `${dormitorios} dorms ` : ''}${bairro} e região`;
    }
    if (rng.chance(0.02)) titulo = `${titulo.toUpperCase()}!!!`;
    // Agents sometimes put their number in the title; the projection must strip it.
    if (rng.chance(0.015)) titulo += ` - ligue ${telefone}`;
    if (rng.chance(0.03)) titulo = ` ${titulo}  `;
    return titulo;
  }

  private descricao(
    rng: Aleatorio,
    titulo: string,
    caracteristicas: readonly string[],
    areaUtil: number | null,
    corretor: Corretor,
    proprietario: Proprietario,
  ): { html: string | null; comNota: boolean } {
    const sorteio = rng.real();
    if (sorteio < 0.04) return { html: null, comNota: false };
    if (sorteio < 0.07) return { html: rng.chance(0.5) ? '<p><br></p>' : '', comNota: false };
    let html = rng.chance(0.5) ? `<p><strong>${titulo.trim()}</strong></p>` : `<p><b>${titulo.trim()}</b></p>`;
    html += `<p>${rng.escolher(FRASES_DESCRICAO)}&nbsp;${rng.escolher(FRASES_DESCRICAO)}</p>`;
    if (caracteristicas.length > 0 && rng.chance(0.6)) {
      html += '<ul>';
      const n = Math.min(caracteristicas.length, 5);
      for (let i = 0; i < n; i++) html += `<li>${caracteristicas[i]!.trim()}</li>`;
      html += '</ul>';
    }
    if (rng.chance(0.2)) html += '<p>&nbsp;</p>';
    html += `<p>${rng.escolher(FRASES_DESCRICAO)}${rng.chance(0.5) ? '<br>' : '<br/>'}`;
    html += areaUtil !== null ? `Área útil de ${areaUtil} m².</p>` : 'Consulte a metragem.</p>';
    const contato = rng.real();
    // Contact details typed into the editor: a telephone, an e-mail, or even the owner's CPF.
    if (contato < 0.03) html += `<p>Agende sua visita: ${corretor.telefone}<br>WhatsApp ${corretor.telefone.replace(/\D/g, '')}</p>`;
    else if (contato < 0.06) html += `<p>WhatsApp: <a href="https://wa.me/55${corretor.telefone.replace(/\D/g, '')}">wa.me/55${corretor.telefone.replace(/\D/g, '')}</a></p>`;
    else if (contato < 0.1) html += `<p>Mais informações: <a href="mailto:${corretor.email}">${corretor.email}</a></p>`;
    else if (contato < 0.115) html += `<p>Proprietário ${proprietario.nome}, CPF ${proprietario.cpf}</p>`;
    else if (contato < 0.13) html += `<div>Tratar direto com o dono: ${proprietario.telefone}</div>`;
    // Or the internal note (the caller adds it, once drawn).
    return { html, comNota: contato >= 0.13 && contato < 0.145 };
  }

  private fotos(rng: Aleatorio, codigo: string, tipo: TipoImovel, criadoMs: number): FotoGerada[] {
    const quantidade = rng.chance(0.04) ? 0 : tipo.terreno ? rng.inteiro(1, 6) : rng.inteiro(3, 14);
    const fotos: FotoGerada[] = [];
    if (quantidade === 0) return fotos;
    const comLacunas = rng.chance(0.12);
    const principal = rng.chance(0.1) ? -1 : rng.chance(0.85) ? 0 : rng.inteiro(0, quantidade - 1);
    const alteracaoMaxMs = Math.max(1, this.config.inicioMs - criadoMs);
    for (let k = 0; k < quantidade; k++) {
      const nomeArquivo = rng.chance(0.03) ? `Foto ${k + 1} sala & cozinha.JPG` : `${pad(k + 1, 2)}.jpg`;
      fotos.push({
        arquivo: `imoveis/${codigo}/${nomeArquivo}`,
        ordem: comLacunas ? k * 2 + 1 : k + 1,
        principal: k === principal,
        publica: rng.chance(0.92),
        alterada_em: rng.chance(0.12) ? formatarDataHora(criadoMs + rng.inteiro(0, alteracaoMaxMs)) : null,
      });
    }
    // Some registers send photos in upload order rather than display order.
    if (rng.chance(0.1)) fotos.reverse();
    return fotos;
  }

  private video(rng: Aleatorio): string {
    let id = '';
    for (let i = 0; i < 11; i++) id += ALFABETO_YOUTUBE[rng.inteiro(0, 63)]!;
    switch (rng.inteiro(0, 7)) {
      case 0:
        return `https://youtu.be/${id}`;
      case 1:
        return `https://www.youtube.com/embed/${id}`;
      case 2:
        return `https://www.youtube.com/shorts/${id}`;
      case 3:
        return `https://www.youtube.com/watch?v=${id}&t=${rng.inteiro(1, 300)}s`;
      case 4:
        return `https://www.youtube.com/watch?v=${id}`;
      case 5:
        return `https://m.youtube.com/watch?v=${id}&feature=share`;
      case 6:
        return `https://vimeo.com/${rng.inteiro(100_000_000, 999_999_999)}`;
      default:
        return `https://youtu.be/${id}?si=${rng.digitos(6)}`;
    }
  }

  private tour(rng: Aleatorio, codigo: string): string {
    switch (rng.inteiro(0, 2)) {
      case 0: {
        let m = '';
        for (let i = 0; i < 11; i++) m += ALFABETO_YOUTUBE[rng.inteiro(0, 61)]!;
        return `https://my.matterport.com/show/?m=${m}`;
      }
      case 1:
        return `https://kuula.co/share/collection/${rng.digitos(5)}`;
      default:
        return `https://tour.imobiliaria.com.br/${codigo}`;
    }
  }
}

/** Applies the drawn wrong values; `sorteio[k]` is a fresh uniform for the variant of value k. */
function aplicarRuins(dados: ImovelCompleto, ruins: number, sorteio: Float64Array): void {
  const ruim = (k: number): boolean => (ruins & (1 << k)) !== 0;
  const u = (k: number): number => sorteio[k] ?? 0;
  if (ruim(0)) dados.endereco.cep = u(0) < 0.6 ? 'abc' : u(0) < 0.8 ? '0131-100' : 'a confirmar';
  if (ruim(1)) dados.vagas = u(1) < 0.7 ? -1 : -2;
  if (ruim(2)) dados.endereco.uf = (dados.endereco.uf ?? 'sp').toLowerCase();
  if (ruim(3) || ruim(4)) {
    const precisa = ruim(4) ? 2 : 1;
    for (let k = dados.fotos.length; k < precisa; k++) {
      dados.fotos.push({ arquivo: `imoveis/${dados.codigo}/${pad(k + 1, 2)}.jpg`, ordem: k + 1, principal: false, publica: true, alterada_em: null });
    }
    if (ruim(3)) dados.fotos[0]!.ordem = 0;
    if (ruim(4)) {
      dados.fotos[0]!.principal = true;
      dados.fotos[1]!.principal = true;
    }
  }
  if (ruim(5)) dados.tour_virtual_url = `http://tour.imobiliaria.com.br/${dados.codigo}`;
  if (ruim(6)) dados.titulo = u(6) < 0.4 ? '' : u(6) < 0.8 ? '   ' : null;
  if (ruim(7)) dados.dormitorios = (dados.dormitorios ?? 2) + 0.5;
  if (ruim(8)) {
    const v = dados.valores;
    if (v.venda !== null && (v.aluguel === null || u(8) < 0.5)) v.venda = -v.venda;
    else v.aluguel = -(v.aluguel ?? 1500);
  }
  if (ruim(9)) dados.endereco.exibicao = u(9) < 0.4 ? 'parcial' : u(9) < 0.7 ? 'COMPLETO' : u(9) < 0.85 ? 'rua' : '';
  if (ruim(10)) dados.endereco.uf = u(10) < 0.4 ? 'XX' : u(10) < 0.7 ? 'São Paulo' : null;
  if (ruim(11)) {
    // One emptied, the other padded: both trimmed, the empty one null.
    const vazio = u(11) < 0.3 ? '' : u(11) < 0.6 ? ' \t ' : null;
    const { endereco } = dados;
    if (u(11) < 0.5) [endereco.bairro, endereco.cidade] = [vazio, `  ${endereco.cidade ?? 'Campinas'} `];
    else [endereco.cidade, endereco.bairro] = [vazio, ` ${endereco.bairro ?? 'Centro'}  `];
  }
  if (ruim(12)) dados.tipo = u(12) < 0.4 ? '' : u(12) < 0.7 ? '  ' : null;
  if (ruim(13)) {
    if (u(13) < 0.25) dados.categoria = 'Misto';
    else if (u(13) < 0.5) dados.finalidade = 'Temporada';
    else if (u(13) < 0.75) dados.situacao = 'Em análise';
    else dados.valores.iptu_periodicidade = 'trimestral';
  }
  if (ruim(14)) {
    if (u(14) < 0.5) dados.endereco.latitude = u(14) < 0.25 ? 91.5 : -90.25;
    else dados.endereco.longitude = u(14) < 0.75 ? -190 : 180.5;
  }
  if (ruim(15)) {
    if (u(15) < 0.25) dados.area_util_m2 = -(dados.area_util_m2 ?? 60);
    else if (u(15) < 0.5) dados.area_total_m2 = -(dados.area_total_m2 ?? 80);
    else if (u(15) < 0.75) dados.valores.condominio = -(dados.valores.condominio ?? 450);
    else dados.valores.iptu = -(dados.valores.iptu ?? 120);
  }
  if (ruim(16)) {
    if (u(16) < 0.5) dados.suites = u(16) < 0.25 ? -1 : 1.5;
    else dados.banheiros = u(16) < 0.75 ? -2 : 2.5;
  }
  // A CPF, a CNPJ (valid check digits) or an e-mail address typed into the title.
  if (ruim(17)) dados.titulo = `${dados.titulo ?? dados.codigo} - ${u(17) < 0.33 ? 'CPF 529.982.247-25' : u(17) < 0.66 ? 'CNPJ 11.222.333/0001-81' : 'contato@imobiliaria-exemplo.com.br'}`;
}

/** Which of VALORES_RUINS a property's public data shows; the tests' oracle, independent of the maker. */
export function detectarValoresRuins(dados: {
  endereco: {
    cep?: string | null | undefined;
    uf?: string | null | undefined;
    exibicao: string;
    bairro?: string | null | undefined;
    cidade?: string | null | undefined;
    latitude?: number | null | undefined;
    longitude?: number | null | undefined;
  };
  vagas?: number | null | undefined;
  dormitorios?: number | null | undefined;
  fotos: readonly { ordem: number; principal: boolean }[];
  tour_virtual_url?: string | null | undefined;
  titulo?: string | null | undefined;
  valores: {
    venda?: number | null | undefined;
    aluguel?: number | null | undefined;
    condominio?: number | null | undefined;
    iptu?: number | null | undefined;
    iptu_periodicidade?: string | null | undefined;
  };
  tipo?: string | null | undefined;
  categoria?: string | null | undefined;
  finalidade?: string | null | undefined;
  situacao?: string | null | undefined;
  suites?: number | null | undefined;
  banheiros?: number | null | undefined;
  area_util_m2?: number | null | undefined;
  area_total_m2?: number | null | undefined;
}): Set<ValorRuim> {
  const achados = new Set<ValorRuim>();
  const cep = dados.endereco.cep;
  if (cep != null && cep.replace(/\D/g, '').length !== 8) achados.add('cep-invalido');
  if (dados.vagas != null && dados.vagas < 0) achados.add('vagas-negativas');
  const uf = dados.endereco.uf;
  if (uf != null && uf !== uf.toUpperCase()) achados.add('uf-minuscula');
  if (dados.fotos.some((f) => f.ordem === 0)) achados.add('foto-ordem-zero');
  if (dados.fotos.filter((f) => f.principal).length > 1) achados.add('duas-fotos-principais');
  if (dados.tour_virtual_url?.startsWith('http:') === true) achados.add('tour-http');
  if (dados.titulo != null && dados.titulo.trim() === '') achados.add('titulo-vazio');
  if (dados.dormitorios != null && !Number.isInteger(dados.dormitorios)) achados.add('dormitorios-fracionados');
  if ((dados.valores.venda ?? 0) < 0 || (dados.valores.aluguel ?? 0) < 0) achados.add('preco-negativo');
  if (dados.endereco.exibicao !== 'completo' && dados.endereco.exibicao !== 'somente_bairro') achados.add('exibicao-desconhecida');
  const { endereco, valores } = dados;
  if (uf == null || !/^[A-Za-z]{2}$/.test(uf) || uf.toUpperCase() === 'XX') achados.add('uf-desconhecida');
  const vazioOuAparado = (v: string | null | undefined) => v == null || v.trim() === '' || v !== v.trim();
  if (vazioOuAparado(endereco.bairro) || vazioOuAparado(endereco.cidade)) achados.add('bairro-ou-cidade-vazio');
  if (dados.tipo == null || dados.tipo.trim() === '') achados.add('tipo-vazio');
  if (dados.categoria === 'Misto' || dados.finalidade === 'Temporada' || dados.situacao === 'Em análise' || valores.iptu_periodicidade === 'trimestral') achados.add('valor-nao-permitido');
  if (Math.abs(endereco.latitude ?? 0) > 90 || Math.abs(endereco.longitude ?? 0) > 180) achados.add('coordenada-fora');
  if ([dados.area_util_m2, dados.area_total_m2, valores.condominio, valores.iptu].some((v) => v != null && v < 0)) achados.add('area-ou-valor-negativo');
  if ([dados.suites, dados.banheiros].some((v) => v != null && (v < 0 || !Number.isInteger(v)))) achados.add('contagem-invalida');
  if (dados.titulo != null && /CPF 529|CNPJ 11\.222|@imobiliaria-exemplo/.test(dados.titulo)) achados.add('documento-no-titulo');
  return achados;
}
