// The mutation stream: versions, the effect of each kind of mutation, deletions, delivery
// faults and poison, checked against the contract's decoder.
import { decodificarEvento, type EventoCondominio, type EventoImovel } from '@imoveis/contracts';
import { describe, expect, it } from 'vitest';
import { gerarCargaInicial } from './carga-inicial.ts';
import { ESPECIES_MUTACAO, gerarMutacoes, gerarMutacoesRotuladas, type EspecieMutacao } from './mutacoes.ts';
import { FabricaCondominios } from './condominio-gerador.ts';
import { normalizarOpcoes, type OpcoesGerador } from './opcoes.ts';
import type { RegistroBruto } from '@imoveis/contracts';
import { ESPECIES_VENENO, MOTIVO_DO_VENENO, type EspecieVeneno } from './venenos.ts';

const opcoes: Partial<OpcoesGerador> = { seed: 11, imoveis: 150, condominios: 15, mutacoes: 4000, taxaVenenos: 0.05, taxaValoresRuins: 0.05 };

function ehVeneno(especie: EspecieMutacao): especie is EspecieVeneno {
  return (ESPECIES_VENENO as readonly string[]).includes(especie);
}

function decodificar(r: RegistroBruto): EventoImovel | EventoCondominio {
  const d = r.topico === 'imoveis' ? decodificarEvento('imovel', r.chave, r.valor!) : decodificarEvento('condominio', r.chave, r.valor!);
  if (!d.ok) throw new Error(`${d.motivo}: ${d.detalhe}`);
  return d.evento;
}

