// Health, readiness, overload and metrics: ready only with a projection whose projector has
// confirmed being caught up within the allowed lag and a process not under pressure; 503 with
// an Erro and Retry-After instead of queuing; 500 for a temporary failure; metrics by route and
// status, limiter and freshness.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Database, EscritorProjecao, LeitorSqlite, type LeitorProjecao } from '../../packages/projection-store/src/index.ts';
import { FOTOS, imovelSalvo, prepararEAplicarTransacao } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { FonteReabrivel, examinarProjecaoAoIniciar, type FonteProjecao } from '../../services/api/src/index.ts';
import { sqliteTemporario } from '../helpers.ts';
import { criarApi, criarProjecao, idsOrdenados, type ApiDeTeste } from './api-suporte.ts';

const AGORA = Date.parse('2026-11-21T12:00:00.000Z');
const limpar: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of limpar.splice(0).reverse()) await f();
});

async function apiCom(opcoes: { emDiaEm: number | null; agora?: number; ultimoEvento?: number; pressao?: { maxHeapUsedBytes: number; intervaloAmostraMs: number } }): Promise<ApiDeTeste> {
  const projecao = criarProjecao();
  projecao.aplicar(idsOrdenados(2).map((id) => imovelSalvo(id, 1)), opcoes.ultimoEvento ?? AGORA - 3_600_000);
  projecao.emDia(opcoes.emDiaEm, opcoes.emDiaEm ?? AGORA);
  const agora = opcoes.agora ?? AGORA;
  const api = await criarApi({
    leitor: projecao.abrirLeitor(),
    agora: () => agora,
    ...(opcoes.pressao ? { config: { pressao: opcoes.pressao } } : {}),
  });
  limpar.push(() => projecao.remover(), () => api.fechar());
  return api;
}

const pronto = async (api: ApiDeTeste): Promise<{ status: number; corpo: { pronto: boolean; motivos: string[] } }> => {
  const r = await api.app.inject({ method: 'GET', url: '/health/ready' });
  return { status: r.statusCode, corpo: JSON.parse(r.body) as { pronto: boolean; motivos: string[] } };
};

describe('/health/live and /health/ready', () => {
  it('is live and ready, without a credential, when the projector confirmed it was caught up within the allowed lag', async () => {
    const api = await apiCom({ emDiaEm: AGORA - 59_000 });
    const vivo = await api.app.inject({ method: 'GET', url: '/health/live' });
    expect([vivo.statusCode, vivo.json()]).toEqual([200, { vivo: true }]);
    expect(await pronto(api)).toEqual({ status: 200, corpo: expect.objectContaining({ pronto: true, motivos: [] }) });
  });

  it('logs probes and scrapes at debug, a failed one and partners\' requests at info', async () => {
    const api = await apiCom({ emDiaEm: null });
    const urls = ['/health/live', '/metrics', '/health/ready', '/api/v1/imoveis'];
    for (const url of urls) await api.app.inject({ method: 'GET', url });
    const niveis = api.logs
      .map((linha) => JSON.parse(linha) as { level: number; msg: string; req?: { url: string }; res?: { statusCode: number } })
      .filter((l) => l.msg === 'requisição atendida' && urls.includes(l.req?.url ?? ''))
      .map((l) => [l.req?.url, l.res?.statusCode, l.level]);
    // Never caught up: not ready (503); the listing without a credential: 401.
    expect(niveis).toEqual([
      ['/health/live', 200, 20],
      ['/metrics', 200, 20],
      ['/health/ready', 503, 30],
      ['/api/v1/imoveis', 401, 30],
    ]);
  });

  it('stays ready over a quiet register with no new events, as long as the projector keeps confirming', async () => {
    const api = await apiCom({ emDiaEm: AGORA - 1_000, ultimoEvento: AGORA - 7 * 24 * 3_600_000 });
    expect((await pronto(api)).status).toBe(200);
  });

  it('is not ready when the projector last confirmed longer ago than the allowed lag', async () => {
    const api = await apiCom({ emDiaEm: AGORA - 61_000 });
    const { status, corpo } = await pronto(api);
    expect(status).toBe(503);
    expect(corpo.motivos.join()).toContain('atrasada');
  });

  it('is not ready while the projector has never caught up, and its metrics call the projection infinitely old', async () => {
    const api = await apiCom({ emDiaEm: null });
    expect((await pronto(api)).status).toBe(503);
    expect((await api.get('/metrics', { token: null })).body).toMatch(/^projecao_idade_segundos \+Inf$/m);
  });

  it("is not ready, and answers partners the contract's 500 (temporary failure; 503 where the contract lists no 500) with an Erro and Retry-After, while the projection is missing; becomes ready once it appears", async () => {
    const arquivo = sqliteTemporario();
    limpar.push(() => arquivo.remover());
    const fonte = new FonteReabrivel(arquivo.caminho, { intervaloMs: 20 });
    limpar.push(() => fonte.close());
    const api = await criarApi({ leitor: fonte, agora: () => AGORA });
    limpar.push(() => api.fechar());

    const { status, corpo } = await pronto(api);
    expect(status).toBe(503);
    expect(corpo.motivos).toContain('projeção ausente');
    // Unknown is neither fresh nor caught up: an alert on the age fires, one on the lag stays quiet.
    const metricas = (await api.get('/metrics', { token: null })).body;
    expect(metricas).toMatch(/^projecao_idade_segundos \+Inf$/m);
    expect(metricas).toMatch(/^projecao_atraso_mensagens nan$/im); // prom-client writes "Nan", which Prometheus reads
    const r = await api.get('/api/v1/imoveis');
    expect(r.statusCode).toBe(500);
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
    const { mensagem } = JSON.parse(r.body) as { mensagem: string };
    expect(mensagem).toEqual(expect.any(String));
    for (const url of [`/api/v1/imoveis/${idsOrdenados(1)[0]!}`, '/api/v1/imoveis/removidos?desde=2026-11-21T00:00:00Z']) {
      const semProjecao = await api.get(url);
      expect(semProjecao.statusCode, url).toBe(503);
      expect(semProjecao.headers['retry-after'], url).toMatch(/^[1-9]\d*$/);
      expect(JSON.parse(semProjecao.body), url).toEqual({ mensagem });
    }

    const escritor = EscritorProjecao.abrir(arquivo.caminho);
    limpar.push(() => {
      escritor.db.close();
    });
    escritor.registrarFrescor({ emDiaEm: AGORA, registradoEm: AGORA, atraso: 0 });
    await expect.poll(async () => (await pronto(api)).status, { timeout: 5_000, interval: 25 }).toBe(200);
    expect((await api.get('/api/v1/imoveis')).statusCode).toBe(200);
  });
});

