// Entry point of `pnpm start`: the demo on this machine alone. Prints where it listens, a
// working token and a ready-to-paste curl; Ctrl-C stops it cleanly.
import { createServer } from 'node:net';
import { ConfiguracaoInvalida, encerrarComGraca, escutarOuSair, lerConfiguracaoOuSair, sairPorConfiguracao } from '@imoveis/config';
import { criarLogger } from '@imoveis/api';
import { PREFIXO_API } from '@imoveis/contracts';
import { ConfigDemo } from './config.ts';
import { iniciarDemo } from './demo.ts';

const config = lerConfiguracaoOuSair(ConfigDemo);

/** Binds and releases HOST:PORT: a port in use or a host that is none stops the demo before it writes anything. */
function experimentarEndereco(host: string, porta: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const servidor = createServer();
    servidor.once('error', reject);
    servidor.listen({ host, port: porta }, () => servidor.close(() => resolve()));
  });
}
await escutarOuSair(() => experimentarEndereco(config.HOST, config.PORT), { host: 'HOST', porta: 'PORT' }, { host: config.HOST, porta: config.PORT });
// The API's own logger: the demo serves the same routes, so tokens in URLs are kept out of its logs too.
const logger = criarLogger({ nivel: config.LOG_LEVEL, servico: 'demo' });
// Ctrl-C while the demo starts ends it between two of its steps, never inside one: killed between
// making its projection and marking it as the demo's, it left a file every later start refused.
// What a stop here leaves is taken up by the next start (the sample resumes from its offsets).
const pararAntesDeServir = (sinal: NodeJS.Signals) => {
  logger.info({ signal: sinal }, 'encerrando antes de servir');
  process.exit(0);
};
process.once('SIGINT', pararAntesDeServir).once('SIGTERM', pararAntesDeServir);
const demo = await iniciarDemo(config, logger).catch((erro: unknown) => {
  if (erro instanceof ConfiguracaoInvalida) return sairPorConfiguracao(erro.variavel, erro.motivo);
  throw erro;
});

encerrarComGraca(10_000, logger, () => demo.close());
// Only now: Node drops a signal that comes with no listener at all.
process.off('SIGINT', pararAntesDeServir).off('SIGTERM', pararAntesDeServir);

let endereco = '';
await escutarOuSair(
  async () => {
    endereco = await demo.app.listen({ host: config.HOST, port: config.PORT });
  },
  { host: 'HOST', porta: 'PORT' },
  { host: config.HOST, porta: config.PORT },
);
const base = `${endereco}${PREFIXO_API}`;
const { registros, rejeitados, jaCarregada } = demo.carga;
process.stdout.write(
  [
    '',
    'Serviço de imóveis para portais parceiros — demonstração local (sem Kafka, Redis ou Docker)',
    jaCarregada
      ? `  projeção: ${config.DATABASE_PATH} (reaproveitada)`
      : `  projeção: ${config.DATABASE_PATH} (${registros} eventos de amostra lidos, ${rejeitados} deles enviados à lista de rejeitados)`,
    `  base_url: ${base}`,
    `  documentação: ${base}/docs`,
    `  token: ${demo.token}`,
    '',
    'Experimente:',
    `  curl -s -H 'Authorization: Bearer ${demo.token}' '${base}/imoveis?por_pagina=2'`,
    '',
    'Ctrl-C para parar.',
    '',
  ].join('\n'),
);
