import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from './sqlite.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EscritorProjecao, ProjecaoDaDemo, ehFalhaDeArmazenamento, espiarEstado } from './escritor-sqlite.ts';
import { LeitorSqlite } from './leitor-sqlite.ts';
import type { PaginaItens } from './leitor.ts';
import { MIGRACOES, migrar, ProjecaoComIdsMaiusculos, ProjecaoDeVersaoMaisNova, VERSAO_ESQUEMA } from './migracoes.ts';
import type { EventoCondominio, EventoImovel } from '@imoveis/contracts';
import { VERSAO_DAS_REGRAS, type EventoPreparado } from '@imoveis/domain';
import { LIMITE_PROPAGACAO_NA_TRANSACAO, aplicarTransacaoSeAinda, propagarNomeCondominio, type TransacaoProjecao } from './projecao.ts';
import { medirPausas, travaDeOutroProcesso } from '../../../test/esperas.ts';
import { FOTOS, condominioExcluido, condominioSalvo, imovelExcluido, imovelSalvo, imovelSalvoPreparado, itensDaPagina, itensRemovidos, prepararEAplicarTransacao } from './eventos-de-teste.ts';

let dir: string;
let escritor: EscritorProjecao;
let leitor: LeitorSqlite;
let relogio: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'projecao-'));
  escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
  leitor = LeitorSqlite.abrir(join(dir, 'projecao.db'));
  relogio = Date.parse('2026-11-21T13:00:00.000Z');
});

