import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerPlan, KitchenPlans } from '../../shared/plans.js';
import type { Clock } from '../lib/clock.js';
import { kitchens, orderItems, orders } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { renderNotice } from '../notifications/render.js';
import { placeDuePlans, remindPlans } from './plan-placement.js';

/** Tuesday 20 October 2026, 12:00 UTC; the kitchen is in New York (as in plans.test.ts). */
const START = Date.parse('2026-10-20T12:00:00Z');
const fake = new FakeClock();
let now = START;
const clock: Clock = { now: () => now, sleep: (ms) => fake.sleep(ms), timeout: (ms) => fake.timeout(ms) };

/** Each Thursday week's cut-off, 48 hours before 18:00 in New York (summer time on 29 October, then winter). */
const CUTOFFS = {
  '2026-10-29': Date.parse('2026-10-27T22:00:00Z'),
  '2026-11-05': Date.parse('2026-11-03T23:00:00Z'),
  '2026-11-12': Date.parse('2026-11-10T23:00:00Z'),
} as const;

async function planKitchen(ctx: TestContext) {
  const cook = await buildKitchen(ctx, { timeZone: 'America/New_York' });
  await ctx.database.db
    .update(kitchens)
    .set({
      slotMinutes: 30,
      priorNoticeMinutes: 120,
      daysAhead: 3,
      ordersPerSlot: 5,
      acceptsCash: true,
      plansOffered: true,
      planCutoffHours: 48,
    })
    .where(eq(kitchens.ownerId, cook.kitchen.uid));
  const dal = await buildMenuItem(ctx, cook.kitchen, { item: 'Dal', price: '9.50' });
  const rice = await buildMenuItem(ctx, cook.kitchen, { item: 'Rice', price: '3.00' });
  const paneer = await buildMenuItem(ctx, cook.kitchen, { item: 'Paneer', price: '11.00' });
  return { cook, dal, rice, paneer };
}