describe('the projection file', () => {
  it('is followed when deleted and made anew (a replay from the topics): the new one is served, never the old', async () => {
    const arquivo = sqliteTemporario();
    limpar.push(() => arquivo.remover());
    const fazer = (ids: string[]) => {
      const escritor = EscritorProjecao.abrir(arquivo.caminho);
      prepararEAplicarTransacao(escritor, { eventos: ids.map((id) => imovelSalvo(id, 1)), offsets: [] }, { fotosBaseUrl: FOTOS }, () => AGORA);
      escritor.registrarFrescor({ emDiaEm: AGORA, registradoEm: AGORA, atraso: 0 });
      escritor.close();
    };
    const apagar = () => {
      for (const sufixo of ['', '-wal', '-shm']) rmSync(arquivo.caminho + sufixo, { force: true });
    };
    const antigos = idsOrdenados(2);
    fazer(antigos);
    let reaberturas = 0;
    const fonte = new FonteReabrivel(arquivo.caminho, { intervaloMs: 20, aoReabrir: () => void reaberturas++ });
    limpar.push(() => fonte.close());
    const api = await criarApi({ leitor: fonte, agora: () => AGORA });
    limpar.push(() => api.fechar());
    const ids = async () => {
      const r = await api.get('/api/v1/imoveis');
      return r.statusCode === 200 ? (JSON.parse(r.body) as { dados: { id: string }[] }).dados.map((i) => i.id) : r.statusCode;
    };
    expect(await ids()).toEqual(antigos);

    // Deleted: not served from the file the API still holds open.
    apagar();
    await expect.poll(ids, { timeout: 5_000, interval: 25 }).toBe(500);
    expect((await pronto(api)).corpo.motivos).toContain('projeção ausente');

    // Made anew at the same path.
    const novo = idsOrdenados(1);
    fazer(novo);
    await expect.poll(ids, { timeout: 5_000, interval: 25 }).toEqual(novo);
    expect(reaberturas).toBe(1);

    // Replaced while open, without a moment of absence (a rename over it).
    const outro = idsOrdenados(3);
    const substituto = sqliteTemporario();
    limpar.push(() => substituto.remover());
    const escritor = EscritorProjecao.abrir(substituto.caminho);
    prepararEAplicarTransacao(escritor, { eventos: outro.map((id) => imovelSalvo(id, 1)), offsets: [] }, { fotosBaseUrl: FOTOS }, () => AGORA);
    escritor.checkpoint();
    escritor.close();
    renameSync(substituto.caminho, arquivo.caminho);
    await expect.poll(ids, { timeout: 5_000, interval: 25 }).toEqual(outro);
    expect(reaberturas).toBe(2);
  });

  it('is refused, as on opening, once a newer projector migrates it in place: not served, not ready, until its schema is this code\'s again', async () => {
    const projecao = criarProjecao();
    limpar.push(() => projecao.remover());
    const todos = idsOrdenados(2);
    projecao.aplicar(todos.map((id) => imovelSalvo(id, 1)), AGORA);
    projecao.emDia(AGORA);
    const caminho = projecao.arquivo.caminho;
    const fonte = new FonteReabrivel(caminho, { intervaloMs: 20 });
    limpar.push(() => fonte.close());
    const api = await criarApi({ leitor: fonte, agora: () => AGORA });
    limpar.push(() => api.fechar());
    const status = async () => (await api.get('/api/v1/imoveis')).statusCode;
    expect(await status()).toBe(200);

    // What a newer projector's migration leaves: the same file, a later user_version.
    const versao = (v?: number) => {
      const db = new Database(caminho);
      try {
        if (v === undefined) return db.pragma('user_version', { simple: true }) as number;
        db.pragma(`user_version = ${v}`);
        return v;
      } finally {
        db.close();
      }
    };
    const deste = versao();
    versao(deste + 1);
    await expect.poll(status, { timeout: 5_000, interval: 25 }).toBe(500);
    expect((await pronto(api)).status).toBe(503);

    versao(deste);
    await expect.poll(status, { timeout: 5_000, interval: 25 }).toBe(200);
    expect((JSON.parse((await api.get('/api/v1/imoveis')).body) as { dados: { id: string }[] }).dados.map((i) => i.id)).toEqual(todos);
  });
});

