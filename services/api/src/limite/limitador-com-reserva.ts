// Redis first, the per-process limiter when Redis fails: the API keeps serving, says so in the
// log (a lost connection at once, a hung Redis at its first timeout; its return once it has held
// for a few seconds, so a flapping Redis writes two lines, not two per flap) and in the metrics
// (each transition, each fallback decision), and goes back to Redis as soon as a command succeeds
// again. After a failure Redis is left alone for a short pause, so a hung Redis costs one command
// timeout per pause, not one per request.
//
// The per-process log holds every request this process admitted, on Redis's clock: those Redis
// counted, and those admitted while Redis was away (or before it came back empty), which Redis
// never saw. Redis's admission stands only if that log has room too, so one process stays exact
// across a fallback instead of admitting the limit a second time once Redis is back; and a
// refusal waits for whichever of the two frees a slot later, so Retry-After is never early.
import type { Logger } from 'pino';
import type { DecisaoLimite, Limitador } from './limitador.ts';
import type { LimitadorLocal } from './limitador.ts';
import type { LimitadorRedis } from './limitador-redis.ts';

export type ModoLimitador = 'redis' | 'reserva';

export class LimitadorComReserva implements Limitador {
  readonly limite: number;
  readonly #redis: LimitadorRedis;
  readonly #local: LimitadorLocal;
  readonly #logger: Pick<Logger, 'warn' | 'info'>;
  readonly #aoDecidirNaReserva: () => void;
  readonly #aoMudarModo: (modo: ModoLimitador) => void;
  readonly #pausaMs: number;
  readonly #estavelMs: number;
  readonly #agora: () => number;
  /** Back on Redis, its return not said yet; and the falls since the last line said, not said either. */
  #voltaPorDizer: NodeJS.Timeout | null = null;
  #quedasNaoDitas = 0;
  #modo: ModoLimitador = 'redis';
  #tentarRedisApos = 0;
  /**
   * Redis's clock minus this host's, as of Redis's last answer, within the bounds the round trip
   * allows (Redis read its clock between the send and the answer): the local log runs on Redis's
   * clock. While Redis is away the window is read at the lower bound and an entry written at the
   * upper one, so no entry, made before or during the fallback, leaves a window early.
   */
  #desvioMs = { minimo: 0, maximo: 0 };
  #fechado = false;
  /** The connection's last error: why it was lost (refused, a wrong password), for the log line. */
  #ultimoErro: Error | null = null;
  readonly #aoErrar = (erro: Error): void => {
    this.#ultimoErro = erro;
  };
  /** Connected again: an earlier error is not why a later connection is lost. */
  readonly #aoConectar = (): void => {
    this.#ultimoErro = null;
  };
  readonly #aoPerderConexao = (): void => {
    const causa = this.#ultimoErro === null ? '' : `: ${this.#ultimoErro.message}`;
    if (!this.#fechado) this.#mudarPara('reserva', new Error(`conexão com o Redis perdida${causa}`));
  };

  constructor(opcoes: {
    redis: LimitadorRedis;
    local: LimitadorLocal;
    logger: Pick<Logger, 'warn' | 'info'>;
    aoDecidirNaReserva?: () => void;
    aoMudarModo?: (modo: ModoLimitador) => void;
    /** How long Redis must hold after a return for the return to be said. */
    estavelMs?: number;
    /** How long to leave Redis alone after a failure. */
    pausaMs?: number;
    agora?: () => number;
  }) {
    this.#pausaMs = opcoes.pausaMs ?? 500;
    this.#estavelMs = opcoes.estavelMs ?? 5_000;
    this.#agora = opcoes.agora ?? Date.now;
    this.limite = opcoes.redis.limite;
    this.#redis = opcoes.redis;
    this.#local = opcoes.local;
    this.#logger = opcoes.logger;
    this.#aoDecidirNaReserva = opcoes.aoDecidirNaReserva ?? (() => {});
    this.#aoMudarModo = opcoes.aoMudarModo ?? (() => {});
    // A lost connection is a fallback now, not at the next request: an idle API says so too.
    this.#redis.redis.on('close', this.#aoPerderConexao).on('error', this.#aoErrar).on('ready', this.#aoConectar);
  }

  get modo(): ModoLimitador {
    return this.#modo;
  }

  async tentar(chave: string): Promise<DecisaoLimite> {
    // While disconnected, do not even try: the command would fail, and ioredis reconnects alone.
    if (this.#redis.conectado && this.#agora() >= this.#tentarRedisApos) {
      const enviadoEm = this.#agora();
      try {
        const { decisao, agoraMs, desfazer } = await this.#redis.decidir(chave);
        this.#desvioMs = { minimo: agoraMs - this.#agora(), maximo: agoraMs - enviadoEm };
        // A late answer to a request sent before another one failed does not end the pause.
        if (this.#agora() >= this.#tentarRedisApos) this.#mudarPara('redis', null);
        if (!decisao.admitido) {
          const local = this.#local.consultarEm(chave, agoraMs);
          return !local.admitido && local.reinicioS > decisao.reinicioS ? local : decisao;
        }
        const local = this.#local.tentarEm(chave, agoraMs);
        if (local.admitido) return local.restantes < decisao.restantes ? local : decisao;
        desfazer();
        return local;
      } catch (erro) {
        this.#tentarRedisApos = this.#agora() + this.#pausaMs;
        this.#mudarPara('reserva', erro);
      }
    } else {
      this.#mudarPara('reserva', null);
    }
    this.#aoDecidirNaReserva();
    const agora = this.#agora();
    return this.#local.tentarEm(chave, agora + this.#desvioMs.minimo, agora + this.#desvioMs.maximo);
  }

  async close(): Promise<void> {
    this.#fechado = true;
    if (this.#voltaPorDizer !== null) clearTimeout(this.#voltaPorDizer);
    this.#redis.redis.off('close', this.#aoPerderConexao).off('error', this.#aoErrar).off('ready', this.#aoConectar);
    await this.#redis.close();
  }

  #mudarPara(modo: ModoLimitador, erro: unknown): void {
    if (modo === this.#modo) return;
    this.#modo = modo;
    this.#aoMudarModo(modo);
    if (modo === 'reserva') {
      if (this.#voltaPorDizer !== null) {
        // Back for a moment only: the last line said still holds (Redis unavailable).
        clearTimeout(this.#voltaPorDizer);
        this.#voltaPorDizer = null;
        this.#quedasNaoDitas++;
        return;
      }
      this.#logger.warn({ err: erro ?? undefined }, 'Redis indisponível: limite de requisições passa a ser contado só neste processo');
      return;
    }
    this.#voltaPorDizer = setTimeout(() => {
      this.#voltaPorDizer = null;
      const quedas = this.#quedasNaoDitas;
      this.#quedasNaoDitas = 0;
      // At the fallback's level: whoever was warned of the one must see the other.
      this.#logger.warn(quedas > 0 ? { quedasNoMeio: quedas } : {}, 'Redis de volta: limite de requisições volta a ser compartilhado entre os processos');
    }, this.#estavelMs);
    this.#voltaPorDizer.unref();
  }
}
