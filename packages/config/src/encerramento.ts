// Stopping on a signal: close-with-grace, with one Ctrl-C counted once.
import closeWithGrace from 'close-with-grace';

/** Within this of the first stop signal, another is the same request. */
const MESMO_PEDIDO_MS = 1_000;

/**
 * Calls `primeiro` on the first SIGINT or SIGTERM and `outro` on any later one. A signal within a
 * second of the first is that same request: Ctrl-C in a terminal reaches the whole process group,
 * and pnpm relays it to its child as well, so a service started by `pnpm api` gets two at once.
 */
export function aoSinalDeParada(primeiro: (sinal: NodeJS.Signals) => void, outro: (sinal: NodeJS.Signals) => void): void {
  let recebidoEm: number | null = null;
  const aoSinal = (sinal: NodeJS.Signals) => {
    if (recebidoEm === null) {
      recebidoEm = Date.now();
      primeiro(sinal);
    } else if (Date.now() - recebidoEm > MESMO_PEDIDO_MS) {
      outro(sinal);
    }
  };
  process.on('SIGINT', aoSinal).on('SIGTERM', aoSinal);
}

/** The log lines stopping writes (pino's signature). */
interface LogDeParada {
  info(objeto: object, mensagem: string): void;
  error(objeto: object, mensagem: string): void;
}

/**
 * Stops cleanly, once: `fechar` runs on the first SIGINT/SIGTERM (another signal close-with-grace
 * knows, or an uncaught error), then the process exits: 0, or 1 after an error or when `fechar`
 * outlasts `prazoMs`. A stop signal after the first Ctrl-C's exits at once (1).
 */
export function encerrarComGraca(prazoMs: number, log: LogDeParada, fechar: () => Promise<void>): void {
  /** The stop under way (after an error, or another signal close-with-grace knows): `fechar` runs once. */
  let encerrando = false;
  const graca = closeWithGrace(
    {
      delay: prazoMs,
      skip: ['SIGINT', 'SIGTERM'],
      logger: { error: (erro: unknown) => log.error({ err: erro }, 'erro ao encerrar') },
      onTimeout: (ms) => log.error({ prazoMs: ms }, 'o encerramento passou do prazo: saindo'),
      onSecondError: (erro) => log.error({ err: erro }, 'outro erro ao encerrar: saindo'),
      onSecondSignal: (sinal) => log.error({ signal: sinal }, 'outro sinal ao encerrar: saindo'),
    },
    async ({ err, signal }) => {
      encerrando = true;
      if (err) log.error({ err }, 'encerrando após erro');
      else if (signal) log.info({ signal }, 'encerrando');
      await fechar();
    },
  );
  const sairJa = (sinal: NodeJS.Signals) => {
    log.error({ signal: sinal }, 'segundo sinal: saindo sem terminar o encerramento');
    process.exit(1);
  };
  aoSinalDeParada((sinal) => {
    if (encerrando) return sairJa(sinal);
    log.info({ signal: sinal }, 'encerrando');
    graca.close();
  }, sairJa);
}
