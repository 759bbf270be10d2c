import { expect, it } from 'vitest';
import type { LiveTopicDelta, LiveTopicEnd, LiveTopicSnapshot } from '../../shared/live.js';
import { applyDelta } from '../../shared/live-delta.js';
import { buildKitchen, buildMenuItem, buildOrder } from '../test/builders.js';
import { openEventStream, type EventStream } from '../test/event-stream.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';

const live = (...topics: string[]) =>
  `/api/live?${topics.map((t) => `t=${encodeURIComponent(t)}`).join('&')}`;

/** The tagged events of a tab's stream, by name. */
const eventsOf = (stream: EventStream, name: string) =>
  stream.events
    .filter((e) => e.event === name)
    .map((e) => JSON.parse(e.data) as LiveTopicSnapshot & LiveTopicEnd);

/** Waits for the stream's event `name` about `topic` whose data passes `test`. */
function waitForEvent(
  stream: EventStream,
  name: string,
  topic: string,
  test: (event: LiveTopicSnapshot & LiveTopicEnd) => boolean = () => true,
  timeoutMs = 5000,
) {
  const end = Date.now() + timeoutMs;
  return new Promise<LiveTopicSnapshot & LiveTopicEnd>((resolve, reject) => {
    const look = () => {
      const found = eventsOf(stream, name).find((e) => e.topic === topic && test(e));
      if (found) return resolve(found);
      if (Date.now() > end) return reject(new Error(`no ${name} of ${topic} in time`));
      setTimeout(look, 10);
    };
    look();
  });
}

/**
 * The value of `topic` a tab rebuilds from the stream's snapshots and deltas (each delta applied to the version it
 * starts from, as the browser does: src/web/live/tab-stream.ts), and the version it is.
 */
function valueOf(stream: EventStream, topic: string) {
  let held: { etag: string; data: unknown } | undefined;
  for (const { event, data } of stream.events) {
    if (event === 'snapshot') {
      const snap = JSON.parse(data) as LiveTopicSnapshot;
      if (snap.topic === topic) held = { etag: snap.etag, data: snap.data };
    } else if (event === 'delta') {
      const delta = JSON.parse(data) as LiveTopicDelta;
      if (delta.topic !== topic) continue;
      if (held?.etag !== delta.from) throw new Error(`a delta of ${topic} from a version not held`);
      held = { etag: delta.to, data: applyDelta(held.data, delta.ops) };
    }
  }
  return held;
}

/** Waits until the value of `topic` the tab rebuilds passes `test`. */
function waitForValue(
  stream: EventStream,
  topic: string,
  test: (data: unknown) => boolean,
  timeoutMs = 5000,
) {
  const end = Date.now() + timeoutMs;
  return new Promise<{ etag: string; data: unknown }>((resolve, reject) => {
    const look = () => {
      const held = valueOf(stream, topic);
      if (held && test(held.data)) return resolve(held);
      if (Date.now() > end) return reject(new Error(`no value of ${topic} in time`));
      setTimeout(look, 10);
    };
    look();
  });
}

