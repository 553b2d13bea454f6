import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import type { ClienteKafka, Lote, OpcoesConsumidor } from '@imoveis/kafka';
import { EscritorProjecao } from '@imoveis/projection-store';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { criarProjetor, type OpcoesProjetor } from './projetor.ts';
import { medirPausas, travaDeOutroProcesso } from '../../../test/esperas.ts';
import { imovelSalvo } from '../../../packages/projection-store/src/eventos-de-teste.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'projetor-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A projector over a projection in `dir`, with no broker: a freshness check finds no partitions. */
function projetorSemBroker(escritor: EscritorProjecao, kafka: Partial<Record<keyof ClienteKafka, unknown>> = {}, opcoes: Partial<Pick<OpcoesProjetor, 'aoFalhar' | 'log'>> = {}) {
  return criarProjetor({
    kafka: { fimDasParticoes: async () => new Map<number, string>(), ...kafka } as unknown as ClienteKafka,
    escritor,
    contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' },
    groupId: 'grupo',
    topicos: { imoveis: 'imoveis', condominios: 'condominios' },
    log: opcoes.log ?? pino({ level: 'silent' }),
    aoFalhar:
      opcoes.aoFalhar ??
      ((erro) => {
        throw erro;
      }),
  });
}

it('records no freshness while another process holds the write lock, at once, instead of blocking in SQLite\'s 5 s wait', async () => {
  const caminho = join(dir, 'travada.db');
  const escritor = EscritorProjecao.abrir(caminho);
  const projetor = projetorSemBroker(escritor);
  const trava = travaDeOutroProcesso(caminho);
  try {
    const inicio = performance.now();
    expect(await projetor.medirFrescor()).toEqual({ atraso: 0, emDiaEm: null });
    // Before: SQLite's 5 s wait, then the lock's error (room left for a loaded machine).
    expect(performance.now() - inicio).toBeLessThan(3_000);
    expect(escritor.lerEstado('frescor_registrado_em')).toBeNull();
  } finally {
    trava.soltar();
  }
  await projetor.medirFrescor();
  expect(escritor.lerEstado('frescor_registrado_em')).not.toBeNull();
  escritor.close();
});

it("does not take offsets the consumer moved past the ends while they were read for a topic made anew", async () => {
  const escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
  escritor.gravarOffset({ topico: 'imoveis', particao: 0, proximo: '100' });
  const erros: string[] = [];
  const log = pino({ level: 'error' }, { write: (linha: string) => void erros.push(linha) });
  const projetor = projetorSemBroker(
    escritor,
    {
      // The end read, then batches applied beyond it before the answer comes back.
      fimDasParticoes: async (topico: string) => {
        if (topico !== 'imoveis') return new Map<number, string>();
        escritor.gravarOffset({ topico: 'imoveis', particao: 0, proximo: '150' });
        return new Map([[0, '120']]);
      },
    },
    { log },
  );
  await projetor.medirFrescor();
  expect(erros.join('')).not.toContain('além do fim');
  // A topic made anew, its end below what was stored before the ends were read: said.
  const recriado = projetorSemBroker(escritor, { fimDasParticoes: async (topico: string) => new Map(topico === 'imoveis' ? [[0, '80']] : []) }, { log });
  await recriado.medirFrescor();
  expect(erros.join('')).toContain('além do fim');
  escritor.close();
});

it('reads, unless told another clock, one that does not step back with the host clock', async () => {
  const escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
  // The host clock, as the projector will read it.
  const antes = Date.now();
  const parede = vi.spyOn(Date, 'now').mockReturnValue(antes);
  const projetor = projetorSemBroker(escritor);
  const registradoEm = () => escritor.lerEstado('frescor_registrado_em')!;
  await projetor.medirFrescor();
  const primeiro = registradoEm();
  // The host clock held still: the time the check took is what passed.
  expect(primeiro).toBeGreaterThanOrEqual(antes);
  expect(primeiro).toBeLessThan(antes + 1_000);

  // The host clock steps ten minutes back; some time passes.
  parede.mockReturnValue(antes - 600_000);
  await esperar(50);
  await projetor.medirFrescor();
  // About 50 ms on: a timer may fire a millisecond early by the monotonic clock, never ten minutes.
  expect(registradoEm()).toBeGreaterThanOrEqual(primeiro + 40);
  expect(registradoEm()).toBeLessThan(primeiro + 10_000);
  escritor.close();
});

/**
 * A projector over `escritor` started as far as its check of the topics (after the rules), where
 * the start waits until `terminar` stops it.
 */
function iniciadoAteOsTopicos(escritor: EscritorProjecao) {
  let liberar!: () => void;
  const brokers = new Promise<void>((resolve) => (liberar = resolve));
  let conferiuTopicos = false;
  const projetor = projetorSemBroker(escritor, {
    topicosAusentes: async () => {
      conferiuTopicos = true;
      await brokers;
      return [];
    },
  });
  const iniciando = projetor.iniciar();
  return {
    conferiuTopicos: () => conferiuTopicos,
    async terminar() {
      await projetor.parar();
      liberar();
      await iniciando;
    },
  };
}