afterEach(() => {
  leitor.close();
  escritor.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Applies events as one batch, `passoMs` after the previous batch. */
function aplicar(eventos: TransacaoProjecao<EventoImovel | EventoCondominio>['eventos'], passoMs = 1_000, offsets: TransacaoProjecao['offsets'] = []) {
  relogio += passoMs;
  return prepararEAplicarTransacao(escritor, { eventos, offsets }, { fotosBaseUrl: FOTOS }, () => relogio);
}

/** Saves prepared as the projector prepares them (imovelSalvoPreparado), as one batch a second after the previous one. */
function aplicarComoChegam(eventos: EventoPreparado[]) {
  relogio += 1_000;
  return aplicarTransacaoSeAinda(escritor, { eventos, offsets: [] }, () => relogio, () => true);
}

const todos = (desdeMs: number) => leitor.listarAlterados({ desdeMs, aposId: null, limite: 200 });
const parse = (json: Buffer) => JSON.parse(json.toString()) as Record<string, unknown>;
const id = () => randomUUID();
const idsDe = (pagina: PaginaItens) => itensDaPagina(pagina).map((i) => i.id);

describe('given an advertised property is saved', () => {
  it('it is served by the full scan, the detail and the incremental listing, stamped with the commit instant', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1)]);
    const instante = new Date(relogio).toISOString();

    const cheia = leitor.listarAnunciados({ aposId: null, limite: 50 });
    expect(cheia.total).toBe(1);
    expect(itensDaPagina(cheia)[0]).toMatchObject({ id: a, publicado: true, atualizado_em: instante });
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(relogio);
    expect(idsDe(todos(relogio))).toEqual([a]);
    expect(idsDe(todos(relogio + 1))).toEqual([]);
  });

  it('a repeat or an older revision changes nothing', () => {
    const a = id();
    aplicar([imovelSalvo(a, 2)]);
    const antes = leitor.obterAnunciado(a);
    expect(aplicar([imovelSalvo(a, 2, { titulo: 'outro' }), imovelSalvo(a, 1, { titulo: 'velho' })])).toEqual(['repetido', 'repetido']);
    expect(leitor.obterAnunciado(a)).toEqual(antes);
  });

  it('an edit of private fields only keeps atualizado_em and does not reappear in incremental listings', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1)]);
    const instante = relogio;
    expect(aplicar([imovelSalvo(a, 2, { proprietario: { nome: 'Outro Dono' }, observacoes_internas: 'x' })])).toEqual(['sem-mudanca']);
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(instante);
    expect(todos(instante + 1).total).toBe(0);
  });

  it('an edit of private fields only leaves the document too where they are masked in its text: a new owner, a note rewritten', () => {
    const a = id();
    const texto = { descricao_html: '<p>Visitas com Renata Vieira. Chaves com o zelador do prédio ao lado.</p>' };
    const privados = { proprietario: { nome: 'Renata Vieira' }, chaves_local: 'Chaves com o zelador do prédio ao lado' };
    const descricao = () => (parse(leitor.obterAnunciado(a)!.json) as { descricao: string }).descricao;
    expect(aplicarComoChegam([imovelSalvoPreparado(a, 1, { ...texto, ...privados })])).toEqual(['aplicado']);
    const antes = leitor.obterAnunciado(a)!;
    expect(descricao()).toBe('Visitas com [removido]. [removido].');

    // Another owner, and the keys elsewhere: the public fields are as they were.
    const outros = { proprietario: { nome: 'Joaquim Barbosa' }, chaves_local: 'Chaves na imobiliária, com a recepcionista' };
    expect(aplicarComoChegam([imovelSalvoPreparado(a, 2, { ...texto, ...outros })])).toEqual(['sem-mudanca']);
    expect(leitor.obterAnunciado(a)).toEqual(antes);
    expect(todos(antes.atualizadoEm + 1).total).toBe(0);

    // A public change makes the document again from the record as it is then: what it masks now.
    expect(aplicarComoChegam([imovelSalvoPreparado(a, 3, { ...texto, ...outros, valores: { venda: 480_000, preco_sob_consulta: false } })])).toEqual(['aplicado']);
    expect(descricao()).toBe('Visitas com Renata Vieira. Chaves com o zelador do prédio ao lado.');
    expect(leitor.obterAnunciado(a)!.atualizadoEm).toBe(relogio);
  });

  it('an edit that changes only whether it is advertised, or only its condominium, is applied, though the document would be the same', () => {
    const [a, c1, c2] = [id(), id(), id()];
    aplicar([condominioSalvo(c1, 1, 'Edifício Aurora'), condominioSalvo(c2, 1, 'Residencial Ipê')]);
    aplicarComoChegam([imovelSalvoPreparado(a, 1, { condominio_id: c1 })]);
    expect(aplicarComoChegam([imovelSalvoPreparado(a, 2, { condominio_id: c2 })])).toEqual(['aplicado']);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: 'Residencial Ipê' });
    expect(aplicarComoChegam([imovelSalvoPreparado(a, 3, { condominio_id: c2, publicar_no_site: false })])).toEqual(['aplicado']);
    expect(leitor.obterAnunciado(a)).toBeNull();
  });

  it('a price change moves atualizado_em to the new commit instant', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1)]);
    aplicar([imovelSalvo(a, 2, { valores: { venda: 480_000, preco_sob_consulta: false } })]);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ valor_venda: 480_000, atualizado_em: new Date(relogio).toISOString() });
  });
});

describe('given an advertised property stops being advertised', () => {
  it('it leaves the full scan and the detail, and the incremental listing shows it withdrawn', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1)]);
    aplicar([imovelSalvo(a, 2, { situacao: 'Vendido' })]);

    expect(leitor.listarAnunciados({ aposId: null, limite: 50 }).total).toBe(0);
    expect(leitor.obterAnunciado(a)).toBeNull();
    const incremental = todos(relogio);
    expect(incremental.total).toBe(1);
    expect(itensDaPagina(incremental)).toEqual([{
      id: a,
      codigo: expect.any(String),
      publicado: false,
      atualizado_em: new Date(relogio).toISOString(),
    }]);
  });

  it('a property never advertised never appears anywhere', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1, { publicar_no_site: false }), imovelSalvo(a, 2, { ativo: false, titulo: 'x' })]);
    expect(todos(0).total).toBe(0);
    expect(idsDe(todos(0))).toEqual([]);
    expect(leitor.obterAnunciado(a)).toBeNull();
  });
});

