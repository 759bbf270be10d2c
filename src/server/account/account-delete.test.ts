import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { DELETED_CUSTOMER_EMAIL, ORDERS_IN_PROGRESS, REMOVED_ADDRESS } from '../../shared/account.js';
import type { SessionState } from '../../shared/auth.js';
import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import { buildKitchen, buildMenuItem, buildOrder } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { describeEachEngine, sessionCookie, signedIn } from '../test/test-app.js';
import { buildAccountWorld, call, count, deliver } from '../test/account-world.js';

describeEachEngine("'Delete my account'", (get) => {
  let base: string;
  beforeAll(async () => {
    base = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });

  it("deletes a customer's sessions, chat, reviews and user, and anonymises the orders they placed", async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const id = w.customer.user.id;
    // The same person is signed in as a cook too (no kitchen): that session goes as well.
    const asCook = await sessionCookie(ctx, w.customer.user, 'kitchen');
    const res = await call(ctx, `${w.customer.cookie}; ${asCook}`, 'DELETE', '/api/account/customer');
    expect(res.statusCode, res.body).toBe(204);
    const cleared = [res.headers['set-cookie']].flat().join('\n');
    expect(cleared).toMatch(/customer_session=;/);
    expect(cleared).toMatch(/kitchen_session=;/);

    expect(await count(ctx, 'users', sql`t.id = ${id}`)).toBe(0);
    expect(await count(ctx, 'sessions', sql`t.user_id = ${id}`)).toBe(0);
    expect(await count(ctx, 'chat_messages', sql`t.user_id = ${id}`)).toBe(0);
    expect(await count(ctx, 'reviews', sql`t.customer_id = ${id}`)).toBe(0);
    // Their report stays for the operators, no longer naming them.
    expect(await count(ctx, 'reports', sql`t.id = ${w.report.id} and t.reporter_id is null`)).toBe(1);
    // The order stays at the kitchen, with its lines and totals, without the customer's email and address.
    const past = await call(ctx, w.cook.cookie, 'GET', '/api/kitchen/orders/past');
    const order = past.json<KitchenOrder[]>().find((o) => o.id === w.order.id);
    expect(order).toMatchObject({
      customerEmail: DELETED_CUSTOMER_EMAIL,
      customerAddress: REMOVED_ADDRESS,
      items: [{ item: `Dal ${w.tag}`, priceCents: 950 }],
      totalCents: w.order.totalCents,
      state: 'delivered',
    });
    expect(await count(ctx, 'orders', sql`t.id = ${w.order.id} and t.customer_id is null`)).toBe(1);
    expect(past.body).not.toContain(w.customer.user.email);

    // The other customer, the cook and their data are untouched; the old cookies no longer sign in.
    expect(await count(ctx, 'chat_messages', sql`t.user_id = ${w.other.user.id}`)).toBe(1);
    expect(
      await count(ctx, 'orders', sql`t.id = ${w.otherOrder.id} and t.address = ${`2 D Street ${w.tag}`}`),
    ).toBe(1);
    const session = await call(ctx, `${w.customer.cookie}; ${asCook}`, 'GET', '/api/session');
    expect(session.json<SessionState>()).toEqual({ kitchen: null, customer: null, operator: null });
    expect((await call(ctx, w.customer.cookie, 'DELETE', '/api/account/customer')).statusCode).toBe(401);
  });

  it("deletes a cook's kitchen, menu and pictures; the customers keep their orders with the kitchen's name", async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const uid = w.cook.kitchen.uid;
    const res = await call(ctx, w.cook.cookie, 'DELETE', '/api/account/kitchen');
    expect(res.statusCode, res.body).toBe(204);
    expect([res.headers['set-cookie']].flat().join('\n')).toMatch(/kitchen_session=;/);
    // The customer's cookie was not in this browser: not cleared.
    expect([res.headers['set-cookie']].flat().join('\n')).not.toMatch(/customer_session=/);

    expect(await count(ctx, 'kitchens', sql`t.owner_id = ${uid}`)).toBe(0);
    expect(await count(ctx, 'menu_items', sql`t.kitchen_id = ${uid}`)).toBe(0);
    expect(await count(ctx, 'images', sql`t.owner_id = ${uid}`)).toBe(0);
    expect(await count(ctx, 'image_variants', sql`t.image_id = ${w.photo.id}`)).toBe(0);
    expect(await count(ctx, 'reviews', sql`t.kitchen_id = ${uid}`)).toBe(0);
    expect(await count(ctx, 'users', sql`t.id = ${uid}`)).toBe(0);
    expect((await call(ctx, undefined, 'GET', `/api/kitchens/${uid}`)).statusCode).toBe(404);
    expect(
      (await call(ctx, undefined, 'GET', `/images/${w.photo.id}-${w.photo.widths[0]}.webp`)).statusCode,
    ).toBe(404);
    const kitchens = await call(ctx, undefined, 'GET', '/api/kitchens');
    expect(kitchens.body).not.toContain(uid);

    // Both customers keep their orders, with the kitchen's name and no kitchen id; 'Order again' has no kitchen.
    for (const [who, order] of [
      [w.customer, w.order],
      [w.other, w.otherOrder],
    ] as const) {
      const mine = (await call(ctx, who.cookie, 'GET', '/api/orders')).json<CustomerOrder[]>();
      expect(mine).toEqual([
        expect.objectContaining({
          id: order.id,
          kitchenUid: null,
          kitchenName: w.cook.kitchen.name,
          items: [{ item: `Dal ${w.tag}`, priceCents: 950 }],
          address: order.address,
        }),
      ]);
      expect((await call(ctx, who.cookie, 'GET', `/api/orders/${order.id}/again`)).statusCode).toBe(404);
    }
  });

  it("refuses while the cook's kitchen has an order in progress, changing nothing, and deletes once it ended", async () => {
    const ctx = get();
    const cook = await buildKitchen(ctx);
    const customer = await signedIn(ctx, 'customer');
    const order = await buildOrder(ctx, cook.kitchen, customer.user);
    const refused = await call(ctx, cook.cookie, 'DELETE', '/api/account/kitchen');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: ORDERS_IN_PROGRESS,
      message: expect.stringMatching(/in progress/),
    });
    expect(refused.json<{ message: string }>().message).toMatch(/once it has ended/);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(await count(ctx, 'kitchens', sql`t.owner_id = ${cook.user.id}`)).toBe(1);
    expect(await count(ctx, 'sessions', sql`t.user_id = ${cook.user.id}`)).toBe(1);
    expect((await call(ctx, cook.cookie, 'GET', '/api/kitchen')).statusCode).toBe(200);

    await deliver(ctx, cook.cookie, order.id);
    expect((await call(ctx, cook.cookie, 'DELETE', '/api/account/kitchen')).statusCode).toBe(204);
    expect(await count(ctx, 'kitchens', sql`t.owner_id = ${cook.user.id}`)).toBe(0);
  });

  it('refuses while an order the customer placed is in progress, and deletes once they cancelled it', async () => {
    const ctx = get();
    const cook = await buildKitchen(ctx, { name: 'Aunty Kitchen' });
    const customer = await signedIn(ctx, 'customer');
    const order = await buildOrder(ctx, cook.kitchen, customer.user);
    const refused = await call(ctx, customer.cookie, 'DELETE', '/api/account/customer');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: ORDERS_IN_PROGRESS,
      message: expect.stringMatching(/^Your order from Aunty Kitchen is still in progress/),
    });
    expect(await count(ctx, 'users', sql`t.id = ${customer.user.id}`)).toBe(1);
    expect(
      await count(ctx, 'orders', sql`t.id = ${order.id} and t.customer_email = ${customer.user.email}`),
    ).toBe(1);

    expect((await call(ctx, customer.cookie, 'POST', `/api/orders/${order.id}/cancel`, {})).statusCode).toBe(
      200,
    );
    expect((await call(ctx, customer.cookie, 'DELETE', '/api/account/customer')).statusCode).toBe(204);
    expect(await count(ctx, 'users', sql`t.id = ${customer.user.id}`)).toBe(0);
  });

  it("ends the deleted sessions' live streams, and the lists others have open show the change", async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const asCustomer = { cookie: w.customer.cookie };
    const orders = await openEventStream(`${base}/api/orders`, asCustomer);
    const chat = await openEventStream(`${base}/api/chat`, asCustomer);
    const othersChat = await openEventStream(`${base}/api/chat`, { cookie: w.other.cookie });
    const kitchenPast = await openEventStream(`${base}/api/kitchen/orders/past`, { cookie: w.cook.cookie });
    try {
      await Promise.all([orders, chat, othersChat, kitchenPast].map((s) => s.waitFor(() => true)));
      expect((await call(ctx, w.customer.cookie, 'DELETE', '/api/account/customer')).statusCode).toBe(204);
      await orders.ended;
      await chat.ended;
      // D's chat loses C's messages; the cook's list shows the order anonymised.
      await othersChat.waitFor(
        (d) => Array.isArray(d) && !JSON.stringify(d).includes(`C says hi ${w.tag}`) && d.length > 0,
      );
      await kitchenPast.waitFor((d) =>
        (d as KitchenOrder[]).some((o) => o.id === w.order.id && o.customerEmail === DELETED_CUSTOMER_EMAIL),
      );
      // The others' streams stay open.
      const stillOpen = await Promise.race([
        othersChat.ended.then(() => false),
        kitchenPast.ended.then(() => false),
        call(ctx, w.other.cookie, 'POST', '/api/chat', { text: `Still here ${w.tag}` }).then(() =>
          othersChat.waitFor((d) => JSON.stringify(d).includes(`Still here ${w.tag}`)).then(() => true),
        ),
      ]);
      expect(stillOpen).toBe(true);
    } finally {
      for (const s of [orders, chat, othersChat, kitchenPast]) s.close();
    }
  });

  it("tells every open chat page the deleted account's messages are gone, history they loaded before too", async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    // D's page holds C's message (in the latest page, or in history loaded earlier: the page drops both by id).
    const gone = await openEventStream(`${base}/api/chat/hidden`, { cookie: w.other.cookie });
    try {
      await gone.waitFor(() => true);
      expect((await call(ctx, w.customer.cookie, 'DELETE', '/api/account/customer')).statusCode).toBe(204);
      await gone.waitFor((ids) => Array.isArray(ids) && ids.includes(w.said.id));
      // The hidden one's id stays too, and nothing of what was said is kept.
      const ids = (await call(ctx, w.other.cookie, 'GET', '/api/chat/hidden')).json<string[]>();
      expect(ids).toEqual(expect.arrayContaining([w.said.id, w.hidden.id]));
      expect(await count(ctx, 'chat_message_removals', sql`t.message_id = ${w.said.id}`)).toBe(1);
    } finally {
      gone.close();
    }
  });

  it("ends a deleted cook's dashboard stream, and the customer's open order list shows the kitchen gone", async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const dashboard = await openEventStream(`${base}/api/kitchen/orders`, { cookie: w.cook.cookie });
    const customerOrders = await openEventStream(`${base}/api/orders`, { cookie: w.customer.cookie });
    const kitchens = await openEventStream(`${base}/api/kitchens`);
    const menuPage = await openEventStream(`${base}/api/kitchens/${w.cook.kitchen.uid}/menu`);
    const kitchenPage = await openEventStream(`${base}/api/kitchens/${w.cook.kitchen.uid}`);
    const catalog = await openEventStream(`${base}/api/kitchens/search/changes`);
    const all = [dashboard, customerOrders, kitchens, menuPage, kitchenPage, catalog];
    try {
      await Promise.all(all.map((s) => s.waitFor(() => true)));
      expect((await call(ctx, w.cook.cookie, 'DELETE', '/api/account/kitchen')).statusCode).toBe(204);
      await dashboard.ended;
      // A visitor's open menu page hears that the kitchen is gone (never a null menu), and its stream ends.
      for (const page of [menuPage, kitchenPage]) {
        await page.ended;
        expect(page.events.map((e) => e.event)).toEqual(['snapshot', 'missing']);
      }
      await customerOrders.waitFor((d) =>
        (d as CustomerOrder[]).some((o) => o.id === w.order.id && o.kitchenUid === null),
      );
      await kitchens.waitFor((d) => Array.isArray(d) && !JSON.stringify(d).includes(w.cook.kitchen.uid));
      // Open searches hear that the catalogue changed, and ask again.
      const before = (catalog.events[0] && (JSON.parse(catalog.events[0].data) as { changedAt: string }))
        ?.changedAt;
      await catalog.waitFor((d) => (d as { changedAt: string }).changedAt !== before);
    } finally {
      for (const s of all) s.close();
    }
  });

  it('refuses the anonymous and the wrong role, and names a bad role, changing nothing', async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    expect((await call(ctx, undefined, 'DELETE', '/api/account/customer')).statusCode).toBe(401);
    expect((await call(ctx, undefined, 'DELETE', '/api/account/kitchen')).statusCode).toBe(401);
    expect((await call(ctx, w.customer.cookie, 'DELETE', '/api/account/kitchen')).statusCode).toBe(401);
    expect((await call(ctx, w.cook.cookie, 'DELETE', '/api/account/customer')).statusCode).toBe(401);
    const bad = await call(ctx, w.customer.cookie, 'DELETE', '/api/account/operator');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'role' });
    // From another site: refused before anything (CSRF).
    const crossSite = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/account/customer',
      headers: { cookie: w.customer.cookie, origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    for (const who of [w.customer, w.cook, w.other])
      expect(await count(ctx, 'sessions', sql`t.user_id = ${who.user.id}`)).toBe(1);
    expect(await count(ctx, 'chat_messages', sql`t.user_id = ${w.customer.user.id}`)).toBe(2);
  });

  it('never answers 5xx when an order races the deletion of its kitchen: one of the two wins, whole', async () => {
    const ctx = get();
    for (let round = 0; round < 4; round++) {
      const cook = await buildKitchen(ctx);
      const dish = await buildMenuItem(ctx, cook.kitchen);
      const customer = await signedIn(ctx, 'customer');
      const [deleted, placed] = await Promise.all([
        call(ctx, cook.cookie, 'DELETE', '/api/account/kitchen'),
        call(ctx, customer.cookie, 'POST', '/api/orders', {
          kitchenUid: cook.kitchen.uid,
          itemIds: [dish.id],
          address: '3 Race Road',
          idempotencyKey: randomUUID(),
        }),
      ]);
      const orders = await count(ctx, 'orders', sql`t.customer_id = ${customer.user.id}`);
      const kitchens = await count(ctx, 'kitchens', sql`t.owner_id = ${cook.user.id}`);
      if (placed.statusCode === 201) {
        // The order came first: the deletion waits for it to end.
        expect(deleted.statusCode, deleted.body).toBe(409);
        expect([orders, kitchens]).toEqual([1, 1]);
      } else {
        expect(deleted.statusCode, deleted.body).toBe(204);
        expect([400, 404, 409], placed.body).toContain(placed.statusCode);
        expect([orders, kitchens]).toEqual([0, 0]);
      }
    }
  });
});