/** Keys of the public (decoded) data that differ between two revisions. */
function camposAlterados(antes: object, depois: object): string[] {
  const a = antes as Record<string, unknown>;
  const b = depois as Record<string, unknown>;
  return Object.keys(b).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

interface Estado {
  versao: number;
  publico: object;
  bruto: Record<string, unknown>;
  excluido: boolean;
}

describe('gerarMutacoes', () => {
  it('emits exactly the asked number of records, deterministically, with every kind present', () => {
    const especies = new Map<EspecieMutacao, number>();
    let total = 0;
    for (const { especie } of gerarMutacoesRotuladas(opcoes)) {
      especies.set(especie, (especies.get(especie) ?? 0) + 1);
      total++;
    }
    expect(total).toBe(4000);
    expect([...especies.keys()].sort()).toEqual([...ESPECIES_MUTACAO].sort());
    expect([...gerarMutacoes(opcoes)]).toEqual([...gerarMutacoesRotuladas(opcoes)].map((r) => r.registro));
  });

  it('moves each aggregate version strictly up, except for deliberate repeats and late older revisions, each mutation changing what it says', () => {
    const estados = new Map<string, Estado>();
    const valoresVistos = new Set<string>();
    const aplicar = (r: RegistroBruto): void => {
      const evento = decodificar(r);
      const bruto = (JSON.parse(r.valor!) as { dados: Record<string, unknown> }).dados;
      estados.set(evento.dados.id, { versao: evento.versao, publico: evento.dados, bruto, excluido: evento.tipo.endsWith('.excluido') });
      valoresVistos.add(r.valor!);
    };
    for (const r of gerarCargaInicial(opcoes)) aplicar(r);

    const verificados = new Map<EspecieMutacao, number>();
    let exclusoesNaMesmaVersao = 0;
    for (const { registro: r, especie } of gerarMutacoesRotuladas(opcoes)) {
      if (ehVeneno(especie)) continue;
      if (especie === 'tombstone') {
        expect(r.valor).toBeNull();
        expect(estados.get(r.chave!)?.excluido).toBe(true);
        continue;
      }
      const evento = decodificar(r);
      const antes = estados.get(evento.dados.id);
      expect(antes, `${especie} de um agregado desconhecido`).toBeDefined();
      if (especie === 'repeticao') {
        expect(valoresVistos.has(r.valor!)).toBe(true);
        continue;
      }
      if (especie === 'fora-de-ordem') {
        // Behind a deletion that kept its last save's versao, the late save (that save, held back)
        // has that versao; behind any other event it is older.
        if (antes!.excluido) expect(evento.versao).toBeLessThanOrEqual(antes!.versao);
        else expect(evento.versao).toBeLessThan(antes!.versao);
        expect(valoresVistos.has(r.valor!)).toBe(false);
        valoresVistos.add(r.valor!);
        continue;
      }
      expect(antes!.excluido, `${especie} depois da exclusão`).toBe(false);
      // Only saves raise versao: a deletion may carry its last save's.
      if (evento.tipo.endsWith('.excluido')) {
        expect(evento.versao).toBeGreaterThanOrEqual(antes!.versao);
        if (evento.versao === antes!.versao) exclusoesNaMesmaVersao++;
      } else expect(evento.versao).toBeGreaterThan(antes!.versao);
      // Consecutive revisions only: the newer half of a late pair also carries the older change.
      if (evento.versao === antes!.versao + 1 && !evento.tipo.endsWith('.excluido')) {
        const publicos = camposAlterados(antes!.publico, evento.dados);
        const brutos = camposAlterados(antes!.bruto, (JSON.parse(r.valor!) as { dados: object }).dados);
        const esperado: Partial<Record<EspecieMutacao, (c: string[]) => boolean>> = {
          preco: (c) => c.length === 1 && c[0] === 'valores',
          fotos: (c) => c.length === 1 && c[0] === 'fotos',
          retirada: (c) => c.length === 1 && ['situacao', 'ativo', 'publicar_no_site'].includes(c[0]!),
          negociacao: (c) => c.every((k) => k === 'situacao'),
          republicacao: (c) => c.every((k) => ['situacao', 'ativo', 'publicar_no_site'].includes(k)),
          privado: (c) => c.length === 0 && brutos.length > 0,
          'condominio-renomeado': (c) => c.length === 1 && c[0] === 'nome',
          'condominio-privado': (c) => c.length === 0 && brutos.includes('sindico'),
        };
        const regra = esperado[especie];
        if (regra !== undefined) {
          expect(regra(publicos), `${especie} alterou ${publicos.join(', ')} (brutos: ${brutos.join(', ')})`).toBe(true);
          verificados.set(especie, (verificados.get(especie) ?? 0) + 1);
        }
      }
      if (evento.tipo === 'imovel.excluido') expect(Object.keys(evento.dados).sort()).toEqual(['codigo', 'id']);
      if (evento.tipo === 'condominio.excluido') expect(Object.keys(evento.dados)).toEqual(['id']);
      aplicar(r);
    }
    for (const especie of ['preco', 'fotos', 'retirada', 'negociacao', 'republicacao', 'privado', 'condominio-renomeado'] as const) {
      expect(verificados.get(especie) ?? 0, especie).toBeGreaterThan(5);
    }
    expect(exclusoesNaMesmaVersao).toBeGreaterThan(5);
  });

  it('gives replaced photos a new alterada_em and keeps the clock of the register advancing in -03:00', () => {
    let anterior = '';
    let substituidas = 0;
    const fotosAntes = new Map<string, Map<string, string | null>>();
    for (const { registro: r, especie } of gerarMutacoesRotuladas(opcoes)) {
      if (ehVeneno(especie) || especie === 'tombstone' || especie === 'repeticao' || especie === 'fora-de-ordem') continue;
      const evento = decodificar(r);
      expect(evento.ocorrido_em.endsWith('-03:00')).toBe(true);
      expect(evento.ocorrido_em > anterior).toBe(true);
      anterior = evento.ocorrido_em;
      if (evento.tipo !== 'imovel.salvo') continue;
      const atuais = new Map(evento.dados.fotos.map((f) => [f.arquivo, f.alterada_em]));
      const antes = fotosAntes.get(evento.dados.id);
      if (especie === 'fotos' && antes !== undefined) {
        for (const [arquivo, alterada] of atuais) {
          if (antes.has(arquivo) && alterada !== null && alterada !== antes.get(arquivo)) substituidas++;
        }
      }
      fotosAntes.set(evento.dados.id, atuais);
    }
    expect(substituidas).toBeGreaterThan(0);
  });

  it('makes poison the decoder rejects with the expected reason, and only poison', () => {
    const porEspecie = new Map<EspecieVeneno, number>();
    for (const { registro: r, especie } of gerarMutacoesRotuladas({ ...opcoes, taxaVenenos: 0.3, mutacoes: 2000 })) {
      if (especie === 'tombstone') continue;
      const d = r.topico === 'imoveis' ? decodificarEvento('imovel', r.chave, r.valor!) : decodificarEvento('condominio', r.chave, r.valor!);
      if (ehVeneno(especie)) {
        expect(d.ok, `${especie}: ${r.valor!.slice(0, 200)}`).toBe(false);
        if (!d.ok) expect(d.motivo, especie).toBe(MOTIVO_DO_VENENO[especie]);
        porEspecie.set(especie, (porEspecie.get(especie) ?? 0) + 1);
      } else {
        expect(d.ok, especie).toBe(true);
      }
    }
    for (const especie of ESPECIES_VENENO) expect(porEspecie.get(especie) ?? 0, especie).toBeGreaterThan(10);
  });

  it('has no poison at rate 0 and the poison share near the configured rate', () => {
    const contar = (taxaVenenos: number): number => {
      let venenos = 0;
      for (const { especie } of gerarMutacoesRotuladas({ ...opcoes, taxaVenenos, mutacoes: 5000 })) if (ehVeneno(especie)) venenos++;
      return venenos;
    };
    expect(contar(0)).toBe(0);
    expect(contar(0.02) / 5000).toBeGreaterThan(0.014);
    expect(contar(0.02) / 5000).toBeLessThan(0.026);
  });

  it('names a condominium renamed many times as the factory names it after as many renames', () => {
    const muitas: Partial<OpcoesGerador> = { seed: 5, imoveis: 10, condominios: 1, mutacoes: 3000, taxaVenenos: 0, taxaValoresRuins: 0 };
    const n = normalizarOpcoes(muitas);
    const fabrica = new FabricaCondominios(n.seed, n.inicioMs, n.imoveis, n.condominios);
    let renomeacoes = 0;
    for (const { especie, registro } of gerarMutacoesRotuladas(muitas)) {
      if (especie !== 'condominio-renomeado') continue;
      renomeacoes++;
      const evento = decodificar(registro) as EventoCondominio;
      expect(evento.tipo === 'condominio.salvo' && evento.dados.nome).toBe(fabrica.gerar(0, renomeacoes).dados.nome);
    }
    expect(renomeacoes).toBeGreaterThan(100);
  });

  it('never deletes more than half of the aggregates, whatever the number of mutations', () => {
    const excluidos = { imoveis: new Set<string>(), condominios: new Set<string>() };
    for (const { registro: r, especie } of gerarMutacoesRotuladas({ seed: 2, imoveis: 20, condominios: 4, mutacoes: 3000, taxaVenenos: 0 })) {
      if (especie === 'exclusao' || especie === 'condominio-excluido') excluidos[r.topico].add(r.chave!);
    }
    expect(excluidos.imoveis.size).toBeGreaterThan(0);
    expect(excluidos.imoveis.size).toBeLessThanOrEqual(10);
    expect(excluidos.condominios.size).toBeLessThanOrEqual(2);
  });

  it('works with no condominiums, no properties, or nothing at all', () => {
    const topicos = (o: Partial<OpcoesGerador>): Set<string> => new Set([...gerarMutacoes({ ...o, mutacoes: 300 })].map((r) => r.topico));
    expect(topicos({ imoveis: 30, condominios: 0, taxaVenenos: 0 })).toEqual(new Set(['imoveis']));
    expect(topicos({ imoveis: 0, condominios: 5, taxaVenenos: 0 })).toEqual(new Set(['condominios']));
    expect([...gerarMutacoes({ imoveis: 0, condominios: 0, mutacoes: 10 })]).toHaveLength(10);
    expect([...gerarMutacoes({ imoveis: 10, mutacoes: 0 })]).toEqual([]);
    // One of each: never deleted, since nothing would be left to mutate.
    const especies = [...gerarMutacoesRotuladas({ seed: 1, imoveis: 1, condominios: 1, mutacoes: 300, taxaVenenos: 0 })].map((m) => m.especie);
    expect(especies).toHaveLength(300);
    expect(especies.filter((e) => e === 'exclusao' || e === 'condominio-excluido')).toEqual([]);
    expect([...gerarMutacoes({ seed: 1, imoveis: 1, condominios: 0, mutacoes: 300 })]).toHaveLength(300);
  });
});
