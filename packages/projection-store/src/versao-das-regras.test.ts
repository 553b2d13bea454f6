// The guard on VERSAO_DAS_REGRAS (decision 0011): what decoding and preparing make of a fixed
// sample of generated register events, pinned beside the version. A change to the rules changes
// the digest; a change to a rejection's wording does not (partners never see it).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodificarEvento } from '@imoveis/contracts';
import { VERSAO_DAS_REGRAS, comNomeCondominio } from '@imoveis/domain';
import { gerarCargaInicial, gerarMutacoes } from '@imoveis/generator';
import { prepararEvento } from './projecao.ts';

function digestoDasRegras(): string {
  const hash = createHash('sha256');
  const opcoes = { seed: 2026, imoveis: 2_000, condominios: 40 };
  for (const r of [...gerarCargaInicial(opcoes), ...gerarMutacoes({ ...opcoes, mutacoes: 2_000 })]) {
    if (r.valor === null) continue;
    const d = decodificarEvento(r.topico === 'imoveis' ? 'imovel' : 'condominio', r.chave, r.valor);
    if (!d.ok) {
      hash.update('rejeitado\n');
      continue;
    }
    const preparado = prepararEvento(d.evento, { fotosBaseUrl: 'https://fotos.exemplo.com.br' }, d.privados);
    // The condominium's name as the writer splices it into a stored document.
    const comNome = preparado.tipo === 'imovel.salvo' ? comNomeCondominio(preparado.documento, 'Edifício Aurora') : '';
    hash.update(`${JSON.stringify(preparado)} ${comNome}\n`);
  }
  return hash.digest('hex');
}

describe('VERSAO_DAS_REGRAS', () => {
  it('moves with what the rules make of the same register events', () => {
    // Failing here? If partners would see anything different, bump VERSAO_DAS_REGRAS (projections
    // made by the old rules then warn until rebuilt) and pin the new digest; if only the generator
    // changed, pin the new digest alone.
    expect({ versao: VERSAO_DAS_REGRAS, digesto: digestoDasRegras() }).toEqual({ versao: 5, digesto: '02f5c79ddea2e89d9da4f39daee1f17d14f16064a077b72a10510ebde705381d' });
  });
});
