// Poison messages: records the projector must refuse and copy to the dead-letter topic. Built on
// phantom aggregates (indices past the real ones) so they never touch a real aggregate's versions.
import type { MotivoRejeicao } from '@imoveis/contracts';
import type { Aleatorio } from './aleatorio.ts';
import type { Contexto } from './contexto.ts';
import { eventoCondominioSalvo, eventoImovelSalvo } from './eventos.ts';
import type { RegistroBruto, TopicoRegistro } from '@imoveis/contracts';

export const ESPECIES_VENENO = ['veneno-json', 'veneno-tipo', 'veneno-versao-schema', 'veneno-campo-ausente', 'veneno-chave'] as const;
export type EspecieVeneno = (typeof ESPECIES_VENENO)[number];

/** The rejection reason `decodificarEvento` must give for each kind of poison. */
export const MOTIVO_DO_VENENO: Readonly<Record<EspecieVeneno, MotivoRejeicao>> = {
  'veneno-json': 'json-invalido',
  'veneno-tipo': 'tipo-desconhecido',
  'veneno-versao-schema': 'versao-schema-desconhecida',
  'veneno-campo-ausente': 'contrato-invalido',
  'veneno-chave': 'chave-divergente',
};

type Objeto = Record<string, unknown>;

/** A copy of `objeto` without `campo` (no dynamic delete on shared objects). */
function semCampo(objeto: Objeto, campo: string): Objeto {
  const copia: Objeto = {};
  for (const [k, v] of Object.entries(objeto)) if (k !== campo) copia[k] = v;
  return copia;
}

export class FabricaVenenos {
  private readonly ctx: Contexto;
  private fantasmas = 0;

  constructor(ctx: Contexto) {
    this.ctx = ctx;
  }

  gerar(rng: Aleatorio, especie: EspecieVeneno, agoraMs: number): RegistroBruto {
    const { imoveis, condominios } = this.ctx.opcoes;
    const topico: TopicoRegistro = condominios > 0 && (imoveis === 0 || rng.chance(0.15)) ? 'condominios' : 'imoveis';
    const n = this.fantasmas++;
    // A well-formed event of a phantom aggregate, as a plain object the poison then breaks.
    let evento: Objeto;
    if (topico === 'imoveis') {
      const p = this.ctx.imoveis.gerar(imoveis + 1 + n);
      evento = { ...eventoImovelSalvo(rng.uuid(), p.versaoInicial, agoraMs, p.dados) };
    } else {
      const c = this.ctx.condominios.gerar(condominios + 1 + n);
      evento = { ...eventoCondominioSalvo(rng.uuid(), c.versaoInicial, agoraMs, c.dados) };
    }
    const dados = evento['dados'] as Objeto;
    const chave = dados['id'] as string;

    switch (especie) {
      case 'veneno-json': {
        const texto = JSON.stringify(evento);
        const valores = [
          texto.slice(0, Math.floor(texto.length / 2)),
          'ERRO 500: tempo esgotado ao serializar o registro',
          `<imovel id="${chave}"><codigo>X</codigo></imovel>`,
          `[${texto}]`,
          '"imovel.salvo"',
          'null',
          '',
          texto.replace(/"versao":/, 'versao:'),
        ];
        return { topico, chave: rng.chance(0.1) ? null : chave, valor: rng.escolher(valores) };
      }
      case 'veneno-tipo': {
        const tipos =
          topico === 'imoveis'
            ? ['imovel.arquivado', 'imovel.atualizado', 'IMOVEL.SALVO', 'imovel_salvo', 'condominio.salvo']
            : ['condominio.fundido', 'imovel.salvo', 'Condominio.Salvo'];
        return { topico, chave, valor: JSON.stringify({ ...evento, tipo: rng.escolher(tipos) }) };
      }
      case 'veneno-versao-schema':
        return { topico, chave, valor: JSON.stringify({ ...evento, versao_schema: rng.chance(0.8) ? 2 : rng.escolher([0, 3, '1']) }) };
      case 'veneno-campo-ausente': {
        // Fields whose absence breaks the contract but not the envelope's tipo/versao_schema checks.
        const doEnvelope = ['evento_id', 'ocorrido_em', 'versao', 'dados'];
        const dosDados = topico === 'imoveis' ? ['id', 'codigo', 'endereco', 'valores', 'fotos', 'caracteristicas', 'ativo'] : ['id', 'nome'];
        if (rng.chance(0.3)) return { topico, chave, valor: JSON.stringify(semCampo(evento, rng.escolher(doEnvelope))) };
        return { topico, chave, valor: JSON.stringify({ ...evento, dados: semCampo(dados, rng.escolher(dosDados)) }) };
      }
      case 'veneno-chave':
        return { topico, chave: rng.uuid(), valor: JSON.stringify(evento) };
    }
  }
}
