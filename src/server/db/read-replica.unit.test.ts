import { describe, expect, it } from 'vitest';
import { formatLsn, parseLsn } from './read-replica.js';

describe('WAL positions (read-after cookies, replica replay)', () => {
  it('reads and writes PostgreSQL’s two hex halves', () => {
    expect(parseLsn('0/3016060')).toBe(0x3016060n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('16/b374d848')).toBe(parseLsn('16/B374D848'));
    expect(formatLsn((0x16n << 32n) | 0xb374d848n)).toBe('16/B374D848');
    expect(formatLsn(0n)).toBe('0/0');
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).toBe((1n << 64n) - 1n);
  });

  it.each([
    '',
    '0',
    '/',
    '0/',
    '/0',
    '1/2/3',
    '123456789/0',
    '0/123456789',
    ' 0/1',
    '0/1 ',
    '0x1/0x2',
    '-1/0',
    'g/0',
    '0/1\n',
    null,
    undefined,
    42,
  ])('ignores %j', (value) => {
    expect(parseLsn(value)).toBeUndefined();
  });
});
