import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import type { CustomerOrder, KitchenOrder, OrderAgain } from '../../shared/orders.js';
import { orderEvents, orders } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

/** A kitchen with a dish, and a customer who ordered it through the API. */
async function world(ctx: TestContext) {
  const cook = await buildKitchen(ctx, { name: `Lola ${randomUUID().slice(0, 6)}` });
  const dal = await buildMenuItem(ctx, cook.kitchen, { item: 'Dal', price: '9.50' });
  const rice = await buildMenuItem(ctx, cook.kitchen, { item: 'Rice', price: '3' });
  const customer = await signedIn(ctx, 'customer');
  const order = await place(ctx, customer.cookie, cook.kitchen.uid, [dal, dal, rice]);
  expect(order.statusCode).toBe(201);
  return { cook, dal, rice, customer, order: order.json<CustomerOrder>() };
}

const place = (ctx: TestContext, cookie: string, kitchenUid: string, items: MenuItem[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie },
    payload: { kitchenUid, itemIds: items.map((i) => i.id), address: '4 Lane', idempotencyKey: randomUUID() },
  });

/** The order's row and its recorded steps, to prove a refused call changed nothing. */
async function stored(ctx: TestContext, id: string) {
  const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, id));
  const events = await ctx.database.db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, id))
    .orderBy(asc(orderEvents.createdAt));
  return { row, events };
}

