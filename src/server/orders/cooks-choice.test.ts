import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerPlan, PlanSettings } from '../../shared/plans.js';
import type { Clock } from '../lib/clock.js';
import { kitchens, menuItems, orderItems, orders } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { cooksChoice } from './plan-dishes.js';
import { renderNotice } from '../notifications/render.js';
import { placeDuePlans, remindPlans } from './plan-placement.js';

/** Tuesday 20 October 2026, 12:00 UTC; the kitchen is in New York (as in plans.test.ts). */
const START = Date.parse('2026-10-20T12:00:00Z');
const fake = new FakeClock();
let now = START;
const clock: Clock = { now: () => now, sleep: (ms) => fake.sleep(ms), timeout: (ms) => fake.timeout(ms) };

/** Thursday weeks' cut-offs, 48 hours before 18:00 in New York. */
const CUTOFFS = [
  Date.parse('2026-10-27T22:00:00Z'),
  Date.parse('2026-11-03T23:00:00Z'),
  Date.parse('2026-11-10T23:00:00Z'),
];

it("the cook's choice is the same for the same menu and budget: dearest first, one of each before a second, within the budget", () => {
  const menu = [
    { id: 'r', item: 'Rice', priceCents: 300, soldOut: false },
    { id: 'd', item: 'Dal', priceCents: 950, soldOut: false },
    { id: 'p', item: 'Paneer', priceCents: 1100, soldOut: false },
    { id: 's', item: 'Samosa', priceCents: 200, soldOut: true },
    { id: 'w', item: 'Water', priceCents: 0, soldOut: false },
  ];
  expect(cooksChoice(menu, 2500)).toEqual(['p', 'd', 'r']);
  expect(cooksChoice([...menu].reverse(), 2500)).toEqual(['p', 'd', 'r']);
  // A second round once each has been taken: 4400 = Paneer, Dal, Rice (2350), then Paneer, Dal again (4400).
  expect(cooksChoice(menu, 4400)).toEqual(['p', 'd', 'r', 'p', 'd']);
  expect(cooksChoice(menu, 500)).toEqual(['r']);
  // Nothing fits (the sold-out Samosa and the free Water are never chosen).
  expect(cooksChoice(menu, 250)).toEqual([]);
  expect(cooksChoice([], 10_000)).toEqual([]);
});

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
  "weekly plans: 'Let the cook choose' within a budget, and a dish that left the menu",
  (get) => {
    const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
      get().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

    async function plan(
      ctx: TestContext,
      kitchen: Awaited<ReturnType<typeof planKitchen>>,
      itemIds: string[],
    ) {
      now = START;
      const customer = await signedIn(ctx, 'customer');
      const made = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds,
        address: '9 Plan Street',
        payment: 'cash',
        slotStart: '2026-10-22T22:00:00Z',
      });
      expect(made.statusCode, made.body).toBe(201);
      return { customer, plan: made.json<CustomerPlan>() };
    }

    const dishesOf = async (ctx: TestContext, orderId: string) => {
      const [order] = await ctx.database.db
        .select({ itemsCents: orders.itemsCents })
        .from(orders)
        .where(eq(orders.id, orderId));
      const items = await ctx.database.db
        .select({ item: orderItems.item })
        .from(orderItems)
        .where(eq(orderItems.orderId, orderId));
      return { itemsCents: order?.itemsCents, items: items.map((i) => i.item).sort() };
    };

    /** The cook declines a placed week (its slot free again for the next). */
    const finish = async (cookie: string, orderId: string) => {
      const res = await call(cookie, 'POST', `/api/kitchen/orders/${orderId}/moves`, {
        move: 'decline',
        reason: 'Test: done with this week',
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    it("lets the cook choose within the customer's budget where the kitchen allows it, and fails a week with why when nothing fits", async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { customer, plan: made } = await plan(ctx, kitchen, [kitchen.dal.id]);
      expect(made).toMatchObject({ cooksChoice: false, budgetCents: 950 });
      const change = (payload: object) => call(customer.cookie, 'PATCH', `/api/plans/${made.id}`, payload);

      // Not allowed by the kitchen yet: 409 naming the budget.
      const refused = await change({ action: 'cooks-choice', budget: '25.00' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'COOKS_CHOICE_NOT_ALLOWED', field: 'budget' });
      const settings = await call(kitchen.cook.cookie, 'PUT', '/api/kitchen/plans/settings', {
        offered: true,
        cutoffHours: 48,
        cooksChoice: true,
      });
      expect(settings.json<PlanSettings>()).toEqual({ offered: true, cutoffHours: 48, cooksChoice: true });
      // The cut-off alone kept the cook's choice as it was.
      const again = await call(kitchen.cook.cookie, 'PUT', '/api/kitchen/plans/settings', {
        offered: true,
        cutoffHours: 48,
      });
      expect(again.json<PlanSettings>()).toMatchObject({ cooksChoice: true });
      const offer = await call(customer.cookie, 'GET', `/api/kitchens/${kitchen.cook.kitchen.uid}/plans`);
      expect(offer.json<PlanSettings>()).toMatchObject({ cooksChoice: true });

      for (const budget of ['abc', '0', '-5', '1.234', ''])
        expect((await change({ action: 'cooks-choice', budget })).json(), budget).toMatchObject({
          field: 'budget',
        });
      const chosen = await change({ action: 'cooks-choice', budget: '25.00' });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json<CustomerPlan>()).toMatchObject({ cooksChoice: true, budgetCents: 2500 });

      // The reminder says it is the cook's choice.
      now = Date.parse('2026-10-26T23:00:00Z');
      expect(await remindPlans(ctx.app)).toContainEqual({ planId: made.id, week: '2026-10-29' });
      const reminder = await renderNotice(
        ctx.database.db,
        { kind: 'plan-week-reminder', subjectId: made.id, recipientId: customer.user.id },
        'https://homecooked.example',
        new Date(now),
      );
      expect(reminder?.text).toContain("Your plan orders the cook's choice (up to $25.00) from");

      // At the cut-off: Paneer, Dal and Rice (23.50 of 25.00), as the cook's choice picks them.
      now = CUTOFFS[0]! + 60_000;
      const [first] = await placeDuePlans(ctx.app);
      expect(first).toMatchObject({ outcome: 'placed' });
      expect(await dishesOf(ctx, first!.orderId!)).toEqual({
        itemsCents: 2350,
        items: ['Dal', 'Paneer', 'Rice'],
      });
      await finish(kitchen.cook.cookie, first!.orderId!);

      // A budget nothing fits: the week fails, and says why.
      now = START;
      expect((await change({ action: 'cooks-choice', budget: '2.00' })).statusCode).toBe(200);
      now = CUTOFFS[1]! + 60_000;
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ week: '2026-11-05', outcome: 'failed' }]);
      const [told] = (await call(customer.cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();
      expect(told!.weeks.find((w) => w.week === '2026-11-05')).toMatchObject({
        state: 'failed',
        reason: `Nothing on ${kitchen.cook.kitchen.name}'s menu fits your budget of $2.00, so this week was not ordered.`,
      });

      // The kitchen stops allowing it: the next week fails, told.
      await call(kitchen.cook.cookie, 'PUT', '/api/kitchen/plans/settings', {
        offered: true,
        cutoffHours: 48,
        cooksChoice: false,
      });
      now = CUTOFFS[2]! + 60_000;
      const [third] = await placeDuePlans(ctx.app);
      expect(third).toMatchObject({ week: '2026-11-12', outcome: 'failed' });
      const [after] = (await call(customer.cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();
      expect(after!.weeks.find((w) => w.week === '2026-11-12')!.reason).toBe(
        `${kitchen.cook.kitchen.name} no longer lets the cook choose, so this week was not ordered.`,
      );
    });

    it("replaces a dish that left a fixed plan's menu by the cook's choice only where allowed; elsewhere the week fails with why", async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      // Dal × 2 and Rice: 22.00 a week.
      const { customer, plan: made } = await plan(ctx, kitchen, [
        kitchen.dal.id,
        kitchen.dal.id,
        kitchen.rice.id,
      ]);
      expect(made.budgetCents).toBe(2200);
      await ctx.database.db.delete(menuItems).where(eq(menuItems.id, kitchen.dal.id));

      // Not allowed: the week fails, naming why, never placed without the dish.
      now = CUTOFFS[0]! + 60_000;
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ week: '2026-10-29', outcome: 'failed' }]);
      const [told] = (await call(customer.cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();
      expect(told!.weeks.find((w) => w.week === '2026-10-29')).toMatchObject({
        state: 'failed',
        reason: `A dish of your plan is no longer on ${kitchen.cook.kitchen.name}'s menu, so this week was not ordered.`,
      });

      // Allowed: Rice stays, and what Dal left (19.00) buys the cook's choice among the other dishes: Paneer.
      await ctx.database.db
        .update(kitchens)
        .set({ planCooksChoice: true })
        .where(eq(kitchens.ownerId, kitchen.cook.kitchen.uid));
      now = CUTOFFS[1]! + 60_000;
      const [placed] = await placeDuePlans(ctx.app);
      expect(placed).toMatchObject({ week: '2026-11-05', outcome: 'placed' });
      expect(await dishesOf(ctx, placed!.orderId!)).toEqual({ itemsCents: 1400, items: ['Paneer', 'Rice'] });
      await finish(kitchen.cook.cookie, placed!.orderId!);

      // Paneer dearer than what is left (its price now 20.00): nothing fits, the week fails with why.
      await ctx.database.db
        .update(menuItems)
        .set({ priceCents: 2000 })
        .where(eq(menuItems.id, kitchen.paneer.id));
      now = CUTOFFS[2]! + 60_000;
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ week: '2026-11-12', outcome: 'failed' }]);
      const [last] = (await call(customer.cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();
      expect(last!.weeks.find((w) => w.week === '2026-11-12')!.reason).toBe(
        `A dish of your plan is no longer on ${kitchen.cook.kitchen.name}'s menu, and nothing else there fits its price, so this week was not ordered.`,
      );
    });
  },
  {},
  { clock },
);
