// Connections over real sockets: a client that sends its request too slowly, or stops reading
// the answer, loses its connection instead of holding it (buildApp's `prazos`); a stop leaves no
// keep-alive connection holding it.
import { Agent, get, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { imovelSalvo } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { LimitadorLocal, type Limitador, type PrazosConexao } from '../../services/api/src/index.ts';
import { criarApi, criarProjecao, idsOrdenados } from './api-suporte.ts';

const limpar: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of limpar.splice(0).reverse()) await f();
});

/** The API listening on a free local port, with these deadlines. */
async function apiEscutando(prazos: PrazosConexao): Promise<number> {
  const projecao = criarProjecao();
  projecao.aplicar(idsOrdenados(1).map((id) => imovelSalvo(id, 1)), Date.now());
  const api = await criarApi({ leitor: projecao.abrirLeitor(), config: { prazos } });
  limpar.push(() => projecao.remover(), () => api.fechar());
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const endereco = api.app.server.address();
  if (endereco === null || typeof endereco === 'string') throw new Error('sem porta');
  return endereco.port;
}

interface Desfecho {
  /** Milliseconds from the first byte sent to the connection's end. */
  readonly ms: number;
  readonly recebido: Buffer;
}

/** Sends `pedido` and, once `lerDepoisDeMs` have passed (reading nothing before), reads until the server ends the connection. */
function conversar(porta: number, pedido: string, lerDepoisDeMs = 0): Promise<Desfecho> {
  return new Promise((resolver, rejeitar) => {
    const partes: Buffer[] = [];
    const socket: Socket = connect({ host: '127.0.0.1', port: porta }, () => {
      const inicio = Date.now();
      const terminar = (): void => resolver({ ms: Date.now() - inicio, recebido: Buffer.concat(partes) });
      socket.on('close', terminar);
      // A reset (the server dropped unread bytes) ends it too.
      socket.on('error', (erro: NodeJS.ErrnoException) => (erro.code === 'ECONNRESET' ? terminar() : rejeitar(erro)));
      socket.write(pedido);
      if (lerDepoisDeMs > 0) {
        socket.pause();
        setTimeout(() => socket.resume(), lerDepoisDeMs);
      }
    });
    socket.on('data', (pedaco: Buffer) => partes.push(pedaco));
    setTimeout(() => {
      socket.destroy();
      rejeitar(new Error('a conexão continuou aberta'));
    }, 8_000).unref();
  });
}

