import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { VERSAO_DAS_REGRAS } from '@imoveis/domain';
import type { ClienteKafka } from '@imoveis/kafka';
import { EscritorProjecao } from '@imoveis/projection-store';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { criarProjetor } from './projetor.ts';
import { medirPausas, travaDeOutroProcesso } from '../../../test/esperas.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'projetor-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A projector over a projection in `dir`, with no broker: a freshness check finds no partitions. */
function projetorSemBroker(escritor: EscritorProjecao, kafka: Partial<Record<keyof ClienteKafka, unknown>> = {}) {
  return criarProjetor({
    kafka: { fimDasParticoes: async () => new Map<number, string>(), ...kafka } as unknown as ClienteKafka,
    escritor,
    contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' },
    groupId: 'grupo',
    topicos: { imoveis: 'imoveis', condominios: 'condominios' },
    log: pino({ level: 'silent' }),
    aoFalhar: (erro) => {
      throw erro;
    },
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
    await expect.poll(inicio.conferiuTopicos).toBe(true);
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
