// kafkajs as patched here (patches/kafkajs@2.2.4.patch, decision 0003): a connection's request
// queue arms a timer only while a request waits for its turn or a throttle is in force. Unpatched,
// every answer re-armed a 1 ms timer, for the life of the connection.
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface Pedido {
  entry: { correlationId: number; resolve: () => void; reject: () => void };
  expectResponse: boolean;
  sendRequest: () => void;
}
interface FilaDeRequisicoes {
  push(pedido: Pedido): void;
  fulfillRequest(resposta: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number): void;
}

// The queue is internal to kafkajs: reached by its path, as only this package may (decision 0003).
const exigir = createRequire(import.meta.url);
const RequestQueue = exigir('kafkajs/src/network/requestQueue/index.js') as new (opcoes: object) => FilaDeRequisicoes;

const silencio = () => {};
const novaFila = () =>
  new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'teste',
    broker: 'localhost:9092',
    logger: { debug: silencio, info: silencio, warn: silencio, error: silencio },
  });
const pedido = (correlationId: number, enviados: number[]): Pedido => ({
  entry: { correlationId, resolve: silencio, reject: silencio },
  expectResponse: true,
  sendRequest: () => void enviados.push(correlationId),
});

describe('a kafkajs request queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps no timer once the answers are in and nothing waits', () => {
    const fila = novaFila();
    const enviados: number[] = [];
    fila.push(pedido(1, enviados));
    fila.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect({ enviados, timers: vi.getTimerCount() }).toEqual({ enviados: [1], timers: 0 });
  });

  it('still arms one for a request held back by a throttle, and sends it when the throttle ends', () => {
    const fila = novaFila();
    const enviados: number[] = [];
    fila.push(pedido(1, enviados));
    fila.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    fila.maybeThrottle(100);
    fila.push(pedido(2, enviados));
    expect({ enviados, timers: vi.getTimerCount() }).toEqual({ enviados: [1], timers: 1 });
    vi.advanceTimersByTime(101);
    expect(enviados).toEqual([1, 2]);
  });

  it('sends a request held back by the in-flight limit when the answer before it arrives', () => {
    const fila = novaFila();
    const enviados: number[] = [];
    fila.push(pedido(1, enviados));
    fila.push(pedido(2, enviados));
    expect(enviados).toEqual([1]);
    fila.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(enviados).toEqual([1, 2]);
  });
});
