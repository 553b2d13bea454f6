// pnpm run rebuild: a projection replayed from the topics beside the live one is switched in while
// the live projector and a reader keep running; only what differs moves its timestamps.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { criarClienteKafka, textoDoCabecalho } from '@imoveis/kafka';
import { Database, EscritorProjecao, LeitorSqlite } from '@imoveis/projection-store';
import { itensDaPagina, itensRemovidos } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { ReconstrucaoInterrompida, ReconstrucaoSemImoveis, criarProjetor, prefixoDosGruposDeReconstrucao, reconstruir, topicoDlq, type OpcoesReconstrucao } from '@imoveis/projector';
import { ler, nomeUnico, sqliteTemporario, type SqliteTemporario } from '../helpers.ts';
import { comandoServico } from '../infra/construir.ts';
import { portasLivres } from '../infra/processo-servico.ts';

const RAIZ = fileURLToPath(new URL('../../', import.meta.url));

const silencioso = pino({ level: 'silent' });
const kafka = criarClienteKafka({ brokers: inject('kafkaBrokers'), clientId: nomeUnico('reconstrucao') });
const topicos = { imoveis: nomeUnico('imoveis'), condominios: nomeUnico('condominios') };
const banco = sqliteTemporario();

/** `reconstruir` as the tests run it: the shared broker, photos on their new address, silent. */
const reconstruirDe = (caminhoLive: string, topicosDe: { imoveis: string; condominios: string }, extra: Partial<OpcoesReconstrucao> = {}) =>
  reconstruir({
    kafka,
    caminhoLive,
    contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' },
    grupoDoProjetor: nomeUnico('live'),
    topicos: topicosDe,
    log: silencioso,
    intervaloMs: 200,
    ...extra,
  });

/** `pnpm run rebuild` as an operator runs it: the built entry point, its settings from the environment. */
const rebuildComoOperador = (caminhoLive: string, topicosDe: { imoveis: string; condominios: string }) =>
  spawnSync(...comandoServico('projector', 'rebuild.js'), {
    cwd: RAIZ,
    env: {
      ...process.env,
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      IMOVEIS_TOPIC: topicosDe.imoveis,
      CONDOMINIOS_TOPIC: topicosDe.condominios,
      DATABASE_PATH: caminhoLive,
      PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br',
      LOG_LEVEL: 'error',
    },
    encoding: 'utf8',
    timeout: 120_000,
  });

/** Every listed item of the projection (10 here: one page), by id. */
const porId = (leitor: LeitorSqlite) =>
  new Map(itensDaPagina(leitor.listarAlterados({ desdeMs: 0, aposId: null, limite: 50 })).map((i) => [i.id, i as { id: string; atualizado_em: string; fotos: { url: string }[] }]));
afterAll(async () => {
  await kafka.close();
  banco.remover();
});

const evento = (tipo: string, versao: number, dados: object) =>
  JSON.stringify({ evento_id: randomUUID(), tipo, versao_schema: 1, ocorrido_em: '2026-11-21T10:00:00.000-03:00', versao, dados });
const imovel = (id: string, versao: number, comFoto: boolean) =>
  evento('imovel.salvo', versao, {
    id,
    codigo: `CA${id.slice(0, 4)}`,
    ativo: true,
    publicar_no_site: true,
    situacao: 'Disponível',
    endereco: { exibicao: 'completo', logradouro: 'Rua B', cidade: 'Recife', uf: 'PE' },
    valores: { venda: 300_000, preco_sob_consulta: false },
    finalidade: 'Venda',
    caracteristicas: [],
    fotos: comFoto ? [{ arquivo: `imoveis/${id}/1.jpg`, ordem: 1, principal: true, publica: true }] : [],
  });

