import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { LIVE_HEARTBEAT_MS } from '../../shared/live.js';
import { applyDelta } from '../../shared/live-delta.js';
import { contentOf, frameOf, LiveHub, MISSING_FRAME, type Delta, type Sink, type Snapshot } from './hub.js';

/** A stream of its own on `socket` (a stand-in for the response), as live-route.ts makes it. */
const sinkOn = (socket: PassThrough): Sink => {
  const res = socket as unknown as ServerResponse;
  return {
    res,
    snapshot: (snap) => res.write(frameOf(snap)),
    missing: () => res.end(MISSING_FRAME),
    end: () => res.end(),
  };
};

describe('LiveHub cache', () => {
  it('loads a topic once until it changes, then loads it again', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect((await hub.read('t', load, undefined)).json).toBe('{"n":1}');
    expect((await hub.read('t', load, undefined)).json).toBe('{"n":1}');
    hub.changed('t');
    expect((await hub.read('t', load, undefined)).json).toBe('{"n":2}');
    hub.close();
  });

  it('does not cache a load that a change overtook', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let value = 'old';
    let loads = 0;
    let release: () => void = () => {};
    // The first load reads 'old' and is slow to answer; every later one reads the value of its moment.
    const load = () => {
      const read = value;
      return ++loads === 1
        ? new Promise<string>((resolve) => (release = () => resolve(read)))
        : Promise.resolve(read);
    };
    // Followed, so that a change reloads it rather than forgetting it (a forgotten topic proves nothing here).
    const seen: string[] = [];
    const stop = hub.watch('t', load, undefined, (snapshot) => seen.push(snapshot.json));
    const first = hub.read('t', load, undefined);
    value = 'new';
    hub.changed('t'); // the write committed while the first load was in flight
    release();
    expect((await first).json).toBe('"old"'); // what it read, handed to whoever asked then
    // Read after the change: never the overtaken 'old'.
    expect((await hub.read('t', load, undefined)).json).toBe('"new"');
    await vi.waitFor(() => expect(seen.at(-1)).toBe('"new"'));
    stop();
    hub.close();
  });

  it('answers "missing" the same whether a read or a stream first asked for the topic', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let data: number[] | null = [1];
    const load = async () => data;
    const isMissing = (d: unknown) => d === null;
    const socket = new PassThrough();
    socket.resume();
    // A stream creates the topic (its read happened before a change forgot it).
    const unsubscribe = hub.subscribe('t', load, isMissing, sinkOn(socket));
    expect((await hub.read('t', load, isMissing)).missing).toBe(false);
    data = null; // its kitchen deleted
    hub.changed('t');
    expect((await hub.read('t', load, isMissing)).missing).toBe(true);
    unsubscribe();
    hub.close();
  });

  it('keeps a bounded number of idle topics', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    for (let i = 0; i < 6000; i++) await hub.read(`t${i}`, async () => i, undefined);
    expect((hub as unknown as { topics: Map<string, unknown> }).topics.size).toBeLessThanOrEqual(5000);
    hub.close();
  });
});

describe('LiveHub watchers', () => {
  it('tells a watcher the snapshot now and after each change, once each, until it stops; then the topic is let go', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let value = 1;
    const seen: string[] = [];
    let told: () => void = () => {};
    const next = () => new Promise<void>((resolve) => (told = resolve));
    let arrived = next();
    const stop = hub.watch(
      't',
      async () => value,
      undefined,
      (snapshot) => {
        seen.push(snapshot.json);
        told();
      },
    );
    await arrived;
    arrived = next();
    value = 2;
    hub.changed('t');
    hub.changed('t'); // a burst of notices: one reload, one call
    await arrived;
    expect(seen).toEqual(['1', '2']);
    stop();
    hub.changed('t'); // nobody follows it now: forgotten, not reloaded
    expect((hub as unknown as { topics: Map<string, unknown> }).topics.has('t')).toBe(false);
    expect(seen).toEqual(['1', '2']);
    hub.close();
  });
});

