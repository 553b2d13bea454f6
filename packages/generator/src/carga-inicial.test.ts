// The initial load and the whole scenario: determinism, contract validity, private fields,
// realism and the rate of wrong values.
import { createHash } from 'node:crypto';
import { decodificarEvento } from '@imoveis/contracts';
import { describe, expect, it } from 'vitest';
import { gerarCargaInicial, gerarCenario } from './carga-inicial.ts';
import { detectarValoresRuins, VALORES_RUINS, type ValorRuim } from './imovel-gerador.ts';
import type { OpcoesGerador } from './opcoes.ts';
import { CAMPOS_PRIVADOS_IMOVEL, type ImovelCompleto } from './tipos.ts';
import type { RegistroBruto } from '@imoveis/contracts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DATA_HORA_BRASILIA = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-03:00$/;

function resumo(registros: Iterable<RegistroBruto>): { quantidade: number; hash: string } {
  const hash = createHash('sha256');
  let quantidade = 0;
  for (const r of registros) {
    hash.update(`${r.topico}\u0000${r.chave ?? '<null>'}\u0000${r.valor ?? '<null>'}\n`);
    quantidade++;
  }
  return { quantidade, hash: hash.digest('hex') };
}

function imoveisDaCarga(opcoes: Partial<OpcoesGerador>): ImovelCompleto[] {
  const lista: ImovelCompleto[] = [];
  for (const r of gerarCargaInicial(opcoes)) {
    if (r.topico === 'imoveis') lista.push((JSON.parse(r.valor!) as { dados: ImovelCompleto }).dados);
  }
  return lista;
}