describe('rebuild', () => {
  it('switches in the rebuilt projection, keeping the timestamps of what came out identical', async () => {
    await kafka.criarTopicos([
      { nome: topicos.imoveis, particoes: 2, compactado: true },
      { nome: topicos.condominios, particoes: 1, compactado: true },
    ]);
    const comFoto = Array.from({ length: 5 }, () => randomUUID());
    const semFoto = Array.from({ length: 5 }, () => randomUUID());
    const apagado = randomUUID();
    const produtor = await kafka.criarProdutor();
    await produtor.enviar(topicos.imoveis, [
      ...comFoto.map((id) => ({ key: id, value: imovel(id, 1, true) })),
      ...semFoto.map((id) => ({ key: id, value: imovel(id, 1, false) })),
      { key: apagado, value: imovel(apagado, 1, false) },
      { key: apagado, value: evento('imovel.excluido', 2, { id: apagado, codigo: 'X1' }) },
      // Poison: sent to the dead letters by the live projector, and not again by the rebuild.
      { key: apagado, value: 'não é json' },
      { key: apagado, value: evento('imovel.salvo', 3, { id: apagado }) },
    ]);

    // The live projector, photos on the old address; its log lines are kept.
    const linhasLive: string[] = [];
    const logLive = pino({ level: 'info' }, { write: (linha: string) => void linhasLive.push(linha) });
    const escritor = EscritorProjecao.abrir(banco.caminho);
    const live = criarProjetor({
      kafka,
      escritor,
      contexto: { fotosBaseUrl: 'https://fotos-antigas.exemplo.com.br' },
      groupId: nomeUnico('live'),
      topicos,
      log: logLive,
      intervaloFrescorMs: 200,
      aoFalhar: (erro) => {
        throw erro;
      },
    });
    await live.iniciar();
    const leitor = LeitorSqlite.abrir(banco.caminho);
    try {
      await expect.poll(() => leitor.listarAnunciados({ aposId: null, limite: 50 }).total, { timeout: 30_000 }).toBe(10);
      await expect.poll(() => kafka.lerTopico(topicoDlq(topicos.imoveis), () => {}), { timeout: 30_000 }).toBe(2);
      const antes = porId(leitor);
      const removidoAntes = itensRemovidos(leitor, 0);

      // The rebuild, with the photos' new address: the reason to rebuild.
      // An earlier rebuild of this projector, interrupted, left its group (with offsets) behind.
      const grupoDoProjetor = nomeUnico('live');
      const grupos = prefixoDosGruposDeReconstrucao(grupoDoProjetor);
      const abandonado = kafka.criarConsumidor({
        groupId: `${grupos}1`,
        topicos: [topicos.imoveis],
        aoAtribuir: () => new Map(),
        aoLote: async (lote) => abandonado.commit([{ topico: lote.topico, particao: lote.particao, proximoOffset: '1' }]),
        aoFalhar: () => {},
      });
      await abandonado.iniciar();
      await expect.poll(async () => [...(await kafka.offsetsDoGrupo(`${grupos}1`, topicos.imoveis)).values()].includes('1'), { timeout: 15_000 }).toBe(true);
      await abandonado.close();
      expect(await kafka.grupos(grupos)).toEqual([{ id: `${grupos}1`, estado: 'Empty' }]);
      const rebuild = () => reconstruirDe(banco.caminho, topicos, { grupoDoProjetor });
      // Started twice at once: the second is refused before it touches the first's file.
      const [primeira, segunda] = await Promise.allSettled([rebuild(), rebuild()]);
      expect(segunda).toMatchObject({ status: 'rejected', reason: { code: 'ARQUIVO_TRAVADO' } });
      if (primeira.status === 'rejected') throw primeira.reason;
      const resumo = primeira.value;
      expect(resumo).toMatchObject({ imoveis: 10, mantidos: 5, alterados: 5, removidosNovos: 0, geracao: 1 });
      // Its consumer group is gone from the broker, and so is the one left behind before.
      expect(await kafka.grupos(grupos)).toEqual([]);
      const motivos: string[] = [];
      await kafka.lerTopico(topicoDlq(topicos.imoveis), (m) => void motivos.push(textoDoCabecalho(m.headers, 'dlq.motivo')!));
      expect(motivos.sort()).toEqual(['contrato-invalido', 'json-invalido']);

      // The reader opened before the switch sees the new content, without reopening.
      const depois = porId(leitor);
      for (const id of semFoto) expect(depois.get(id)).toEqual(antes.get(id));
      for (const id of comFoto) {
        expect(depois.get(id)?.fotos[0]?.url).toMatch(/^https:\/\/fotos\.exemplo\.com\.br\//);
        expect(depois.get(id)?.atualizado_em).toBe(new Date(resumo.instante).toISOString());
      }
      expect(leitor.listarAlterados({ desdeMs: resumo.instante, aposId: null, limite: 50 }).total).toBe(5);
      expect(itensRemovidos(leitor, 0)).toEqual(removidoAntes);

      // The live projector follows the switch, with no new event to tell it (its freshness timer
      // does), and goes on from the rebuilt offsets.
      await expect.poll(() => linhasLive.some((l) => l.includes('reposicionando o consumidor')), { timeout: 15_000 }).toBe(true);
      const novo = randomUUID();
      await produtor.enviar(topicos.imoveis, [{ key: novo, value: imovel(novo, 1, true) }]);
      await expect.poll(() => leitor.obterAnunciado(novo) !== null, { timeout: 30_000 }).toBe(true);
      expect(leitor.listarAnunciados({ aposId: null, limite: 50 }).total).toBe(11);
      // It maps with its own configuration; the rebuilt documents stay as they are.
      expect(JSON.parse(leitor.obterAnunciado(novo)!.json.toString())).toMatchObject({ fotos: [{ url: expect.stringMatching(/^https:\/\/fotos-antigas\.exemplo/) }] });
      expect(JSON.parse(leitor.obterAnunciado(comFoto[0]!)!.json.toString())).toMatchObject({ fotos: [{ url: expect.stringMatching(/^https:\/\/fotos\.exemplo/) }] });
    } finally {
      leitor.close();
      await live.parar();
      await produtor.close();
      escritor.close();
    }
  });

  it('sends to the dead letters what they do not hold yet', async () => {
    const topicosNovos = { imoveis: nomeUnico('imoveis'), condominios: nomeUnico('condominios') };
    await kafka.criarTopicos([
      { nome: topicosNovos.imoveis, particoes: 1, compactado: true },
      { nome: topicosNovos.condominios, particoes: 1, compactado: true },
    ]);
    const id = randomUUID();
    const produtor = await kafka.criarProdutor();
    await produtor.enviar(topicosNovos.imoveis, [
      { key: id, value: imovel(id, 1, false) },
      { key: id, value: '{' },
    ]);
    await produtor.close();
    // No live projector ever read these topics: the rejection is nowhere yet.
    const vazio = sqliteTemporario();
    EscritorProjecao.abrir(vazio.caminho).close();
    try {
      await reconstruirDe(vazio.caminho, topicosNovos);
      const mortas: (string | undefined)[][] = [];
      await kafka.lerTopico(topicoDlq(topicosNovos.imoveis), (m) => void mortas.push([textoDoCabecalho(m.headers, 'dlq.motivo'), textoDoCabecalho(m.headers, 'dlq.offset')]));
      expect(mortas).toEqual([['json-invalido', '1']]);
    } finally {
      vazio.remover();
    }
  });

  it('runs as `pnpm run rebuild` runs it: the built entry point replays, switches and says so', async () => {
    const topicosNovos = { imoveis: nomeUnico('imoveis'), condominios: nomeUnico('condominios') };
    await kafka.criarTopicos([
      { nome: topicosNovos.imoveis, particoes: 1, compactado: true },
      { nome: topicosNovos.condominios, particoes: 1, compactado: true },
    ]);
    const ids = [randomUUID(), randomUUID()];
    const produtor = await kafka.criarProdutor();
    await produtor.enviar(topicosNovos.imoveis, ids.map((id) => ({ key: id, value: imovel(id, 1, true) })));
    await produtor.close();
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    try {
      const { status, stdout } = rebuildComoOperador(live.caminho, topicosNovos);
      expect(status).toBe(0);
      // Its summary, a line of its own (kafkajs may log a retried metadata error before it on a
      // broker that has just made the topics).
      expect(stdout).toMatch(new RegExp(`^projeção ${live.caminho} trocada: 2 imóveis, `, 'm'));
      const leitor = LeitorSqlite.abrir(live.caminho);
      try {
        expect(itensDaPagina(leitor.listarAnunciados({ aposId: null, limite: 50 })).map((i) => i.id).sort()).toEqual([...ids].sort());
      } finally {
        leitor.close();
      }
    } finally {
      live.remover();
    }
  }, 150_000);

  it('`pnpm run rebuild` refuses, naming the variable, a topic the live projection does not read while it reads another', async () => {
    const outros = await topicosCom(1);
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    // What the live projector leaves after reading both topics.
    const db = new Database(live.caminho);
    db.prepare("INSERT INTO offsets (topico, particao, proximo) VALUES (?, 0, '7'), (?, 0, '3')").run(topicos.imoveis, topicos.condominios);
    db.close();
    try {
      const { status, stdout, stderr } = rebuildComoOperador(live.caminho, { imoveis: outros.imoveis, condominios: topicos.condominios });
      expect(status).toBe(1);
      expect(stdout).toBe('');
      const vivos = [topicos.imoveis, topicos.condominios].sort().join(', ');
      expect(stderr).toBe(`configuração inválida: IMOVEIS_TOPIC: a projeção viva lê ${vivos}, não ${outros.imoveis} (${live.caminho}); uma reconstrução relê os tópicos da projeção viva: para passar a outros, mude-os antes no projetor\n`);
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
      const depois = new Database(live.caminho, { readonly: true });
      expect(depois.prepare('SELECT topico, proximo FROM offsets ORDER BY topico').all()).toHaveLength(2);
      depois.close();
    } finally {
      live.remover();
    }
  }, 90_000);

  it('refuses the topics the running projector read before a move, which the live file still holds offsets for', async () => {
    const atuais = await topicosCom(2);
    const antigos = { imoveis: nomeUnico('imoveis-antigo'), condominios: nomeUnico('condominios-antigo') };
    await kafka.criarTopicos([{ nome: antigos.imoveis }, { nome: antigos.condominios }]);
    const live = sqliteTemporario();
    const escritor = EscritorProjecao.abrir(live.caminho);
    // Read before the move: its offsets stay in the file.
    escritor.db.prepare("INSERT INTO offsets (topico, particao, proximo) VALUES (?, 0, '0'), (?, 0, '0')").run(antigos.imoveis, antigos.condominios);
    const grupoDoProjetor = nomeUnico('live');
    const projetor = criarProjetor({
      kafka,
      escritor,
      contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' },
      groupId: grupoDoProjetor,
      topicos: atuais,
      log: silencioso,
      intervaloFrescorMs: 200,
      aoFalhar: (erro) => {
        throw erro;
      },
    });
    try {
      await projetor.iniciar();
      await expect.poll(() => listadosEm(live.caminho), { timeout: 30_000 }).toBe(2);
      await expect(reconstruirDe(live.caminho, antigos, { grupoDoProjetor })).rejects.toMatchObject({
        code: 'TOPICOS_DIFERENTES_DA_PROJECAO',
        message: `o projetor em curso (grupo ${grupoDoProjetor}) lê ${[atuais.condominios, atuais.imoveis].sort().join(', ')}, não ${antigos.imoveis}, ${antigos.condominios}`,
      });
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
      // The topics it reads pass.
      expect((await reconstruirDe(live.caminho, atuais, { grupoDoProjetor })).imoveis).toBe(2);
    } finally {
      await projetor.parar();
      escritor.close();
      live.remover();
    }
  }, 120_000);

  it('falls back on the live file\'s offsets, saying so, when the broker refuses to describe the projector\'s group', async () => {
    const topicosNovos = await topicosCom(1);
    const live = sqliteTemporario();
    const linhas: string[] = [];
    const recusa = Object.assign(new Error('Failed to find group coordinator'), { name: 'KafkaJSGroupCoordinatorNotFound' });
    try {
      const resumo = await reconstruirDe(live.caminho, topicosNovos, {
        kafka: { ...kafka, topicosDoGrupo: () => Promise.reject(recusa) },
        log: pino({ level: 'info' }, { write: (linha: string) => void linhas.push(linha) }),
      });
      expect(resumo.imoveis).toBe(1);
      expect(linhas.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^não foi possível saber que tópicos o projetor em curso lê/), expect.stringMatching(/^nenhum projetor em curso no grupo/)]),
      );
    } finally {
      live.remover();
    }
  }, 90_000);

  it('switches nothing in when it saw no property while the live projection holds some (the topic settings swapped)', async () => {
    const topicosNovos = await topicosCom(3);
    const live = sqliteTemporario();
    try {
      expect((await reconstruirDe(live.caminho, topicosNovos)).imoveis).toBe(3);
      const antes = ler(live.caminho, (l) => l.listarAlterados({ desdeMs: 0, aposId: null, limite: 50 }));
      const trocados = { imoveis: topicosNovos.condominios, condominios: topicosNovos.imoveis };
      await expect(reconstruirDe(live.caminho, trocados)).rejects.toThrow(ReconstrucaoSemImoveis);
      expect(ler(live.caminho, (l) => l.listarAlterados({ desdeMs: 0, aposId: null, limite: 50 }))).toEqual(antes);
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
    } finally {
      live.remover();
    }
  }, 90_000);

  /** New topics holding `quantos` saves of new properties. */
  async function topicosCom(quantos: number) {
    const novos = { imoveis: nomeUnico('imoveis'), condominios: nomeUnico('condominios') };
    await kafka.criarTopicos([
      { nome: novos.imoveis, particoes: 1, compactado: true },
      { nome: novos.condominios, particoes: 1, compactado: true },
    ]);
    const ids = Array.from({ length: quantos }, () => randomUUID());
    const produtor = await kafka.criarProdutor();
    for (let i = 0; i < ids.length; i += 500) {
      await produtor.enviar(novos.imoveis, ids.slice(i, i + 500).map((id) => ({ key: id, value: imovel(id, 1, true) })));
    }
    await produtor.close();
    return novos;
  }
  const listadosEm = (caminho: string) => (existsSync(caminho) ? ler(caminho, (l) => l.listarAlterados({ desdeMs: 0, aposId: null, limite: 1 }).total) : 0);
  const semArquivoDaReconstrucao = (live: string) => ['', '-wal', '-shm'].every((sufixo) => !existsSync(`${live}.reconstrucao${sufixo}`));

  it('stops before the switch when interrupted, deletes its own file and leaves the live projection untouched', async () => {
    const topicosNovos = await topicosCom(3_000);
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    const antes = readFileSync(live.caminho);
    const interrupcao = new AbortController();
    try {
      const reconstrucao = reconstruirDe(live.caminho, topicosNovos, { sinal: interrupcao.signal });
      // Interrupted once its file holds part of the replay.
      await expect.poll(() => listadosEm(`${live.caminho}.reconstrucao`), { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
      interrupcao.abort();
      await expect(reconstrucao).rejects.toBeInstanceOf(ReconstrucaoInterrompida);
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
      expect(readFileSync(live.caminho).equals(antes)).toBe(true);
      expect(listadosEm(live.caminho)).toBe(0);
    } finally {
      live.remover();
    }
  });

  it('goes through with the switch when the abort comes once the switch has begun (aoTrocar)', async () => {
    const topicosNovos = await topicosCom(20);
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    const interrupcao = new AbortController();
    try {
      const resumo = await reconstruirDe(live.caminho, topicosNovos, { sinal: interrupcao.signal, aoTrocar: () => interrupcao.abort() });
      expect(interrupcao.signal.aborted).toBe(true);
      expect(resumo).toMatchObject({ imoveis: 20, alterados: 20 });
      expect(listadosEm(live.caminho)).toBe(20);
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
    } finally {
      live.remover();
    }
  });

  /** The rebuild's settings for the shared broker, these topics and this live projection. */
  const ambienteDoBroker = (topicosDe: { imoveis: string; condominios: string }, caminhoLive: string) => ({
    KAFKA_BROKERS: inject('kafkaBrokers').join(','),
    IMOVEIS_TOPIC: topicosDe.imoveis,
    CONDOMINIOS_TOPIC: topicosDe.condominios,
    DATABASE_PATH: caminhoLive,
  });

  /**
   * `fn` with the live projection's write lock held by another connection, as the live projector
   * holds it during a batch; `soltar` lets it go. The projection is removed afterwards.
   */
  async function comTravaDaLive(live: SqliteTemporario, fn: (soltar: () => void) => Promise<void>): Promise<void> {
    const outro = new Database(live.caminho);
    outro.exec('BEGIN IMMEDIATE');
    const soltar = () => {
      if (outro.inTransaction) outro.exec('COMMIT');
    };
    try {
      await fn(soltar);
    } finally {
      soltar();
      outro.close();
      live.remover();
    }
  }

  /** The built rebuild (`pnpm run rebuild` execs it) as a process, its stdout's log messages collected. */
  function processoRebuild(env: NodeJS.ProcessEnv) {
    const processo = spawn(...comandoServico('projector', 'rebuild.js'), {
      cwd: RAIZ,
      env: { ...process.env, PHOTOS_BASE_URL: 'https://fotos.exemplo.com.br', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let saida = '';
    processo.stdout.on('data', (d: Buffer) => (saida += d.toString()));
    const fim = new Promise<number | null>((resolve) => processo.once('close', resolve));
    // Log lines are JSON; the summary line is not.
    const mensagens = () =>
      saida
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
    return { processo, fim, saida: () => saida, mensagens };
  }

  it('`pnpm run rebuild` stops on Ctrl-C mid-replay with its file deleted, and exits 128 + the signal', async () => {
    const topicosNovos = await topicosCom(3_000);
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    const antes = readFileSync(live.caminho);
    try {
      const rebuild = processoRebuild(ambienteDoBroker(topicosNovos, live.caminho));
      await expect.poll(() => listadosEm(`${live.caminho}.reconstrucao`), { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
      // Ctrl-C through pnpm: the terminal's SIGINT and pnpm's relay of it, at once, one request.
      rebuild.processo.kill('SIGINT');
      rebuild.processo.kill('SIGINT');
      expect(await rebuild.fim).toBe(130);
      expect(rebuild.mensagens().at(-1)).toBe('reconstrução interrompida antes da troca: a projeção viva não foi tocada');
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
      expect(readFileSync(live.caminho).equals(antes)).toBe(true);
    } finally {
      live.remover();
    }
  });

  it('`pnpm run rebuild` sees the switch through when SIGTERM comes during it, and says so', async () => {
    const topicosNovos = await topicosCom(2_000);
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    // The switch waits for the lock (SQLite's busy timeout), so the signal surely comes while the switch is under way.
    await comTravaDaLive(live, async (soltar) => {
      const rebuild = processoRebuild(ambienteDoBroker(topicosNovos, live.caminho));
      let sinalizado = false;
      rebuild.processo.stdout.on('data', () => {
        if (sinalizado || !rebuild.mensagens().some((m) => m.startsWith('trocando a projeção'))) return;
        sinalizado = rebuild.processo.kill('SIGTERM');
        setTimeout(soltar, 300);
      });
      expect(await rebuild.fim).toBe(0);
      expect(sinalizado).toBe(true);
      expect(rebuild.mensagens(), rebuild.saida()).toContain('a troca já tinha começado: não foi interrompida (um segundo sinal sai já)');
      // The file it rebuilds named before the replay, and again at the end.
      expect(rebuild.mensagens()).toContain(`relendo os tópicos para a projeção ${live.caminho}`);
      expect(rebuild.saida()).toContain(`\nprojeção ${live.caminho} trocada: 2000 imóveis, `);
      expect(listadosEm(live.caminho)).toBe(2_000);
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
    });
  }, 120_000);

  it('`pnpm run rebuild` waits for the live write lock held past SQLite\'s busy timeout, instead of throwing the replay away', async () => {
    const topicosNovos = await topicosCom(200);
    const live = sqliteTemporario();
    EscritorProjecao.abrir(live.caminho).close();
    const ocupada = 'a projeção viva está com a trava de escrita ocupada: esperando para trocar';
    // Held until the rebuild says a whole wait of 5 s (SQLite's busy timeout) has run out, not for a
    // fixed time: on a busy machine that wait's sleeps overrun, and it may take longer than 5 s.
    await comTravaDaLive(live, async (soltar) => {
      const rebuild = processoRebuild(ambienteDoBroker(topicosNovos, live.caminho));
      rebuild.processo.stdout.on('data', () => {
        if (rebuild.mensagens().includes(ocupada)) soltar();
      });
      // Should the message never come, released anyway: the assertions below then say why.
      let soltaPeloPrazo = false;
      const prazo = setTimeout(() => {
        soltaPeloPrazo = true;
        soltar();
      }, 60_000);
      expect(await rebuild.fim, rebuild.saida()).toBe(0);
      clearTimeout(prazo);
      expect(rebuild.mensagens()).toContain(ocupada);
      // The operator reads it while the switch waits, not once it is over. Before (stdout written
      // asynchronously), it came out only after the lock was released.
      expect(soltaPeloPrazo).toBe(false);
      expect(listadosEm(live.caminho)).toBe(200);
      expect(semArquivoDaReconstrucao(live.caminho)).toBe(true);
    });
  }, 120_000);

  it('`pnpm run rebuild` stops on SIGTERM at once while still retrying brokers that refuse connections', async () => {
    const [porta] = await portasLivres(1);
    const live = sqliteTemporario();
    try {
      const rebuild = processoRebuild({ KAFKA_BROKERS: `127.0.0.1:${porta}`, DATABASE_PATH: live.caminho });
      // Trying to connect: kafkajs logs each refused attempt.
      await expect.poll(() => rebuild.saida().includes('ECONNREFUSED'), { timeout: 30_000, interval: 50 }).toBe(true);
      const sinalEm = Date.now();
      rebuild.processo.kill('SIGTERM');
      expect(await rebuild.fim).toBe(143);
      expect(Date.now() - sinalEm).toBeLessThan(10_000); // not after the client's minutes of retries
      // kafkajs may log one more refused attempt after it.
      expect(rebuild.mensagens()).toContain('reconstrução interrompida antes da troca: a projeção viva não foi tocada');
    } finally {
      live.remover();
    }
  });
});