describe('LiveHub deltas', () => {
  /** A sink that records what it is sent, as a tab's stream would be; `deltas: false` as a stream of its own. */
  function recorder(deltas = true) {
    const sent: (Snapshot | Delta)[] = [];
    let heard: () => void = () => {};
    const sink: Sink = {
      res: new PassThrough() as unknown as ServerResponse,
      snapshot: (snap) => {
        sent.push(snap);
        heard();
      },
      ...(deltas
        ? {
            delta: (delta: Delta) => {
              sent.push(delta);
              heard();
            },
          }
        : {}),
      missing: () => undefined,
      end: () => undefined,
    };
    const next = (count: number) =>
      new Promise<void>((resolve) => {
        heard = () => sent.length >= count && resolve();
        heard();
      });
    return { sink, sent, next };
  }

  it('sends what changed to the subscribers that hold the previous version, built once, and the same change once', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let list = Array.from({ length: 20 }, (_, i) => ({ id: i, name: `Kitchen ${i}` }));
    const load = async () => list;
    const a = recorder();
    const b = recorder();
    const own = recorder(false);
    for (const r of [a, b, own]) hub.subscribe('t', load, undefined, r.sink);
    await Promise.all([a.next(1), b.next(1), own.next(1)]);
    list = list.map((k) => (k.id === 7 ? { ...k, name: 'Renamed' } : k));
    hub.changed('t');
    await Promise.all([a.next(2), b.next(2), own.next(2)]);
    const delta = a.sent[1] as Delta;
    expect('from' in delta).toBe(true);
    expect(b.sent[1]).toBe(delta); // one delta, whoever many hold its start
    expect(delta.from).toBe(a.sent[0]);
    expect(JSON.stringify(applyDelta(JSON.parse((a.sent[0] as Snapshot).json), JSON.parse(delta.json)))).toBe(
      JSON.stringify(list),
    );
    expect('json' in (own.sent[1] ?? {}) && 'version' in (own.sent[1] ?? {})).toBe(true); // a snapshot
    // The same content again (our own commit, then its notification): nobody is sent anything.
    hub.changed('t');
    const again = await hub.read('t', load, undefined);
    expect(contentOf(again)).toBe(delta.to);
    // A later change: a subscriber that joined at the last version gets a delta from it too.
    const late = recorder();
    hub.subscribe('t', load, undefined, late.sink);
    await late.next(1);
    list = [...list, { id: 20, name: 'New' }];
    hub.changed('t');
    await Promise.all([a.next(3), late.next(2)]);
    expect(a.sent).toHaveLength(3);
    expect(late.sent[1]).toBe(a.sent[2]);
    expect(b.sent.length + own.sent.length).toBe(6);
    hub.close();
  });

  it('sends the snapshot when what changed is not smaller than it', async () => {
    const hub = new LiveHub(pino({ level: 'silent' }));
    let value: unknown = [1, 2];
    const r = recorder();
    hub.subscribe('t', async () => value, undefined, r.sink);
    await r.next(1);
    value = [3, 4];
    hub.changed('t');
    await r.next(2);
    expect((r.sent[1] as Snapshot).json).toBe('[3,4]');
    hub.close();
  });
});

describe('LiveHub heartbeat', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Subscribes a stream standing in for a socket; resolves with what it has received so far, once it has a snapshot. */
  function subscribe(hub: LiveHub): Promise<() => string> {
    const socket = new PassThrough();
    let text = '';
    const received = () => text;
    return new Promise((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('event: snapshot')) resolve(received);
      });
      hub.open(socket as unknown as ServerResponse);
      hub.subscribe('t', async () => [], undefined, sinkOn(socket));
    });
  }

  const ping = (ms: number) => `event: ping\ndata: {"heartbeatMs":${ms}}\n\n`;

  it.each([
    ['by default', undefined, LIVE_HEARTBEAT_MS],
    ['when shortened', 1000, 1000],
  ])('sends every stream a ping event that names its interval, %s', async (_, heartbeatMs, expected) => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const hub = new LiveHub(pino({ level: 'silent' }), { heartbeatMs });
    const received = await subscribe(hub);
    vi.advanceTimersByTime(expected - 1);
    expect(received()).not.toContain('ping');
    vi.advanceTimersByTime(1);
    expect(received().endsWith(ping(expected))).toBe(true);
    vi.advanceTimersByTime(expected);
    expect(received().split(ping(expected))).toHaveLength(3);
    hub.close();
  });
});
