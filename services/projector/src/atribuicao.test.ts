// Telling a second projector in the same consumer group from a rebalance.
import { pino } from 'pino';
import { chaveParticao } from '@imoveis/kafka';
import { describe, expect, it } from 'vitest';
import { vigiarAtribuicao } from './atribuicao.ts';

const [p0, p1, p2] = [0, 1, 2].map((particao) => chaveParticao('imoveis', particao)) as [string, string, string];

function vigia() {
  const linhas: { level: number; msg: string; particoes?: string[] }[] = [];
  const log = pino({ level: 'info' }, { write: (linha: string) => void linhas.push(JSON.parse(linha) as (typeof linhas)[number]) });
  return { linhas, vigia: vigiarAtribuicao({ log, grupo: 'projetor', sessaoMs: 1_000 }) };
}

describe('vigiarAtribuicao', () => {
  it('says nothing while every partition is this consumer\'s, nor while others are for less than two sessions (a rebalance)', () => {
    const { linhas, vigia: v } = vigia();
    v.atribuir([p0, p1]);
    v.conferir([p0, p1], 0);
    v.conferir([p0, p1, p2], 1_000);
    v.conferir([p0, p1, p2], 2_999);
    expect(linhas).toEqual([]);
  });

  it('says once, at error and naming them, when partitions stay another member\'s for two sessions, and when they come back', () => {
    const { linhas, vigia: v } = vigia();
    v.atribuir([p0]);
    v.conferir([p0, p1], 0);
    v.conferir([p0, p1], 2_000);
    v.conferir([p0, p1], 9_000);
    expect(linhas).toHaveLength(1);
    expect(linhas[0]).toMatchObject({ level: 50, particoes: ['imoveis/1'] });
    expect(linhas[0]!.msg).toContain('KAFKA_GROUP_ID');
    v.atribuir([p0, p1]);
    v.conferir([p0, p1], 10_000);
    expect(linhas.at(-1)).toMatchObject({ level: 30, msg: 'o projetor voltou a ler todas as partições' });
    // A later split is timed from its own start.
    v.atribuir([p0]);
    v.conferir([p0, p1], 11_000);
    v.conferir([p0, p1], 12_999);
    expect(linhas).toHaveLength(2);
    v.conferir([p0, p1], 13_000);
    expect(linhas).toHaveLength(3);
  });
});