describe('given a property is deleted', () => {
  it.each([
    ['advertised', {}],
    ['withdrawn', { situacao: 'Suspenso' }],
  ])('a %s property leaves every listing and gets a removal item', (_estado, sobre) => {
    const a = id();
    aplicar([imovelSalvo(a, 1), ...(Object.keys(sobre).length ? [imovelSalvo(a, 2, sobre)] : [])]);
    aplicar([imovelExcluido(a, 3, 'AP777')]);
    expect(todos(0).total).toBe(0);
    expect(idsDe(leitor.listarAnunciados({ aposId: null, limite: 50 }))).toEqual([]);
    expect(itensRemovidos(leitor, relogio)).toEqual([{ id: a, codigo: 'AP777', removidoEm: relogio }]);
  });

  it('a property saved but never advertised gets a removal item too', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1, { publicar_no_site: false })]);
    aplicar([imovelExcluido(a, 2, 'AP778')]);
    expect(todos(0).total).toBe(0);
    expect(itensRemovidos(leitor, 0)).toEqual([{ id: a, codigo: 'AP778', removidoEm: relogio }]);
  });

  it("a deletion carrying its last save's versao applies (only saves raise versao); an older one does not", () => {
    const [a, b] = [id(), id()];
    aplicar([imovelSalvo(a, 5), imovelSalvo(b, 5)]);
    expect(aplicar([imovelExcluido(a, 5, 'AP5'), imovelExcluido(b, 4, 'AP4')])).toEqual(['aplicado', 'repetido']);
    expect(leitor.obterAnunciado(a)).toBeNull();
    expect(itensRemovidos(leitor, 0)).toEqual([{ id: a, codigo: 'AP5', removidoEm: relogio }]);
    expect(leitor.obterAnunciado(b)).not.toBeNull();
  });

  it('a property never seen still gets its removal item, and the deletion is final', () => {
    const a = id();
    aplicar([imovelExcluido(a, 4, 'CA9')]);
    const removidoEm = relogio;
    expect(aplicar([imovelSalvo(a, 9), imovelExcluido(a, 10)])).toEqual(['apos-exclusao', 'repetido']);
    expect(itensRemovidos(leitor, 0)).toEqual([{ id: a, codigo: 'CA9', removidoEm }]);
    expect(todos(0).total).toBe(0);
  });
});