describeEachEngine(
  "a tab's one live stream",
  (get) => {
    let base = '';
    const open = async (path: string, cookie?: string) => {
      base ||= await get().app.listen({ port: 0, host: '127.0.0.1' });
      return openEventStream(`${base}${path}`, cookie ? { cookie } : {});
    };

    it('carries every topic the tab watches, each snapshot tagged, each change live', async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const menu = `/api/kitchens/${kitchen.uid}/menu`;
      const stream = await open(
        live('/api/kitchens', menu, '/api/orders/mine', '/api/chat'),
        customer.cookie,
      );
      try {
        for (const topic of ['/api/kitchens', menu, '/api/orders/mine', '/api/chat'])
          await waitForEvent(stream, 'snapshot', topic);
        expect(stream.events.some((e) => e.event === 'ready')).toBe(true);
        // A change of each kind arrives, tagged with its topic.
        await buildMenuItem(ctx, kitchen, { item: 'Tagged dal' });
        await waitForValue(stream, menu, (data) => JSON.stringify(data).includes('Tagged dal'));
        const order = await buildOrder(ctx, kitchen, customer.user);
        await waitForValue(stream, '/api/orders/mine', (data) => JSON.stringify(data).includes(order.id));
        const said = await ctx.app.inject({
          method: 'POST',
          url: '/api/chat',
          headers: {
            cookie: customer.cookie,
            'content-type': 'application/json',
            origin: ctx.config.publicUrl,
          },
          payload: { text: 'one stream' },
        });
        expect(said.statusCode).toBe(201);
        await waitForValue(stream, '/api/chat', (data) => JSON.stringify(data).includes('one stream'));
        // One connection: the hub counts one stream for this address.
        expect(ctx.app.hub.heldBy({ address: '127.0.0.1' })).toBe(1);
      } finally {
        stream.close();
      }
    });

    it('refuses a topic as its own route would, and goes on with the others', async () => {
      const stream = await open(live('/api/orders/mine', '/api/kitchens', '/api/nowhere/at/all'));
      try {
        expect(await waitForEvent(stream, 'ended', '/api/orders/mine')).toMatchObject({ status: 401 });
        expect(await waitForEvent(stream, 'ended', '/api/nowhere/at/all')).toMatchObject({ status: 404 });
        await waitForEvent(stream, 'snapshot', '/api/kitchens');
      } finally {
        stream.close();
      }
    });

    it('ends exactly the topics a sign-out takes away', async () => {
      const ctx = get();
      const customer = await signedIn(ctx, 'customer');
      const stream = await open(live('/api/orders/mine', '/api/kitchens'), customer.cookie);
      try {
        await waitForEvent(stream, 'snapshot', '/api/orders/mine');
        const out = await fetch(`${base}/auth/customer/sign-out`, {
          method: 'POST',
          headers: { cookie: customer.cookie, origin: ctx.config.publicUrl },
        });
        expect(out.status).toBe(204);
        await waitForEvent(stream, 'ended', '/api/orders/mine');
        // The public list goes on: a kitchen registered now arrives.
        const { kitchen } = await buildKitchen(ctx, { name: 'After sign-out' });
        await waitForValue(stream, '/api/kitchens', (data) => JSON.stringify(data).includes(kitchen.uid));
      } finally {
        stream.close();
      }
    });

    it("ends a kitchen's dishes for the public when it is suspended, and says a deleted kitchen's are missing", async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      const menu = `/api/kitchens/${kitchen.uid}/menu`;
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const stream = await open(live(menu, '/api/kitchens'));
      try {
        await waitForEvent(stream, 'snapshot', menu);
        const suspended = await ctx.app.inject({
          method: 'POST',
          url: `/api/operator/kitchens/${kitchen.uid}/suspend`,
          headers: {
            cookie: operator.cookie,
            'content-type': 'application/json',
            origin: ctx.config.publicUrl,
          },
          payload: {},
        });
        expect(suspended.statusCode).toBe(200);
        await waitForEvent(stream, 'ended', menu);
        expect(eventsOf(stream, 'ended').filter((e) => e.topic === '/api/kitchens')).toEqual([]);
      } finally {
        stream.close();
      }
    });

    it('does not send again a version the tab says it holds, and sends the next', async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      // A few dishes, so that one more is a delta smaller than the menu.
      for (const item of ['Dal', 'Roti', 'Kheer', 'Samosa']) await buildMenuItem(ctx, kitchen, { item });
      const menu = `/api/kitchens/${kitchen.uid}/menu`;
      const first = await open(live(menu));
      const { etag } = await waitForEvent(first, 'snapshot', menu);
      first.close();
      const again = await open(live(`${menu}#${etag}`, '/api/kitchens'));
      try {
        await waitForEvent(again, 'snapshot', '/api/kitchens');
        await again.waitFor((data) => typeof data === 'object' && data !== null && 'topics' in data);
        expect(eventsOf(again, 'snapshot').filter((e) => e.topic === menu)).toEqual([]);
        await buildMenuItem(ctx, kitchen, { item: 'After the reconnect' });
        // What changed, from the version it said it holds.
        const delta = (await again.waitFor(
          (data) => typeof data === 'object' && data !== null && 'ops' in data,
        )) as LiveTopicDelta;
        expect(delta).toMatchObject({ topic: menu, from: etag });
        expect(delta.to).not.toBe(etag);
        expect(eventsOf(again, 'snapshot').filter((e) => e.topic === menu)).toEqual([]);
        const next = applyDelta(valueOf(first, menu)?.data, delta.ops);
        expect(JSON.stringify(next)).toContain('After the reconnect');
        const menuNow = await ctx.app.inject({ url: menu });
        expect(next).toEqual(menuNow.json());
      } finally {
        again.close();
      }
    });

    it('answers bad requests with a clear 400', async () => {
      const ctx = get();
      const plain = await ctx.app.inject({ url: live('/api/kitchens') });
      expect(plain.statusCode).toBe(400);
      expect(plain.json()).toMatchObject({ field: 'accept' });
      const tooMany = await ctx.app.inject({
        url: live(...Array.from({ length: 51 }, (_, i) => `/api/kitchens/${i}/menu`)),
        headers: { accept: 'text/event-stream' },
      });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toMatchObject({ code: 'VALIDATION', field: 't' });
    });
  },
  operatorEnv,
);
