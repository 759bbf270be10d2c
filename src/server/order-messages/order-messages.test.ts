import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  ORDER_MESSAGES_OPEN_MS,
  ORDER_MESSAGES_SHOWN,
  type OrderConversation,
  type OrderMessage,
} from '../../shared/order-messages.js';
import { orderEvents, orderMessages, orders } from '../db/schema.js';
import { buildKitchen, buildOrder } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const OPERATOR_EMAIL = 'order-messages-ops@example.test';
/** The app's clock: it starts now, and the window test moves it on (a week and more). */
const clock = new FakeClock();
clock.advance(Date.now());

const json = { 'content-type': 'application/json' };
const DAY_MS = 24 * 3600 * 1000;

/** A kitchen, its customer's order there, and another customer and kitchen who are not party to it. */
async function buildScene(ctx: TestContext) {
  // Never behind the database's clock, which times what the order's routes write.
  clock.advance(Math.max(0, Date.now() - clock.now()));
  const cook = await buildKitchen(ctx);
  const customer = await signedIn(ctx, 'customer');
  const order = await buildOrder(ctx, cook.kitchen, customer.user);
  return { cook, customer, order };
}

describeEachEngine(
  'order messages',
  (get) => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
    });

    const post = (orderId: string, payload: unknown, cookie?: string) =>
      get().app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/messages`,
        headers: { ...json, ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(payload),
      });
    const read = (orderId: string, cookie?: string) =>
      get().app.inject({ url: `/api/orders/${orderId}/messages`, headers: cookie ? { cookie } : {} });

    async function stored(orderId: string): Promise<number> {
      const [row] = await get()
        .database.db.select({ n: count() })
        .from(orderMessages)
        .where(eq(orderMessages.orderId, orderId));
      return row?.n ?? -1;
    }

    /** Ends the order now (by the app's clock): delivered, its last event at that time. */
    async function deliverNow(orderId: string) {
      clock.advance(1000); // after the order was placed
      const { db } = get().database;
      await db.update(orders).set({ state: 'delivered', status: 'delivered' }).where(eq(orders.id, orderId));
      await db
        .insert(orderEvents)
        .values({ orderId, state: 'delivered', byRole: 'kitchen', createdAt: new Date(clock.now()) });
    }

    it('lets the customer and the cook write to each other, oldest first, and an operator read it', async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      const first = await post(order.id, { text: '  No peanuts please\nThank you  ' }, customer.cookie);
      expect(first.statusCode, first.body).toBe(201);
      const asked = first.json<OrderMessage>();
      expect(asked).toMatchObject({ from: 'customer', text: 'No peanuts please\nThank you' });
      expect(Object.keys(asked).sort()).toEqual(['createdAt', 'from', 'id', 'text']);

      const answer = await post(order.id, { text: 'Sure, noted' }, cook.cookie);
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json()).toMatchObject({ from: 'kitchen', text: 'Sure, noted' });

      const ops = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      for (const cookie of [customer.cookie, cook.cookie, ops.cookie]) {
        const res = await read(order.id, cookie);
        expect(res.statusCode, res.body).toBe(200);
        const conversation = res.json<OrderConversation>();
        expect(conversation.messages.map((m) => [m.from, m.text])).toEqual([
          ['customer', 'No peanuts please\nThank you'],
          ['kitchen', 'Sure, noted'],
        ]);
        expect(conversation).toMatchObject({ open: true, closedBecause: null, closesAt: null });
        // The same snapshot for all: nobody's id or email in it.
        for (const secret of [customer.user.id, cook.user.id, customer.user.email, cook.user.email])
          expect(res.body).not.toContain(secret);
      }
      expect(await stored(order.id)).toBe(2);
    });

    it('tells the other side at once: the route’s stream and the tab’s stream hear a new message', async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      const url = `/api/orders/${order.id}/messages`;
      const own = await openEventStream(`${baseUrl}${url}`, { cookie: customer.cookie });
      const tab = await openEventStream(`${baseUrl}/api/live?t=${encodeURIComponent(url)}`, {
        cookie: cook.cookie,
      });
      try {
        await own.waitFor((d) => (d as OrderConversation).messages?.length === 0);
        await tab.waitFor((d) => (d as { topic?: string }).topic === url);
        expect((await post(order.id, { text: 'Extra spicy?' }, customer.cookie)).statusCode).toBe(201);
        await tab.waitFor((d) => {
          const data = (d as { data?: OrderConversation }).data;
          return data?.messages.some((m) => m.text === 'Extra spicy?' && m.from === 'customer') ?? false;
        });
        expect((await post(order.id, { text: 'Yes, very' }, cook.cookie)).statusCode).toBe(201);
        await own.waitFor(
          (d) => (d as OrderConversation).messages?.some((m) => m.text === 'Yes, very') ?? false,
        );
      } finally {
        own.close();
        tab.close();
      }
    });

    it.each([
      ['empty', { text: '' }],
      ['only spaces and line breaks', { text: '  \n \n ' }],
      ['501 characters', { text: 'x'.repeat(501) }],
      ['holding a control character', { text: 'bell\u0007' }],
      ['holding NUL', { text: 'a\u0000b' }],
      ['holding a tab', { text: 'a\tb' }],
      ['holding a bidi override', { text: '\u202Eevil' }],
      ['a number', { text: 42 }],
      ['null', { text: null }],
      ['missing', {}],
    ])('refuses text that is %s with a 400 naming text, storing nothing', async (_name, body) => {
      const { customer, order } = await buildScene(get());
      const res = await post(order.id, body, customer.cookie);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'text' });
      expect(await stored(order.id)).toBe(0);
    });

    it('accepts exactly 500 characters', async () => {
      const { customer, order } = await buildScene(get());
      expect((await post(order.id, { text: 'y'.repeat(500) }, customer.cookie)).statusCode).toBe(201);
    });

    it('answers an order id that is no uuid with a 400 naming id', async () => {
      const { customer } = await buildScene(get());
      for (const res of [
        await read('not-a-uuid', customer.cookie),
        await post('not-a-uuid', { text: 'Hello' }, customer.cookie),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'id' });
      }
    });

    it('refuses everyone but the two parties (operators may only read), saying nothing of the order', async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      expect((await post(order.id, { text: 'First' }, customer.cookie)).statusCode).toBe(201);
      const otherCustomer = await signedIn(ctx, 'customer');
      const otherCook = await buildKitchen(ctx);
      const ops = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      // The other customer's own order elsewhere: being someone's customer does not open another's order.
      const theirs = await buildOrder(ctx, otherCook.kitchen, otherCustomer.user);

      for (const cookie of [otherCustomer.cookie, otherCook.cookie]) {
        const res = await read(order.id, cookie);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'You have no order with this id' });
        expect((await post(order.id, { text: 'Intruding' }, cookie)).statusCode).toBe(404);
        await expect(
          openEventStream(`${baseUrl}/api/orders/${order.id}/messages`, { cookie }),
        ).rejects.toThrow(/404/);
      }
      // The same answer as for an order that does not exist at all.
      expect((await read(randomUUID(), otherCustomer.cookie)).json()).toEqual(
        (await read(order.id, otherCustomer.cookie)).json(),
      );
      // The customer of this order on another customer's order, and its cook on another kitchen's.
      expect((await read(theirs.id, customer.cookie)).statusCode).toBe(404);
      expect((await post(theirs.id, { text: 'Hi' }, customer.cookie)).statusCode).toBe(404);
      expect((await post(theirs.id, { text: 'Hi' }, cook.cookie)).statusCode).toBe(404);
      // An operator reads, never writes.
      expect((await read(order.id, ops.cookie)).statusCode).toBe(200);
      expect((await post(order.id, { text: 'Operator here' }, ops.cookie)).statusCode).toBe(401);
      // Signed out.
      expect((await read(order.id)).statusCode).toBe(401);
      expect((await post(order.id, { text: 'Anyone?' })).statusCode).toBe(401);
      await expect(openEventStream(`${baseUrl}/api/orders/${order.id}/messages`)).rejects.toThrow(/401/);
      // A customer session's token under the kitchen's cookie is nobody.
      const token = customer.cookie.slice(customer.cookie.indexOf('=') + 1);
      expect((await post(order.id, { text: 'Swapped' }, `kitchen_session=${token}`)).statusCode).toBe(401);

      expect(await stored(order.id)).toBe(1);
      expect(await stored(theirs.id)).toBe(0);
    });

    it('takes the author from the session, whatever the body says', async () => {
      const { customer, order } = await buildScene(get());
      const res = await post(
        order.id,
        { text: 'Who am I', from: 'kitchen', authorId: randomUUID(), orderId: randomUUID() },
        customer.cookie,
      );
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ from: 'customer' });
      const [row] = await get()
        .database.db.select()
        .from(orderMessages)
        .where(eq(orderMessages.orderId, order.id));
      expect(row).toMatchObject({ authorId: customer.user.id, authorRole: 'customer' });
    });

    it('writes as the side the browser says when it holds both sessions', async () => {
      const { cook, customer, order } = await buildScene(get());
      const both = `${customer.cookie}; ${cook.cookie}`;
      expect((await post(order.id, { text: 'From the cart' }, both)).json()).toMatchObject({
        from: 'customer',
      });
      const asKitchen = await post(order.id, { text: 'From the stove', as: 'kitchen' }, both);
      expect(asKitchen.json()).toMatchObject({ from: 'kitchen' });
      // Only that side's session counts.
      expect((await post(order.id, { text: 'Pretend', as: 'kitchen' }, customer.cookie)).statusCode).toBe(
        401,
      );
      const wrong = await post(order.id, { text: 'Pretend', as: 'operator' }, both);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ field: 'as' });
      expect(await stored(order.id)).toBe(2);
    });

    it('keeps an order never paid from its kitchen (404) and closed to its customer (409)', async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      await ctx.database.db
        .update(orders)
        .set({ state: 'awaiting payment', paymentState: 'awaiting-payment' })
        .where(eq(orders.id, order.id));
      expect((await read(order.id, cook.cookie)).statusCode).toBe(404);
      expect((await post(order.id, { text: 'Hello?' }, cook.cookie)).statusCode).toBe(404);
      const res = await post(order.id, { text: 'Hello?' }, customer.cookie);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'CONFLICT', field: 'text' });
      expect((await read(order.id, customer.cookie)).json()).toMatchObject({
        messages: [],
        open: false,
        closedBecause: 'You can write to the kitchen once your order is paid',
      });

      await ctx.database.db.update(orders).set({ paymentState: 'unpaid' }).where(eq(orders.id, order.id));
      expect((await post(order.id, { text: 'Hello?' }, cook.cookie)).statusCode).toBe(404);
      expect((await post(order.id, { text: 'Hello?' }, customer.cookie)).statusCode).toBe(409);
      expect(await stored(order.id)).toBe(0);
    });

    it('stays open until a week after the order ended, by the app’s clock, then refuses with 409', async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      await deliverNow(order.id);
      const endedAt = clock.now();
      const opened = (await read(order.id, customer.cookie)).json<OrderConversation>();
      expect(opened.open).toBe(true);
      expect(Date.parse(opened.closesAt ?? '')).toBe(endedAt + ORDER_MESSAGES_OPEN_MS);

      clock.advance(7 * DAY_MS - 60_000);
      expect((await post(order.id, { text: 'Thanks, it was lovely' }, customer.cookie)).statusCode).toBe(201);
      expect((await post(order.id, { text: 'Glad you liked it' }, cook.cookie)).statusCode).toBe(201);

      clock.advance(2 * 60_000);
      for (const cookie of [customer.cookie, cook.cookie]) {
        const res = await post(order.id, { text: 'One more thing' }, cookie);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({
          code: 'CONFLICT',
          field: 'text',
          message: 'Messages are closed for this order: it ended more than a week ago',
        });
      }
      expect(await stored(order.id)).toBe(2);
      // Still there to read.
      expect((await read(order.id, cook.cookie)).json<OrderConversation>().messages).toHaveLength(2);
    });

    it("counts the week from the kitchen's Delete for an order deleted while in progress", async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/kitchen/orders/${order.id}`,
        headers: { cookie: cook.cookie },
      });
      expect(deleted.statusCode).toBe(204);
      // Deleted now by the app's clock (the database's own time may be a week behind it by now).
      const archivedAt = clock.now();
      await ctx.database.db
        .update(orders)
        .set({ archivedAt: new Date(archivedAt) })
        .where(eq(orders.id, order.id));
      // Deleted in progress, it was cancelled by the kitchen as it was deleted: that is when it ended.
      expect((await ctx.database.db.select().from(orders).where(eq(orders.id, order.id)))[0]?.state).toBe(
        'cancelled',
      );
      await ctx.database.db
        .update(orderEvents)
        .set({ createdAt: new Date(archivedAt) })
        .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.state, 'cancelled')));
      expect((await post(order.id, { text: 'Why deleted?' }, customer.cookie)).statusCode).toBe(201);
      const conversation = (await read(order.id, customer.cookie)).json<OrderConversation>();
      expect(Date.parse(conversation.closesAt ?? '')).toBe(archivedAt + ORDER_MESSAGES_OPEN_MS);

      clock.advance(ORDER_MESSAGES_OPEN_MS + 1000);
      expect((await post(order.id, { text: 'Hello?' }, customer.cookie)).statusCode).toBe(409);
      expect((await post(order.id, { text: 'Sorry' }, cook.cookie)).statusCode).toBe(409);
      expect(await stored(order.id)).toBe(1);
    });

    it('answers the 6th message within 10 seconds on one order with a 429, storing nothing', async () => {
      const { customer, order } = await buildScene(get());
      for (let i = 0; i < 5; i++)
        expect((await post(order.id, { text: `burst ${i}` }, customer.cookie)).statusCode).toBe(201);
      const res = await post(order.id, { text: 'one too many' }, customer.cookie);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(await stored(order.id)).toBe(5);
    });

    it(`shows the latest ${ORDER_MESSAGES_SHOWN} messages, oldest first`, async () => {
      const ctx = get();
      const { customer, order } = await buildScene(ctx);
      const base = Date.now() - DAY_MS;
      await ctx.database.db.insert(orderMessages).values(
        Array.from({ length: ORDER_MESSAGES_SHOWN + 5 }, (_, i) => ({
          orderId: order.id,
          authorId: customer.user.id,
          authorRole: 'customer' as const,
          text: `m${i}`,
          createdAt: new Date(base + i * 1000),
        })),
      );
      const { messages } = (await read(order.id, customer.cookie)).json<OrderConversation>();
      expect(messages).toHaveLength(ORDER_MESSAGES_SHOWN);
      expect(messages[0]?.text).toBe('m5');
      expect(messages.at(-1)?.text).toBe(`m${ORDER_MESSAGES_SHOWN + 4}`);
    });

    it("keeps a deleted account's messages for the other side, and closes the conversation", async () => {
      const ctx = get();
      const { cook, customer, order } = await buildScene(ctx);
      expect((await post(order.id, { text: 'Bye now' }, customer.cookie)).statusCode).toBe(201);
      await deliverNow(order.id);
      const gone = await ctx.app.inject({
        method: 'DELETE',
        url: '/api/account/customer',
        headers: { cookie: customer.cookie },
      });
      expect(gone.statusCode, gone.body).toBe(204);
      const [row] = await ctx.database.db
        .select()
        .from(orderMessages)
        .where(eq(orderMessages.orderId, order.id));
      expect(row).toMatchObject({ authorId: null, authorRole: 'customer', text: 'Bye now' });
      const res = await read(order.id, cook.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json<OrderConversation>().messages.map((m) => [m.from, m.text])).toEqual([
        ['customer', 'Bye now'],
      ]);
      expect((await post(order.id, { text: 'Anyone there?' }, cook.cookie)).statusCode).toBe(409);
    });
  },
  { OPERATOR_EMAILS: OPERATOR_EMAIL },
  { clock },
);
