import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventoCondominio, EventoImovel } from '@imoveis/contracts';
import { VERSAO_DAS_REGRAS, type EventoPreparado } from '@imoveis/domain';
import { EscritorProjecao } from './escritor-sqlite.ts';
import { FOTOS, condominioExcluido, condominioSalvo, imovelExcluido, imovelSalvo, imovelSalvoPreparado, itensDaPagina, itensRemovidos, prepararEAplicarTransacao } from './eventos-de-teste.ts';
import { aplicarTransacaoSeAinda } from './projecao.ts';
import { LeitorSqlite } from './leitor-sqlite.ts';
import { trocarProjecao } from './troca.ts';

let dir: string;
let live: EscritorProjecao;
let novo: EscritorProjecao;
let leitor: LeitorSqlite;
let relogio: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'troca-'));
  live = EscritorProjecao.abrir(join(dir, 'live.db'));
  novo = EscritorProjecao.abrir(join(dir, 'novo.db'));
  leitor = LeitorSqlite.abrir(join(dir, 'live.db'));
  relogio = Date.parse('2026-11-21T13:00:00.000Z');
});

afterEach(() => {
  leitor.close();
  live.close();
  novo.close();
  rmSync(dir, { recursive: true, force: true });
});

function aplicar(escritor: EscritorProjecao, eventos: (EventoImovel | EventoCondominio)[]) {
  relogio += 1_000;
  return prepararEAplicarTransacao(escritor, { eventos, offsets: [] }, { fotosBaseUrl: FOTOS }, () => relogio);
}

function aplicarPreparados(escritor: EscritorProjecao, eventos: EventoPreparado[]) {
  relogio += 1_000;
  return aplicarTransacaoSeAinda(escritor, { eventos, offsets: [] }, () => relogio, () => true);
}

const trocar = (agora: () => number = () => (relogio += 1_000)) => {
  novo.checkpoint();
  return trocarProjecao(live, join(dir, 'novo.db'), agora);
};
const listados = () => itensDaPagina(leitor.listarAlterados({ desdeMs: 0, aposId: null, limite: 200 }));

