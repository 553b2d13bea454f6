import { describe, expect, it } from 'vitest';
import { cabecalhosParaEnvio, textoDoCabecalho } from './index.ts';

describe('headers', () => {
  it('are sent as received, but a header without a value (which kafkajs cannot write) goes empty', () => {
    const binario = Buffer.from([0xff, 0x00]);
    expect(cabecalhosParaEnvio({ a: binario, b: ['x', null], c: null, d: 'texto' })).toEqual({
      a: binario,
      b: ['x', Buffer.alloc(0)],
      c: Buffer.alloc(0),
      d: 'texto',
    });
  });

  it('read as the text of their last value', () => {
    expect(textoDoCabecalho({ a: [Buffer.from('1'), Buffer.from('2')], b: null, c: 'x' }, 'a')).toBe('2');
    expect(textoDoCabecalho({ b: null }, 'b')).toBeUndefined();
    expect(textoDoCabecalho({ c: 'x' }, 'c')).toBe('x');
    expect(textoDoCabecalho({}, 'z')).toBeUndefined();
  });
});