describe('condominium names', () => {
  it('a condominium known before the property gives its name at the first save', () => {
    const c = id();
    const a = id();
    aplicar([condominioSalvo(c, 1, 'Edifício Aurora')]);
    aplicar([imovelSalvo(a, 1, { condominio_id: c })]);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: 'Edifício Aurora' });
  });

  it('a condominium arriving after its properties fills the name and moves atualizado_em', () => {
    const c = id();
    const a = id();
    aplicar([imovelSalvo(a, 1, { condominio_id: c })]);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: null });
    aplicar([condominioSalvo(c, 1, 'Edifício Aurora')]);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({
      nome_condominio: 'Edifício Aurora',
      atualizado_em: new Date(relogio).toISOString(),
    });
  });

  it('when a condominium is renamed, every advertised property pointing to it moves its atualizado_em, beyond one page of fan-out', () => {
    const c = id();
    const ids = Array.from({ length: 1_234 }, id);
    aplicar([condominioSalvo(c, 1, 'Residencial Ipê')]);
    aplicar(ids.map((i) => imovelSalvo(i, 1, { condominio_id: c })));
    const outro = id();
    aplicar([imovelSalvo(outro, 1)]);
    aplicar([condominioSalvo(c, 2, 'Residencial Ipê Amarelo')]);

    const alterados = todos(relogio);
    expect(alterados.total).toBe(1_234);
    expect(leitor.obterAnunciado(outro)?.atualizadoEm).toBe(relogio - 1_000);
    for (const i of [ids[0]!, ids[1_233]!]) {
      expect(parse(leitor.obterAnunciado(i)!.json)).toMatchObject({ nome_condominio: 'Residencial Ipê Amarelo' });
    }
  });

  it('a rename moves nothing a partner cannot see: a withdrawn or never advertised property keeps its atualizado_em', () => {
    const c = id();
    const [retirado, nunca] = [id(), id()];
    aplicar([condominioSalvo(c, 1, 'Solar'), imovelSalvo(retirado, 1, { condominio_id: c }), imovelSalvo(nunca, 1, { condominio_id: c, publicar_no_site: false })]);
    aplicar([imovelSalvo(retirado, 2, { condominio_id: c, situacao: 'Suspenso' })]);
    const retiradoEm = relogio;
    expect(aplicar([condominioSalvo(c, 2, 'Solar das Palmeiras')])).toEqual(['aplicado']);
    expect(todos(retiradoEm + 1).total).toBe(0);
    expect(itensDaPagina(todos(0))).toEqual([{ id: retirado, codigo: expect.any(String), publicado: false, atualizado_em: new Date(retiradoEm).toISOString() }]);
    // Advertised again, it carries the new name.
    aplicar([imovelSalvo(retirado, 3, { condominio_id: c })]);
    expect(parse(leitor.obterAnunciado(retirado)!.json)).toMatchObject({ nome_condominio: 'Solar das Palmeiras' });
  });

  it('a rename to the same name changes nothing', () => {
    const c = id();
    const a = id();
    aplicar([condominioSalvo(c, 1, 'Torre Leste'), imovelSalvo(a, 1, { condominio_id: c })]);
    const instante = relogio;
    expect(aplicar([condominioSalvo(c, 2, 'Torre Leste')])).toEqual(['sem-mudanca']);
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(instante);
  });

  it("a save of the row's own name still mends the properties a fan-out cut short left with another", () => {
    const c = id();
    const a = id();
    aplicar([condominioSalvo(c, 1, 'Torre Leste'), imovelSalvo(a, 1, { condominio_id: c })]);
    // A fan-out over several transactions (v2: 'Torre Oeste') stopped by a crash before its last
    // one wrote the row; compaction then removed that event, and v3 carries the row's name.
    escritor.transacao(() => propagarNomeCondominio(escritor, c, 'Torre Oeste', '', LIMITE_PROPAGACAO_NA_TRANSACAO, () => relogio));
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: 'Torre Oeste' });
    expect(aplicar([condominioSalvo(c, 3, 'Torre Leste')])).toEqual(['aplicado']);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: 'Torre Leste', atualizado_em: new Date(relogio).toISOString() });
  });

  it('a property moved to another condominium takes its name', () => {
    const [c1, c2] = [id(), id()];
    const a = id();
    aplicar([condominioSalvo(c1, 1, 'Bloco A'), condominioSalvo(c2, 1, 'Bloco B'), imovelSalvo(a, 1, { condominio_id: c1 })]);
    aplicar([imovelSalvo(a, 2, { condominio_id: c2 })]);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: 'Bloco B', atualizado_em: new Date(relogio).toISOString() });
    // Renaming the old one no longer touches it.
    const instante = relogio;
    aplicar([condominioSalvo(c1, 2, 'Bloco A Renomeado')]);
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(instante);
  });

  it("a condominium deletion carrying its last save's versao clears the name", () => {
    const c = id();
    const a = id();
    aplicar([condominioSalvo(c, 2, 'Torre Norte'), imovelSalvo(a, 1, { condominio_id: c })]);
    expect(aplicar([condominioExcluido(c, 2)])).toEqual(['aplicado']);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: null, atualizado_em: new Date(relogio).toISOString() });
  });

  it('a condominium deletion clears the name, and a late save of it is ignored', () => {
    const c = id();
    const a = id();
    aplicar([condominioSalvo(c, 1, 'Torre Sul'), imovelSalvo(a, 1, { condominio_id: c })]);
    aplicar([condominioExcluido(c, 2)]);
    expect(parse(leitor.obterAnunciado(a)!.json)).toMatchObject({ nome_condominio: null });
    expect(aplicar([condominioSalvo(c, 3, 'Torre Sul')])).toEqual(['apos-exclusao']);
  });

  it('a property first saved, or moved, after its condominium was deleted has no condominium name', () => {
    const [c, outro] = [id(), id()];
    const [nova, movida] = [id(), id()];
    aplicar([condominioSalvo(c, 1, 'Torre Oeste'), condominioSalvo(outro, 1, 'Torre Leste'), imovelSalvo(movida, 1, { condominio_id: outro })]);
    aplicar([condominioExcluido(c, 2)]);
    aplicar([imovelSalvo(nova, 1, { condominio_id: c }), imovelSalvo(movida, 2, { condominio_id: c })]);
    for (const i of [nova, movida]) expect(parse(leitor.obterAnunciado(i)!.json), i).toMatchObject({ nome_condominio: null });
  });
});

