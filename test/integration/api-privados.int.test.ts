// No private field reaches a partner (register-events.md), checked where partners read: the API.
// Register records as the generator writes them (private fields and all, and agents' typing of
// them into the free text), and crafted ones that paste every kind of private value into the
// title, the description, `tipo` and the features, are projected from the raw records by the
// projector's own code (decoding keeps the private values aside and hands them to the masking,
// as in production; the other API tests' fixtures parse events without them) and served by the
// real app. Every answer a partner can get (each page of the full scan and of the incremental
// listing, the removals, each property's detail, 404s too) holds no private value, while the
// public text around the masked values is still there.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodificarEvento, type RegistroBruto } from '@imoveis/contracts';
import { gerarCargaInicial, gerarMutacoes } from '@imoveis/generator';
import { projetarRegistros, type ResumoProjecao } from '@imoveis/projector';
import { FOTOS, registroImovel } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { criarApi, criarProjecao, type ApiDeTeste, type ProjecaoDeTeste } from './api-suporte.ts';

const BASE = '/api/v1/imoveis';
/** What partners read where something private was (register-events.md). */
const MARCADOR = '[removido]';
/** The projector's clock: every change is stamped at or after it. */
const INICIO = Date.parse('2026-11-21T10:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const GERADOR = { seed: 2026, imoveis: 300, condominios: 20, mutacoes: 600 };

type Json = Record<string, unknown>;

// ---- The register's records, private fields included ------------------------------------------

function envelope(topico: RegistroBruto['topico'], tipo: string, versao: number, dados: Json): RegistroBruto {
  const evento = { evento_id: randomUUID(), versao_schema: 1, tipo, ocorrido_em: '2026-11-21T07:00:00.000-03:00', versao, dados };
  return { topico, chave: dados['id'] as string, valor: JSON.stringify(evento) };
}

/** A crafted property: its private values, its free text holding them, and the public text that must survive the masking. */
interface Artesanal {
  readonly dados: Json;
  /** Fragments of the text around the private values, each expected in the served field as typed. */
  readonly publico: { titulo: string[]; descricao: string[]; caracteristicas?: string[] };
}

const idCondominio = randomUUID();
const condominioArtesanal = envelope('condominios', 'condominio.salvo', 1, {
  id: idCondominio,
  nome: 'Edifício Solar das Palmeiras',
  administradora: 'Administradora Horizonte',
  sindico: { nome: 'Otávio Ramalho Quintela', telefone: '(11) 95555-8888', email: 'otavio.quintela@condominio.example' },
});

/** Every kind of private value of a property, typed into the text partners read, in the ways agents type them. */
const ARTESANAIS: readonly Artesanal[] = [
  {
    // The owner's name whole in the title; the agent's name, CRECI, telephone and e-mail in the description.
    dados: registroImovel(randomUUID(), {
      condominio_id: idCondominio,
      titulo: 'Cobertura duplex com vista - Proprietário Renata Santos Vieira',
      descricao_html:
        '<p>Cobertura reformada, pronta para morar.</p><p>Falar com Carlos Eduardo Lima (CRECI-SP 123456-F): (11) 98765-4321 ou carlos.lima@imobiliariacentral.com.br</p>',
      proprietario: { nome: 'Renata Santos Vieira', cpf: '390.533.447-05', telefone: '(11) 97777-1234', email: 'renata.vieira@gmail.com' },
      corretor: { nome: 'Carlos Eduardo Lima', creci: 'CRECI-SP 123456-F', telefone: '(11) 98765-4321', email: 'carlos.lima@imobiliariacentral.com.br' },
      observacoes_internas: 'Inquilino atual sai no fim do mês; visitas só com 24h de aviso.',
      chaves_local: 'Cofre da agência Centro',
      matricula: '98.765 - 4º CRI de São Paulo',
      valor_minimo_aceito: 880_000,
      comissao_percentual: 6,
    }),
    publico: { titulo: ['Cobertura duplex com vista - Proprietário'], descricao: ['Cobertura reformada, pronta para morar.', 'Falar com'] },
  },
  {
    // In capitals in the title; the owner's CPF, telephone and e-mail, the internal note, where
    // the keys are and the land-registry number pasted into the description, each whole.
    dados: registroImovel(randomUUID(), {
      tipo: 'Casa',
      titulo: 'CASA TÉRREA COM QUINTAL - TRATAR COM JOSÉ DA SILVA PEREIRA',
      descricao_html:
        '<p>Casa térrea com quintal amplo.</p>' +
        '<p>Dono: José da Silva Pereira, CPF 714.602.380-01, celular (21) 99888-7766, jose.pereira@yahoo.com.br</p>' +
        '<p>Obs.: Proprietário aceita proposta até 10% abaixo do anunciado.</p>' +
        '<p>Chaves: Claviculário da loja, gancho 31</p>' +
        '<p>Matrícula 45.678 - 2º CRI de Campinas</p>',
      proprietario: { nome: 'José da Silva Pereira', cpf: '714.602.380-01', telefone: '(21) 99888-7766', email: 'jose.pereira@yahoo.com.br' },
      corretor: { nome: 'Fernanda Moreira Castro', creci: '61234-J', telefone: '(21) 97654-3210', email: 'fernanda.castro@lopesimoveis.com.br' },
      observacoes_internas: 'Proprietário aceita proposta até 10% abaixo do anunciado.',
      chaves_local: 'Claviculário da loja, gancho 31',
      matricula: '45.678 - 2º CRI de Campinas',
    }),
    publico: { titulo: ['CASA TÉRREA COM QUINTAL - TRATAR COM'], descricao: ['Casa térrea com quintal amplo.', 'Dono:', 'Obs.:', 'Chaves:', 'Matrícula'] },
  },
  {
    // Private numbers sent as JSON numbers, typed as bare digits.
    dados: registroImovel(randomUUID(), {
      titulo: 'Apartamento com varanda gourmet',
      descricao_html: '<p>Apartamento com varanda gourmet e duas vagas.</p><p>WhatsApp 21987654321, CPF 52998224725, matrícula 183472</p>',
      proprietario: { nome: 'Gustavo Henrique Barbosa', cpf: 52_998_224_725, telefone: 21_987_654_321, email: 'gustavo.barbosa@outlook.com' },
      corretor: { nome: 'Helena Cardoso Ramos', creci: 'CRECI-RJ 554433-F', telefone: '(21) 96543-2109', email: 'helena.ramos@portalimoveis.com.br' },
      observacoes_internas: 'Negociar a comissão diretamente com o gerente da loja.',
      matricula: 183_472,
    }),
    publico: { titulo: ['Apartamento com varanda gourmet'], descricao: ['Apartamento com varanda gourmet e duas vagas.', 'WhatsApp', 'CPF', 'matrícula'] },
  },
  {
    // The agent's name and e-mail in the title, the owner's telephone in a feature, the agent's name in `tipo`.
    dados: registroImovel(randomUUID(), {
      tipo: 'Sala comercial - com Ana Paula Souza',
      categoria: 'Comercial',
      titulo: 'Sala comercial no Centro - corretora Ana Paula Souza, ana.souza@casanovaimoveis.com.br',
      descricao_html: '<p>Sala com recepção e copa.</p>',
      caracteristicas: ['Piscina', 'Chaves com o dono: 41 9 9876 5432'],
      proprietario: { nome: 'Vinícius Alves Nascimento', cpf: '286.157.930-44', telefone: '(41) 99876-5432', email: 'vinicius_nascimento@bol.com.br' },
      corretor: { nome: 'Ana Paula Souza', creci: 'CRECI-PR 77665-F', telefone: '(41) 98111-2233', email: 'ana.souza@casanovaimoveis.com.br' },
      observacoes_internas: 'Visitas somente aos sábados pela manhã, avisar a portaria.',
    }),
    publico: { titulo: ['Sala comercial no Centro - corretora'], descricao: ['Sala com recepção e copa.'], caracteristicas: ['Chaves com o dono:'] },
  },
];

/** Advertised, then withdrawn: it reaches partners as a Withdrawn property in the incremental listing. */
const retirado = registroImovel(randomUUID(), {
  titulo: 'Kitnet mobiliada - ligue para Marcos Antônio Teixeira (41) 99123-4567',
  proprietario: { nome: 'Marcos Antônio Teixeira', cpf: '804.219.376-50', telefone: '(41) 99123-4567', email: 'marcos.teixeira@terra.com.br' },
});
/** Saved, then deleted: it reaches partners in /imoveis/removidos. */
const excluido = registroImovel(randomUUID(), {
  titulo: 'Terreno plano - Larissa Gonçalves Magalhães 11 91234-5678',
  proprietario: { nome: 'Larissa Gonçalves Magalhães', cpf: '163.840.295-72', telefone: '(11) 91234-5678', email: 'larissa.magalhaes@uol.com.br' },
});

const registros: RegistroBruto[] = [
  ...gerarCargaInicial(GERADOR),
  ...gerarMutacoes(GERADOR),
  condominioArtesanal,
  ...ARTESANAIS.map((a) => envelope('imoveis', 'imovel.salvo', 1, a.dados)),
  envelope('imoveis', 'imovel.salvo', 1, retirado),
  envelope('imoveis', 'imovel.salvo', 2, { ...retirado, publicar_no_site: false }),
  envelope('imoveis', 'imovel.salvo', 1, excluido),
  envelope('imoveis', 'imovel.excluido', 1, { id: excluido['id'], codigo: excluido['codigo'] }),
];

// ---- The private values, as the raw records hold them ------------------------------------------

/** Folded for comparison as the masking folds (any case, accents or none), whitespace runs as one space. */
const dobrar = (texto: string): string => texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ');
const ALFANUMERICO = /[\p{L}\p{N}]/u;

/** The private fields of each aggregate (register-events.md) but the floor price and the commission (see `privadosDe`). */
const PRIVADOS_DO_IMOVEL = ['proprietario', 'corretor', 'observacoes_internas', 'chaves_local', 'matricula'] as const;
const PRIVADOS_DO_CONDOMINIO = ['sindico'] as const;

interface Privado {
  /** Where it came from: `proprietario.nome`, `matricula`… */
  readonly campo: string;
  readonly valor: string;
  /** Folded, as searched. */
  readonly dobrado: string;
  /** A telephone's or CPF's digits, searched in the text without what separates digit groups (`41 9 9876 5432`). */
  readonly digitos: boolean;
}

/**
 * Every text of a private field, and the digits of a telephone or CPF (`11977771234`, as agents
 * type a WhatsApp link). A number the register sends as one (a CPF, a telephone, a land-registry
 * number) counts as the digits it is typed with, as decoding reads it. Left out: what holds fewer
 * than 5 letters and digits (a 4-digit land-registry number equals some IPTU), a single plain
 * word (`Portaria`, where the keys are, is also the feature `Portaria 24h`: an ordinary word,
 * which the masking leaves alone too), and the floor price and the commission, numbers sent as
 * numbers that can equal some listing's price by chance.
 */
function privadosDe(campo: string, valor: unknown, em: Privado[]): void {
  if (typeof valor === 'number' && Number.isSafeInteger(valor) && valor >= 0) valor = String(valor);
  if (typeof valor === 'string') {
    const dobrado = dobrar(valor).trim();
    const alfanumericos = [...dobrado].filter((ch) => ALFANUMERICO.test(ch)).length;
    if (alfanumericos >= 5 && !/^\p{L}+$/u.test(dobrado)) em.push({ campo, valor, dobrado, digitos: false });
    const digitos = valor.replace(/\D/g, '');
    if (/(?:^|\.)(?:telefone|cpf)$/.test(campo) && digitos.length >= 10) em.push({ campo, valor, dobrado: digitos, digitos: true });
  } else if (typeof valor === 'object' && valor !== null) {
    for (const [chave, v] of Object.entries(valor)) privadosDe(`${campo}.${chave}`, v, em);
  }
}

/** The private values of every record the register sent (poison included), by aggregate id. */
function privadosPorId(): Map<string, Privado[]> {
  const porId = new Map<string, Privado[]>();
  for (const r of registros) {
    if (r.valor === null) continue;
    let evento: unknown;
    try {
      evento = JSON.parse(r.valor);
    } catch {
      continue;
    }
    const dados = (evento as { dados?: unknown } | null)?.dados;
    if (typeof dados !== 'object' || dados === null) continue;
    const id = String((dados as Json)['id']);
    const lista = porId.get(id) ?? [];
    for (const campo of r.topico === 'imoveis' ? PRIVADOS_DO_IMOVEL : PRIVADOS_DO_CONDOMINIO) privadosDe(campo, (dados as Json)[campo], lista);
    porId.set(id, lista);
  }
  return porId;
}

/** What separates a number's groups as agents type it: `(11) 9 7777-1234` → `11977771234`. */
const semSeparadores = (texto: string): string => texto.replace(/[\s.\-\u2010-\u2014()/]/g, '');

/** Folded text to search, and the same without separators between digit groups. */
interface Palheiro {
  readonly texto: string;
  readonly semSeparadores: string;
}
const palheiro = (texto: string): Palheiro => {
  const dobrado = dobrar(texto);
  return { texto: dobrado, semSeparadores: semSeparadores(dobrado) };
};

/** Whether the private value is in the text: a telephone's or CPF's digits however grouped, anything else folded. */
const contem = (p: Palheiro, privado: Privado): boolean =>
  privado.digitos ? p.semSeparadores.includes(privado.dobrado) : ocorre(p.texto, privado.dobrado);

/** Where `agulha` occurs in `texto`; one shorter than 10 characters only as a whole (not `Ana Lima` inside `Juliana Lima`, nor `183472` inside a longer number). */
function ocorre(texto: string, agulha: string): boolean {
  if (agulha.length >= 10) return texto.includes(agulha);
  for (let i = texto.indexOf(agulha); i !== -1; i = texto.indexOf(agulha, i + 1)) {
    const antes = texto.charAt(i - 1);
    const depois = texto.charAt(i + agulha.length);
    if (!(ALFANUMERICO.test(antes) && ALFANUMERICO.test(agulha[0]!)) && !(ALFANUMERICO.test(depois) && ALFANUMERICO.test(agulha.at(-1)!))) return true;
  }
  return false;
}

/** The texts of a JSON answer (numbers are prices, areas and coordinates: no private field has one), each apart. */
function textosDe(valor: unknown, em: string[] = []): string[] {
  if (typeof valor === 'string') em.push(valor);
  else if (Array.isArray(valor)) for (const v of valor) textosDe(v, em);
  else if (typeof valor === 'object' && valor !== null) for (const v of Object.values(valor)) textosDe(v, em);
  return em;
}

/** The words of a text (folded, 3 letters or more). */
const palavras = (texto: string): string[] => dobrar(texto).split(/[^\p{L}]+/u).filter((p) => p.length >= 3);
/** A text field's value, or '' for null and anything that is no text. */
const comoTexto = (valor: unknown): string => (typeof valor === 'string' ? valor : '');
/** HTML as words: tags and entities out. */
const semHtml = (html: string): string => html.replace(/<[^>]*>/g, ' ').replace(/&[#\w]+;/g, ' ');

/** Each property's revision the projector keeps (the highest `versao` saved), as the register sent it. */
function revisoesSalvas(): Map<string, { versao: number; dados: Json }> {
  const salvos = new Map<string, { versao: number; dados: Json }>();
  for (const r of registros) {
    if (r.topico !== 'imoveis' || r.valor === null) continue;
    const d = decodificarEvento('imovel', r.chave, r.valor);
    if (!d.ok || d.evento.tipo !== 'imovel.salvo') continue;
    const { id } = d.evento.dados;
    if ((salvos.get(id)?.versao ?? 0) < d.evento.versao) salvos.set(id, { versao: d.evento.versao, dados: (JSON.parse(r.valor) as { dados: Json }).dados });
  }
  return salvos;
}

// ---- The projection, the app, and every answer a partner can get ------------------------------

let projecao: ProjecaoDeTeste;
let api: ApiDeTeste;
let resumo: ResumoProjecao;
/** Every answer, by its URL. */
const respostas = new Map<string, { statusCode: number; body: string }>();
/** The full scan's documents, by id. */
const servidos = new Map<string, Json>();
let incremental: Json[] = [];
let removidos: Json[] = [];
let privados: Map<string, Privado[]>;
let salvos: Map<string, { versao: number; dados: Json }>;

async function pedir(url: string): Promise<Json> {
  const r = await api.get(url);
  respostas.set(url, { statusCode: r.statusCode, body: r.body });
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as Json;
}

/** Every page of a listing, by cursor. */
async function varrer(parametros: string): Promise<Json[]> {
  const itens: Json[] = [];
  let cursor: string | null = null;
  do {
    const pagina = await pedir(`${BASE}?${parametros}por_pagina=25${cursor === null ? '' : `&cursor=${cursor}`}`);
    itens.push(...(pagina['dados'] as Json[]));
    cursor = pagina['proximo_cursor'] as string | null;
  } while (cursor !== null);
  return itens;
}

beforeAll(async () => {
  privados = privadosPorId();
  salvos = revisoesSalvas();
  projecao = criarProjecao();
  let relogio = INICIO;
  resumo = await projetarRegistros(projecao.escritor, registros, { contexto: { fotosBaseUrl: FOTOS }, agora: () => relogio++, tamanhoLote: 100 });
  api = await criarApi({ leitor: projecao.abrirLeitor(), limite: 10_000_000 });

  for (const item of await varrer('')) servidos.set(item['id'] as string, item);
  incremental = await varrer(`alterados_desde=${iso(INICIO)}&`);
  removidos = (await pedir(`${BASE}/removidos?desde=${iso(INICIO)}`))['dados'] as Json[];
  // The detail of every aggregate the register named: advertised or not, deleted or not, condominiums too (404).
  for (const id of privados.keys()) {
    const url = `${BASE}/${id}`;
    const r = await api.get(url);
    respostas.set(url, { statusCode: r.statusCode, body: r.body });
  }
}, 120_000);

afterAll(async () => {
  await api.fechar();
  projecao.remover();
});

describe('private data and the partner API, over a projection built from raw register records', () => {
  it('projects every crafted record, and serves what the projection holds', () => {
    const rejeitados = new Set(resumo.rejeicoes.map((r) => r.mensagem.key?.toString()));
    for (const a of ARTESANAIS) expect(rejeitados.has(a.dados['id'] as string), a.dados['titulo'] as string).toBe(false);
    // Poison only: a preparing failure would be a defect of ours.
    expect(resumo.rejeicoes.filter((r) => r.motivo === 'falha-no-preparo')).toEqual([]);
    const anunciados = projecao.escritor.db.prepare<[], { id: string }>('SELECT id FROM imoveis WHERE anunciado = 1 ORDER BY id').all();
    expect([...servidos.keys()]).toEqual(anunciados.map((a) => a.id));
    for (const a of ARTESANAIS) expect(servidos.has(a.dados['id'] as string)).toBe(true);
    expect(incremental).toContainEqual({ id: retirado['id'], codigo: retirado['codigo'], publicado: false, atualizado_em: expect.any(String) });
    expect(removidos).toContainEqual({ id: excluido['id'], codigo: excluido['codigo'], removido_em: expect.any(String) });
    const detalhes = [...respostas].filter(([url]) => /\/imoveis\/[0-9a-f-]{36}$/.test(url));
    expect(detalhes.filter(([, r]) => r.statusCode === 200)).toHaveLength(servidos.size);
    for (const [url, r] of detalhes) if (r.statusCode === 200) expect(JSON.parse(r.body), url).toEqual(servidos.get(url.slice(-36)));
  });

  it('sends no private value of any record in any answer: pages, incremental pages, removals, details, 404s', () => {
    const todos = [...privados.values()].flat();
    const unicos = new Map(todos.map((p) => [`${String(p.digitos)}\u0000${p.dobrado}`, p]));
    // Every answer's texts, each apart from the others.
    const servido = palheiro([...respostas.values()].flatMap((r) => textosDe(JSON.parse(r.body))).join('\u0000'));
    const vazados = [...unicos.values()].filter((p) => contem(servido, p)).map((p) => `${p.campo}: ${p.valor}`);
    expect(vazados).toEqual([]);
    // Enough was looked for: every kind of private value, of hundreds of records.
    expect([...new Set(todos.map((p) => p.campo))]).toEqual(
      expect.arrayContaining([
        'proprietario.nome', 'proprietario.cpf', 'proprietario.telefone', 'proprietario.email',
        'corretor.nome', 'corretor.creci', 'corretor.telefone', 'corretor.email',
        'observacoes_internas', 'chaves_local', 'matricula', 'sindico.nome', 'sindico.telefone', 'sindico.email',
      ]),
    );
    expect(unicos.size).toBeGreaterThan(1_000);
  });

  it('met private values typed into the public text, by the generator and by hand, of every kind', () => {
    const artesanais = new Set(ARTESANAIS.map((a) => a.dados['id']));
    const digitados = { gerador: new Set<string>(), artesanal: new Set<string>() };
    let doGerador = 0;
    for (const id of servidos.keys()) {
      const { dados } = salvos.get(id)!;
      const livre = palheiro([dados['titulo'], semHtml(comoTexto(dados['descricao_html'])), dados['tipo'], ...(dados['caracteristicas'] as unknown[])].map(comoTexto).join('\u0000'));
      const seus = (privados.get(id) ?? []).filter((p) => contem(livre, p));
      const origem = artesanais.has(id) ? 'artesanal' : 'gerador';
      if (seus.length > 0 && origem === 'gerador') doGerador++;
      for (const p of seus) digitados[origem].add(p.campo.replace(/^(proprietario|corretor)\./, ''));
    }
    expect(doGerador, 'imóveis do gerador com um valor privado no próprio texto').toBeGreaterThanOrEqual(10);
    expect([...digitados.gerador], 'do gerador').toEqual(expect.arrayContaining(['cpf', 'email', 'nome', 'observacoes_internas', 'telefone']));
    expect([...digitados.artesanal].sort(), 'à mão').toEqual(['chaves_local', 'cpf', 'creci', 'email', 'matricula', 'nome', 'observacoes_internas', 'telefone']);
  });

  it('keeps the public text around the masked values: the crafted titles, descriptions and features', () => {
    for (const { dados, publico } of ARTESANAIS) {
      const doc = servidos.get(dados['id'] as string)!;
      const titulo = doc['titulo'] as string;
      const descricao = doc['descricao'] as string;
      for (const f of publico.titulo) expect(titulo).toContain(f);
      for (const f of publico.descricao) expect(descricao).toContain(f);
      for (const f of publico.caracteristicas ?? []) expect(doc['caracteristicas'] as string[], f).toContainEqual(expect.stringContaining(f));
      expect(`${titulo}\n${descricao}`).toContain(MARCADOR);
      expect(doc['codigo']).toBe(dados['codigo']);
    }
    expect(servidos.get(ARTESANAIS[0]!.dados['id'] as string)?.['nome_condominio']).toBe('Edifício Solar das Palmeiras');
  });

  it("keeps every public word of every served title and description: only the private values' words go", () => {
    let mascarados = 0;
    for (const [id, doc] of servidos) {
      const { dados } = salvos.get(id)!;
      // A word of a private value may go with it; any other word stays.
      const dePrivados = new Set((privados.get(id) ?? []).flatMap((p) => palavras(p.valor)));
      for (const [campo, bruto] of [
        ['titulo', comoTexto(dados['titulo'])],
        ['descricao', semHtml(comoTexto(dados['descricao_html']))],
      ] as const) {
        const servido = comoTexto(doc[campo]);
        const presentes = new Set(palavras(servido));
        const faltam = palavras(bruto).filter((p) => !dePrivados.has(p) && !presentes.has(p));
        expect(faltam, `${id} ${campo}: ${bruto} → ${servido}`).toEqual([]);
        if (servido.includes(MARCADOR)) mascarados++;
      }
    }
    expect(mascarados).toBeGreaterThanOrEqual(10);
  });
});
