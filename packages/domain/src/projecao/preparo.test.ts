import { describe, expect, it } from 'vitest';
import { valoresPrivados, type EventoImovel } from '@imoveis/contracts';
import { mapearImovel, serializarDocumento } from '../imovel/index.ts';
import { FOTOS_BASE_URL, payloadRegistro, registro } from '../imovel/registro-de-teste.ts';
import { prepararEvento, type ImovelSalvoPreparado } from './preparo.ts';

const contexto = { fotosBaseUrl: FOTOS_BASE_URL };
const TEXTO = '<p>Visitas com Renata Vieira. Chaves com o zelador do prédio ao lado.</p>';

/** A save of the fixture with these public fields and these private ones. */
function preparado(publicos: Parameters<typeof registro>[0], privados: Record<string, unknown>): ImovelSalvoPreparado {
  const evento: EventoImovel = { evento_id: '8d7e6f5a-1b2c-4d3e-8f4a-5b6c7d8e9f0a', tipo: 'imovel.salvo', versao_schema: 1, ocorrido_em: '2026-11-21T13:00:00.000Z', versao: 1, dados: registro(publicos) };
  return prepararEvento(evento, contexto, valoresPrivados({ ...payloadRegistro(), ...privados })) as ImovelSalvoPreparado;
}

describe('prepararEvento: private values sent as JSON numbers', () => {
  it('masks them in the text as the same values sent as text (rules version 17)', () => {
    const texto = '<p>Dono atende no 3456 78 90; matrícula 55443.</p>';
    const comoNumeros = preparado({ descricao_html: texto }, { proprietario: { nome: 'Ana Souza', telefone: 1134567890, cpf: 52998224725 }, matricula: 55443 });
    const comoTexto = preparado({ descricao_html: texto }, { proprietario: { nome: 'Ana Souza', telefone: '(11) 3456-7890', cpf: '529.982.247-25' }, matricula: '55443' });
    expect(comoNumeros.documento).toContain('Dono atende no [removido]; matrícula [removido].');
    expect(comoNumeros.documento).toBe(comoTexto.documento);
  });
});

describe('prepararEvento: a description that cannot be laid out', () => {
  it('is a bad value: null, and the rest of the event applied, its withdrawal too (rules version 18)', () => {
    const tabela = '<table><tr><td colspan="40000">x</td><td>y</td></tr></table>';
    const [bom, ruim] = [preparado({ ativo: false }, {}), preparado({ ativo: false, descricao_html: tabela }, {})];
    expect(ruim.anunciado).toBe(false);
    expect(ruim.anunciado).toBe(bom.anunciado);
    expect(JSON.parse(ruim.documento)).toEqual({ ...JSON.parse(bom.documento), descricao: null });
  });
});

describe('prepararEvento: the digest of what the public fields give', () => {
  const renata = { proprietario: { nome: 'Renata Vieira' }, chaves_local: 'Chaves com o zelador do prédio ao lado' };
  const joaquim = { proprietario: { nome: 'Joaquim Barbosa' }, chaves_local: 'Chaves na imobiliária, com a recepcionista' };

  it('is the same whatever private values are masked in the text, though the documents differ', () => {
    const [a, b] = [preparado({ descricao_html: TEXTO }, renata), preparado({ descricao_html: TEXTO }, joaquim)];
    expect(a.documento).toContain('Visitas com [removido]. [removido].');
    expect(b.documento).toContain('Visitas com Renata Vieira. Chaves com o zelador do prédio ao lado.');
    expect(a.publico).toBe(b.publico);
  });

  it('is the same whatever private values are masked in the type and the features too (rules version 12)', () => {
    for (const publicos of [{ tipo: 'Casa da Renata Vieira' }, { caracteristicas: ['Piscina', 'Chaves com Renata Vieira'] }]) {
      const [a, b] = [preparado(publicos, renata), preparado(publicos, joaquim)];
      expect(a.documento, JSON.stringify(publicos)).toContain('[removido]');
      expect(b.documento, JSON.stringify(publicos)).toContain('Renata Vieira');
      expect(a.publico, JSON.stringify(publicos)).toBe(b.publico);
    }
  });

  it('is that of the document when nothing private is in the text, and differs with any public field', () => {
    const semPrivados = serializarDocumento(mapearImovel(registro(), { ...contexto, nomeCondominio: null }));
    const a = preparado({}, renata);
    expect(a.documento).toBe(semPrivados);
    expect(preparado({}, joaquim).publico).toBe(a.publico);
    expect(preparado({ titulo: 'Apartamento com vista para o lago' }, renata).publico).not.toBe(a.publico);
    expect(preparado({ descricao_html: TEXTO }, renata).publico).not.toBe(a.publico);
    expect(preparado({ area_util_m2: 121 }, renata).publico).not.toBe(a.publico);
  });
});
