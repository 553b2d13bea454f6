import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import type { ClienteKafka } from '@imoveis/kafka';
import { EscritorProjecao } from '@imoveis/projection-store';
import { pino } from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { criarProjetor } from './projetor.ts';

const dir = mkdtempSync(join(tmpdir(), 'projetor-'));
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

it('reads, unless told another clock, one that does not step back with the host clock', async () => {
  const escritor = EscritorProjecao.abrir(join(dir, 'projecao.db'));
  // No broker: a freshness check asks only for the partitions' ends, here none.
  const kafka = { fimDasParticoes: async () => new Map<number, string>() } as unknown as ClienteKafka;
  // The host clock, as the projector will read it.
  const antes = Date.now();
  const parede = vi.spyOn(Date, 'now').mockReturnValue(antes);
  const projetor = criarProjetor({
    kafka,
    escritor,
    contexto: { fotosBaseUrl: 'https://fotos.exemplo.com.br' },
    groupId: 'grupo',
    topicos: { imoveis: 'imoveis', condominios: 'condominios' },
    log: pino({ level: 'silent' }),
    aoFalhar: (erro) => {
      throw erro;
    },
  });
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
  expect(registradoEm()).toBeGreaterThanOrEqual(primeiro + 50);
  expect(registradoEm()).toBeLessThan(primeiro + 10_000);
  escritor.close();
});
