import { describe, expect, it } from 'vitest';
import { parseLivePing } from './live.js';

describe('parseLivePing', () => {
  it('reads the interval a heartbeat announces', () => {
    expect(parseLivePing('{"heartbeatMs":20000}')).toBe(20_000);
  });

  it.each([
    '',
    'not json',
    'null',
    '{}',
    '{"heartbeatMs":"20000"}',
    '{"heartbeatMs":-1}',
    '{"heartbeatMs":1.5}',
  ])('ignores %j', (data) => {
    expect(parseLivePing(data)).toBeUndefined();
  });
});
