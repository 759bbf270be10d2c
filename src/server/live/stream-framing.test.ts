import net from 'node:net';
import { expect, it } from 'vitest';
import { buildKitchen } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';

/**
 * The bytes of a live stream as they come off the socket, read by a parser of our own that accepts only HTTP/1.1 as
 * RFC 9112 frames it: the status line first, the header fields, then the body as chunks (§7.1), each its size in hex,
 * CRLF, that many bytes and CRLF. A chunk written to the socket before its response's head (issue 49: Node 24.22
 * holds the head and each tick's writes in the response until the next tick) fails here on its first byte, as it
 * failed curl ("Received HTTP/0.9") and Chromium's EventSource.
 */
interface Framed {
  status: number;
  headers: Map<string, string>;
  /** The body so far, the chunks joined. */
  body: string;
}

class Http11Reader {
  private buffer = Buffer.alloc(0);
  /** The responses read whole (a stream's is never whole: see `current`). */
  readonly responses: Framed[] = [];
  current: Framed | undefined;
  private inBody = false;
  private chunked = false;
  private remaining = 0;

  push(bytes: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, bytes]);
    for (;;) if (!this.step()) return;
  }

  /** Reads what it can; false when it needs more bytes. Throws on bytes that are not HTTP/1.1. */
  private step(): boolean {
    if (!this.inBody) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        this.expectStatusLine(this.buffer.toString('latin1'));
        return false;
      }
      const [statusLine = '', ...fields] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      this.expectStatusLine(statusLine);
      const headers = new Map<string, string>();
      for (const field of fields) {
        const colon = field.indexOf(':');
        if (colon <= 0) throw new Error(`not a header field: ${JSON.stringify(field)}`);
        headers.set(field.slice(0, colon).toLowerCase(), field.slice(colon + 1).trim());
      }
      this.current = { status: Number(statusLine.slice(9, 12)), headers, body: '' };
      this.buffer = this.buffer.subarray(end + 4);
      this.inBody = true;
      this.chunked = headers.get('transfer-encoding') === 'chunked';
      this.remaining = this.chunked ? -1 : Number(headers.get('content-length') ?? 0);
      if (!this.chunked && this.remaining === 0) this.finish();
      return true;
    }
    const current = this.current!;
    if (!this.chunked) {
      const take = Math.min(this.remaining, this.buffer.length);
      current.body += this.buffer.subarray(0, take).toString('utf8');
      this.buffer = this.buffer.subarray(take);
      this.remaining -= take;
      if (this.remaining === 0) this.finish();
      return take > 0;
    }
    const line = this.buffer.indexOf('\r\n');
    if (line < 0) {
      if (!/^[0-9a-f]*$/i.test(this.buffer.toString('latin1')))
        throw new Error('a chunk size that is not hex');
      return false;
    }
    const sizeText = this.buffer.subarray(0, line).toString('latin1');
    if (!/^[0-9a-f]+$/i.test(sizeText))
      throw new Error(`a chunk size that is not hex: ${JSON.stringify(sizeText)}`);
    const size = parseInt(sizeText, 16);
    if (this.buffer.length < line + 2 + size + 2) return false;
    const data = this.buffer.subarray(line + 2, line + 2 + size);
    if (this.buffer.subarray(line + 2 + size, line + 4 + size).toString('latin1') !== '\r\n')
      throw new Error('a chunk not followed by CRLF');
    this.buffer = this.buffer.subarray(line + 4 + size);
    if (size === 0) this.finish();
    else current.body += data.toString('utf8');
    return true;
  }

  private expectStatusLine(text: string) {
    const want = 'HTTP/1.1 ';
    const start = text.slice(0, want.length);
    if (!want.startsWith(start)) throw new Error(`the response starts ${JSON.stringify(text.slice(0, 40))}`);
    if (text.includes('\r\n') && !/^HTTP\/1\.1 \d{3} /.test(text)) throw new Error('not a status line');
  }

  private finish() {
    this.responses.push(this.current!);
    this.current = undefined;
    this.inBody = false;
  }
}

/**
 * Sends `requests` on one connection (pipelined when several: each response then waits for the one before it) and
 * reads until `done` says the bytes so far are enough. Rejects on the first byte that is not HTTP/1.1.
 */
function exchange(port: number, requests: string[], done: (reader: Http11Reader) => boolean) {
  return new Promise<Http11Reader>((resolve, reject) => {
    const reader = new Http11Reader();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(requests.join('')));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`not enough in time: ${JSON.stringify(reader.current?.body.slice(0, 300))}`));
    }, 10_000);
    const stop = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(reader);
    };
    socket.on('data', (bytes) => {
      try {
        reader.push(bytes);
      } catch (error) {
        stop(error as Error);
        return;
      }
      if (done(reader)) stop();
    });
    socket.on('error', stop);
  });
}

const liveUrl = (topics: string[]) =>
  `/api/live?${topics.map((t) => `t=${encodeURIComponent(t)}`).join('&')}`;
const liveRequest = (topics: string[], cookie?: string) =>
  `GET ${liveUrl(topics)} HTTP/1.1\r\n` +
  `Host: 127.0.0.1\r\nAccept: text/event-stream\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\n`;

/** The stream's events, by name, with their data parsed. */
const eventsIn = (body: string) =>
  body
    .split('\n\n')
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: /^data: (.*)$/m.exec(block)?.[1],
    }))
    .filter((e): e is { event: string; data: string } => e.event !== undefined && e.data !== undefined)
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) as { topic?: string; etag?: string } }));