describe('batches and offsets', () => {
  it('stores the offsets with the batch, and nothing of a batch that fails half-way', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1)], 1_000, [{ topico: 't', particao: 0, proximo: '10' }]);
    expect(escritor.offsets()).toEqual([{ topico: 't', particao: 0, proximo: '10' }]);

    const b = id();
    // The offset write fails after the events were applied: the whole transaction must roll back.
    const offsetInvalido = { topico: 't', particao: 0, proximo: null as unknown as string };
    expect(() => aplicar([imovelSalvo(b, 1)], 1_000, [offsetInvalido])).toThrow(/NOT NULL/);
    expect(escritor.offsets()).toEqual([{ topico: 't', particao: 0, proximo: '10' }]);
    expect(leitor.obterAnunciado(b)).toBeNull();
  });

  it('stamps each batch later than the previous one, when the clock steps back or stands still', () => {
    const a = id();
    aplicar([imovelSalvo(a, 1)]);
    const primeiro = relogio;
    aplicar([imovelSalvo(a, 2, { titulo: 'Novo título' })], -60_000);
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(primeiro + 1);
    // Two changes in one millisecond: each its own atualizado_em, so the ETag moves with the second too.
    aplicar([imovelSalvo(a, 3, { titulo: 'Outro título' })], 0);
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(primeiro + 2);
    // Batches that change nothing partners see (a repeat, offsets alone) take no instant: however
    // many commit within a millisecond, the instants do not run ahead of the clock.
    for (let i = 0; i < 50; i++) aplicar([imovelSalvo(a, 3, { titulo: 'Outro título' })], 0, [{ topico: 't', particao: 0, proximo: String(i + 1) }]);
    expect(escritor.lerEstado('ultimo_instante')).toBe(primeiro + 2);
  });
});

describe('listings stay consistent at every step', () => {
  it('pages follow the id order with no gap or repeat, and totals match a plain count, whichever plan reads them', () => {
    const ids = Array.from({ length: 300 }, id);
    for (let lote = 0; lote < 6; lote++) aplicar(ids.slice(lote * 50, lote * 50 + 50).map((i) => imovelSalvo(i, 1)), 60_000 * 30);
    // withdraw some, change others, delete a few
    aplicar(ids.slice(0, 20).map((i) => imovelSalvo(i, 2, { ativo: false })));
    aplicar(ids.slice(20, 40).map((i) => imovelSalvo(i, 2, { titulo: 'mudou' })));
    aplicar(ids.slice(40, 45).map((i) => imovelExcluido(i, 3)));

    const db = new Database(join(dir, 'projecao.db'), { readonly: true });
    const contar = (desde: number) =>
      (db.prepare('SELECT count(*) AS n FROM imoveis WHERE ja_anunciado = 1 AND atualizado_em >= ?').get(desde) as { n: number }).n;
    const instantes = (db.prepare('SELECT DISTINCT atualizado_em AS t FROM imoveis ORDER BY 1').all() as { t: number }[]).map((r) => r.t);
    for (const desde of [0, ...instantes, relogio + 1]) {
      const vistos: string[] = [];
      let cursor: string | null = null;
      let paginas = 0;
      for (;;) {
        const p = leitor.listarAlterados({ desdeMs: desde, aposId: cursor, limite: 7 });
        expect(p.total).toBe(contar(desde));
        vistos.push(...idsDe(p));
        expect(p.quantidade).toBe(idsDe(p).length);
        paginas++;
        if (p.proximoCursor === null) break;
        expect(p.quantidade).toBe(7);
        expect(p.proximoCursor).toBe(vistos.at(-1));
        cursor = p.proximoCursor;
      }
      expect(vistos).toEqual([...vistos].sort());
      expect(new Set(vistos).size).toBe(contar(desde));
      expect(paginas).toBe(Math.max(1, Math.ceil(contar(desde) / 7)));
    }
    expect(leitor.listarAnunciados({ aposId: null, limite: 1 }).total).toBe(300 - 20 - 5);
    db.close();
  });
});

