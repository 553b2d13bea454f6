// Command line: writes a generated scenario (initial load, then mutations) as NDJSON.
//   pnpm exec tsx packages/generator/src/cli.ts --seed 7 --imoveis 1000 --mutacoes 5000 --saida cenario.ndjson
import { parseArgs } from 'node:util';
import { gerarCargaInicial, gerarCenario } from './carga-inicial.ts';
import { gerarMutacoes } from './mutacoes.ts';
import { escreverNdjson } from './ndjson.ts';
import { OPCOES_PADRAO, normalizarOpcoes, type OpcoesGerador } from './opcoes.ts';

const AJUDA = `Uso: cli.ts [opções]
  --seed N                 semente (padrão ${OPCOES_PADRAO.seed})
  --imoveis N              imóveis na carga inicial (padrão ${OPCOES_PADRAO.imoveis})
  --condominios N          condomínios (padrão ${OPCOES_PADRAO.condominios})
  --mutacoes N             registros do fluxo de mutações (padrão ${OPCOES_PADRAO.mutacoes})
  --taxa-valores-ruins X   chance de cada valor ruim por imóvel (padrão ${OPCOES_PADRAO.taxaValoresRuins})
  --taxa-venenos X         fração de venenos nas mutações (padrão ${OPCOES_PADRAO.taxaVenenos})
  --inicio DATA-HORA       relógio do cadastro no início (padrão ${OPCOES_PADRAO.inicio})
  --somente carga|mutacoes só uma das partes
  --saida ARQUIVO          arquivo NDJSON, ou - para a saída padrão (padrão -)`;

function numero(nome: string, texto: string | undefined): number | undefined {
  if (texto === undefined) return undefined;
  const n = Number(texto);
  if (texto.trim() === '' || !Number.isFinite(n)) throw new RangeError(`--${nome}: número inválido ${JSON.stringify(texto)}`);
  return n;
}

async function principal(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      imoveis: { type: 'string' },
      condominios: { type: 'string' },
      mutacoes: { type: 'string' },
      'taxa-valores-ruins': { type: 'string' },
      'taxa-venenos': { type: 'string' },
      inicio: { type: 'string' },
      somente: { type: 'string' },
      saida: { type: 'string', default: '-' },
      ajuda: { type: 'boolean', short: 'h' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.ajuda === true || values.help === true) {
    process.stdout.write(`${AJUDA}\n`);
    return;
  }
  const parciais: Partial<Record<keyof OpcoesGerador, number | string | undefined>> = {
    seed: numero('seed', values.seed),
    imoveis: numero('imoveis', values.imoveis),
    condominios: numero('condominios', values.condominios),
    mutacoes: numero('mutacoes', values.mutacoes),
    taxaValoresRuins: numero('taxa-valores-ruins', values['taxa-valores-ruins']),
    taxaVenenos: numero('taxa-venenos', values['taxa-venenos']),
    inicio: values.inicio,
  };
  // Only what was given: undefined would override a default under exactOptionalPropertyTypes.
  const opcoes = Object.fromEntries(Object.entries(parciais).filter(([, v]) => v !== undefined)) as Partial<OpcoesGerador>;
  const normalizadas = normalizarOpcoes(opcoes);
  const fonte =
    values.somente === 'carga' ? gerarCargaInicial(normalizadas)
    : values.somente === 'mutacoes' ? gerarMutacoes(normalizadas)
    : values.somente === undefined ? gerarCenario(normalizadas)
    : undefined;
  if (fonte === undefined) throw new RangeError(`--somente: esperado carga ou mutacoes, recebido ${JSON.stringify(values.somente)}`);

  const inicio = process.hrtime.bigint();
  const total = await escreverNdjson(fonte, values.saida === '-' ? process.stdout : values.saida);
  const segundos = Number(process.hrtime.bigint() - inicio) / 1e9;
  process.stderr.write(`${total} registros em ${segundos.toFixed(2)} s (${Math.round(total / segundos)} registros/s)\n`);
}

principal().catch((erro: unknown) => {
  process.stderr.write(`${erro instanceof Error ? erro.message : String(erro)}\n${AJUDA}\n`);
  process.exitCode = 1;
});
