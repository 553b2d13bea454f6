// A process stopping as the services stop (encerrarComGraca), for encerramento.e2e.test.ts: its
// stop takes 1 s and prints `fechar` when it starts; `erro` in argv throws once it runs.
import { encerrarComGraca } from '../../packages/config/src/encerramento.ts';

const log = { info: (o: object, m: string) => console.log(JSON.stringify({ ...o, msg: m })), error: (o: object, m: string) => console.log(JSON.stringify({ ...o, msg: m })) };
encerrarComGraca(10_000, log, async () => {
  console.log('fechar');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
});
console.log('pronto');
// An unhandled rejection, as a defect would leave one.
if (process.argv.includes('erro')) setTimeout(() => void Promise.reject(new Error('falha de teste')), 100);
setInterval(() => {}, 1_000);