describe('connection deadlines', () => {
  it('answers 408 with an Erro and closes when the request has not all arrived in time', async () => {
    const porta = await apiEscutando({ requisicaoMs: 600, verificacaoMs: 100, inatividadeMs: 10_000 });
    const { ms, recebido } = await conversar(porta, 'GET /health/live HTTP/1.1\r\nHost: api\r\n');
    const texto = recebido.toString();
    expect(texto).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(texto.slice(texto.indexOf('\r\n\r\n') + 4))).toEqual({ mensagem: expect.any(String) });
    expect(ms).toBeGreaterThanOrEqual(500);
    // Room for a loaded machine's stalls, and still well short of a deadline set wrong by seconds.
    expect(ms).toBeLessThan(4_000);
  });

  it('closes a connection whose client stops reading the answer', async () => {
    const porta = await apiEscutando({ requisicaoMs: 10_000, verificacaoMs: 100, inatividadeMs: 300 });
    // Forty pipelined requests for the documentation's script (1.5 MB each, sent uncompressed):
    // far more than the sockets' buffers hold, so the server's writes stall until the client reads.
    const pedido = 'GET /api/v1/docs/static/swagger-ui-bundle.js HTTP/1.1\r\nHost: api\r\n\r\n'.repeat(40);
    // Not read for 5 s, many times the 300 ms the server allows, even with a stall on a loaded machine.
    const { recebido } = await conversar(porta, pedido, 5_000);
    const respostas = recebido.toString('latin1').match(/^HTTP\/1\.1 200 /gm)?.length ?? 0;
    expect(respostas).toBeGreaterThan(0);
    expect(respostas).toBeLessThan(40);
  });

  it('answers an HTTP/1.1 request without Host with 400 and an Erro (Node would send no body), and an HTTP/1.0 one as usual', async () => {
    const porta = await apiEscutando({ requisicaoMs: 10_000, verificacaoMs: 100, inatividadeMs: 10_000 });
    const semHost = (await conversar(porta, 'GET /api/v1/imoveis?por_pagina=1 HTTP/1.1\r\nConnection: close\r\n\r\n')).recebido.toString();
    expect(semHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(semHost.slice(semHost.indexOf('\r\n\r\n') + 4))).toEqual({ mensagem: expect.stringContaining('Host') });
    expect((await conversar(porta, 'GET /health/live HTTP/1.0\r\n\r\n')).recebido.toString()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers a request with an Expect other than 100-continue as any other (Node alone would send a bare 417)', async () => {
    const porta = await apiEscutando({ requisicaoMs: 10_000, verificacaoMs: 100, inatividadeMs: 10_000 });
    const pedido = (caminho: string) => `GET ${caminho} HTTP/1.1\r\nHost: api\r\nExpect: algo\r\nConnection: close\r\n\r\n`;
    const semCredencial = (await conversar(porta, pedido('/api/v1/imoveis'))).recebido.toString();
    expect(semCredencial).toMatch(/^HTTP\/1\.1 401 /);
    expect(semCredencial).toMatch(/^RateLimit: /im);
    expect(JSON.parse(semCredencial.slice(semCredencial.indexOf('\r\n\r\n') + 4))).toEqual({ mensagem: expect.any(String) });
    expect((await conversar(porta, pedido('/health/live'))).recebido.toString()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers CONNECT (a proxy tunnel, outside the routes) with 405 and an Erro, where Node closed the connection unanswered', async () => {
    const porta = await apiEscutando({ requisicaoMs: 10_000, verificacaoMs: 100, inatividadeMs: 10_000 });
    const resposta = (await conversar(porta, 'CONNECT exemplo.com:443 HTTP/1.1\r\nHost: exemplo.com:443\r\n\r\n')).recebido.toString();
    expect(resposta).toMatch(/^HTTP\/1\.1 405 /);
    expect(resposta).toMatch(/^Allow: GET$/im);
    expect(JSON.parse(resposta.slice(resposta.indexOf('\r\n\r\n') + 4))).toEqual({ mensagem: expect.stringContaining('CONNECT') });
  });

  it('keeps a client that sends and reads at a normal pace', async () => {
    const porta = await apiEscutando({ requisicaoMs: 600, verificacaoMs: 100, inatividadeMs: 300 });
    const { recebido } = await conversar(porta, 'GET /health/live HTTP/1.1\r\nHost: api\r\nConnection: close\r\n\r\n');
    expect(recebido.toString()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('a stop', () => {
  it('answers the requests in flight, each with Connection: close, and ends without waiting for their keep-alive', async () => {
    const projecao = criarProjecao();
    const [id] = idsOrdenados(1);
    projecao.aplicar([imovelSalvo(id!, 1)], Date.now());
    // Requests wait at the gate (the limiter) while `portao` is shut.
    let portao = Promise.resolve();
    let abrir = (): void => {};
    let chegados = 0;
    const local = new LimitadorLocal({ limite: 1_000 });
    const limitador: Limitador = {
      limite: local.limite,
      tentar: async (chave) => {
        chegados++;
        await portao;
        return local.tentar(chave);
      },
      close: () => local.close(),
    };
    // A short drain, over before the requests are let through: they are not closed for it.
    const api = await criarApi({ leitor: projecao.abrirLeitor(), limitador, config: { prazos: { drenagemMs: 50 } } });
    limpar.push(() => projecao.remover(), () => abrir());
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.app.server.address() as { port: number };
    const agente = new Agent({ keepAlive: true, maxSockets: 3 });
    limpar.push(() => agente.destroy());
    const pedir = () =>
      new Promise<{ status: number; conexao: string | undefined; corpo: string }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: `/api/v1/imoveis/${id}`, agent: agente, headers: { authorization: `Bearer ${api.token}` } }, (r: IncomingMessage) => {
          let corpo = '';
          r.on('data', (pedaco: Buffer) => (corpo += pedaco.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, conexao: r.headers.connection, corpo }));
        }).on('error', reject);
      });
    // Three connections, kept alive after a first answer as a partner's client keeps them; then a
    // request in flight on each when the stop begins.
    expect((await Promise.all([pedir(), pedir(), pedir()])).map((r) => r.conexao)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
    portao = new Promise((resolve) => (abrir = resolve));
    const antes = chegados;
    const emVoo = [pedir(), pedir(), pedir()];
    await expect.poll(() => chegados - antes, { timeout: 5_000 }).toBe(3);

    const inicio = performance.now();
    const parado = api.fechar();
    await new Promise((resolve) => setTimeout(resolve, 300));
    abrir();
    const respostas = await Promise.all(emVoo);
    expect(respostas.map((r) => [r.status, r.conexao])).toEqual([
      [200, 'close'],
      [200, 'close'],
      [200, 'close'],
    ]);
    expect(JSON.parse(respostas[0]!.corpo)).toMatchObject({ id });
    await parado;
    // Not the keep-alive timeout (72 s): at once.
    expect(performance.now() - inicio).toBeLessThan(3_000);
  });

  it('closes a connection on which no request began, or only half of one, rather than waiting for its request deadline', async () => {
    const projecao = criarProjecao();
    const api = await criarApi({ leitor: projecao.abrirLeitor() });
    limpar.push(() => projecao.remover());
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.app.server.address() as { port: number };
    const abrir = (envio: string) =>
      new Promise<Socket>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port }, () => {
          if (envio !== '') socket.write(envio);
          resolve(socket);
        });
        socket.on('error', () => {});
      });
    const mudas = [await abrir(''), await abrir('GET /api/v1/imoveis HTTP/1.1\r\nHost: api\r\n')];
    limpar.push(() => mudas.forEach((s) => s.destroy()));
    const fechadas = mudas.map((s) => new Promise((resolve) => s.once('close', resolve)));
    // Connected before the stop, seen by the server.
    await expect.poll(() => new Promise((resolve) => api.app.server.getConnections((_e, n) => resolve(n))), { timeout: 5_000 }).toBe(2);

    const inicio = performance.now();
    await api.fechar();
    await Promise.all(fechadas);
    // The drain (half a second), not the 10 s request deadline.
    expect(performance.now() - inicio).toBeLessThan(3_000);
  });

  it('sends a large answer whole to a client still reading it when the drain ends', async () => {
    const projecao = criarProjecao();
    // A page of 200 large documents: about 16 MB, more than the sockets' buffers take.
    projecao.aplicar(idsOrdenados(200).map((id) => imovelSalvo(id, 1, { descricao_html: 'palavra '.repeat(10_000) })), Date.now());
    const api = await criarApi({ leitor: projecao.abrirLeitor(), config: { prazos: { drenagemMs: 50 } } });
    limpar.push(() => projecao.remover());
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.app.server.address() as { port: number };
    const partes: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port });
    limpar.push(() => void socket.destroy());
    socket.on('data', (pedaco: Buffer) => partes.push(pedaco));
    const fechada = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    // A client that reads nothing for a while: the answer, ended, waits in the server's buffers.
    socket.pause();
    socket.write(`GET /api/v1/imoveis?por_pagina=200 HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${api.token}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const parado = api.fechar();
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.resume();
    await fechada;
    await parado;
    const recebido = Buffer.concat(partes);
    const fimDosCabecalhos = recebido.indexOf('\r\n\r\n');
    const tamanho = Number(/content-length: (\d+)/i.exec(recebido.subarray(0, fimDosCabecalhos).toString())?.[1]);
    expect(tamanho).toBeGreaterThan(10_000_000);
    // Before: Node's server.close() took the ended answer's connection for an idle one, and cut it.
    expect(recebido.length - fimDosCabecalhos - 4).toBe(tamanho);
  });

  it('cuts an answer its client stopped reading once the sending time after the stop is over, so the stop ends within its grace', async () => {
    const projecao = criarProjecao();
    projecao.aplicar(idsOrdenados(200).map((id) => imovelSalvo(id, 1, { descricao_html: 'palavra '.repeat(10_000) })), Date.now());
    const api = await criarApi({ leitor: projecao.abrirLeitor(), config: { prazos: { drenagemMs: 50, envioAposParadaMs: 500 } } });
    limpar.push(() => projecao.remover());
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.app.server.address() as { port: number };
    const socket = connect({ host: '127.0.0.1', port });
    limpar.push(() => void socket.destroy());
    socket.on('error', () => {});
    // Never reads: the answer waits in the server's buffers.
    socket.pause();
    socket.write(`GET /api/v1/imoveis?por_pagina=200 HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${api.token}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const inicio = performance.now();
    await api.fechar();
    // Before: held until the connection's inactivity deadline (60 s), past the process's 10 s.
    expect(performance.now() - inicio).toBeLessThan(3_000);
    expect(api.logs.some((l) => l.includes('cortadas'))).toBe(true);
  });

  it('answers a request sent on a kept-alive connection just after the stop began, rather than dropping it unread', async () => {
    const projecao = criarProjecao();
    const [id] = idsOrdenados(1);
    projecao.aplicar([imovelSalvo(id!, 1)], Date.now());
    const api = await criarApi({ leitor: projecao.abrirLeitor() });
    limpar.push(() => projecao.remover());
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = api.app.server.address() as { port: number };
    const agente = new Agent({ keepAlive: true, maxSockets: 1 });
    limpar.push(() => agente.destroy());
    const pedir = () =>
      new Promise<{ status: number; conexao: string | undefined }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: `/api/v1/imoveis/${id}`, agent: agente, headers: { authorization: `Bearer ${api.token}` } }, (r: IncomingMessage) => {
          r.resume();
          r.on('end', () => resolve({ status: r.statusCode ?? 0, conexao: r.headers.connection }));
        }).on('error', reject);
      });
    expect(await pedir()).toEqual({ status: 200, conexao: 'keep-alive' });
    // The stop begins while the client, which knows nothing of it yet, sends its next request.
    const parado = api.fechar();
    expect(await pedir()).toEqual({ status: 200, conexao: 'close' });
    await parado;
  });
});
