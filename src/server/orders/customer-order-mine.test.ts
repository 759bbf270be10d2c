import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../shared/opening-hours.js';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import { menuItems, orders } from '../db/schema.js';
import { registerKitchen } from '../kitchens/kitchen-service.js';
import { mutate } from '../events/mutate.js';
import { openEventStream } from '../test/event-stream.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { placeOrder } from './place-order.js';

async function kitchenWithItem(ctx: TestContext) {
  const { user } = await signedIn(ctx, 'kitchen');
  const kitchen = await registerKitchen(ctx.app, user, {
    name: `Nonna ${randomUUID().slice(0, 6)}`,
    category: 'Italian',
    address: '3 Via Roma',
    imageLink: 'https://img.example/k.png',
    hours: ALL_DAY_HOURS,
  });
  if (!kitchen) throw new Error('kitchen not created');
  const [item] = await ctx.database.db
    .insert(menuItems)
    .values({
      kitchenId: kitchen.uid,
      item: 'Gnocchi',
      priceCents: 1225,
      wait: '25 min',
      imageLink: '/x.png',
    })
    .returning();
  return { kitchen, itemId: item!.id };
}

/** What the kitchen's status update does: change the row and announce the customer's topic. */
function setStatus(ctx: TestContext, order: CustomerOrder, customerId: string, change: object) {
  return mutate(ctx.app, async (tx, record) => {
    await tx.update(orders).set(change).where(eq(orders.id, order.id));
    record({ type: 'order.status-set', orderId: order.id, kitchenUid: order.kitchenUid, customerId });
  });
}

describeEachEngine("the customer's open order", (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });

  async function customerWithOrder() {
    const { kitchen, itemId } = await kitchenWithItem(get());
    const customer = await signedIn(get(), 'customer');
    const { order } = await placeOrder(get().app, customer.user, {
      kitchenUid: kitchen.uid,
      itemIds: [itemId],
      address: '3 Via Roma',
      idempotencyKey: `k-${randomUUID()}`,
    });
    return { ...customer, order, kitchen };
  }

  it('answers the order to its customer (still shown, as deleted, once the kitchen deletes it), null to another', async () => {
    const { cookie, user, order, kitchen } = await customerWithOrder();
    const mine = await get().app.inject({ url: '/api/orders/mine', headers: { cookie } });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      id: order.id,
      kitchenName: kitchen.name,
      status: 'recieved',
      items: [{ item: 'Gnocchi', priceCents: 1225 }],
      totalCents: 1225 + 1045,
    });
    const other = await signedIn(get(), 'customer');
    const theirs = await get().app.inject({ url: '/api/orders/mine', headers: { cookie: other.cookie } });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toBeNull();
    await setStatus(get(), order, user.id, { archivedAt: new Date() });
    expect((await get().app.inject({ url: '/api/orders/mine', headers: { cookie } })).json()).toMatchObject({
      id: order.id,
      deleted: true,
    });
  });

  it('refuses anonymous callers and kitchen sessions', async () => {
    expect((await get().app.inject('/api/orders/mine')).statusCode).toBe(401);
    const cook = await signedIn(get(), 'kitchen');
    const res = await get().app.inject({ url: '/api/orders/mine', headers: { cookie: cook.cookie } });
    expect(res.statusCode).toBe(401);
    await expect(openEventStream(`${baseUrl}/api/orders/mine`, { cookie: cook.cookie })).rejects.toThrow(
      /401/,
    );
  });

  it('streams the order: placed, its new status, then deleted by the kitchen; nothing of other customers', async () => {
    const { kitchen, itemId } = await kitchenWithItem(get());
    const customer = await signedIn(get(), 'customer');
    const stream = await openEventStream(`${baseUrl}/api/orders/mine`, { cookie: customer.cookie });
    try {
      await stream.waitFor((d) => d === null);
      // Another customer's order is not on this stream.
      const stranger = await customerWithOrder();
      await setStatus(get(), stranger.order, stranger.user.id, { status: 'cooking' });
      const { order } = await placeOrder(get().app, customer.user, {
        kitchenUid: kitchen.uid,
        itemIds: [itemId],
        address: '1 Main St',
        idempotencyKey: `k-${randomUUID()}`,
      });
      await stream.waitFor((d) => (d as CustomerOrder | null)?.id === order.id);
      await setStatus(get(), order, customer.user.id, { status: 'On the way' });
      await stream.waitFor((d) => (d as CustomerOrder | null)?.status === 'On the way');
      await setStatus(get(), order, customer.user.id, { archivedAt: new Date() });
      await stream.waitFor((d) => (d as CustomerOrder | null)?.deleted === true);
      const seen = stream.events.map((e) => JSON.parse(e.data) as CustomerOrder | null);
      expect(seen.every((o) => o === null || o.id === order.id)).toBe(true);
    } finally {
      stream.close();
    }
  });
});
