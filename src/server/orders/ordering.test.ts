import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { BELOW_MINIMUM, FULFILMENT_REFUSED, SLOT_FULL, SLOT_UNAVAILABLE } from '../../shared/ordering.js';
import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import { NO_ANSWER_REASON } from '../../shared/payments.js';
import { kitchens, orders, slotBookings } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import type { Clock } from '../lib/clock.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { pollPayments } from './payment-poll.js';

/** Thursday 26 November 2026, 09:00 UTC: the kitchens below are in UTC and open around the clock. */
const NOW = Date.parse('2026-11-26T09:00:00Z');
const TOMORROW_SIX = '2026-11-27T18:00:00.000Z';
/** The app's clock: NOW, moved on by a test and put back for the next (each engine's suite starts at NOW). */
const fake = new FakeClock();
let now = NOW;
const clock: Clock = {
  now: () => now,
  sleep: (ms) => fake.sleep(ms),
  timeout: (ms) => fake.timeout(ms),
};

let addressCounter = 0;

/** A kitchen taking pickup and delivery, now and in 30-minute slots (2 h notice, 2 days ahead), with two dishes. */
async function slotKitchen(ctx: TestContext, ordering: Partial<typeof kitchens.$inferInsert> = {}) {
  const cook = await buildKitchen(ctx, { timeZone: 'UTC' });
  await ctx.database.db
    .update(kitchens)
    .set({
      offersPickup: true,
      pickupAddress: 'Flat 4B, 12 Elm Street',
      pickupInstructions: 'Ring twice',
      slotMinutes: 30,
      priorNoticeMinutes: 120,
      daysAhead: 2,
      ordersPerSlot: 3,
      ...ordering,
    })
    .where(eq(kitchens.ownerId, cook.kitchen.uid));
  const biryani = await buildMenuItem(ctx, cook.kitchen, { item: 'Biryani', price: '12.00' });
  const raita = await buildMenuItem(ctx, cook.kitchen, { item: 'Raita', price: '3.50' });
  return { cook, biryani, raita };
}