describe('gerarCargaInicial', () => {
  const opcoes = { seed: 7, imoveis: 400, condominios: 30, mutacoes: 1500, taxaValoresRuins: 0.05, taxaVenenos: 0.05 };

  it('gives byte-identical output for the same seed and options, and different output for another seed', () => {
    const a = resumo(gerarCenario(opcoes));
    expect(resumo(gerarCenario(opcoes))).toEqual(a);
    expect(a.quantidade).toBe(400 + 30 + 1500);
    expect(resumo(gerarCenario({ ...opcoes, seed: 8 })).hash).not.toBe(a.hash);
  });

  it('pins the output of one seed, so a change to the generator is a deliberate one', () => {
    expect(resumo(gerarCenario({ seed: 1, imoveis: 50, condominios: 5, mutacoes: 200 })).hash).toMatchInlineSnapshot(`"a03b2f84c6237e4d3a5afaf9d2d7a4337c460a51b624b040987046e9e323629c"`);
  });

  it('emits every property and condominium once, each keyed by its id, every event valid under the contract', () => {
    const ids = { imovel: new Set<string>(), condominio: new Set<string>() };
    let anterior = '';
    for (const r of gerarCargaInicial(opcoes)) {
      const agregado = r.topico === 'imoveis' ? 'imovel' : 'condominio';
      const d = decodificarEvento(agregado, r.chave, r.valor!);
      if (!d.ok) throw new Error(`${d.motivo}: ${d.detalhe}`);
      expect(d.evento.tipo).toBe(`${agregado}.salvo`);
      expect(d.evento.dados.id).toMatch(UUID_V4);
      expect(d.evento.evento_id).toMatch(UUID_V4);
      expect(d.evento.ocorrido_em).toMatch(DATA_HORA_BRASILIA);
      // The register's clock never goes backwards during the load.
      expect(d.evento.ocorrido_em >= anterior).toBe(true);
      anterior = d.evento.ocorrido_em;
      ids[agregado].add(d.evento.dados.id);
    }
    expect(ids.imovel.size).toBe(400);
    expect(ids.condominio.size).toBe(30);
  });

  it('starts the register clock at the given instant', () => {
    const [primeiro] = gerarCargaInicial({ imoveis: 1, condominios: 1, inicio: '2027-03-10T12:00:00Z' });
    expect(JSON.parse(primeiro!.valor!)).toMatchObject({ ocorrido_em: '2027-03-10T09:00:00.000-03:00' });
  });

  it("refuses a start without an offset, which would read as the machine's local time (the same seed, other events)", () => {
    expect(() => [...gerarCargaInicial({ imoveis: 1, condominios: 1, inicio: '2027-03-10T12:00:00' })]).toThrow(RangeError);
    expect(() => [...gerarCargaInicial({ imoveis: 1, condominios: 1, inicio: '+012027-03-10T12:00:00Z' })]).toThrow(/com fuso/);
    // Nor one Date would roll over to another day.
    expect(() => [...gerarCargaInicial({ imoveis: 1, condominios: 1, inicio: '2027-02-30T12:00:00Z' })]).toThrow(/com fuso/);
    expect(() => [...gerarCargaInicial({ imoveis: 1, condominios: 1, inicio: '2027-03-10T24:00:00Z' })]).toThrow(/com fuso/);
    expect(() => [...gerarCargaInicial({ imoveis: 1, condominios: 1, inicio: '2027-03-10T12:00Z' })]).not.toThrow();
  });

  it('sends the register private fields in every raw event, where the decoded event no longer has them', () => {
    for (const r of gerarCargaInicial({ seed: 3, imoveis: 200, condominios: 20 })) {
      const bruto = JSON.parse(r.valor!) as { dados: Record<string, unknown> };
      if (r.topico === 'imoveis') {
        for (const campo of CAMPOS_PRIVADOS_IMOVEL) expect(bruto.dados[campo], campo).toBeTruthy();
        expect(bruto.dados['proprietario']).toEqual({ nome: expect.any(String), cpf: expect.stringMatching(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/), telefone: expect.any(String), email: expect.stringContaining('@') });
        expect(bruto.dados['corretor']).toEqual({ nome: expect.any(String), creci: expect.any(String), telefone: expect.any(String), email: expect.stringContaining('@') });
        const d = decodificarEvento('imovel', r.chave, r.valor!);
        expect(d.ok && Object.keys(d.evento.dados).filter((k) => (CAMPOS_PRIVADOS_IMOVEL as readonly string[]).includes(k))).toEqual([]);
      } else {
        expect(Object.keys(bruto.dados)).toContain('sindico');
      }
    }
  });

  it('points properties at condominiums of the load, some of them before the condominium arrives', () => {
    const vistos = new Set<string>();
    const condominios = new Set<string>();
    let antesDoCondominio = 0;
    const apontados: string[] = [];
    for (const r of gerarCargaInicial({ seed: 4, imoveis: 1000, condominios: 40 })) {
      const dados = (JSON.parse(r.valor!) as { dados: { id: string; condominio_id?: string | null } }).dados;
      if (r.topico === 'condominios') condominios.add(dados.id);
      else if (dados.condominio_id != null) {
        apontados.push(dados.condominio_id);
        if (!condominios.has(dados.condominio_id)) antesDoCondominio++;
      }
      vistos.add(dados.id);
    }
    expect(apontados.length).toBeGreaterThan(300);
    expect(apontados.every((id) => condominios.has(id))).toBe(true);
    expect(antesDoCondominio).toBeGreaterThan(0);
  });

  it('looks like a Brazilian agency register', () => {
    const imoveis = imoveisDaCarga({ seed: 5, imoveis: 3000, condominios: 100, taxaValoresRuins: 0 });
    const ufs = new Set(imoveis.map((d) => `${d.endereco.cidade!}/${d.endereco.uf!}`));
    for (const c of ['São Paulo/SP', 'Rio de Janeiro/RJ', 'Belo Horizonte/MG', 'Curitiba/PR', 'Porto Alegre/RS', 'Salvador/BA', 'Recife/PE', 'Fortaleza/CE', 'Florianópolis/SC', 'Campinas/SP']) {
      expect(ufs).toContain(c);
    }
    const tipos = new Set(imoveis.map((d) => d.tipo?.trim()));
    for (const t of ['Apartamento', 'Casa', 'Sobrado', 'Cobertura', 'Kitnet', 'Sala comercial', 'Loja', 'Terreno', 'Galpão']) expect(tipos).toContain(t);
    expect(new Set(imoveis.map((d) => d.situacao))).toEqual(new Set(['Disponível', 'Reservado', 'Em negociação', 'Vendido', 'Alugado', 'Suspenso', null]));
    expect(new Set(imoveis.map((d) => d.finalidade))).toEqual(new Set(['Venda', 'Locação', 'Venda e Locação', null]));
    expect(imoveis.filter((d) => d.ativo && d.publicar_no_site).length / imoveis.length).toBeGreaterThan(0.8);

    const vendas = imoveis.map((d) => d.valores.venda).filter((v): v is number => v !== null);
    const alugueis = imoveis.map((d) => d.valores.aluguel).filter((v): v is number => v !== null);
    const mediana = (l: number[]): number => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)]!;
    expect(mediana(vendas)).toBeGreaterThan(200_000);
    expect(mediana(vendas)).toBeLessThan(2_000_000);
    expect(mediana(alugueis)).toBeGreaterThan(1_000);
    expect(mediana(alugueis)).toBeLessThan(10_000);
    for (const d of imoveis) {
      if (d.endereco.latitude !== null) expect(d.endereco.latitude).toBeGreaterThan(-34);
      if (d.endereco.latitude !== null) expect(d.endereco.latitude).toBeLessThan(0);
      for (const f of d.fotos) expect(f.arquivo.startsWith(`imoveis/${d.codigo}/`)).toBe(true);
    }

    const caracteristicas = imoveis.flatMap((d) => d.caracteristicas);
    for (const c of ['Piscina', ' piscina ', 'Churrasqueira', 'churrasqueira', 'Área de serviço', 'Area de Servico']) expect(caracteristicas).toContain(c);
    expect(imoveis.some((d) => new Set(d.caracteristicas.map((c) => c.trim().toLowerCase())).size < d.caracteristicas.length)).toBe(true);

    const html = imoveis.map((d) => d.descricao_html ?? '').join('\n');
    for (const trecho of ['<p>', '<br>', '<ul><li>', '&nbsp;', '&amp;', '<strong>']) expect(html).toContain(trecho);
    expect(html).toMatch(/\(\d{2}\) 9\d{4}-\d{4}/);
    expect(html).toMatch(/[a-z.]+@[a-z]+\.com/);
    expect(html).toMatch(/\d{3}\.\d{3}\.\d{3}-\d{2}/);

    const videos = imoveis.map((d) => d.video_url).filter((v): v is string => v !== null);
    for (const forma of [/youtu\.be\//, /\/embed\//, /\/shorts\//, /watch\?v=.+&t=\d+s/, /vimeo\.com/]) expect(videos.some((v) => forma.test(v))).toBe(true);
    const fotos = imoveis.flatMap((d) => d.fotos);
    expect(fotos.some((f) => !f.publica)).toBe(true);
    expect(fotos.some((f) => f.alterada_em !== null)).toBe(true);
    expect(imoveis.some((d) => d.fotos.length > 0 && d.fotos.every((f) => !f.principal))).toBe(true);
    expect(imoveis.some((d) => d.endereco.exibicao === 'somente_bairro')).toBe(true);
  });

  it('has no wrong value at rate 0 and each wrong value near the configured rate', () => {
    expect(imoveisDaCarga({ seed: 6, imoveis: 2000, taxaValoresRuins: 0 }).filter((d) => detectarValoresRuins(d).size > 0)).toEqual([]);

    const imoveis = imoveisDaCarga({ seed: 6, imoveis: 4000, taxaValoresRuins: 0.05 });
    const contagem = new Map<ValorRuim, number>();
    for (const d of imoveis) for (const v of detectarValoresRuins(d)) contagem.set(v, (contagem.get(v) ?? 0) + 1);
    for (const v of VALORES_RUINS) {
      const taxa = (contagem.get(v) ?? 0) / imoveis.length;
      expect(taxa, v).toBeGreaterThan(0.035);
      expect(taxa, v).toBeLessThan(0.065);
    }
  });

  it('keeps the clean part of each property the same whatever the wrong-value rate', () => {
    const limpos = imoveisDaCarga({ seed: 2, imoveis: 100, taxaValoresRuins: 0 });
    const sujos = imoveisDaCarga({ seed: 2, imoveis: 100, taxaValoresRuins: 0.3 });
    expect(sujos.map((d) => [d.id, d.codigo, d.descricao_html, d.proprietario])).toEqual(limpos.map((d) => [d.id, d.codigo, d.descricao_html, d.proprietario]));
  });
});