describe('one row per property', () => {
  it('holds however often, in however many batches, a property is saved, withdrawn, renamed or deleted', () => {
    const [a, b, c] = [id(), id(), id()];
    aplicar([condominioSalvo(c, 1, 'Aurora'), imovelSalvo(a, 1, { condominio_id: c }), imovelSalvo(a, 2, { condominio_id: c })]);
    aplicar([imovelSalvo(a, 3, { situacao: 'Vendido', condominio_id: c }), imovelSalvo(b, 1), condominioSalvo(c, 2, 'Aurora II')]);
    aplicar([imovelSalvo(a, 4, { condominio_id: c }), imovelSalvo(b, 2), imovelExcluido(b, 3), imovelSalvo(b, 4)]);
    const linhas = escritor.db.prepare<[], { id: string; n: number }>('SELECT id, count(*) AS n FROM imoveis GROUP BY id').all();
    expect(linhas).toEqual([{ id: a, n: 1 }]);
  });
});

describe('schema versions', () => {
  it('migrates a version 1 projection to the current one, keeping every row and what the reader serves', () => {
    const caminho = join(dir, 'v1.db');
    const v1 = new Database(caminho);
    v1.exec(MIGRACOES[0]!);
    v1.pragma('user_version = 1');
    const [a, b] = [id(), id()];
    const inserir = v1.prepare('INSERT INTO imoveis VALUES (?, ?, 1, NULL, ?, 1, ?, ?)');
    inserir.run(b, 'B1', 1, `{"id":"${b}"}`, 7_261_000); // hour 2, minute 121
    inserir.run(a, 'A1', 0, `{"id":"${a}"}`, 1_000);
    v1.exec(`UPDATE estado SET valor = 1 WHERE chave = 'anunciados'; UPDATE estado SET valor = 2 WHERE chave = 'listados';
      INSERT INTO contagem_por_hora VALUES (0, 1), (2, 1); INSERT INTO contagem_por_instante VALUES (1000, 1), (7261000, 1);`);
    v1.close();

    const aoMigrar = vi.fn();
    EscritorProjecao.abrir(caminho, { aoMigrar }).close();
    // Said once, before migrating: a process says why its start takes minutes.
    expect(aoMigrar).toHaveBeenCalledExactlyOnceWith(1, VERSAO_ESQUEMA);
    // Nothing to say when the file is at this code's schema, or created.
    EscritorProjecao.abrir(caminho, { aoMigrar }).close();
    EscritorProjecao.abrir(join(dir, 'nova.db'), { aoMigrar }).close();
    expect(aoMigrar).toHaveBeenCalledTimes(1);
    const migrado = LeitorSqlite.abrir(caminho);
    try {
      expect(migrado.obterAnunciado(b)?.atualizadoEm).toBe(7_261_000);
      expect(idsDe(migrado.listarAnunciados({ aposId: null, limite: 10 }))).toEqual([b]);
      const alterados = migrado.listarAlterados({ desdeMs: 0, aposId: null, limite: 10 });
      expect(idsDe(alterados)).toEqual([a, b].sort());
      expect(alterados.total).toBe(2);
      // The text of atualizado_em, which version 4 keeps beside the number.
      const servidos = JSON.parse(`[${alterados.json.toString()}]`) as { id: string; atualizado_em: string }[];
      expect(Object.fromEntries(servidos.map((i) => [i.id, i.atualizado_em]))).toEqual({
        [a]: new Date(1_000).toISOString(),
        [b]: new Date(7_261_000).toISOString(),
      });
      // Counted by the minutes version 3 filled in: minutes 121 to 179 of hour 2.
      expect(migrado.contarAlterados(7_201_000)).toBe(1);
      // No digest of what the public fields gave (version 5): the next event makes the document again.
      const escritor = EscritorProjecao.abrir(caminho);
      expect(escritor.obterImovel(b)?.publico).toBeNull();
      escritor.close();
    } finally {
      migrado.close();
    }
  });


  it('refuses to migrate a projection holding ids in upper case, which are now kept in lower case, and leaves it as it was', () => {
    const caminho = join(dir, 'maiusculas.db');
    const v2 = new Database(caminho);
    v2.exec(MIGRACOES[0]!);
    v2.exec(MIGRACOES[1]!);
    v2.pragma('user_version = 2');
    const [minusculo, maiusculo] = [id(), id().toUpperCase()];
    const inserir = v2.prepare('INSERT INTO imoveis VALUES (?, ?, 1, NULL, 1, 1, ?, 1000)');
    inserir.run(minusculo, 'A1', `{"id":"${minusculo}"}`);
    inserir.run(maiusculo, 'B1', `{"id":"${maiusculo}"}`);
    v2.close();

    expect(() => EscritorProjecao.abrir(caminho)).toThrow(ProjecaoComIdsMaiusculos);
    expect(() => EscritorProjecao.abrir(caminho)).toThrow(/1 ids em maiúsculas.*apague DATABASE_PATH/);
    const depois = new Database(caminho, { readonly: true });
    expect(depois.pragma('user_version', { simple: true })).toBe(2);
    depois.close();
  });

  it('records the rules version a new projection is made with, and none for one made before versions were recorded', () => {
    expect(escritor.regras()).toBe(VERSAO_DAS_REGRAS);
    aplicar([imovelSalvo(id(), 1)]);
    // A projection with documents and no version: its documents' rules are unknown, and stay so.
    escritor.gravarEstado('regras', null);
    escritor.close();
    escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
    expect(escritor.regras()).toBeNull();
    // Even one holding only offsets or removal items has been written by someone's rules.
    const soOffsets = EscritorProjecao.abrir(join(dir, 'offsets.db'));
    soOffsets.gravarOffset({ topico: 't', particao: 0, proximo: '5' });
    soOffsets.gravarEstado('regras', null);
    soOffsets.close();
    const reaberto = EscritorProjecao.abrir(join(dir, 'offsets.db'));
    expect(reaberto.regras()).toBeNull();
    reaberto.close();
  });

  it('reads a key of `estado` from a file without creating, migrating or writing it', () => {
    expect(espiarEstado(join(dir, 'nenhum.db'), 'demo')).toBeUndefined();
    writeFileSync(join(dir, 'vazio.db'), '');
    expect(espiarEstado(join(dir, 'vazio.db'), 'demo')).toBeUndefined();
    expect(readFileSync(join(dir, 'vazio.db')).length).toBe(0);
    const v1 = new Database(join(dir, 'v1.db'));
    v1.exec(MIGRACOES[0]!);
    v1.pragma('user_version = 1');
    v1.close();
    const antes = readFileSync(join(dir, 'v1.db'));
    expect(espiarEstado(join(dir, 'v1.db'), 'demo')).toBeNull();
    expect(espiarEstado(join(dir, 'v1.db'), 'anunciados')).toBe(0);
    expect(readFileSync(join(dir, 'v1.db')).equals(antes)).toBe(true);
    const outra = new Database(join(dir, 'outra.db'));
    outra.exec('CREATE TABLE t (x)');
    outra.close();
    expect(espiarEstado(join(dir, 'outra.db'), 'demo')).toBeNull();
    escritor.gravarEstado('demo', 1);
    expect(espiarEstado(join(dir, 'projecao.db'), 'demo')).toBe(1);
  });

  it("is opened to write, when marked as the demo's, by the demo's writer alone, and left as it was", () => {
    const caminho = join(dir, 'demo.db');
    const demo = EscritorProjecao.abrir(caminho, { daDemo: true });
    demo.gravarEstado('demo', 1);
    demo.close();
    const antes = readFileSync(caminho);
    expect(() => EscritorProjecao.abrir(caminho)).toThrow(ProjecaoDaDemo);
    expect(readFileSync(caminho).equals(antes)).toBe(true);
    EscritorProjecao.abrir(caminho, { daDemo: true }).close();
  });

  it("is read, when marked as the demo's, by the demo's reader alone: partners are never served its sample", () => {
    const caminho = join(dir, 'demo-lida.db');
    const demo = EscritorProjecao.abrir(caminho, { daDemo: true });
    demo.gravarEstado('demo', 1);
    demo.close();
    expect(() => LeitorSqlite.abrir(caminho)).toThrow(ProjecaoDaDemo);
    LeitorSqlite.abrir(caminho, { daDemo: true }).close();
  });

  it('refuses a projection written by a newer version of the code', () => {
    const db = new Database(join(dir, 'nova.db'));
    db.pragma('user_version = 99');
    expect(() => migrar(db)).toThrow(ProjecaoDeVersaoMaisNova);
    db.close();
    expect(() => LeitorSqlite.abrir(join(dir, 'nova.db'))).toThrow(ProjecaoDeVersaoMaisNova);
  });

  it('a reader tells a file not made yet from one of an older schema, which the projector migrates', () => {
    new Database(join(dir, 'vazia.db')).close();
    expect(() => LeitorSqlite.abrir(join(dir, 'vazia.db'))).toThrow(/ainda não foi criada pelo projetor$/);
    const db = new Database(join(dir, 'antiga.db'));
    db.pragma('user_version = 1');
    db.close();
    expect(() => LeitorSqlite.abrir(join(dir, 'antiga.db'))).toThrow(`tem o esquema 1, anterior ao ${MIGRACOES.length}: o projetor a migra ao abri-la`);
  });
});