describe('trocarProjecao', () => {
  it.each([
    ['written in place', 1],
    ['filled again whole', 0],
  ])('carries with each document the digest of what its public fields gave (%s): an edit of private fields only changes nothing after it', (_, parcelaEscritaNoLugar) => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const nomeNoTexto = { descricao_html: '<p>Visitas com Renata Vieira.</p>', proprietario: { nome: 'Renata Vieira' } };
    // a: the rebuild's document is another (a later revision); b: the same in both; c: only the live projection has it.
    aplicarPreparados(live, [imovelSalvoPreparado(a, 1, nomeNoTexto), imovelSalvoPreparado(b, 1, nomeNoTexto), imovelSalvoPreparado(c, 1, nomeNoTexto)]);
    aplicarPreparados(novo, [imovelSalvoPreparado(a, 2, { ...nomeNoTexto, titulo: 'Apartamento reformado' }), imovelSalvoPreparado(b, 1, nomeNoTexto)]);
    trocarProjecao(live, join(dir, 'novo.db'), () => (relogio += 1_000), { parcelaEscritaNoLugar });

    const outroDono = { proprietario: { nome: 'Joaquim Barbosa' } };
    const antes = [a, b, c].map((id) => leitor.obterAnunciado(id));
    const efeitos = aplicarPreparados(live, [
      imovelSalvoPreparado(a, 3, { ...nomeNoTexto, titulo: 'Apartamento reformado', ...outroDono }),
      imovelSalvoPreparado(b, 2, { ...nomeNoTexto, ...outroDono }),
      imovelSalvoPreparado(c, 2, { ...nomeNoTexto, ...outroDono }),
    ]);
    expect(efeitos).toEqual(['sem-mudanca', 'sem-mudanca', 'sem-mudanca']);
    expect([a, b, c].map((id) => leitor.obterAnunciado(id))).toEqual(antes);
  });

  it.each([
    ['written in place', 1],
    ['filled again whole', 0],
  ])('gives a row whose document is unchanged the digest of the rebuilt one, where the live one had none (written before schema 5; %s)', (_, parcelaEscritaNoLugar) => {
    const a = randomUUID();
    const nomeNoTexto = { descricao_html: '<p>Visitas com Renata Vieira.</p>', proprietario: { nome: 'Renata Vieira' } };
    aplicarPreparados(live, [imovelSalvoPreparado(a, 1, nomeNoTexto)]);
    live.db.prepare('UPDATE imoveis SET publico = NULL').run();
    aplicarPreparados(novo, [imovelSalvoPreparado(a, 1, nomeNoTexto)]);
    trocarProjecao(live, join(dir, 'novo.db'), () => (relogio += 1_000), { parcelaEscritaNoLugar });

    const antes = leitor.obterAnunciado(a);
    expect(aplicarPreparados(live, [imovelSalvoPreparado(a, 2, { ...nomeNoTexto, proprietario: { nome: 'Joaquim Barbosa' } })])).toEqual(['sem-mudanca']);
    expect(leitor.obterAnunciado(a)).toEqual(antes);
  });

  it('leaves deleted a property the live projection saw deleted after the rebuild caught up', () => {
    const a = randomUUID();
    aplicar(live, [imovelSalvo(a, 1), imovelExcluido(a, 2)]);
    aplicar(novo, [imovelSalvo(a, 1)]);

    trocar();

    expect(leitor.obterAnunciado(a)).toBeNull();
    expect(listados()).toEqual([]);
    expect(itensRemovidos(leitor, 0).map((r) => r.id)).toEqual([a]);
    expect(leitor.listarAnunciados({ aposId: null, limite: 50 }).total).toBe(0);
  });

  it("takes the rules version of the rebuilt projection's documents", () => {
    const evento = imovelSalvo(randomUUID(), 1);
    aplicar(live, [evento]);
    aplicar(novo, [evento]);
    live.gravarEstado('regras', null); // made before versions were recorded
    trocar();
    expect(live.regras()).toBe(VERSAO_DAS_REGRAS);
  });

  it.each([
    ['written in place', 1],
    ['filled again whole', 0],
  ])('records the rules as mixed when it keeps documents the live projection made by other rules (%s)', (_, parcelaEscritaNoLugar) => {
    const [visto, naoVisto] = [randomUUID(), randomUUID()];
    aplicar(live, [imovelSalvo(visto, 1), imovelSalvo(naoVisto, 1)]);
    aplicar(novo, [imovelSalvo(visto, 1)]);
    live.gravarEstado('regras', VERSAO_DAS_REGRAS - 1);
    novo.checkpoint();
    const resumo = trocarProjecao(live, join(dir, 'novo.db'), () => (relogio += 1_000), { parcelaEscritaNoLugar });
    expect(resumo.ausentes).toBe(1);
    expect(live.regras()).toBeNull();
  });

  it('keeps the rebuild\'s rules version when what it keeps from the live projection was made by the same rules', () => {
    aplicar(live, [imovelSalvo(randomUUID(), 1)]);
    trocar();
    expect(live.regras()).toBe(VERSAO_DAS_REGRAS);
  });

  it("takes the rebuilt projection's offsets and, with them, its freshness record", () => {
    live.gravarOffset({ topico: 't', particao: 0, proximo: '900' });
    live.registrarFrescor({ emDiaEm: 50_000, registradoEm: 50_000, atraso: 0 });
    novo.gravarOffset({ topico: 't', particao: 0, proximo: '700' });
    novo.registrarFrescor({ emDiaEm: 20_000, registradoEm: 21_000, atraso: 3 });

    trocar();

    expect(live.offsets()).toEqual([{ topico: 't', particao: 0, proximo: '700' }]);
    expect(leitor.frescor()).toEqual({ emDiaEm: 20_000, registradoEm: 21_000, atraso: 3 });
  });

  it('keeps the Withdrawn item of a property the rebuild never saw advertised (a compacted topic), with its instant', () => {
    const a = randomUUID();
    aplicar(live, [imovelSalvo(a, 1)]);
    aplicar(live, [imovelSalvo(a, 2, { ativo: false })]);
    const retiradoEm = listados()[0]?.atualizado_em;
    aplicar(novo, [imovelSalvo(a, 2, { ativo: false })]);

    const resumo = trocar();

    expect(listados()).toEqual([{ id: a, codigo: expect.any(String), publicado: false, atualizado_em: retiradoEm }]);
    expect(resumo).toMatchObject({ mantidos: 1, alterados: 0 });
  });

  it('keeps a property the rebuild never saw as the live projection has it, its revision too, so its events met again after the switch are repeats', () => {
    const [anunciado, retirado, nunca] = [randomUUID(), randomUUID(), randomUUID()];
    const salvo = imovelSalvo(anunciado, 1);
    aplicar(live, [salvo, imovelSalvo(retirado, 1)]);
    aplicar(live, [imovelSalvo(retirado, 2, { ativo: false }), imovelSalvo(nunca, 1, { ativo: false })]);
    const antes = listados();

    const resumo = trocar();

    // Nothing a partner sees moves: the same items, with the same instants.
    expect(listados()).toEqual(antes);
    expect(leitor.obterAnunciado(anunciado)).not.toBeNull();
    expect(resumo).toMatchObject({ imoveis: 3, ausentes: 3, mantidos: 2, alterados: 0 });
    // The live projector, back at the rebuild's offsets, meets their events again: repeats, so no
    // older revision is served meanwhile and no instant moves; what comes after applies.
    expect(aplicar(live, [salvo, imovelSalvo(retirado, 1)])).toEqual(['repetido', 'repetido']);
    expect(listados()).toEqual(antes);
    expect(leitor.obterAnunciado(retirado)).toBeNull();
    expect(aplicar(live, [imovelSalvo(anunciado, 2, { ativo: false })])).toEqual(['aplicado']);
  });

  it('keeps a later revision the live projection holds than the compacted topics do (an out-of-order older one last), with its instant', () => {
    const a = randomUUID();
    // Revision 3 first, then the late revision 2, which changes nothing live; compaction keeps
    // only the last record of the key: revision 2 is all the rebuild reads.
    aplicar(live, [imovelSalvo(a, 3, { titulo: 'Preço novo' })]);
    expect(aplicar(live, [imovelSalvo(a, 2, { titulo: 'Preço antigo' })])).toEqual(['repetido']);
    const antes = listados();
    aplicar(novo, [imovelSalvo(a, 2, { titulo: 'Preço antigo' })]);

    const resumo = trocar();

    expect(listados()).toEqual(antes);
    expect(live.obterImovel(a)).toMatchObject({ versao: 3 });
    expect(resumo).toMatchObject({ maisNovos: 1, mantidos: 1, alterados: 0 });
    // Still the later revision for what follows: the late one again changes nothing.
    expect(aplicar(live, [imovelSalvo(a, 2, { titulo: 'Preço antigo' })])).toEqual(['repetido']);
  });

  it('keeps a condominium the live projection saw deleted, or at a later revision, and its name in the rebuilt documents', () => {
    const [excluido, renomeado] = [randomUUID(), randomUUID()];
    const [a, b] = [randomUUID(), randomUUID()];
    aplicar(live, [condominioSalvo(excluido, 1, 'Torre Velha'), condominioSalvo(renomeado, 1, 'Torre Antiga')]);
    aplicar(live, [imovelSalvo(a, 1, { condominio_id: renomeado }), imovelSalvo(b, 1, { condominio_id: excluido })]);
    aplicar(live, [condominioExcluido(excluido, 2), condominioSalvo(renomeado, 3, 'Torre Nova')]);
    const antes = listados();
    // The rebuild read what compaction left: no deletion of the first (its tombstone gone after
    // the deletion was compacted), and the second's late revision 2 after its revision 3.
    aplicar(novo, [condominioSalvo(renomeado, 2, 'Torre Antiga')]);
    aplicar(novo, [imovelSalvo(a, 1, { condominio_id: renomeado }), imovelSalvo(b, 1, { condominio_id: excluido })]);

    const resumo = trocar();

    expect(live.obterCondominio(excluido)).toMatchObject({ excluido: true, versao: 2 });
    expect(live.obterCondominio(renomeado)).toMatchObject({ nome: 'Torre Nova', versao: 3 });
    // The documents carry the names as the live projection had them: nothing a partner sees moves.
    expect(listados()).toEqual(antes);
    expect(listados().find((d) => d.id === a)?.['nome_condominio']).toBe('Torre Nova');
    expect(resumo).toMatchObject({ mantidos: 2, alterados: 0 });
    // A late save of the deleted one changes nothing: a deletion is final.
    expect(aplicar(live, [condominioSalvo(excluido, 3, 'Torre Velha')])).toEqual(['apos-exclusao']);
  });

  it("keeps a kept Withdrawn item's instant when only its condominium's name changes, which partners do not see", () => {
    const [c, a] = [randomUUID(), randomUUID()];
    aplicar(live, [condominioSalvo(c, 1, 'Torre Velha'), imovelSalvo(a, 1, { condominio_id: c })]);
    aplicar(live, [imovelSalvo(a, 3, { condominio_id: c, ativo: false })]);
    const antes = listados();
    // The rebuild read a later name, and the property's late revision 2 (compaction kept it).
    aplicar(novo, [condominioSalvo(c, 2, 'Torre Nova'), imovelSalvo(a, 2, { condominio_id: c })]);

    const resumo = trocar();

    expect(listados()).toEqual(antes);
    expect(resumo).toMatchObject({ maisNovos: 1, mantidos: 1, alterados: 0 });
    // Its stored document carries the name switched in, for when it is advertised again.
    expect(JSON.parse(live.obterImovel(a)!.documento)).toMatchObject({ nome_condominio: 'Torre Nova' });
  });

  it('deletes a property the rebuild saw deleted, even when the live projection had not got there yet', () => {
    const a = randomUUID();
    aplicar(live, [imovelSalvo(a, 1)]);
    aplicar(novo, [imovelSalvo(a, 1), imovelExcluido(a, 2)]);

    const resumo = trocar();

    expect(leitor.obterAnunciado(a)).toBeNull();
    expect(listados()).toEqual([]);
    expect(itensRemovidos(leitor, 0).map((r) => r.id)).toEqual([a]);
    expect(resumo).toMatchObject({ imoveis: 0, ausentes: 0, removidosNovos: 1 });
  });

  it('stamps what changed after copying, just before the commit, so no change predates its visibility', () => {
    const a = randomUUID();
    aplicar(live, [imovelSalvo(a, 1)]);
    aplicar(novo, [imovelSalvo(a, 2, { titulo: 'Outro título' })]);
    // The clock is read once the live table already holds the rebuilt rows.
    let copiadosQuandoCarimbou: string | null = null;
    const resumo = trocar(() => {
      copiadosQuandoCarimbou = (live.db.prepare('SELECT documento FROM main.imoveis').pluck().get() as string | undefined) ?? null;
      return (relogio += 1_000);
    });

    expect(copiadosQuandoCarimbou).toContain('Outro título');
    expect(listados()[0]?.atualizado_em).toBe(new Date(resumo.instante).toISOString());
    expect(leitor.listarAlterados({ desdeMs: resumo.instante, aposId: null, limite: 50 }).total).toBe(1);
  });

  it('stamps what changed with the instant it will commit at when writing the instant took long, not the one taken before: later than its end, not earlier', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    aplicar(live, [imovelSalvo(a, 1), imovelSalvo(b, 1)]);
    aplicar(novo, [imovelSalvo(a, 2, { titulo: 'Outro título' }), imovelSalvo(b, 1), imovelExcluido(b, 2)]);
    // A clock that runs 4 s between readings: by it, writing the instant takes seconds.
    const leituras: number[] = [];
    const resumo = trocar(() => {
      leituras.push((relogio += 4_000));
      return relogio;
    });

    expect(resumo.instante).toBeGreaterThan(Math.max(...leituras));
    expect(listados().map((item) => [item.id, item.atualizado_em])).toEqual([[a, new Date(resumo.instante).toISOString()]]);
    expect(itensRemovidos(leitor, 0).map((r) => [r.id, r.removidoEm])).toEqual([[b, resumo.instante]]);
    expect(leitor.listarAlterados({ desdeMs: resumo.instante, aposId: null, limite: 50 }).total).toBe(1);
    // The projector's next instant comes after it, whatever its clock says.
    expect(aplicar(live, [imovelSalvo(a, 3, { titulo: 'Mais um título' })])).toEqual(['aplicado']);
    expect(leitor.obterAnunciado(a)?.atualizadoEm).toBe(resumo.instante + 1);
  });

  it('keeps its first instant when that is ahead of the clock (the last one plus a millisecond, the clock having stepped back), however long writing it took', () => {
    const a = randomUUID();
    aplicar(live, [imovelSalvo(a, 1)]);
    aplicar(novo, [imovelSalvo(a, 2, { titulo: 'Outro título' })]);
    const ultimo = live.lerEstado('ultimo_instante')!;
    // Ten minutes back, and 4 s between readings: by it, writing the instant takes seconds.
    relogio -= 600_000;
    const resumo = trocar(() => (relogio += 4_000));

    expect(resumo.instante).toBe(ultimo + 1);
    expect(live.lerEstado('ultimo_instante')).toBe(ultimo + 1);
    expect(listados().map((item) => item.atualizado_em)).toEqual([new Date(ultimo + 1).toISOString()]);
  });

  it('writes only the live rows that differ from the result: a rebuild for a few documents leaves the rest untouched', () => {
    const iguais: string[] = Array.from({ length: 10 }, () => randomUUID());
    const [alterado, novoImovel, apagado, soPrivado] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    aplicar(live, [...iguais.map((id) => imovelSalvo(id, 1)), imovelSalvo(alterado, 1), imovelSalvo(apagado, 1), imovelSalvo(soPrivado, 1)]);
    aplicar(novo, [
      ...iguais.map((id) => imovelSalvo(id, 1)),
      imovelSalvo(alterado, 2, { titulo: 'Outro título' }),
      imovelSalvo(novoImovel, 1),
      imovelSalvo(apagado, 1),
      imovelExcluido(apagado, 2),
      imovelSalvo(soPrivado, 2), // a later revision with the same document: only `versao` moves
    ]);
    const antes = new Map(listados().map((i) => [i.id, i.atualizado_em]));
    live.db.exec(`
      CREATE TEMP TABLE escritas (op TEXT, id TEXT);
      CREATE TEMP TRIGGER ao_inserir AFTER INSERT ON main.imoveis BEGIN INSERT INTO escritas VALUES ('insert', new.id); END;
      CREATE TEMP TRIGGER ao_atualizar AFTER UPDATE ON main.imoveis BEGIN INSERT INTO escritas VALUES ('update', new.id); END;
      CREATE TEMP TRIGGER ao_apagar AFTER DELETE ON main.imoveis BEGIN INSERT INTO escritas VALUES ('delete', old.id); END;
    `);

    const resumo = trocar();

    const escritas = live.db.prepare<[], { op: string; id: string }>('SELECT DISTINCT op, id FROM escritas').all();
    expect(escritas.filter((e) => iguais.includes(e.id))).toEqual([]);
    expect(escritas.filter((e) => e.id === soPrivado).map((e) => e.op)).toEqual(['delete', 'insert']);
    expect(escritas.filter((e) => e.id === apagado).map((e) => e.op)).toEqual(['delete']);
    // Written, then stamped with the switch instant.
    expect(escritas.filter((e) => e.id === novoImovel).map((e) => e.op)).toEqual(['insert', 'update']);
    expect(escritas.filter((e) => e.id === alterado).map((e) => e.op)).toEqual(['delete', 'insert', 'update']);
    // And the result is what a copy of every row would give.
    expect(resumo).toMatchObject({ imoveis: 13, mantidos: 11, alterados: 2, escritos: 3 });
    const depois = new Map(listados().map((i) => [i.id, i.atualizado_em]));
    for (const id of [...iguais, soPrivado]) expect(depois.get(id)).toBe(antes.get(id));
    for (const id of [alterado, novoImovel]) expect(depois.get(id)).toBe(new Date(resumo.instante).toISOString());
    expect(live.db.prepare('SELECT versao FROM imoveis WHERE id = ?').pluck().get(soPrivado)).toBe(2);
    expect(leitor.obterAnunciado(apagado)).toBeNull();
    expect(live.db.prepare('SELECT documento FROM imoveis WHERE id = ?').pluck().get(alterado)).toContain('Outro título');
  });

  it('leaves the schema as the migrations made it, indexes included, when it writes the whole table again', () => {
    const esquema = () => live.db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all();
    aplicar(live, [imovelSalvo(randomUUID(), 1)]);
    const antes = esquema();
    aplicar(novo, [imovelSalvo(randomUUID(), 1), imovelSalvo(randomUUID(), 1)]); // every row to write

    const resumo = trocar();

    expect(esquema()).toEqual(antes);
    expect(resumo.escritos).toBe(3);
    expect(live.db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'imoveis'").pluck().get()).toBe(4);
    expect(live.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it("splices the switched-in condominium's name into the rows it writes where they stand, rebuilt or kept", () => {
    // One condominium the live projection holds at a later revision, one the rebuild does.
    const [maisNovoNaLive, maisNovoNoNovo] = [randomUUID(), randomUUID()];
    const iguais: string[] = Array.from({ length: 10 }, () => randomUUID());
    const [alterado, naoVisto] = [randomUUID(), randomUUID()];
    aplicar(live, [condominioSalvo(maisNovoNaLive, 1, 'Torre Antiga'), condominioSalvo(maisNovoNoNovo, 1, 'Torre Velha')]);
    aplicar(live, [
      ...iguais.map((id) => imovelSalvo(id, 1)),
      imovelSalvo(alterado, 1, { condominio_id: maisNovoNaLive }),
      imovelSalvo(naoVisto, 1, { condominio_id: maisNovoNoNovo }),
    ]);
    aplicar(live, [condominioSalvo(maisNovoNaLive, 3, 'Torre Nova')]);
    // The rebuild read a late revision 2 of the first (what compaction left), the second's
    // revision 2, a new title, and never naoVisto.
    aplicar(novo, [condominioSalvo(maisNovoNaLive, 2, 'Torre Antiga'), condominioSalvo(maisNovoNoNovo, 2, 'Torre Renovada')]);
    aplicar(novo, [...iguais.map((id) => imovelSalvo(id, 1)), imovelSalvo(alterado, 2, { condominio_id: maisNovoNaLive, titulo: 'Outro título' })]);
    live.db.exec(`
      CREATE TEMP TABLE escritas (id TEXT);
      CREATE TEMP TRIGGER ao_apagar AFTER DELETE ON main.imoveis BEGIN INSERT INTO escritas VALUES (old.id); END;
    `);

    const resumo = trocar();

    // Written where they stand: only the two rows that differ went.
    expect(live.db.prepare('SELECT id FROM escritas ORDER BY id').pluck().all()).toEqual([alterado, naoVisto].sort());
    const documentos = new Map(listados().map((d) => [d.id, d]));
    expect(documentos.get(alterado)).toMatchObject({ titulo: 'Outro título', nome_condominio: 'Torre Nova' });
    expect(documentos.get(naoVisto)).toMatchObject({ nome_condominio: 'Torre Renovada' });
    expect(resumo).toMatchObject({ imoveis: 12, alterados: 2, ausentes: 1 });
  });
});