/** A projection at `nome` whose documents were made by the rules before this code's. */
function deRegrasAnteriores(nome: string): { caminho: string; escritor: EscritorProjecao } {
  const caminho = join(dir, nome);
  const escritor = EscritorProjecao.abrir(caminho);
  escritor.gravarEstado('regras', VERSAO_DAS_REGRAS - 1);
  return { caminho, escritor };
}

it("marks the projection's rules as mixed at start, waiting out another process's write lock with its event loop free, before it goes on to the brokers", async () => {
  const { caminho, escritor } = deRegrasAnteriores('regras.db');
  const trava = travaDeOutroProcesso(caminho);
  const pausas = medirPausas();
  const inicio = iniciadoAteOsTopicos(escritor);
  let maiorPausa: number;
  try {
    await esperar(1_500);
    maiorPausa = pausas.parar();
    expect(escritor.regras()).toBe(VERSAO_DAS_REGRAS - 1);
    expect(inicio.conferiuTopicos()).toBe(false);
    trava.soltar();
    await expect.poll(() => escritor.regras(), { timeout: 5_000 }).toBeNull();
    await expect.poll(inicio.conferiuTopicos, { timeout: 10_000 }).toBe(true);
  } finally {
    pausas.parar();
    trava.soltar();
    await inicio.terminar();
    escritor.close();
  }
  // Before: blocked in SQLite's 5 s wait, then the start failed on the lock (room left for a loaded machine).
  expect(maiorPausa).toBeLessThan(2_500);
});

it('stops waiting for the write lock to mark the rules once stopped, its start ending there', async () => {
  const { caminho, escritor } = deRegrasAnteriores('regras-parada.db');
  const topicosConferidos = vi.fn(async () => []);
  const projetor = projetorSemBroker(escritor, { topicosAusentes: topicosConferidos });
  const trava = travaDeOutroProcesso(caminho);
  try {
    const iniciando = projetor.iniciar();
    await esperar(300);
    await projetor.parar();
    await iniciando;
    expect(topicosConferidos).not.toHaveBeenCalled();
    expect(escritor.regras()).toBe(VERSAO_DAS_REGRAS - 1);
  } finally {
    trava.soltar();
    escritor.close();
  }
});

it("reads the rules under the write lock it waited for: a rebuild's switch landing meanwhile brings its own, left as they are", async () => {
  const { caminho, escritor } = deRegrasAnteriores('regras-trocadas.db');
  // The switch: the rebuild's rules (this code's) and a new generation, committed at once.
  const trava = travaDeOutroProcesso(caminho);
  const gravar = trava.db.prepare('INSERT INTO estado (chave, valor) VALUES (?, ?) ON CONFLICT DO UPDATE SET valor = excluded.valor');
  gravar.run('regras', VERSAO_DAS_REGRAS);
  gravar.run('geracao', escritor.geracao() + 1);
  const inicio = iniciadoAteOsTopicos(escritor);
  try {
    await esperar(300);
    trava.soltar();
    await expect.poll(inicio.conferiuTopicos, { timeout: 5_000 }).toBe(true);
    // Before: the rules read before the wait, marked mixed after it.
    expect(escritor.regras()).toBe(VERSAO_DAS_REGRAS);
  } finally {
    trava.soltar();
    await inicio.terminar();
    escritor.close();
  }
});

interface ConsumidorAMao {
  opcoes: OpcoesConsumidor;
  fechar: ReturnType<typeof vi.fn>;
  /** The group assigns it partition 0 of `imoveis`. */
  atribuir(): void;
}

/**
 * Runs `teste` on a started projector over a new projection named `nome`, whose consumers are
 * driven by hand: each one made is kept, with a spy on its close. The test begins once the
 * start's own freshness check has written, so that it is not still under way beside the test.
 */
async function comConsumidoresAMao(
  nome: string,
  teste: (contexto: { caminho: string; escritor: EscritorProjecao; projetor: ReturnType<typeof criarProjetor>; consumidores: ConsumidorAMao[] }) => Promise<void>,
  opcoes: Partial<Pick<OpcoesProjetor, 'aoFalhar' | 'log'>> = {},
): Promise<void> {
  const caminho = join(dir, nome);
  const escritor = EscritorProjecao.abrir(caminho);
  const consumidores: ConsumidorAMao[] = [];
  const kafka = {
    topicosAusentes: async () => [],
    descreverTopico: async () => ({ particoes: 1, config: {} }),
    criarTopicos: async () => {},
    criarProdutor: async () => ({ enviar: async () => {}, close: async () => {} }),
    criarConsumidor: (opcoesConsumidor: OpcoesConsumidor) => {
      const fechar = vi.fn(async () => {});
      consumidores.push({ opcoes: opcoesConsumidor, fechar, atribuir: () => void opcoesConsumidor.aoAtribuir([{ topico: 'imoveis', particao: 0 }]) });
      return { iniciar: async () => {}, commit: async () => {}, close: fechar };
    },
  };
  const projetor = projetorSemBroker(escritor, kafka, opcoes);
  await projetor.iniciar();
  try {
    await expect.poll(() => escritor.lerEstado('frescor_registrado_em'), { timeout: 10_000 }).not.toBeNull();
    await teste({ caminho, escritor, projetor, consumidores });
  } finally {
    await projetor.parar();
    escritor.close();
  }
}

