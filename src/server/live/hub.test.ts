import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { LiveHub } from './hub.js';

describe('LiveHub cache', () => {
  it('loads a topic once until it changes, then loads it again', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await hub.read('t', load)).toBe('{"n":1}');
    expect(await hub.read('t', load)).toBe('{"n":1}');
    hub.changed('t');
    expect(await hub.read('t', load)).toBe('{"n":2}');
    hub.close();
  });

  it('does not cache a load that a change overtook', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let release: () => void = () => {};
    let value = 'old';
    const slow = () => new Promise<string>((resolve) => (release = () => resolve(value)));
    const first = hub.read('t', slow);
    value = 'new';
    hub.changed('t'); // the write committed while the first load was in flight
    release();
    expect(await first).toBe('"new"'); // (the in-flight load resolved with the value it read)
    let loads = 0;
    expect(await hub.read('t', async () => `fresh-${++loads}`)).toBe('"fresh-1"');
    hub.close();
  });

  it('keeps a bounded number of idle topics', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    for (let i = 0; i < 6000; i++) await hub.read(`t${i}`, async () => i);
    expect((hub as unknown as { topics: Map<string, unknown> }).topics.size).toBeLessThanOrEqual(5000);
    hub.close();
  });
});
