// Partitions' ends past transaction markers, written by one waiter that waits out another
// process's write lock with the event loop free.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { EscritorProjecao } from '@imoveis/projection-store';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { criarAvancoSobreMarcadores } from './marcadores.ts';
import { medirPausas, travaDeOutroProcesso } from '../../../test/esperas.ts';

const TOPICO = 'registro.imoveis.v1';
let dir: string;
let escritor: EscritorProjecao;
let trava: ReturnType<typeof travaDeOutroProcesso> | null;
let parando: boolean;
let esperas: number;
let falhas: unknown[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marcadores-'));
  escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
  for (const particao of [0, 1]) escritor.transacao(() => escritor.gravarOffset({ topico: TOPICO, particao, proximo: '100' }));
  trava = null;
  parando = false;
  esperas = 0;
  falhas = [];
});
afterEach(() => {
  trava?.soltar();
  escritor.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Another process's write transaction on the projection (a rebuild's switch), until `soltar`. */
function travar(): void {
  trava = travaDeOutroProcesso(join(dir, 'projecao.db'));
}
const soltar = () => trava?.soltar();

const avanco = () => criarAvancoSobreMarcadores(escritor, { parando: () => parando, aoEsperar: () => esperas++, aoFalhar: (erro) => falhas.push(erro) });
const fim = (particao: number, proximoOffset: string) => ({ topico: TOPICO, particao, proximoOffset });
const offsets = () => [escritor.offsetDe(TOPICO, 0), escritor.offsetDe(TOPICO, 1)];

it('writes a partition’s end past the markers at once when the lock is free', async () => {
  const marcadores = avanco();
  marcadores.anotar(fim(0, '102'), escritor.geracao());
  await marcadores.ocioso();
  expect(offsets()).toEqual(['102', '100']);
  expect({ esperas, falhas }).toEqual({ esperas: 0, falhas: [] });
});

it('waits out another process’s write lock with one waiter, its event loop free, then writes each partition’s latest end', async () => {
  const marcadores = avanco();
  travar();
  const pausas = medirPausas();
  let maiorPausa: number;
  try {
    const geracao = escritor.geracao();
    marcadores.anotar(fim(0, '102'), geracao);
    await esperar(600);
    // More markers meanwhile, on both partitions, and an older end of one of them.
    marcadores.anotar(fim(0, '105'), geracao);
    marcadores.anotar(fim(1, '101'), geracao);
    marcadores.anotar(fim(0, '103'), geracao);
    await esperar(600);
    maiorPausa = pausas.parar();
    expect(offsets()).toEqual(['100', '100']);
  } finally {
    pausas.parar();
    soltar();
  }
  await marcadores.ocioso();
  expect(offsets()).toEqual(['105', '101']);
  // One waiter: said once. SQLite's own wait would block the event loop 5 s an attempt.
  expect(esperas).toBe(1);
  expect(maiorPausa).toBeLessThan(2_500);
});

it('stops waiting, writing nothing, once the projector stops; nothing noted after that', async () => {
  const marcadores = avanco();
  travar();
  marcadores.anotar(fim(0, '102'), escritor.geracao());
  await esperar(300);
  parando = true;
  const inicio = performance.now();
  await marcadores.ocioso();
  expect(performance.now() - inicio).toBeLessThan(2_500);
  soltar();
  marcadores.anotar(fim(1, '101'), escritor.geracao());
  await marcadores.ocioso();
  expect(offsets()).toEqual(['100', '100']);
});

it('reports what is not the lock instead of waiting', async () => {
  const marcadores = avanco();
  escritor.db.exec('DROP TABLE offsets');
  marcadores.anotar(fim(0, '102'), escritor.geracao());
  await marcadores.ocioso();
  expect(falhas).toHaveLength(1);
  expect(String(falhas[0])).toMatch(/no such table/);
  expect(esperas).toBe(0);
});

it('writes nothing on a projection switched in since the markers were read, and stops waiting though the lock stays taken; an end of the new one waits anew', async () => {
  const marcadores = avanco();
  const geracao = escritor.geracao();
  travar();
  marcadores.anotar(fim(0, '102'), geracao);
  await esperar(300);
  // The switch commits a new generation, and another write takes the lock again at once: the
  // end noted for the old one is never written.
  trava!.db.prepare("INSERT INTO estado (chave, valor) VALUES ('geracao', ?) ON CONFLICT DO UPDATE SET valor = excluded.valor").run(geracao + 1);
  soltar();
  travar();
  const inicio = performance.now();
  await marcadores.ocioso();
  expect(performance.now() - inicio).toBeLessThan(2_500);
  marcadores.anotar(fim(1, '101'), geracao + 1);
  await esperar(300);
  expect(offsets()).toEqual(['100', '100']);
  soltar();
  await marcadores.ocioso();
  expect(offsets()).toEqual(['100', '101']);
});

it('writes the other partitions’ ends when one fails on something else than the lock', async () => {
  const marcadores = avanco();
  // A partition whose end the projection refuses (an offset that is not a number).
  marcadores.anotar({ topico: TOPICO, particao: 0, proximoOffset: 'x' }, escritor.geracao());
  marcadores.anotar(fim(1, '101'), escritor.geracao());
  await marcadores.ocioso();
  expect(falhas).toHaveLength(1);
  expect(offsets()).toEqual(['100', '101']);
});