describe('an unexpected failure', () => {
  it('answers 500 with an Erro that shows nothing of the failure, logs it as an error (documented for /imoveis only, as the contract says), and is not ready', async () => {
    const falha = new Error('SQLITE_IOERR: /srv/segredo/projecao.db');
    const api = await criarApi({
      leitor: {
        atual: () => {
          throw falha;
        },
        close: () => {},
      },
      agora: () => AGORA,
    });
    limpar.push(() => api.fechar());
    const semDocumentar = (url: string) => api.app.inject({ url, headers: { authorization: `Bearer ${api.token}` } });
    for (const url of ['/api/v1/imoveis', `/api/v1/imoveis/${idsOrdenados(1)[0]!}`, '/api/v1/imoveis/removidos?desde=2026-11-21T00:00:00Z']) {
      // A defect of ours is a 500 on any operation; only /imoveis documents it (the others are not checked against the document).
      const r = url === '/api/v1/imoveis' ? await api.get(url) : await semDocumentar(url);
      expect(r.statusCode, url).toBe(500);
      expect(JSON.parse(r.body), url).toEqual({ mensagem: 'falha temporária; tente novamente' });
      expect(r.headers['retry-after'], url).toBeUndefined();
    }
    // Not ready, and said in the log too, not taken silently for a projection not made yet.
    const pronto = await api.app.inject({ url: '/health/ready' });
    expect(pronto.statusCode).toBe(503);
    const erros = api.logs.map((linha) => JSON.parse(linha) as { level: number; err?: { message: string } }).filter((l) => l.level === 50);
    expect(erros).toHaveLength(4);
    for (const erro of erros) expect(erro.err?.message).toBe(falha.message);
  });
});

