// A preparing thread of the projector (see preparo-em-threads.ts): messages in, prepared events out.
import { parentPort, workerData } from 'node:worker_threads';
import type { ContextoProjecao } from '@imoveis/domain';
import { desempacotar, prepararMensagens, type PedidoPreparo, type RespostaPreparo } from './preparo-em-threads.ts';

const { contexto } = workerData as { contexto: ContextoProjecao };

parentPort!.on('message', (pedido: PedidoPreparo) => {
  const { id, agregado } = pedido;
  let resposta: RespostaPreparo;
  try {
    resposta = { id, preparos: prepararMensagens(agregado, desempacotar(pedido), contexto) };
  } catch (erro) {
    resposta = { id, erro: erro instanceof Error ? erro.message : String(erro) };
  }
  parentPort!.postMessage(resposta);
});