describeEachEngine(
  'ordering: pickup or delivery, slots, minimum, note',
  (get) => {
    const place = (cookie: string, payload: Record<string, unknown>) =>
      get().app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: { idempotencyKey: `key-${randomUUID()}`, ...payload },
        // Each customer from an address of its own: the per-address limit stays out of the way.
        remoteAddress: `2001:db8::9:${(++addressCounter).toString(16)}`,
      });
    const mine = async (cookie: string) =>
      (await get().app.inject({ url: '/api/orders/mine', headers: { cookie } })).json<CustomerOrder>();
    const move = (cookie: string, id: string, payload: object) =>
      get().app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${id}/moves`,
        headers: { cookie },
        payload,
      });
    const taken = async (kitchenUid: string, start: string) => {
      const [row] = await get()
        .database.db.select({ taken: slotBookings.taken })
        .from(slotBookings)
        .where(and(eq(slotBookings.kitchenId, kitchenUid), eq(slotBookings.slotStart, new Date(start))));
      return row?.taken ?? 0;
    };

    it('places a pickup pre-order for a slot: no delivery fee, no address; the pickup place once accepted', async () => {
      const ctx = get();
      const { cook, biryani } = await slotKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const res = await place(customer.cookie, {
        kitchenUid: cook.kitchen.uid,
        itemIds: [biryani.id, biryani.id],
        fulfilment: 'pickup',
        slotStart: '2026-11-27T18:00:00Z',
        note: 'No peanuts, please',
      });
      expect(res.statusCode).toBe(201);
      const order = res.json<CustomerOrder>();
      expect(order).toMatchObject({
        fulfilment: 'pickup',
        slot: { start: TOMORROW_SIX, end: '2026-11-27T18:30:00.000Z' },
        note: 'No peanuts, please',
        address: '',
        deliveryFeeCents: 0,
        totalCents: 2400 + 746,
        pickup: null,
      });
      expect(await taken(cook.kitchen.uid, TOMORROW_SIX)).toBe(1);
      // Withheld until the kitchen accepts: the status page says nothing of where.
      expect((await mine(customer.cookie)).pickup).toBeNull();
      const kitchenView = (
        await ctx.app.inject({ url: '/api/kitchen/orders', headers: { cookie: cook.cookie } })
      ).json<KitchenOrder[]>();
      expect(kitchenView[0]).toMatchObject({ note: 'No peanuts, please', fulfilment: 'pickup' });
      // A pre-order is ready for its slot: no ready time to give.
      const accepted = await move(cook.cookie, order.id, { move: 'accept' });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json<KitchenOrder>().readyAt).toBe(TOMORROW_SIX);
      expect((await mine(customer.cookie)).pickup).toEqual({
        address: 'Flat 4B, 12 Elm Street',
        instructions: 'Ring twice',
      });
    });

    it("an order for 'As soon as possible' still needs its ready time to be accepted", async () => {
      const ctx = get();
      const { cook, biryani } = await slotKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const order = (
        await place(customer.cookie, {
          kitchenUid: cook.kitchen.uid,
          itemIds: [biryani.id],
          address: '1 Road',
        })
      ).json<CustomerOrder>();
      expect(order).toMatchObject({ slot: null, fulfilment: 'delivery', deliveryFeeCents: 299 });
      const res = await move(cook.cookie, order.id, { move: 'accept' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'readyInMinutes', message: 'When will it be ready?' });
    });

    it('gives the last place of a full slot to one of 20 customers ordering at once', async () => {
      const ctx = get();
      const { cook, biryani } = await slotKitchen(ctx, { ordersPerSlot: 3 });
      for (let i = 0; i < 2; i++) {
        const early = await signedIn(ctx, 'customer');
        const res = await place(early.cookie, {
          kitchenUid: cook.kitchen.uid,
          itemIds: [biryani.id],
          fulfilment: 'pickup',
          slotStart: TOMORROW_SIX,
        });
        expect(res.statusCode).toBe(201);
      }
      const customers = await Promise.all(Array.from({ length: 20 }, () => signedIn(ctx, 'customer')));
      const answers = await Promise.all(
        customers.map((c) =>
          place(c.cookie, {
            kitchenUid: cook.kitchen.uid,
            itemIds: [biryani.id],
            fulfilment: 'pickup',
            slotStart: TOMORROW_SIX,
          }),
        ),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(19);
      for (const refused of answers.filter((a) => a.statusCode === 409))
        expect(refused.json()).toMatchObject({ code: SLOT_FULL, field: 'slotStart' });
      expect(await taken(cook.kitchen.uid, TOMORROW_SIX)).toBe(3);
      const placed = await ctx.database.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.kitchenId, cook.kitchen.uid));
      expect(placed).toHaveLength(3);
      // A declined order gives its place back.
      const declined = await move(cook.cookie, placed[0]!.id, { move: 'decline', reason: 'Out of rice' });
      expect(declined.statusCode).toBe(200);
      expect(await taken(cook.kitchen.uid, TOMORROW_SIX)).toBe(2);
    });

    it('refuses slots that cannot be chosen, naming slotStart, and changes nothing', async () => {
      const ctx = get();
      const { cook, biryani } = await slotKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const ask = (slotStart: string) =>
        place(customer.cookie, {
          kitchenUid: cook.kitchen.uid,
          itemIds: [biryani.id],
          fulfilment: 'pickup',
          slotStart,
        });
      for (const slotStart of [
        '2026-11-26T08:00:00Z', // passed
        '2026-11-26T10:00:00Z', // inside the 2 hours' notice
        '2026-11-29T12:00:00Z', // 3 days ahead, 2 allowed
        '2026-11-27T18:10:00Z', // not a slot's start
      ]) {
        const res = await ask(slotStart);
        expect(res.statusCode, slotStart).toBe(409);
        expect(res.json()).toMatchObject({ code: SLOT_UNAVAILABLE, field: 'slotStart' });
      }
      for (const slotStart of ['tomorrow', '2026-13-45T99:00:00Z', 'x'.repeat(100)]) {
        const res = await ask(slotStart);
        expect(res.statusCode, slotStart).toBe(400);
        expect(res.json()).toMatchObject({ field: 'slotStart' });
      }
      const noSlots = await slotKitchen(ctx, { slotMinutes: null });
      const res = await place(customer.cookie, {
        kitchenUid: noSlots.cook.kitchen.uid,
        itemIds: [noSlots.biryani.id],
        address: '1 Road',
        slotStart: TOMORROW_SIX,
      });
      expect(res.json()).toMatchObject({ code: SLOT_UNAVAILABLE, field: 'slotStart' });
      const laterOnly = await slotKitchen(ctx, { takesAsap: false });
      const asap = await place(customer.cookie, {
        kitchenUid: laterOnly.cook.kitchen.uid,
        itemIds: [laterOnly.biryani.id],
        address: '1 Road',
      });
      expect(asap.statusCode).toBe(409);
      expect(asap.json()).toMatchObject({ code: SLOT_UNAVAILABLE, field: 'slotStart' });
      expect(
        await ctx.database.db.select().from(orders).where(eq(orders.customerId, customer.user.id)),
      ).toEqual([]);
    });

    it('refuses a fulfilment the kitchen does not offer, and delivery without an address', async () => {
      const ctx = get();
      const pickupOnly = await slotKitchen(ctx, { offersDelivery: false });
      const customer = await signedIn(ctx, 'customer');
      const delivery = await place(customer.cookie, {
        kitchenUid: pickupOnly.cook.kitchen.uid,
        itemIds: [pickupOnly.biryani.id],
        address: '1 Road',
      });
      expect(delivery.statusCode).toBe(409);
      expect(delivery.json()).toMatchObject({ code: FULFILMENT_REFUSED, field: 'fulfilment' });
      const deliveryOnly = await slotKitchen(ctx, { offersPickup: false });
      const pickup = await place(customer.cookie, {
        kitchenUid: deliveryOnly.cook.kitchen.uid,
        itemIds: [deliveryOnly.biryani.id],
        fulfilment: 'pickup',
      });
      expect(pickup.json()).toMatchObject({ code: FULFILMENT_REFUSED, field: 'fulfilment' });
      const noAddress = await place(customer.cookie, {
        kitchenUid: deliveryOnly.cook.kitchen.uid,
        itemIds: [deliveryOnly.biryani.id],
      });
      expect(noAddress.statusCode).toBe(400);
      expect(noAddress.json()).toMatchObject({ field: 'address', message: 'Delivery address is required' });
    });

    it("refuses an order under the kitchen's minimum, saying how much more to add", async () => {
      const ctx = get();
      const { cook, biryani, raita } = await slotKitchen(ctx, { minimumOrderCents: 2000 });
      const customer = await signedIn(ctx, 'customer');
      const res = await place(customer.cookie, {
        kitchenUid: cook.kitchen.uid,
        itemIds: [biryani.id, raita.id],
        address: '1 Road',
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: BELOW_MINIMUM,
        field: 'itemIds',
        message: 'Add $4.50 more to order from this kitchen',
      });
      const enough = await place(customer.cookie, {
        kitchenUid: cook.kitchen.uid,
        itemIds: [biryani.id, raita.id, raita.id, raita.id],
        address: '1 Road',
      });
      expect(enough.statusCode).toBe(201);
    });

    it('keeps the note within 300 characters of text, and refuses what is not', async () => {
      const ctx = get();
      const { cook, biryani } = await slotKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      for (const note of ['x'.repeat(301), 'nul\u0000', 'bidi \u202e', 42]) {
        const res = await place(customer.cookie, {
          kitchenUid: cook.kitchen.uid,
          itemIds: [biryani.id],
          address: '1 Road',
          note,
        });
        expect(res.statusCode, JSON.stringify(note)).toBe(400);
        expect(res.json()).toMatchObject({ field: 'note' });
      }
      const res = await place(customer.cookie, {
        kitchenUid: cook.kitchen.uid,
        itemIds: [biryani.id],
        address: '1 Road',
        note: `  ${'y'.repeat(290)}\nring  `,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json<CustomerOrder>().note).toBe(`${'y'.repeat(290)}\nring`);
    });

    it("waits for the kitchen's answer to a pre-order until its slot's notice begins, then declines it", async () => {
      const ctx = get();
      const { cook, biryani } = await slotKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const order = (
        await place(customer.cookie, {
          kitchenUid: cook.kitchen.uid,
          itemIds: [biryani.id],
          fulfilment: 'pickup',
          slotStart: TOMORROW_SIX,
        })
      ).json<CustomerOrder>();
      const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, order.id));
      expect(row?.answerBy?.toISOString()).toBe('2026-11-27T16:00:00.000Z');
      try {
        now += (ctx.app.payments.config.acceptWithinMinutes + 1) * 60_000;
        await pollPayments(ctx.app);
        expect((await mine(customer.cookie)).state).toBe('recieved');
        now = Date.parse('2026-11-27T16:01:00Z');
        await pollPayments(ctx.app);
        const after = await mine(customer.cookie);
        expect(after).toMatchObject({ state: 'declined', reason: NO_ANSWER_REASON });
        expect(await taken(cook.kitchen.uid, TOMORROW_SIX)).toBe(0);
      } finally {
        now = NOW;
      }
    });
  },
  {},
  { clock },
);