describe('under pressure', () => {
  it('answers partners 503 with an Erro and Retry-After instead of queuing, and reports not ready, while live and metrics still answer', async () => {
    const api = await apiCom({ emDiaEm: AGORA, pressao: { maxHeapUsedBytes: 1, intervaloAmostraMs: 10 } });
    await expect.poll(async () => (await api.get('/api/v1/imoveis')).statusCode, { timeout: 5_000, interval: 20 }).toBe(503);
    const r = await api.get('/api/v1/imoveis');
    expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(r.headers['ratelimit']).toMatch(/^"credencial";r=\d+;t=\d+$/);
    expect(JSON.parse(r.body)).toEqual({ mensagem: expect.stringContaining('sobrecarregado') });
    const { status, corpo } = await pronto(api);
    expect(status).toBe(503);
    expect(corpo.motivos).toContain('processo sob pressão');
    expect((await api.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await api.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });
});

describe('/metrics', () => {
  it('exposes request counts and latency by route and status, 429s, limiter fallbacks and projection freshness', async () => {
    const api = await apiCom({ emDiaEm: AGORA - 30_000 });
    await api.get('/api/v1/imoveis');
    await api.get('/api/v1/imoveis');
    await api.get('/api/v1/imoveis?por_pagina=0');
    await api.get('/api/v1/nada');
    await api.get('/api/v1/imoveis/removidos?desde=2026-11-21T00:00:00Z', { metodo: 'DELETE' });
    await api.get(`/api/v1/imoveis/${idsOrdenados(1)[0]!}`, { metodo: 'POST' });
    await api.get('/api/v1/imoveis', { metodo: 'PUT', token: null });
    const r = await api.app.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/plain');
    const texto = r.body;
    expect(texto).toContain('http_requisicoes_total{rota="/api/v1/imoveis",metodo="GET",status="200"} 2');
    expect(texto).toContain('http_requisicoes_total{rota="/api/v1/imoveis",metodo="GET",status="400"} 1');
    expect(texto).toContain('http_requisicoes_total{rota="nao-encontrada",metodo="GET",status="404"} 1');
    // Another method than GET matches no route (only GET is routed) yet counts under the route of its path.
    expect(texto).toContain('http_requisicoes_total{rota="/api/v1/imoveis/removidos",metodo="DELETE",status="405"} 1');
    expect(texto).toContain('http_requisicoes_total{rota="/api/v1/imoveis/:id",metodo="POST",status="405"} 1');
    // …and so does the 401 the gate answers before the 405.
    expect(texto).toContain('http_requisicoes_total{rota="/api/v1/imoveis",metodo="PUT",status="401"} 1');
    expect(texto).toContain('http_duracao_segundos_count{rota="/api/v1/imoveis",metodo="GET",status="200"} 2');
    expect(texto).toContain('# TYPE limite_recusas_total counter');
    expect(texto).toContain('limitador_decisoes_reserva_total 0');
    expect(texto).toContain('projecao_idade_segundos 30');
  });

  it('makes its text at most once a second, however often it is asked for (it needs no credential)', async () => {
    const api = await apiCom({ emDiaEm: AGORA - 30_000 });
    const feitas = vi.spyOn(api.metricas.registry, 'metrics');
    const respostas = await Promise.all(Array.from({ length: 20 }, () => api.app.inject({ method: 'GET', url: '/metrics' })));
    expect(respostas.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(new Set(respostas.map((r) => r.body)).size).toBe(1);
    expect(feitas).toHaveBeenCalledTimes(1);
    expect(respostas[0]!.headers['content-encoding']).toBeUndefined();
    // A second later, the next scrape sees what happened meanwhile.
    await api.get('/api/v1/imoveis');
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const depois = await api.app.inject({ method: 'GET', url: '/metrics', headers: { 'accept-encoding': 'gzip' } });
    expect(depois.headers['content-encoding']).toBeUndefined();
    expect(depois.body).toContain('http_requisicoes_total{rota="/api/v1/imoveis",metodo="GET",status="200"} 1');
    expect(feitas).toHaveBeenCalledTimes(2);
  });
});

describe('the projection at start', () => {
  it('refuses a path that can never hold one, waits for one not there or not usable yet, and serves one that is', () => {
    const arquivo = sqliteTemporario();
    limpar.push(() => arquivo.remover());
    const examinar = (caminho: string) => {
      const fonte = new FonteReabrivel(caminho);
      try {
        return examinarProjecaoAoIniciar(caminho, fonte);
      } finally {
        fonte.close();
      }
    };
    expect(examinar(arquivo.caminho)).toMatchObject({ tipo: 'aguardada', aviso: expect.stringContaining('projeção ainda ausente') });
    expect(examinar(arquivo.dir)).toEqual({ tipo: 'recusada', motivo: `${arquivo.dir} existe e não é um arquivo` });

    writeFileSync(arquivo.caminho, 'não é um banco SQLite, e nunca será uma projeção');
    expect(examinar(arquivo.caminho)).toEqual({ tipo: 'recusada', motivo: `${arquivo.caminho} não é uma projeção (SQLITE_NOTADB)` });
    expect(examinar(join(arquivo.caminho, 'projecao.db'))).toEqual({ tipo: 'recusada', motivo: `${join(arquivo.caminho, 'projecao.db')}: uma das pastas do caminho é um arquivo` });
    rmSync(arquivo.caminho);

    const alheio = new Database(arquivo.caminho);
    alheio.exec('CREATE TABLE clientes (id INTEGER PRIMARY KEY)');
    alheio.close();
    expect(examinar(arquivo.caminho)).toEqual({ tipo: 'recusada', motivo: `${arquivo.caminho} guarda clientes, de outro banco, e nenhuma projeção` });
    rmSync(arquivo.caminho);

    const demo = EscritorProjecao.abrir(arquivo.caminho, { daDemo: true });
    demo.gravarEstado('demo', 1);
    demo.close();
    expect(examinar(arquivo.caminho)).toMatchObject({ tipo: 'recusada', motivo: expect.stringContaining('demonstração') });
    rmSync(arquivo.caminho);

    EscritorProjecao.abrir(arquivo.caminho).close();
    expect(examinar(arquivo.caminho)).toEqual({ tipo: 'servida' });
  });
});

describe('a projection whose file fails a read', () => {
  it('is opened again after a failed read at most once per interval, as a failed opening is tried', () => {
    const projecao = criarProjecao();
    limpar.push(() => projecao.remover());
    let agora = 0;
    let aberturas = 0;
    const fonte = new FonteReabrivel(projecao.arquivo.caminho, {
      intervaloMs: 1_000,
      agora: () => agora,
      abrir: (caminho) => (aberturas++, LeitorSqlite.abrir(caminho)),
    });
    limpar.push(() => fonte.close());
    const primeiro = fonte.atual();
    fonte.falhouAoLer();
    expect(fonte.atual()).toBe(primeiro);
    agora = 1_000;
    fonte.falhouAoLer();
    expect(fonte.atual()).not.toBe(primeiro);
    expect(aberturas).toBe(2);
  });

  it("answers the contract's temporary failure, is not ready for 30 s, counts it and says it once, and opens the reader again", async () => {
    const projecao = criarProjecao();
    const [id] = idsOrdenados(1) as [string];
    projecao.aplicar([imovelSalvo(id, 1)], AGORA - 3_600_000);
    projecao.emDia(AGORA - 1_000, AGORA);
    const real = projecao.abrirLeitor();
    // What SQLite answers for a damaged page; the freshness record still reads (another page).
    const corrompido = new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
    let falhar = true;
    const leitor = new Proxy(real, {
      get(alvo, nome) {
        const valor: unknown = Reflect.get(alvo, nome);
        if (typeof valor !== 'function') return valor;
        // On the reader itself: its private fields are not the proxy's.
        if (!['listarAnunciados', 'listarAlterados', 'obterAnunciado', 'listarRemovidos'].includes(String(nome))) return (valor as () => unknown).bind(alvo);
        return (...args: unknown[]) => {
          if (falhar) throw corrompido;
          return (valor as (...a: unknown[]) => unknown).apply(alvo, args);
        };
      },
    }) as LeitorProjecao;
    let reaberturas = 0;
    const fonte: FonteProjecao = { atual: () => leitor, falhouAoLer: () => void reaberturas++, close: () => real.close() };
    let agora = AGORA;
    const api = await criarApi({ leitor: fonte, agora: () => agora });
    limpar.push(() => projecao.remover(), () => api.fechar());
    expect((await pronto(api)).status).toBe(200);

    // Before: a plain 500 without Retry-After on all three, and ready all along.
    const lista = await api.get('/api/v1/imoveis');
    expect([lista.statusCode, lista.headers['retry-after']]).toEqual([500, '5']);
    for (const url of [`/api/v1/imoveis/${id}`, '/api/v1/imoveis/removidos?desde=2026-11-21T00:00:00Z']) {
      const r = await api.get(url);
      expect([r.statusCode, r.headers['retry-after']], url).toEqual([503, '5']);
    }
    expect(reaberturas).toBe(3);
    const { status, corpo } = await pronto(api);
    expect(status).toBe(503);
    expect(corpo.motivos).toEqual(['leitura da projeção falhou há menos de 30 s']);
    expect((await api.get('/metrics', { token: null })).body).toMatch(/^projecao_falhas_de_leitura_total 3$/m);
    expect(api.logs.filter((l) => l.includes('falha ao ler a projeção')).length).toBe(1);

    falhar = false;
    agora += 30_000;
    expect((await pronto(api)).status).toBe(200);
    expect((await api.get('/api/v1/imoveis')).statusCode).toBe(200);
  });
});
