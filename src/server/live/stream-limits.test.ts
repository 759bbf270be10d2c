import { expect, it } from 'vitest';
import { hashToken } from '../identity/sessions.js';
import { openEventStream, type EventStream } from '../test/event-stream.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';

/** Polls `done` until it holds (a stream's close reaches the server a moment after the client's). */
async function until(done: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeEachEngine(
  'live streams one client may hold',
  (get) => {
    it('caps the streams of a session and of an address, with a clear refusal, and frees a place on close', async () => {
      const ctx = get();
      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const streams: EventStream[] = [];
      const open = async (path: string, cookie?: string) => {
        const stream = await openEventStream(`${base}${path}`, cookie ? { cookie } : {});
        streams.push(stream);
        return stream;
      };
      const refusal = (path: string, cookie?: string) =>
        fetch(`${base}${path}`, {
          headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) },
        });
      try {
        const a = await signedIn(ctx, 'customer');
        const b = await signedIn(ctx, 'customer');
        await open('/api/kitchens', a.cookie);
        await open('/api/chat', a.cookie);
        // A session's third stream (LIVE_STREAMS_PER_SESSION=2), whatever the topic.
        const third = await refusal('/api/kitchens', a.cookie);
        expect(third.status).toBe(429);
        expect(third.headers.get('retry-after')).toBeTruthy();
        expect(await third.json()).toMatchObject({
          code: 'RATE_LIMITED',
          message: 'Too many live connections from here: close a few tabs and try again',
        });
        // Another session from the same address may, up to the address's 4.
        await open('/api/kitchens', b.cookie);
        await open('/api/kitchens');
        expect((await refusal('/api/kitchens')).status).toBe(429);
        // A made-up cookie changes nothing: the address is full.
        expect((await refusal('/api/kitchens', `customer_session=${'x'.repeat(43)}`)).status).toBe(429);
        // A plain read is no stream: never refused.
        expect((await fetch(`${base}/api/kitchens`)).status).toBe(200);
        // A stream closed gives its place back.
        const tokenA = a.cookie.split('=')[1] ?? '';
        streams[0]?.close();
        await until(() => ctx.app.hub.heldBy({ session: hashToken(tokenA) }) === 1, 'the place to come back');
        await open('/api/kitchens', a.cookie);
        expect(ctx.app.hub.heldBy({ address: '127.0.0.1' })).toBe(4);
      } finally {
        for (const stream of streams) stream.close();
      }
      await until(() => ctx.app.hub.heldBy({ address: '127.0.0.1' }) === 0, 'every place to come back');
    });
  },
  { LIVE_STREAMS_PER_SESSION: '2', LIVE_STREAMS_PER_ADDRESS: '4' },
);
