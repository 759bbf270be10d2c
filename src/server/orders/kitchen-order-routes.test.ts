import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { KitchenOrder } from '../../shared/orders.js';
import { orders } from '../db/schema.js';
import { ChangeBus } from '../live/bus.js';
import { customerOrderTopic, kitchenOrdersTopic } from './order-topics.js';
import { buildKitchen, buildOrder } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { hostileLineTexts } from '../test/hostile-values.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const orderRow = async (ctx: TestContext, id: string) =>
  (await ctx.database.db.select().from(orders).where(eq(orders.id, id)))[0];

const isList = (d: unknown): d is KitchenOrder[] => Array.isArray(d);

describeEachEngine('the kitchen’s orders: /api/kitchen/orders', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const send = (method: 'GET' | 'PATCH' | 'DELETE', url: string, cookie?: string, body?: unknown) =>
    get().app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it('GET lists only this kitchen’s open orders, newest first, with item names and customer details', async () => {
    const mine = await buildKitchen(get(), { name: 'Mine' });
    const theirs = await buildKitchen(get(), { name: 'Theirs' });
    const c1 = await signedIn(get(), 'customer');
    const c2 = await signedIn(get(), 'customer');
    const c3 = await signedIn(get(), 'customer');
    const older = await buildOrder(get(), mine.kitchen, c1.user, [
      { item: 'Dal', priceCents: 950 },
      { item: 'Naan', priceCents: 300 },
    ]);
    const newer = await buildOrder(
      get(),
      mine.kitchen,
      c2.user,
      [{ item: 'Lassi', priceCents: 400 }],
      '7 Elm St',
    );
    await buildOrder(get(), theirs.kitchen, c3.user);
    const res = await send('GET', '/api/kitchen/orders', mine.cookie);
    expect(res.statusCode).toBe(200);
    const list = res.json<KitchenOrder[]>();
    expect(list.map((o) => o.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toMatchObject({
      customerEmail: c2.user.email,
      customerAddress: '7 Elm St',
      status: 'recieved',
      items: [{ item: 'Lassi', priceCents: 400 }],
      totalCents: 400 + 1045,
    });
    expect(list[1]?.items.map((i) => i.item)).toEqual(['Dal', 'Naan']);
  });

  it('GET refuses anonymous and customer sessions, and sends an owner without a kitchen to step 1', async () => {
    expect((await send('GET', '/api/kitchen/orders')).statusCode).toBe(401);
    const customer = await signedIn(get(), 'customer');
    expect((await send('GET', '/api/kitchen/orders', customer.cookie)).statusCode).toBe(401);
    const newcomer = await signedIn(get(), 'kitchen');
    const res = await send('GET', '/api/kitchen/orders', newcomer.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NO_KITCHEN' });
  });

  it('the stream is refused without a kitchen session and carries only this kitchen’s orders', async () => {
    await expect(openEventStream(`${baseUrl}/api/kitchen/orders`)).rejects.toThrow(/401/);
    const customer = await signedIn(get(), 'customer');
    await expect(
      openEventStream(`${baseUrl}/api/kitchen/orders`, { cookie: customer.cookie }),
    ).rejects.toThrow(/401/);
    const mine = await buildKitchen(get());
    const other = await buildKitchen(get());
    const stream = await openEventStream(`${baseUrl}/api/kitchen/orders`, { cookie: mine.cookie });
    try {
      await stream.waitFor((d) => isList(d) && d.length === 0);
      const c1 = await signedIn(get(), 'customer');
      const c2 = await signedIn(get(), 'customer');
      await buildOrder(get(), other.kitchen, c1.user, [{ item: 'Not mine', priceCents: 100 }]);
      const order = await buildOrder(get(), mine.kitchen, c2.user, [{ item: 'Mine', priceCents: 100 }]);
      const list = (await stream.waitFor((d) => isList(d) && d.length > 0)) as KitchenOrder[];
      expect(list.map((o) => o.id)).toEqual([order.id]);
      expect(stream.events.some((e) => e.data.includes('Not mine'))).toBe(false);
    } finally {
      stream.close();
    }
  });

  it('PATCH sets the status; the kitchen’s stream and the customer’s topic both hear of it', async () => {
    const { kitchen, cookie } = await buildKitchen(get());
    const customer = await signedIn(get(), 'customer');
    const order = await buildOrder(get(), kitchen, customer.user);
    const stream = await openEventStream(`${baseUrl}/api/kitchen/orders`, { cookie });
    // The change bus every instance listens to: the customer's status page hears of the change through it.
    const changed: string[] = [];
    const bus = new ChangeBus(get().database);
    bus.on('changed', (m) => changed.push(m.topic));
    const stopListening = await bus.listen();
    try {
      await stream.waitFor((d) => isList(d) && d[0]?.status === 'recieved');
      const res = await send('PATCH', `/api/kitchen/orders/${order.id}`, cookie, {
        status: ' Out for delivery ',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: order.id,
        status: 'Out for delivery',
        items: [{ item: 'Dal' }],
      });
      expect((await orderRow(get(), order.id))?.status).toBe('Out for delivery');
      await stream.waitFor((d) => isList(d) && d[0]?.status === 'Out for delivery');
      await expect.poll(() => changed).toContain(customerOrderTopic.key(customer.user.id));
      expect(changed).toContain(kitchenOrdersTopic.key(kitchen.uid));
    } finally {
      await stopListening();
      stream.close();
    }
  });

  it.each([
    ['', 'status'],
    ['   ', 'status'],
    ['x'.repeat(61), 'status'],
    [7, 'status'],
    ['Ready\u0000', 'status'],
    ...hostileLineTexts.map((text): [string, string] => [text, 'status']),
  ])('PATCH refuses status %j with a 400 naming it, changing nothing', async (status, field) => {
    const { kitchen, cookie } = await buildKitchen(get());
    const customer = await signedIn(get(), 'customer');
    const order = await buildOrder(get(), kitchen, customer.user);
    const res = await send('PATCH', `/api/kitchen/orders/${order.id}`, cookie, { status });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
    expect(await orderRow(get(), order.id)).toEqual(order);
  });

  it('PATCH and DELETE refuse a malformed id (400 naming id) and an unknown one (404)', async () => {
    const { cookie } = await buildKitchen(get());
    expect((await send('PATCH', '/api/kitchen/orders/x', cookie, { status: 'Done' })).json()).toMatchObject({
      field: 'id',
    });
    expect((await send('DELETE', '/api/kitchen/orders/x', cookie)).json()).toMatchObject({ field: 'id' });
    expect(
      (await send('PATCH', `/api/kitchen/orders/${randomUUID()}`, cookie, { status: 'Done' })).statusCode,
    ).toBe(404);
    expect((await send('DELETE', `/api/kitchen/orders/${randomUUID()}`, cookie)).statusCode).toBe(404);
  });

  it('PATCH and DELETE refuse anonymous, customer (even the order’s own) and another owner, changing nothing', async () => {
    const { kitchen } = await buildKitchen(get());
    const customer = await signedIn(get(), 'customer');
    const order = await buildOrder(get(), kitchen, customer.user);
    const other = await buildKitchen(get());
    for (const cookie of [undefined, customer.cookie, other.cookie]) {
      const patched = await send('PATCH', `/api/kitchen/orders/${order.id}`, cookie, { status: 'Hacked' });
      const deleted = await send('DELETE', `/api/kitchen/orders/${order.id}`, cookie);
      const expected = cookie === other.cookie ? 404 : 401;
      expect(patched.statusCode).toBe(expected);
      expect(deleted.statusCode).toBe(expected);
    }
    expect(await orderRow(get(), order.id)).toEqual(order);
  });

  it('DELETE archives that one order: it leaves the live list, stays in the database, and the customer may order again', async () => {
    const { kitchen, cookie } = await buildKitchen(get());
    const customer = await signedIn(get(), 'customer');
    const neighbour = await signedIn(get(), 'customer');
    const order = await buildOrder(get(), kitchen, customer.user);
    const kept = await buildOrder(get(), kitchen, neighbour.user);
    const changed: string[] = [];
    const bus = new ChangeBus(get().database);
    bus.on('changed', (m) => changed.push(m.topic));
    const stopListening = await bus.listen();
    const stream = await openEventStream(`${baseUrl}/api/kitchen/orders`, { cookie });
    try {
      await stream.waitFor((d) => isList(d) && d.length === 2);
      const res = await send('DELETE', `/api/kitchen/orders/${order.id}`, cookie);
      expect(res.statusCode).toBe(204);
      await stream.waitFor((d) => isList(d) && d.length === 1 && d[0]?.id === kept.id);
      await expect.poll(() => changed).toContain(customerOrderTopic.key(customer.user.id));
      const row = await orderRow(get(), order.id);
      expect(row?.archivedAt).toBeInstanceOf(Date);
      expect((await orderRow(get(), kept.id))?.archivedAt).toBeNull();
      // Archived: no longer updatable or deletable, and no longer the customer's open order.
      expect(
        (await send('PATCH', `/api/kitchen/orders/${order.id}`, cookie, { status: 'Late' })).statusCode,
      ).toBe(404);
      expect((await send('DELETE', `/api/kitchen/orders/${order.id}`, cookie)).statusCode).toBe(404);
      const again = await buildOrder(get(), kitchen, customer.user);
      await stream.waitFor((d) => isList(d) && d.length === 2 && d[0]?.id === again.id);
    } finally {
      await stopListening();
      stream.close();
    }
  });
});
