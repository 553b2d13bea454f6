// The CPU-heavy half of projecting an event (JSON.parse, zod, the partner mapping, serialising)
// needs no projection state, so it runs in worker threads while the main thread applies the
// previous chunk to SQLite (decision 0007). With no threads it runs inline, same code.
import { hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { decodificarEvento, type Agregado, type MotivoRejeicao } from '@imoveis/contracts';
import { prepararEvento, type ContextoProjecao, type EventoPreparado } from '@imoveis/domain';

export interface MensagemBruta {
  chave: string | null;
  valor: Buffer | string | null;
}

/** An event ready to apply, a rejection for the dead-letter topic, or null for a compaction tombstone. */
export type MensagemPreparada = { ok: true; evento: EventoPreparado } | { ok: false; motivo: MotivoRejeicao; detalhe: string } | null;

export function prepararMensagens(agregado: Agregado, mensagens: readonly MensagemBruta[], contexto: ContextoProjecao): MensagemPreparada[] {
  return mensagens.map(({ chave, valor }) => {
    if (valor === null) return null;
    try {
      const decodificado = decodificarEvento(agregado, chave, valor);
      return decodificado.ok ? { ok: true, evento: prepararEvento(decodificado.evento, contexto, decodificado.privados) } : decodificado;
    } catch (erro) {
      // A throw here is a defect of ours, on one event: failing the chunk would retry it for ever.
      return { ok: false, motivo: 'falha-no-preparo', detalhe: `o preparo falhou: ${ondeFalhou(erro)}` };
    }
  });
}

/**
 * An error's kind and the code that threw it, not its message: V8 quotes values in its messages
 * ("Cannot create property 'x' on string '516.666.977-02'"), and the detail is logged. The event
 * itself is in the dead letters, to reproduce it.
 */
function ondeFalhou(erro: unknown): string {
  if (!(erro instanceof Error)) return typeof erro;
  const quadro = erro.stack?.split('\n').find((linha) => linha.trimStart().startsWith('at '));
  return quadro === undefined ? erro.name : `${erro.name} ${quadro.trim()}`;
}

/**
 * Preparing failures in a row, with no property prepared between them, past which the defect is
 * taken as general (a bad release, a bad setting), not one event's: the request fails, and so
 * its batch, which kafkajs retries (decision 0008), instead of the register draining into the dead letters
 * while the projection counts itself fresh. Only a property prepared resets the count, and a
 * general defect prepares none: every retry of the batch fails again.
 */
export const FALHAS_SEGUIDAS_MAXIMAS = 20;

export class PreparoFalhandoEmGeral extends Error {
  override readonly name = 'PreparoFalhandoEmGeral';
}

/** A message as the breaker tells it from others: a batch kafkajs retries brings the same ones again. */
const identidade = (agregado: Agregado, { chave, valor }: MensagemBruta): string => `${agregado}\0${chave ?? ''}\0${hash('sha1', valor ?? '', 'hex')}`;

function comDisjuntor(preparador: Preparador): Preparador {
  let seguidas = 0;
  // The failing events counted since the last property prepared: each counts once, however often
  // its batch is retried (a dead letter that could not be sent, a session lost), or one event
  // would trip the breaker alone.
  const contadas = new Set<string>();
  return {
    async preparar(agregado, mensagens) {
      const preparos = await preparador.preparar(agregado, mensagens);
      for (const [i, preparo] of preparos.entries()) {
        if (preparo?.ok && preparo.evento.tipo === 'imovel.salvo') {
          seguidas = 0;
          contadas.clear();
        } else if (preparo?.ok === false && preparo.motivo === 'falha-no-preparo') {
          const id = identidade(agregado, mensagens[i]!);
          if (!contadas.has(id)) {
            contadas.add(id);
            seguidas++;
          }
          if (seguidas >= FALHAS_SEGUIDAS_MAXIMAS) {
            throw new PreparoFalhandoEmGeral(`${seguidas} eventos seguidos falharam no preparo, o último com ${preparo.detalhe}: um defeito geral, não de um evento`);
          }
        }
      }
      return preparos;
    },
    close: () => preparador.close(),
  };
}

export interface Preparador {
  /** Prepares the messages, keeping their order; requests may overlap. */
  preparar(agregado: Agregado, mensagens: readonly MensagemBruta[]): Promise<MensagemPreparada[]>;
  close(): Promise<void>;
}

export interface OpcoesPreparador {
  contexto: ContextoProjecao;
  /** Worker threads; 0 prepares on the calling thread. */
  threads: number;
  /** A thread died; what it held is prepared on the calling thread instead, and it is replaced. */
  aoMorrerThread?: (erro: Error) => void;
}

/**
 * A chunk as sent to a thread: every value in one transferred buffer (a memcpy here, no UTF-8
 * decoding or copying strings on the main thread), `fins[i]` the end of value i, -1 when null.
 */
export interface PedidoPreparo {
  id: number;
  agregado: Agregado;
  chaves: (string | null)[];
  bytes: Uint8Array<ArrayBuffer>;
  fins: Int32Array<ArrayBuffer>;
}

function empacotar(id: number, agregado: Agregado, mensagens: readonly MensagemBruta[]): PedidoPreparo {
  const valores = mensagens.map((m) => (typeof m.valor === 'string' ? Buffer.from(m.valor) : m.valor));
  const bytes = new Uint8Array(valores.reduce((n, v) => n + (v?.length ?? 0), 0));
  const fins = new Int32Array(valores.length);
  let fim = 0;
  valores.forEach((valor, i) => {
    if (valor === null) return void (fins[i] = -1);
    bytes.set(valor, fim);
    fins[i] = fim += valor.length;
  });
  return { id, agregado, chaves: mensagens.map((m) => m.chave), bytes, fins };
}

export function desempacotar({ chaves, bytes, fins }: PedidoPreparo): MensagemBruta[] {
  let inicio = 0;
  return chaves.map((chave, i) => {
    const fim = fins[i]!;
    if (fim < 0) return { chave, valor: null };
    const valor = Buffer.from(bytes.buffer, bytes.byteOffset + inicio, fim - inicio);
    inicio = fim;
    return { chave, valor };
  });
}

export type RespostaPreparo = { id: number; preparos: MensagemPreparada[] } | { id: number; erro: string };

export function criarPreparador({ contexto, threads, aoMorrerThread }: OpcoesPreparador): Preparador {
  if (threads <= 0) {
    return comDisjuntor({ preparar: async (agregado, mensagens) => prepararMensagens(agregado, mensagens, contexto), close: async () => {} });
  }
  return comDisjuntor(new PoolDePreparo(contexto, threads, aoMorrerThread ?? (() => {})));
}

/**
 * A preparing thread. Run from source (tsx), a thread does not inherit the TypeScript loader,
 * so it registers tsx's before importing the worker module.
 */
function iniciarWorker(contexto: ContextoProjecao): Worker {
  const deFonte = import.meta.url.endsWith('.ts');
  const modulo = new URL(deFonte ? './preparo-em-threads.worker.ts' : './preparo-em-threads.worker.js', import.meta.url);
  // A thread's garbage is short-lived strings: a smaller young generation keeps its heap (and
  // the process's RSS) down at no measurable cost (8 MB against 16: 20 MB less with two threads).
  const opcoes = { workerData: { contexto }, resourceLimits: { maxYoungGenerationSizeMb: 8 } };
  if (!deFonte) return new Worker(modulo, opcoes);
  const tsx = import.meta.resolve('tsx/esm/api');
  const codigo = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(modulo.href)}); });`;
  return new Worker(codigo, { ...opcoes, eval: true });
}

type Pendente = {
  agregado: Agregado;
  mensagens: readonly MensagemBruta[];
  resolve: (p: MensagemPreparada[]) => void;
  reject: (e: Error) => void;
};

class PoolDePreparo implements Preparador {
  readonly #contexto: ContextoProjecao;
  readonly #aoMorrer: (erro: Error) => void;
  readonly #workers: { worker: Worker; pendentes: Map<number, Pendente> }[] = [];
  #proximoId = 0;
  #fechado = false;

  constructor(contexto: ContextoProjecao, threads: number, aoMorrer: (erro: Error) => void) {
    this.#contexto = contexto;
    this.#aoMorrer = aoMorrer;
    for (let i = 0; i < threads; i++) this.#workers.push(this.#iniciar());
  }

  #iniciar(): { worker: Worker; pendentes: Map<number, Pendente> } {
    const worker = iniciarWorker(this.#contexto);
    const entrada = { worker, pendentes: new Map<number, Pendente>() };
    worker.on('message', (resposta: RespostaPreparo) => {
      const pendente = entrada.pendentes.get(resposta.id);
      entrada.pendentes.delete(resposta.id);
      if ('erro' in resposta) pendente?.reject(new Error(`preparo falhou: ${resposta.erro}`));
      else pendente?.resolve(resposta.preparos);
    });
    // A dead thread is replaced, and what it held is prepared here instead: a message that
    // kills threads over and over then shows on the main thread (and its process), not as a
    // batch retried for ever.
    const morrer = (erro: Error) => {
      const i = this.#workers.indexOf(entrada);
      if (i < 0 || this.#fechado) return;
      this.#workers[i] = this.#iniciar();
      this.#aoMorrer(erro);
      for (const p of entrada.pendentes.values()) {
        try {
          p.resolve(prepararMensagens(p.agregado, p.mensagens, this.#contexto));
        } catch (falha) {
          p.reject(falha instanceof Error ? falha : new Error(String(falha)));
        }
      }
      entrada.pendentes.clear();
    };
    worker.on('error', morrer);
    worker.on('exit', (codigo) => {
      if (!this.#fechado) morrer(new Error(`thread de preparo saiu com código ${codigo}`));
    });
    return entrada;
  }

  preparar(agregado: Agregado, mensagens: readonly MensagemBruta[]): Promise<MensagemPreparada[]> {
    if (this.#fechado) return Promise.reject(new Error('preparador fechado'));
    const id = this.#proximoId++;
    const entrada = this.#workers[id % this.#workers.length]!;
    return new Promise((resolve, reject) => {
      entrada.pendentes.set(id, { agregado, mensagens, resolve, reject });
      const pedido = empacotar(id, agregado, mensagens);
      entrada.worker.postMessage(pedido, [pedido.bytes.buffer, pedido.fins.buffer]);
    });
  }

  async close(): Promise<void> {
    this.#fechado = true;
    await Promise.all(
      this.#workers.map(async ({ worker, pendentes }) => {
        await worker.terminate();
        for (const p of pendentes.values()) p.reject(new Error('preparador fechado'));
      }),
    );
  }
}