const snapshotsIn = (reader: Http11Reader) =>
  eventsIn(reader.current?.body ?? '').filter((e) => e.event === 'snapshot');
const readyIn = (reader: Http11Reader) =>
  eventsIn(reader.current?.body ?? '').some((e) => e.event === 'ready');

describeEachEngine('a live stream on the wire', (get) => {
  let port = 0;
  const listen = async () => {
    if (!port) {
      const address = await get().app.listen({ port: 0, host: '127.0.0.1' });
      port = Number(new URL(address).port);
    }
    return port;
  };

  /** Opens a stream of `topics` and reads it until its `ready` event: every way it starts, checked as bytes. */
  const stream = async (
    topics: string[],
    cookie?: string,
    before: string[] = [],
    done: (reader: Http11Reader) => boolean = (r) => readyIn(r) && snapshotsIn(r).length >= 1,
  ) => {
    const reader = await exchange(await listen(), [...before, liveRequest(topics, cookie)], done);
    const response = reader.current!;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.body.startsWith('retry: 1500\n\n')).toBe(true);
    return { reader, events: eventsIn(response.body) };
  };

  // Each start is made several times: what overtook the head did so only as Node's ticks happened to fall.
  const TIMES = 5;

  it('a cold topic: the head comes first', async () => {
    for (let i = 0; i < TIMES; i++) {
      const { kitchen } = await buildKitchen(get()); // a menu nobody has asked for yet
      const menu = `/api/kitchens/${kitchen.uid}/menu`;
      const { events } = await stream([menu]);
      expect(events.filter((e) => e.event === 'snapshot').map((e) => e.data.topic)).toEqual([menu]);
    }
  });

  it('a cached topic (written as it is asked for): the head comes first', async () => {
    const { kitchen } = await buildKitchen(get());
    const menu = `/api/kitchens/${kitchen.uid}/menu`;
    // While one tab follows it, the hub holds the topic: the next streams are sent it in the tick they ask.
    const holder = await openEventStream(`http://127.0.0.1:${await listen()}${liveUrl([menu])}`);
    try {
      await holder.waitFor((data) => (data as { topic?: string }).topic === menu);
      for (let i = 0; i < TIMES; i++) {
        const { events } = await stream([menu]);
        expect(events.map((e) => e.event).toSorted()).toEqual(['ready', 'snapshot']);
      }
    } finally {
      holder.close();
    }
  });

  it('several topics, some cached and some not: the head first, every topic once', async () => {
    const { kitchen } = await buildKitchen(get());
    const menu = `/api/kitchens/${kitchen.uid}/menu`;
    const holder = await openEventStream(
      `http://127.0.0.1:${await listen()}${liveUrl(['/api/kitchens', '/api/kitchens/first-page', menu])}`,
    );
    try {
      await holder.waitFor((data) => (data as { topic?: string }).topic === menu);
      for (let i = 0; i < TIMES; i++) {
        const { kitchen: cold } = await buildKitchen(get());
        const coldMenu = `/api/kitchens/${cold.uid}/menu`;
        const topics = ['/api/kitchens', coldMenu, '/api/kitchens/first-page', menu];
        // Read until every snapshot has come, before `ready` (cached) or after it (loading when `ready` was written).
        const { events } = await stream(
          topics,
          undefined,
          [],
          (r) => readyIn(r) && snapshotsIn(r).length >= 4,
        );
        const sent = events.filter((e) => e.event === 'snapshot').map((e) => e.data.topic);
        expect(sent.toSorted()).toEqual(topics.toSorted());
      }
    } finally {
      holder.close();
    }
  });

  it('a reconnect naming the versions it holds: the head first, nothing sent again', async () => {
    const { kitchen } = await buildKitchen(get());
    const menu = `/api/kitchens/${kitchen.uid}/menu`;
    const first = await stream([menu, '/api/kitchens'], undefined, [], (r) => snapshotsIn(r).length >= 2);
    const etags = new Map(
      first.events.filter((e) => e.event === 'snapshot').map((e) => [e.data.topic, e.data.etag]),
    );
    expect(etags.get(menu)).toBeTruthy();
    for (let i = 0; i < TIMES; i++) {
      const { events } = await stream([`${menu}#${etags.get(menu)}`, '/api/kitchens']);
      const sent = events.filter((e) => e.event === 'snapshot').map((e) => e.data.topic);
      expect(sent).not.toContain(menu);
    }
  });

  it('a refused topic beside a cached one: the head first, the refusal in the body', async () => {
    const customer = await signedIn(get(), 'customer');
    await stream(['/api/kitchens']);
    for (let i = 0; i < TIMES; i++) {
      const { events } = await stream(['/api/orders/mine', '/api/kitchens', '/api/nowhere']);
      expect(events.filter((e) => e.event === 'ended').map((e) => e.data.topic)).toEqual([
        '/api/orders/mine',
        '/api/nowhere',
      ]);
      // Signed in, the same topic is granted.
      const granted = await stream(['/api/orders/mine', '/api/kitchens'], customer.cookie);
      expect(granted.events.filter((e) => e.event === 'snapshot').length).toBeGreaterThanOrEqual(1);
    }
  });

  it('a stream asked for on a kept-alive connection, behind another answer: each response whole, in order', async () => {
    await stream(['/api/kitchens']);
    for (let i = 0; i < TIMES; i++) {
      const { reader } = await stream(['/api/kitchens'], undefined, [
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      ]);
      expect(reader.responses).toHaveLength(1);
      expect(reader.responses[0]!.status).toBe(200);
    }
  });
});