describeEachEngine('the order lifecycle', (get) => {
  const move = (cookie: string, id: string, body: object) =>
    get().app.inject({
      method: 'POST',
      url: `/api/kitchen/orders/${id}/moves`,
      headers: { cookie },
      payload: body,
    });
  const cancel = (cookie: string, id: string, body: object = {}) =>
    get().app.inject({ method: 'POST', url: `/api/orders/${id}/cancel`, headers: { cookie }, payload: body });
  const mine = async (cookie: string) =>
    (await get().app.inject({ url: '/api/orders/mine', headers: { cookie } })).json<CustomerOrder>();

  it('runs recieved → accepted → preparing → out for delivery → delivered, recording each step and its author', async () => {
    const { cook, customer, order } = await world(get());
    expect(order).toMatchObject({ state: 'recieved', status: 'recieved', readyAt: null });
    const accepted = await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 45 });
    expect(accepted.statusCode).toBe(200);
    const ready = Date.parse(accepted.json<KitchenOrder>().readyAt ?? '');
    expect(ready - Date.parse(order.createdAt)).toBeGreaterThanOrEqual(45 * 60_000 - 1000);
    expect(ready - Date.now()).toBeLessThanOrEqual(45 * 60_000 + 1000);
    for (const [m, state] of [
      ['prepare', 'preparing'],
      ['dispatch', 'out for delivery'],
      ['deliver', 'delivered'],
    ] as const) {
      const res = await move(cook.cookie, order.id, { move: m });
      expect(res.statusCode, m).toBe(200);
      expect(res.json()).toMatchObject({ state, status: state });
    }
    const seen = await mine(customer.cookie);
    expect(seen).toMatchObject({ id: order.id, state: 'delivered', status: 'delivered' });
    expect(seen.events.map((e) => [e.state, e.by])).toEqual([
      ['recieved', 'customer'],
      ['accepted', 'kitchen'],
      ['preparing', 'kitchen'],
      ['out for delivery', 'kitchen'],
      ['delivered', 'kitchen'],
    ]);
    const { events } = await stored(get(), order.id);
    expect(events.map((e) => e.byUserId)).toEqual([customer.user.id, ...Array(4).fill(cook.user.id)]);
  });

  it('keeps the free-text status apart: Update changes the text, not the state', async () => {
    const { cook, customer, order } = await world(get());
    await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 15 });
    const res = await get().app.inject({
      method: 'PATCH',
      url: `/api/kitchen/orders/${order.id}`,
      headers: { cookie: cook.cookie },
      payload: { status: 'Rolling the rotis' },
    });
    expect(res.json()).toMatchObject({ state: 'accepted', status: 'Rolling the rotis' });
    expect(await mine(customer.cookie)).toMatchObject({ state: 'accepted', status: 'Rolling the rotis' });
  });

  it('refuses a move the state does not allow (409 naming the state) and changes nothing', async () => {
    const { cook, customer, order } = await world(get());
    const before = await stored(get(), order.id);
    for (const body of [{ move: 'deliver' }, { move: 'prepare' }, { move: 'dispatch' }]) {
      const res = await move(cook.cookie, order.id, body);
      expect(res.statusCode, body.move).toBe(409);
      expect(res.json()).toMatchObject({ code: 'INVALID_MOVE', field: 'move', message: /is recieved/ });
    }
    await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
    const accepted = await stored(get(), order.id);
    const late = await cancel(customer.cookie, order.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: /is accepted/ });
    expect(await stored(get(), order.id)).toEqual(accepted);
    expect(before.events).toHaveLength(1);
  });

  it('asks for what a move needs (400 naming the field) and changes nothing', async () => {
    const { cook, order } = await world(get());
    const before = await stored(get(), order.id);
    const cases: [object, string][] = [
      [{ move: 'accept' }, 'readyInMinutes'],
      [{ move: 'accept', readyInMinutes: 2 }, 'readyInMinutes'],
      [{ move: 'accept', readyInMinutes: '30' }, 'readyInMinutes'],
      [{ move: 'decline' }, 'reason'],
      [{ move: 'decline', reason: '  ' }, 'reason'],
      [{ move: 'cancel', reason: 'a\nb' }, 'reason'],
      [{ move: 'fly' }, 'move'],
      [{}, 'move'],
    ];
    for (const [body, field] of cases) {
      const res = await move(cook.cookie, order.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ field });
    }
    expect(await stored(get(), order.id)).toEqual(before);
  });

  it('lets only the kitchen of the order move it, and only its customer cancel it; refusals change nothing', async () => {
    const { cook, customer, order } = await world(get());
    const otherCook = await buildKitchen(get());
    const otherCustomer = await signedIn(get(), 'customer');
    const before = await stored(get(), order.id);
    const accept = { move: 'accept', readyInMinutes: 30 };
    expect((await move(otherCook.cookie, order.id, accept)).statusCode).toBe(404);
    expect((await move(customer.cookie, order.id, accept)).statusCode).toBe(401);
    expect((await move('', order.id, accept)).statusCode).toBe(401);
    expect((await cancel(otherCustomer.cookie, order.id)).statusCode).toBe(404);
    expect((await cancel(cook.cookie, order.id)).statusCode).toBe(401);
    expect((await cancel('', order.id)).statusCode).toBe(401);
    expect((await move(cook.cookie, randomUUID(), accept)).statusCode).toBe(404);
    expect((await move(cook.cookie, 'nope', accept)).json()).toMatchObject({ field: 'id' });
    expect(await stored(get(), order.id)).toEqual(before);
  });

  it('records the reason of a decline, a kitchen cancel and a customer cancel, and shows it to the customer', async () => {
    const declined = await world(get());
    await move(declined.cook.cookie, declined.order.id, { move: 'decline', reason: 'Out of lentils today' });
    expect(await mine(declined.customer.cookie)).toMatchObject({
      state: 'declined',
      reason: 'Out of lentils today',
    });
    const cancelled = await world(get());
    await move(cancelled.cook.cookie, cancelled.order.id, { move: 'accept', readyInMinutes: 30 });
    await move(cancelled.cook.cookie, cancelled.order.id, { move: 'cancel', reason: 'The oven broke' });
    expect(await mine(cancelled.customer.cookie)).toMatchObject({
      state: 'cancelled',
      reason: 'The oven broke',
    });
    const changedMind = await world(get());
    const res = await cancel(changedMind.customer.cookie, changedMind.order.id, { reason: 'Ordered twice' });
    expect(res.json()).toMatchObject({ state: 'cancelled', reason: 'Ordered twice' });
    expect(res.json<CustomerOrder>().events.at(-1)).toMatchObject({ state: 'cancelled', by: 'customer' });
  });

  it('accepts a new order as soon as the last one ended, and refuses one while it is in progress', async () => {
    const { cook, dal, customer, order } = await world(get());
    for (const m of [{ move: 'accept', readyInMinutes: 15 }, { move: 'prepare' }, { move: 'dispatch' }]) {
      await move(cook.cookie, order.id, m);
      const refused = await place(get(), customer.cookie, cook.kitchen.uid, [dal]);
      expect(refused.statusCode, m.move).toBe(409);
    }
    await move(cook.cookie, order.id, { move: 'deliver' });
    const next = await place(get(), customer.cookie, cook.kitchen.uid, [dal]);
    expect(next.statusCode).toBe(201);
    // Declined and cancelled orders end too.
    await move(cook.cookie, next.json<CustomerOrder>().id, { move: 'decline', reason: 'Closed early' });
    const third = await place(get(), customer.cookie, cook.kitchen.uid, [dal]);
    expect(third.statusCode).toBe(201);
    await cancel(customer.cookie, third.json<CustomerOrder>().id);
    expect((await place(get(), customer.cookie, cook.kitchen.uid, [dal])).statusCode).toBe(201);
  });

  it("lists the kitchen's active and past orders, and the customer's orders newest first", async () => {
    const { cook, dal, customer, order } = await world(get());
    const list = async (url: string, cookie: string) =>
      (await get().app.inject({ url, headers: { cookie } })).json<{ id: string; state: string }[]>();
    expect((await list('/api/kitchen/orders', cook.cookie)).map((o) => o.id)).toEqual([order.id]);
    expect(await list('/api/kitchen/orders/past', cook.cookie)).toEqual([]);
    await move(cook.cookie, order.id, { move: 'decline', reason: 'Sorry' });
    const second = (await place(get(), customer.cookie, cook.kitchen.uid, [dal])).json<CustomerOrder>();
    await get().app.inject({
      method: 'DELETE',
      url: `/api/kitchen/orders/${second.id}`,
      headers: { cookie: cook.cookie },
    });
    expect(await list('/api/kitchen/orders', cook.cookie)).toEqual([]);
    const past = await list('/api/kitchen/orders/past', cook.cookie);
    expect(past.map((o) => o.id)).toEqual([second.id, order.id]);
    expect(past).toMatchObject([{ deleted: true }, { state: 'declined', deleted: false }]);
    const history = await list('/api/orders', customer.cookie);
    expect(history.map((o) => o.id)).toEqual([second.id, order.id]);
    // A deleted order no longer counts as in progress, and /mine shows the latest.
    expect(await mine(customer.cookie)).toMatchObject({ id: second.id, deleted: true });
  });

  it("'Order again' gives today's dishes and prices, and names the dishes gone since", async () => {
    const { cook, dal, rice, customer, order } = await world(get());
    await move(cook.cookie, order.id, { move: 'decline', reason: 'Closed' });
    await get().app.inject({
      method: 'PATCH',
      url: `/api/kitchen/menu/${dal.id}`,
      headers: { cookie: cook.cookie },
      payload: { price: '10.25' },
    });
    await get().app.inject({
      method: 'DELETE',
      url: `/api/kitchen/menu/${rice.id}`,
      headers: { cookie: cook.cookie },
    });
    const res = await get().app.inject({
      url: `/api/orders/${order.id}/again`,
      headers: { cookie: customer.cookie },
    });
    expect(res.statusCode).toBe(200);
    const again = res.json<OrderAgain>();
    expect(again.kitchen).toEqual({ uid: cook.kitchen.uid, name: cook.kitchen.name });
    expect(again.items.map((i) => [i.id, i.priceCents])).toEqual([
      [dal.id, 1025],
      [dal.id, 1025],
    ]);
    expect(again.gone).toEqual(['Rice']);
    const stranger = await signedIn(get(), 'customer');
    const refused = await get().app.inject({
      url: `/api/orders/${order.id}/again`,
      headers: { cookie: stranger.cookie },
    });
    expect(refused.statusCode).toBe(404);
  });
});