describe('storage failures', () => {
  it('tells a full or broken file apart from errors a retry or a fix of the code would cure', () => {
    escritor.db.pragma(`max_page_count = ${escritor.db.pragma('page_count', { simple: true }) as number}`);
    let cheio: unknown = null;
    try {
      aplicar(Array.from({ length: 50 }, () => imovelSalvo(id(), 1)));
    } catch (erro) {
      cheio = erro;
    }
    expect(cheio).toMatchObject({ code: 'SQLITE_FULL' });
    expect(ehFalhaDeArmazenamento(cheio)).toBe(true);
    // The batch was rolled back whole: nothing of it is listed.
    expect(todos(0).total).toBe(0);

    let restricao: unknown = null;
    try {
      escritor.db.exec("INSERT INTO estado (chave, valor) VALUES ('anunciados', 0)");
    } catch (erro) {
      restricao = erro;
    }
    expect(restricao).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(ehFalhaDeArmazenamento(restricao)).toBe(false);
    expect(ehFalhaDeArmazenamento(new Error('SQLITE_FULL'))).toBe(false);
  });
});

describe("another process's write lock (quandoATravaLivre)", () => {
  const gravarRegras = () => {
    escritor.gravarEstado('regras', null);
    return 'gravado';
  };

  it('writes at once when no other process holds the lock, never asking whether to go on', async () => {
    const continuar = () => expect.unreachable('nothing to wait for');
    expect(await escritor.quandoATravaLivre(gravarRegras, { continuar })).toBe('gravado');
    expect(escritor.regras()).toBeNull();
  });

  it('writes once the other process lets go, having said once that it waits, its event loop free between attempts', async () => {
    const trava = travaDeOutroProcesso(join(dir, 'projecao.db'));
    let avisos = 0;
    let perguntas = 0;
    const pausas = medirPausas();
    let maiorPausa: number;
    try {
      const resultado = await escritor.quandoATravaLivre(gravarRegras, {
        pausaMs: 20,
        aoEsperar: () => avisos++,
        continuar: () => {
          if (++perguntas === 3) trava.soltar();
          return true;
        },
      });
      maiorPausa = pausas.parar();
      expect(resultado).toBe('gravado');
    } finally {
      pausas.parar();
      trava.soltar();
    }
    expect(escritor.regras()).toBeNull();
    expect({ avisos, perguntas }).toEqual({ avisos: 1, perguntas: 3 });
    // SQLite's own wait would block it 5 s an attempt (room left for a loaded machine).
    expect(maiorPausa).toBeLessThan(2_500);
  });

  it('gives up, writing nothing, once told not to go on', async () => {
    const trava = travaDeOutroProcesso(join(dir, 'projecao.db'));
    try {
      expect(await escritor.quandoATravaLivre(gravarRegras, { pausaMs: 10, continuar: () => false })).toBeNull();
    } finally {
      trava.soltar();
    }
    expect(escritor.regras()).toBe(VERSAO_DAS_REGRAS);
  });

  it('throws on what is not the lock at once', async () => {
    const continuar = () => expect.unreachable('not a wait');
    await expect(escritor.quandoATravaLivre(() => escritor.db.exec('INSERT INTO tabela_que_nao_existe VALUES (1)'), { continuar })).rejects.toThrow(/no such table/);
  });
});
