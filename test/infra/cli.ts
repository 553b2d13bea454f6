// Developer and benchmark entry point for the test infrastructure:
//   pnpm infra:fetch   fetch the Kafka broker's jars into .cache/kafka (needs Java's Maven)
//   pnpm infra:up      start a Kafka broker and a Redis, print their addresses, run until Ctrl-C
import { diretorioJars, garantirJarsKafka, VERSAO_KAFKA } from './kafka-broker.ts';
import { ProgramaAusente, ServicoNaoIniciou } from './processo-servico.ts';
import { iniciarServicos } from './servicos.ts';

async function principal(comando: string | undefined): Promise<void> {
  switch (comando) {
    case 'fetch': {
      const inicio = Date.now();
      await garantirJarsKafka();
      console.error(`jars do Kafka ${VERSAO_KAFKA} em ${diretorioJars()} (${Date.now() - inicio} ms)`);
      return;
    }
    case 'up': {
      const inicio = Date.now();
      // Always start fresh ones: addresses already in the shell's environment are not reused.
      const servicos = await iniciarServicos({});
      console.log(`KAFKA_BROKERS=${servicos.kafkaBrokers.join(',')}`);
      console.log(`REDIS_URL=${servicos.redisUrl}`);
      console.error(`prontos em ${Date.now() - inicio} ms; Ctrl-C para parar`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await servicos.stop();
      console.error('parados');
      return;
    }
    default:
      console.error('uso: tsx test/infra/cli.ts fetch | up');
      process.exitCode = 2;
  }
}

principal(process.argv[2]).catch((erro: unknown) => {
  if (erro instanceof ProgramaAusente || erro instanceof ServicoNaoIniciou) console.error(erro.message);
  else console.error(erro);
  process.exitCode = 1;
});