describeEachEngine(
  "weekly plans: a plan's dishes changed for one week or for good",
  (get) => {
    const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      get().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

    /** The dishes (name × quantity) and items' cents of an order. */
    const orderOf = async (ctx: TestContext, id: string) => {
      const [order] = await ctx.database.db
        .select({ itemsCents: orders.itemsCents })
        .from(orders)
        .where(eq(orders.id, id));
      const rows = await ctx.database.db
        .select({ item: orderItems.item })
        .from(orderItems)
        .where(eq(orderItems.orderId, id));
      // One row per portion: counted by dish.
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(row.item, (counts.get(row.item) ?? 0) + 1);
      const lines = [...counts].map(([item, quantity]) => ({ item, quantity }));
      return { itemsCents: order?.itemsCents, lines: lines.sort((a, b) => a.item.localeCompare(b.item)) };
    };

    it("changes one week's dishes (that week's order is of them, the next weeks the plan's), then the plan's for good; the cook cooks what each week holds", async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      now = START;
      const customer = await signedIn(ctx, 'customer');
      const made = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id, kitchen.dal.id, kitchen.rice.id],
        address: '9 Plan Street',
        payment: 'cash',
        slotStart: '2026-10-22T22:00:00Z',
      });
      expect(made.statusCode, made.body).toBe(201);
      const plan = made.json<CustomerPlan>();
      const change = (payload: object) => call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, payload);

      // Paneer × 2 for 29 October only.
      const once = await change({
        action: 'dishes',
        week: '2026-10-29',
        itemIds: [kitchen.paneer.id, kitchen.paneer.id],
      });
      expect(once.statusCode, once.body).toBe(200);
      const changed = once.json<CustomerPlan>();
      expect(changed.items).toEqual([
        { itemId: kitchen.dal.id, item: 'Dal', quantity: 2, priceCents: 950 },
        { itemId: kitchen.rice.id, item: 'Rice', quantity: 1, priceCents: 300 },
      ]);
      expect(changed.weeks[0]).toMatchObject({
        week: '2026-10-29',
        items: [{ itemId: kitchen.paneer.id, item: 'Paneer', quantity: 2, priceCents: 1100 }],
      });
      expect(changed.weeks[1]).toMatchObject({ week: '2026-11-05', items: null });
      // The cook's 'Plans': Paneer × 2 that week, the plan's dishes the next.
      const cooks = (await call(kitchen.cook.cookie, 'GET', '/api/kitchen/plans')).json<KitchenPlans>();
      expect(cooks.slots[0]).toMatchObject({
        week: '2026-10-29',
        meals: 2,
        dishes: [{ item: 'Paneer', quantity: 2 }],
      });
      expect(cooks.slots[1]).toMatchObject({ week: '2026-11-05', meals: 3 });

      // The reminder the day before its cut-off names that week's dishes.
      now = Date.parse('2026-10-26T23:00:00Z');
      expect(await remindPlans(ctx.app)).toContainEqual({ planId: plan.id, week: '2026-10-29' });
      const reminder = await renderNotice(
        ctx.database.db,
        { kind: 'plan-week-reminder', subjectId: plan.id, recipientId: customer.user.id },
        'https://homecooked.example',
        new Date(now),
      );
      expect(reminder?.text).toContain('Your plan orders Paneer × 2 from');
      now = START;

      // Changed again before its cut-off: the last change stands.
      expect(
        (
          await change({
            action: 'dishes',
            week: '2026-10-29',
            itemIds: [kitchen.paneer.id, kitchen.rice.id],
          })
        ).statusCode,
      ).toBe(200);

      // At its cut-off: the week's order is of its own dishes.
      now = CUTOFFS['2026-10-29'] + 60_000;
      const [first] = await placeDuePlans(ctx.app);
      expect(first).toMatchObject({ week: '2026-10-29', outcome: 'placed' });
      expect(await orderOf(ctx, first!.orderId!)).toEqual({
        itemsCents: 1100 + 300,
        lines: [
          { item: 'Paneer', quantity: 1 },
          { item: 'Rice', quantity: 1 },
        ],
      });
      // That week can no longer be changed, its cut-off named in the kitchen's time.
      const late = await change({ action: 'dishes', week: '2026-10-29', itemIds: [kitchen.dal.id] });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({
        code: 'PLAN_CUTOFF_PASSED',
        field: 'week',
        message: 'Changes to this week closed at its cut-off, Tue 6:00 PM.',
      });
      // The cook declines it (the slot free again for the next weeks' orders).
      const declined = await call(
        kitchen.cook.cookie,
        'POST',
        `/api/kitchen/orders/${first!.orderId}/moves`,
        {
          move: 'decline',
          reason: 'Test: done with this week',
        },
      );
      expect(declined.statusCode, declined.body).toBe(200);

      // The next week is the plan's own dishes.
      now = CUTOFFS['2026-11-05'] + 60_000;
      const [second] = await placeDuePlans(ctx.app);
      expect(second).toMatchObject({ week: '2026-11-05', outcome: 'placed' });
      expect((await orderOf(ctx, second!.orderId!)).itemsCents).toBe(950 * 2 + 300);
      // After that week's cut-off (placed), a change for good is taken for the weeks still to come.
      const forGood = await change({ action: 'dishes', itemIds: [kitchen.rice.id, kitchen.rice.id] });
      expect(forGood.statusCode, forGood.body).toBe(200);
      expect(forGood.json<CustomerPlan>().items).toEqual([
        { itemId: kitchen.rice.id, item: 'Rice', quantity: 2, priceCents: 300 },
      ]);
      expect((await orderOf(ctx, second!.orderId!)).itemsCents).toBe(950 * 2 + 300);
      now = CUTOFFS['2026-11-12'] + 60_000;
      const [third] = await placeDuePlans(ctx.app);
      expect(third).toMatchObject({ week: '2026-11-12', outcome: 'placed' });
      expect(await orderOf(ctx, third!.orderId!)).toEqual({
        itemsCents: 600,
        lines: [{ item: 'Rice', quantity: 2 }],
      });
    });

    it("refuses a week's change after its cut-off even before it is placed, and dishes that are not the kitchen's, each naming the field", async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const other = await planKitchen(ctx);
      now = START;
      const customer = await signedIn(ctx, 'customer');
      const made = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id],
        address: '9 Plan Street',
        payment: 'cash',
        slotStart: '2026-10-22T22:00:00Z',
      });
      const plan = made.json<CustomerPlan>();
      const change = (payload: object) => call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, payload);
      for (const [payload, field] of [
        [{ action: 'dishes', itemIds: [other.dal.id] }, 'itemIds'],
        [{ action: 'dishes', itemIds: [] }, 'itemIds'],
        [{ action: 'dishes', itemIds: ['dal'] }, 'itemIds'],
        [{ action: 'dishes', week: '2026-10-28', itemIds: [kitchen.rice.id] }, 'week'],
        [{ action: 'dishes', week: 'soon', itemIds: [kitchen.rice.id] }, 'week'],
      ] as const) {
        const bad = await change(payload);
        expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
        // The field, or the item in it ('itemIds.0').
        expect(String(bad.json<{ field: string }>().field), JSON.stringify(payload)).toMatch(
          new RegExp(`^${field}(\\.\\d+)?$`),
        );
      }
      // One minute past the cut-off, no placement run yet: refused all the same, naming the cut-off.
      now = CUTOFFS['2026-10-29'] + 60_000;
      const late = await change({ action: 'dishes', week: '2026-10-29', itemIds: [kitchen.rice.id] });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({
        code: 'PLAN_CUTOFF_PASSED',
        field: 'week',
        message: 'Changes to this week closed at its cut-off, Tue 6:00 PM.',
      });
      // Another customer cannot change it.
      const stranger = await signedIn(ctx, 'customer');
      const theirs = await call(stranger.cookie, 'PATCH', `/api/plans/${plan.id}`, {
        action: 'dishes',
        itemIds: [kitchen.rice.id],
      });
      expect(theirs.statusCode).toBe(404);
      // Nothing changed: the week is placed with the plan's dish.
      const [placed] = await placeDuePlans(ctx.app);
      expect((await orderOf(ctx, placed!.orderId!)).lines).toEqual([{ item: 'Dal', quantity: 1 }]);
    });
  },
  {},
  { clock },
);
