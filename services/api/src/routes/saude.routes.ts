// Liveness, readiness and Prometheus metrics: no credential, outside the partner prefix, and
// answered even under pressure (readiness then says so) so orchestrators and scrapers see why.
import type { FastifyInstance } from 'fastify';
import { avaliarProntidao, idadeDaProjecaoS } from '@imoveis/domain';
import type { Frescor } from '@imoveis/projection-store';
import { ProjecaoIndisponivel } from '../erros.ts';
import { NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS, type FalhasDeLeitura, type FonteProjecao } from '../fonte-projecao.ts';
import { registrarMetricasDeFrescor, type Metricas } from '../metricas.ts';
import { JSON_UTF8 } from '../plugins/erros.plugin.ts';

/** The orchestrator's and the scraper's routes: asked every few seconds, so logged at debug, not info. */
const ROTAS_OPERACIONAIS = { vivo: '/health/live', pronto: '/health/ready', metricas: '/metrics' } as const;
export const ehRotaOperacional = (rota: string): boolean => (Object.values(ROTAS_OPERACIONAIS) as string[]).includes(rota);

// Under-pressure calls this instead of refusing: returning nothing lets the request through.
const ignorarPressao = { pressureHandler: () => undefined };

/**
 * A scrape's text is made at most this often: it costs milliseconds (every route, status and
 * bucket), and the route asks for no credential and counts against no limit, so a client asking
 * in a loop would otherwise take the event loop from partners. Prometheus scrapes every 15 s or so.
 */
const METRICAS_VALIDAS_MS = 1_000;

export function rotasSaude(deps: { fonte: FonteProjecao; falhasDeLeitura: FalhasDeLeitura; metricas: Metricas; atrasoMaximoMs: number; agora: () => number }) {
  return function saudeRoutes(app: FastifyInstance, _opcoes: unknown, pronto: () => void): void {
    /** The projection's freshness record; null while there is no projection to read it from. */
    const lerFrescor = (): Frescor | null => {
      try {
        return deps.fonte.atual().frescor();
      } catch (erro) {
        // Anything but a projection not there (yet) is a failure to read one that is: not ready
        // all the same, but said, as a partner's request failing so is (its file failing: recorded so).
        if (!(erro instanceof ProjecaoIndisponivel) && !deps.falhasDeLeitura.registrar(erro)) app.log.error({ err: erro }, 'falha ao ler o frescor da projeção');
        return null;
      }
    };
    registrarMetricasDeFrescor(deps.metricas, () => {
      const frescor = lerFrescor();
      const emDiaEm = frescor?.emDiaEm ?? null;
      return { idadeS: idadeDaProjecaoS(emDiaEm, deps.agora()), atraso: frescor?.atraso ?? null };
    });

    app.get(ROTAS_OPERACIONAIS.vivo, { config: ignorarPressao, schema: { hide: true } }, (_request, reply) =>
      reply.type(JSON_UTF8).send('{"vivo":true}'),
    );

    app.get(ROTAS_OPERACIONAIS.pronto, { config: ignorarPressao, schema: { hide: true } }, (_request, reply) => {
      const sobPressao = (app as FastifyInstance & { isUnderPressure?: () => boolean }).isUnderPressure?.() ?? false;
      // Read first: a failure of this very read is among the reasons.
      const frescor = lerFrescor();
      const doProcesso = [
        ...(sobPressao ? ['processo sob pressão'] : []),
        ...(deps.falhasDeLeitura.recente() ? [`leitura da projeção falhou há menos de ${NAO_PRONTA_APOS_FALHA_DE_LEITURA_MS / 1000} s`] : []),
      ];
      const estado = avaliarProntidao({ frescor, agoraMs: deps.agora(), atrasoMaximoMs: deps.atrasoMaximoMs, doProcesso });
      return reply.code(estado.pronto ? 200 : 503).type(JSON_UTF8).send(JSON.stringify(estado));
    });

    // The process's own clock, not `agora` (which tests may stop).
    let ultimas: { em: number; texto: Promise<string> } | null = null;
    // Uncompressed: compressing its 20 KB would cost most of what the memo saves.
    app.get(ROTAS_OPERACIONAIS.metricas, { config: ignorarPressao, schema: { hide: true }, compress: false }, async (_request, reply) => {
      const agora = performance.now();
      if (ultimas === null || agora - ultimas.em >= METRICAS_VALIDAS_MS) ultimas = { em: agora, texto: deps.metricas.registry.metrics() };
      return reply.type(deps.metricas.registry.contentType).send(await ultimas.texto);
    });
    pronto();
  };
}