/** One property save at offset 0 of partition 0 of `imoveis`, as one fetched batch. */
function loteDeUm(): Lote {
  const id = randomUUID();
  const mensagem = { offset: '0', key: Buffer.from(id), value: Buffer.from(JSON.stringify(imovelSalvo(id, 1))), headers: {} };
  return { topico: 'imoveis', particao: 0, mensagens: [mensagem], fimDaParticao: '1', proximoOffset: '1', heartbeat: async () => {}, ativo: () => true, parando: () => false };
}

/** What the switch of a rebuild made by newer code leaves: its rules, a new generation. */
function trocarPorReconstrucaoMaisNova(caminho: string): void {
  const outro = EscritorProjecao.abrir(caminho);
  outro.transacao(() => {
    outro.gravarEstado('regras', VERSAO_DAS_REGRAS + 1);
    outro.gravarEstado('geracao', outro.geracao() + 1);
  });
  outro.close();
}

it("writes the batch of a join that followed a rebuild's switch, checking the switch's rules in place rather than joining again", () =>
  comConsumidoresAMao('juntou-apos-troca.db', async ({ caminho, escritor, consumidores }) => {
    // The switch lands after the start's check of the rules and before the group assigns the
    // partitions, so the join follows it.
    trocarPorReconstrucaoMaisNova(caminho);
    const [consumidor] = consumidores;
    consumidor!.atribuir();
    await consumidor!.opcoes.aoLote(loteDeUm());
    expect(escritor.regras()).toBeNull();
    // Before: the batch was dropped and the consumer closed, to join again and fetch it anew.
    expect(escritor.offsetDe('imoveis', 0)).toBe('1');
    expect(consumidor!.fechar).not.toHaveBeenCalled();
    expect(consumidores).toHaveLength(1);
  }));

it('writes nothing of a batch the consumer closed for a switch still delivers once the next one has joined, and leaves that one be', () =>
  comConsumidoresAMao('lote-atrasado.db', async ({ caminho, escritor, consumidores }) => {
    const [primeiro] = consumidores;
    primeiro!.atribuir();
    // A switch: the first consumer's next batch is dropped, and it is closed for another to join.
    trocarPorReconstrucaoMaisNova(caminho);
    await primeiro!.opcoes.aoLote(loteDeUm());
    await expect.poll(() => consumidores.length, { timeout: 10_000 }).toBe(2);
    expect(primeiro!.fechar).toHaveBeenCalled();
    consumidores[1]!.atribuir();
    // The first one's close gave up waiting, and a batch it had fetched arrives now: it was
    // fetched from the offsets of the projection before the switch.
    await primeiro!.opcoes.aoLote(loteDeUm());
    // Before: written on the generation the second consumer joined on.
    expect(escritor.offsetDe('imoveis', 0)).toBeNull();
    // Before: taken for a switch, it closed the second consumer for a third to join.
    await esperar(100);
    expect(consumidores).toHaveLength(2);
    expect(consumidores[1]!.fechar).not.toHaveBeenCalled();
  }));

it("stops the projector when a batch's check of a switch's rules finds the file cannot be written", async () => {
  const aoFalhar = vi.fn();
  await comConsumidoresAMao(
    'regras-sem-disco.db',
    async ({ caminho, escritor, consumidores }) => {
      trocarPorReconstrucaoMaisNova(caminho);
      const [consumidor] = consumidores;
      consumidor!.atribuir();
      // What a read-only or failed disk answers to the write that marks the rules.
      escritor.db.pragma('query_only = ON');
      try {
        await expect(consumidor!.opcoes.aoLote(loteDeUm())).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
      } finally {
        escritor.db.pragma('query_only = OFF');
      }
      // Before: the batch failed and was fetched again for ever, the process never told.
      expect(aoFalhar).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ code: 'SQLITE_READONLY' }));
    },
    { aoFalhar },
  );
});

it('says once which rules a switch brought, however many checks follow it side by side', async () => {
  const avisos: string[] = [];
  const log = pino({ level: 'warn' }, { write: (linha: string) => void avisos.push((JSON.parse(linha) as { msg: string }).msg) });
  await comConsumidoresAMao(
    'um-aviso.db',
    async ({ caminho, escritor, projetor, consumidores }) => {
      trocarPorReconstrucaoMaisNova(caminho);
      consumidores[0]!.atribuir();
      // The freshness check and a batch, each finding the switch's rules not yet checked.
      await Promise.all([projetor.medirFrescor(), consumidores[0]!.opcoes.aoLote(loteDeUm())]);
      await projetor.medirFrescor();
      expect(escritor.regras()).toBeNull();
      // Before: a second line, which called the projection mixed after the first had said newer.
      expect(avisos).toEqual(['documentos gravados por regras de mapeamento mais novas que as deste código: uma reconstrução com ele os refaria pelas antigas']);
    },
    { log },
  );
});
