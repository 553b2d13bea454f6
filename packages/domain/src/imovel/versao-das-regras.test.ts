// The guard on VERSAO_DAS_REGRAS: what the rules make of a fixed sample of generated register
// events, pinned beside the version. A change to the rules changes the digest.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodificarEvento } from '@imoveis/contracts';
import { gerarCargaInicial } from '@imoveis/generator';
import { estaAnunciado } from './anunciado.ts';
import { serializarDocumento } from './documento-json.ts';
import { mapearImovel } from './imovel-mapper.ts';
import { FOTOS_BASE_URL } from './registro-de-teste.ts';
import { VERSAO_DAS_REGRAS } from './versao-das-regras.ts';

function digestoDasRegras(): string {
  const hash = createHash('sha256');
  for (const r of gerarCargaInicial({ seed: 2026, imoveis: 2_000, condominios: 40 })) {
    if (r.topico !== 'imoveis' || r.valor === null) continue;
    const d = decodificarEvento('imovel', r.chave, r.valor);
    if (!d.ok) {
      hash.update(`rejeitado ${d.motivo}\n`);
    } else if (d.evento.tipo === 'imovel.salvo') {
      const { dados } = d.evento;
      const documento = serializarDocumento(mapearImovel(dados, { fotosBaseUrl: FOTOS_BASE_URL, nomeCondominio: 'Edifício Aurora' }));
      hash.update(`${estaAnunciado(dados) ? 'anunciado' : 'fora'} ${documento}\n`);
    }
  }
  return hash.digest('hex');
}

describe('VERSAO_DAS_REGRAS', () => {
  it('moves with what the rules make of the same register events', () => {
    // Failing here? If what partners see changed, bump VERSAO_DAS_REGRAS (projections made with
    // the old rules then warn until rebuilt) and pin the new digest; if only the generator
    // changed, pin the new digest alone.
    expect({ versao: VERSAO_DAS_REGRAS, digesto: digestoDasRegras() }).toEqual({ versao: 1, digesto: '42293c7bcba056e038fc5917fd947d494b4556aa749ce4eb46f87cfd00c455fa' });
  });
});
