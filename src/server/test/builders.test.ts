import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { notify } from '../db/database.js';
import { buildKitchen, buildMenuItem, buildOrder } from './builders.js';
import { describeEachEngine, signedIn, type TestContext } from './test-app.js';

/** The topics announced while `act` runs, and what it wrote of the order's history. */
const listening = new WeakSet<TestContext['app']>();
let topics = new Set<string>();
const waiting = new Map<string, () => void>();
let barriers = 0;
async function observe(ctx: TestContext, act: () => Promise<{ id: string }>) {
  if (!listening.has(ctx.app)) {
    listening.add(ctx.app);
    ctx.app.bus.on('changed', ({ topic }) => {
      const marked = waiting.get(topic);
      if (marked) marked();
      else topics.add(topic);
    });
  }
  // Earlier writes' notices come back through LISTEN/NOTIFY after their commit (on PostgreSQL, later than the
  // writer's own delivery). Notices arrive in commit order, so once a marker sent now is back, all of them are.
  const marker = `barrier:${++barriers}`;
  const back = new Promise<void>((resolve) => waiting.set(marker, resolve));
  await notify(ctx.database.db, JSON.stringify({ type: 'changed', topic: marker }));
  await back;
  waiting.delete(marker);
  topics = new Set();
  const { id } = await act();
  const { rows } = (await ctx.database.db.execute(
    sql`select state, by_role from order_events where order_id = ${id}`,
  )) as unknown as { rows: { state: string; by_role: string }[] };
  return { id, topics, events: rows };
}

/** A topic's kind and whose it is (`orders:<kitchen>` → `orders:kitchen`), so two kitchens' orders compare. */
const shape = (topics: Set<string>, ids: Record<string, string>) =>
  [...topics]
    .map((topic) => Object.entries(ids).reduce((t, [name, id]) => t.replaceAll(id, name), topic))
    .sort();

describeEachEngine('the test builders', (get) => {
  it('buildOrder writes and announces an order as the order route does', async () => {
    const ctx = get();
    const { kitchen } = await buildKitchen(ctx);
    const dish = await buildMenuItem(ctx, kitchen);
    const viaApi = await signedIn(ctx, 'customer');
    const viaBuilder = await signedIn(ctx, 'customer');
    const real = await observe(ctx, async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie: viaApi.cookie, 'content-type': 'application/json' },
        payload: {
          kitchenUid: kitchen.uid,
          itemIds: [dish.id],
          address: '1 Road',
          idempotencyKey: 'builder-1',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>();
    });
    const built = await observe(ctx, () => buildOrder(ctx, kitchen, viaBuilder.user));
    expect(real.topics.size).toBeGreaterThanOrEqual(4);
    expect(
      shape(built.topics, { kitchen: kitchen.uid, customer: viaBuilder.user.id, order: built.id }),
    ).toEqual(shape(real.topics, { kitchen: kitchen.uid, customer: viaApi.user.id, order: real.id }));
    expect(built.events).toEqual(real.events);
    expect(real.events).toEqual([{ state: 'recieved', by_role: 'customer' }]);
  });
});
