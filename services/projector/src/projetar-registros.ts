// Projects register records without Kafka, through the very code the consumer runs: the demo's
// bundled sample and the tests' reference projections use it. Offsets count records per topic.
import type { RegistroBruto, TopicoRegistro } from '@imoveis/contracts';
import type { Lote } from '@imoveis/kafka';
import type { ContextoProjecao } from '@imoveis/domain';
import type { EscritorProjecao } from '@imoveis/projection-store';
import { pino, type Logger } from 'pino';
import { processarLote, type Rejeicao } from './processar-lote.ts';
import { criarPreparador } from './preparo-em-threads.ts';

export interface ResumoProjecao {
  registros: number;
  rejeicoes: Rejeicao[];
}

const TOPICOS = { imoveis: 'imoveis', condominios: 'condominios' } as const satisfies Record<TopicoRegistro, TopicoRegistro>;

export async function projetarRegistros(
  escritor: EscritorProjecao,
  registros: Iterable<RegistroBruto> | AsyncIterable<RegistroBruto>,
  opcoes: { contexto: ContextoProjecao; agora?: () => number; log?: Logger; tamanhoLote?: number },
): Promise<ResumoProjecao> {
  const tamanhoLote = opcoes.tamanhoLote ?? 500;
  const proximo = new Map<string, bigint>(
    Object.values(TOPICOS).map((t) => [t, BigInt(escritor.offsetDe(t, 0) ?? '0')]),
  );
  const contagem = new Map<string, bigint>(Object.values(TOPICOS).map((t) => [t, 0n]));
  const rejeicoes: Rejeicao[] = [];
  const deps = {
    escritor,
    preparador: criarPreparador({ contexto: opcoes.contexto, threads: 0 }),
    agora: opcoes.agora ?? Date.now,
    agregados: new Map([
      [TOPICOS.imoveis, 'imovel' as const],
      [TOPICOS.condominios, 'condominio' as const],
    ]),
    enviarParaDlq: async (r: readonly Rejeicao[]) => void rejeicoes.push(...r),
    log: opcoes.log ?? pino({ level: 'silent' }),
  };

  let pendentes: { topico: string; mensagens: Lote['mensagens'][number][] } | null = null;
  const aplicar = async () => {
    if (!pendentes || pendentes.mensagens.length === 0) return;
    const lote: Lote = {
      topico: pendentes.topico,
      particao: 0,
      mensagens: pendentes.mensagens,
      fimDaParticao: String(contagem.get(pendentes.topico)),
      proximoOffset: (BigInt(pendentes.mensagens.at(-1)!.offset) + 1n).toString(),
      heartbeat: async () => {},
      ativo: () => true,
      parando: () => false,
    };
    pendentes = null;
    await processarLote(lote, deps);
  };

  let total = 0;
  for await (const registro of registros) {
    const topico = TOPICOS[registro.topico];
    const offset = contagem.get(topico)!;
    contagem.set(topico, offset + 1n);
    total++;
    // Records an earlier run already applied (their offsets are stored) are skipped.
    if (offset < proximo.get(topico)!) continue;
    if (pendentes && (pendentes.topico !== topico || pendentes.mensagens.length >= tamanhoLote)) await aplicar();
    pendentes ??= { topico, mensagens: [] };
    pendentes.mensagens.push({
      offset: String(offset),
      key: registro.chave === null ? null : Buffer.from(registro.chave),
      value: registro.valor === null ? null : Buffer.from(registro.valor),
      headers: {},
    });
  }
  await aplicar();
  await deps.preparador.close();
  return { registros: total, rejeicoes };
}
