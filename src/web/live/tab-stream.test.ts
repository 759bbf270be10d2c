import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabStream, type TopicListener } from './tab-stream.js';

/** An EventSource stand-in: records its URL, lets the test send it events, knows whether it was closed. */
class FakeSource extends EventTarget {
  closed = false;
  constructor(readonly url: string) {
    super();
  }
  close() {
    this.closed = true;
  }
  send(name: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
  /** The topics it was opened with, as `url#etag`. */
  get topics() {
    return new URL(this.url, 'http://x').searchParams.getAll('t');
  }
}

const listener = () => {
  const seen: unknown[] = [];
  const ends: unknown[] = [];
  const l: TopicListener = { snapshot: (d) => seen.push(d), gone: (e) => ends.push(e) };
  return { l, seen, ends };
};

describe("the tab's one stream", () => {
  let sources: FakeSource[];
  let stream: TabStream;
  const open = () => sources.filter((s) => !s.closed);
  const flush = () => new Promise<void>((resolve) => queueMicrotask(resolve));

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('window', new EventTarget());
    sources = [];
    stream = new TabStream((url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source as unknown as EventSource;
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('carries every topic a render follows on one connection, and hands each its snapshots', async () => {
    const kitchens = listener();
    const menu = listener();
    stream.follow('/api/kitchens', kitchens.l);
    stream.follow('/api/kitchens/k1/menu', menu.l);
    await flush();
    expect(open()).toHaveLength(1);
    expect(open()[0]?.topics).toEqual(['/api/kitchens', '/api/kitchens/k1/menu']);
    open()[0]?.send('snapshot', { topic: '/api/kitchens/k1/menu', etag: 'm1', data: ['dal'] });
    open()[0]?.send('snapshot', { topic: '/api/kitchens', etag: 'k1', data: [] });
    expect(menu.seen).toEqual([['dal']]);
    expect(kitchens.seen).toEqual([[]]);
    expect(stream.isLive('/api/kitchens')).toBe(true);
    expect(stream.connections).toBe(1);
  });

  it('reopens with a new topic, naming the versions it holds, and never holds two connections', async () => {
    stream.follow('/api/kitchens', listener().l);
    await flush();
    sources[0]?.send('snapshot', { topic: '/api/kitchens', etag: 'v7', data: [] });
    stream.follow('/api/chat', listener().l);
    await flush();
    expect(sources).toHaveLength(2);
    expect(sources[0]?.closed).toBe(true);
    expect(open()[0]?.topics).toEqual(['/api/kitchens#v7', '/api/chat']);
    // Following a topic it already carries opens nothing.
    stream.follow('/api/chat', listener().l);
    await flush();
    expect(sources).toHaveLength(2);
  });

  it('drops a topic nobody follows a few seconds later; one followed again meanwhile stays', async () => {
    const unfollowMenu = stream.follow('/api/kitchens/k1/menu', listener().l);
    const unfollowKitchens = stream.follow('/api/kitchens', listener().l);
    await flush();
    unfollowMenu();
    await vi.advanceTimersByTimeAsync(4999);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(open()[0]?.topics).toEqual(['/api/kitchens']);
    unfollowKitchens();
    await vi.advanceTimersByTimeAsync(5000);
    expect(open()).toEqual([]);
    expect(stream.connections).toBe(0);
  });

  it('keeps what arrives between one page leaving a list and the next following it', async () => {
    const leaving = listener();
    const unfollow = stream.follow('/api/kitchens/k1/menu', leaving.l);
    await flush();
    sources[0]?.send('snapshot', { topic: '/api/kitchens/k1/menu', etag: 'm1', data: ['dal'] });
    unfollow(); // the menu page is gone; the cart page is not there yet
    sources[0]?.send('snapshot', { topic: '/api/kitchens/k1/menu', etag: 'm2', data: ['dal (sold out)'] });
    const arriving = listener();
    stream.follow('/api/kitchens/k1/menu', arriving.l);
    await flush();
    expect(sources).toHaveLength(1); // still carried: nothing reopened
    expect(arriving.seen).toEqual([['dal (sold out)']]);
    expect(leaving.seen).toEqual([['dal']]);
  });

  it('tells the followers of a topic the stream stopped serving, and leaves it out of the next connection', async () => {
    const order = listener();
    stream.follow('/api/orders/mine', order.l);
    stream.follow('/api/kitchens', listener().l);
    await flush();
    sources[0]?.send('ended', { topic: '/api/orders/mine', status: 401, message: 'Please sign in' });
    expect(order.ends).toEqual([{ topic: '/api/orders/mine', status: 401, message: 'Please sign in' }]);
    expect(stream.isLive('/api/orders/mine')).toBe(false);
    stream.follow('/api/chat', listener().l);
    await flush();
    expect(open()[0]?.topics).toEqual(['/api/kitchens', '/api/chat']);
  });

  it('counts a topic whose held version the server did not resend as live once the connection is ready', async () => {
    stream.follow('/api/kitchens', listener().l);
    await flush();
    sources[0]?.send('snapshot', { topic: '/api/kitchens', etag: 'v1', data: [] });
    sources[0]?.dispatchEvent(new Event('error'));
    expect(stream.isLive('/api/kitchens')).toBe(false);
    await vi.advanceTimersByTimeAsync(1000); // the reopen after a failure
    const again = open()[0];
    expect(again?.topics).toEqual(['/api/kitchens#v1']);
    again?.send('ready', { topics: 1 });
    expect(stream.isLive('/api/kitchens')).toBe(true);
  });

  it('applies a delta to the version it holds, and hands its followers the whole new value', async () => {
    const kitchens = listener();
    stream.follow('/api/kitchens', kitchens.l);
    await flush();
    const dal = { uid: 'a', name: 'Dal' };
    const taco = { uid: 'b', name: 'Taco' };
    sources[0]?.send('snapshot', { topic: '/api/kitchens', etag: 'v1', data: [dal, taco] });
    sources[0]?.send('delta', {
      topic: '/api/kitchens',
      from: 'v1',
      to: 'v2',
      ops: { a: [[1, 1], { v: { uid: 'c', name: 'Adobo' } }] },
    });
    expect(kitchens.seen).toEqual([
      [dal, taco],
      [taco, { uid: 'c', name: 'Adobo' }],
    ]);
    expect(stream.isLive('/api/kitchens')).toBe(true);
    // The version it holds now is the delta's: a reopen names it.
    stream.follow('/api/chat', listener().l);
    await flush();
    expect(open()[0]?.topics).toEqual(['/api/kitchens#v2', '/api/chat']);
  });

  it('asks again for a topic whose delta starts from a version it does not hold, and for that topic alone', async () => {
    const kitchens = listener();
    const chat = listener();
    stream.follow('/api/kitchens', kitchens.l);
    stream.follow('/api/chat', chat.l);
    await flush();
    sources[0]?.send('snapshot', { topic: '/api/kitchens', etag: 'v1', data: [1, 2] });
    sources[0]?.send('snapshot', { topic: '/api/chat', etag: 'c1', data: [] });
    sources[0]?.send('delta', { topic: '/api/kitchens', from: 'v0', to: 'v2', ops: { a: [[0, 1]] } });
    expect(kitchens.seen).toEqual([[1, 2]]);
    expect(stream.isLive('/api/kitchens')).toBe(false);
    expect(sources[0]?.closed).toBe(true);
    // The chat's version is still held, so only the kitchens are sent whole.
    expect(open()[0]?.topics).toEqual(['/api/kitchens', '/api/chat#c1']);
    // One that does not fit the value held (out of range) is asked for again too.
    open()[0]?.send('snapshot', { topic: '/api/kitchens', etag: 'v3', data: [1] });
    open()[0]?.send('delta', { topic: '/api/kitchens', from: 'v3', to: 'v4', ops: { a: [[0, 5]] } });
    expect(kitchens.seen).toEqual([[1, 2], [1]]);
    expect(open()[0]?.topics).toEqual(['/api/kitchens', '/api/chat#c1']);
    expect(sources).toHaveLength(3);
  });

  it("names a version the page came with on its first connection, and applies the next change to that page's data", async () => {
    const menu = listener();
    const dal = { uid: 'a', name: 'Dal' };
    stream.follow('/api/kitchens/k/menu', menu.l, { etag: 'p1', data: [dal] });
    // A second follower of the same topic brings no version of its own: the first one's stands.
    stream.follow('/api/kitchens/k/menu', listener().l, { etag: 'other', data: [] });
    await flush();
    expect(open()[0]?.topics).toEqual(['/api/kitchens/k/menu#p1']);
    expect(stream.isLive('/api/kitchens/k/menu')).toBe(false);
    open()[0]?.send('ready', { topics: 1 });
    // The server did not send it again: nothing to hand over, and what the page holds is the latest.
    expect(menu.seen).toEqual([]);
    expect(stream.isLive('/api/kitchens/k/menu')).toBe(true);
    open()[0]?.send('delta', {
      topic: '/api/kitchens/k/menu',
      from: 'p1',
      to: 'p2',
      ops: { a: [[0, 1], { v: { uid: 'b', name: 'Taco' } }] },
    });
    expect(menu.seen).toEqual([[dal, { uid: 'b', name: 'Taco' }]]);
  });
});
