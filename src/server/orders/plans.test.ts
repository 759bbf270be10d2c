import { and, eq, like } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerPlan, KitchenPlans } from '../../shared/plans.js';
import type { Clock } from '../lib/clock.js';
import { kitchens, mealPlanWeeks, menuItems, notificationOutbox, orders } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { placeDuePlans, planOrderKey, remindPlans } from './plan-placement.js';
import { renderNotice } from '../notifications/render.js';
import { placeOrder } from './place-order.js';
import { operatorPlacements } from './plans.js';

/**
 * Tuesday 20 October 2026, 12:00 UTC (08:00 in New York, on summer time until Sunday 1 November; back on it from
 * Sunday 14 March 2027). The kitchen is in New York: its weeks are counted there.
 */
const START = Date.parse('2026-10-20T12:00:00Z');
const fake = new FakeClock();
let now = START;
const clock: Clock = { now: () => now, sleep: (ms) => fake.sleep(ms), timeout: (ms) => fake.timeout(ms) };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The wall time of an instant in New York: 'Mon 18:00'. */
const newYork = (at: Date | string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(new Date(at))
    .replace(',', '');

/** A New York kitchen offering plans (48 hours' cut-off), in half-hour slots around the clock, taking cash. */
async function planKitchen(ctx: TestContext, settings: Partial<typeof kitchens.$inferInsert> = {}) {
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
      ...settings,
    })
    .where(eq(kitchens.ownerId, cook.kitchen.uid));
  const dal = await buildMenuItem(ctx, cook.kitchen, { item: 'Dal', price: '9.50' });
  const rice = await buildMenuItem(ctx, cook.kitchen, { item: 'Rice', price: '3.00' });
  return { cook, dal, rice };
}

describeEachEngine(
  'weekly plans: a week placed once at its cut-off, in the kitchen’s time',
  (get) => {
    const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
      get().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

    /** A customer's plan of Dal × 2 and Rice on Thursdays at 18:00 New York time, from Thursday 29 October. */
    async function thursdayPlan(ctx: TestContext, kitchen: Awaited<ReturnType<typeof planKitchen>>) {
      now = START;
      const customer = await signedIn(ctx, 'customer');
      const res = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id, kitchen.dal.id, kitchen.rice.id],
        address: '9 Plan Street',
        payment: 'cash',
        // Thursday 22 October, 18:00 in New York (summer time): the pre-order's slot; the plan's day is its day.
        slotStart: '2026-10-22T22:00:00Z',
      });
      expect(res.statusCode, res.body).toBe(201);
      const plan = res.json<CustomerPlan>();
      return { customer, plan };
    }

    const ordersOf = (ctx: TestContext, planId: string) =>
      ctx.database.db
        .select({ id: orders.id, slotStart: orders.slotStart, state: orders.state })
        .from(orders)
        .where(like(orders.idempotencyKey, `plan-${planId}-%`))
        .orderBy(orders.slotStart);

    /** The cook declines an order (the week is done with: its slot is free for the customer again). */
    const finish = async (cookie: string, orderId: string) => {
      const res = await call(cookie, 'POST', `/api/kitchen/orders/${orderId}/moves`, {
        move: 'decline',
        reason: 'Test: done with this week',
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    it('places a year of weeks, each once at its cut-off, at 18:00 in New York across both clock changes', async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { plan } = await thursdayPlan(ctx, kitchen);
      expect(plan).toMatchObject({
        weekday: 'thu',
        slotTime: '18:00',
        status: 'active',
        timeZone: 'America/New_York',
      });
      // Its first week is the one after the pre-order's: Thursday 29 October.
      expect(plan.weeks[0]).toMatchObject({ week: '2026-10-29', state: 'planned' });
      expect(newYork(plan.weeks[0]!.slotStart)).toBe('Thu 18:00');

      const placedSlots: string[] = [];
      for (let week = 0; week < 52; week++) {
        const slot = Date.parse('2026-10-29T22:00:00Z') + week * 7 * DAY;
        // Found by the wall clock, not by adding hours: 18:00 in New York is 22:00 or 23:00 UTC.
        const slotStart = [slot - 2 * HOUR, slot - HOUR, slot, slot + HOUR, slot + 2 * HOUR].find(
          (at) => newYork(new Date(at)) === 'Thu 18:00',
        )!;
        const cutoff = slotStart - 48 * HOUR;
        now = cutoff - 60_000;
        expect(await placeDuePlans(ctx.app), `week ${week}: before its cut-off`).toEqual([]);
        now = cutoff + 60_000;
        const [placed, ...more] = await placeDuePlans(ctx.app);
        expect(more).toEqual([]);
        expect(placed, `week ${week}`).toMatchObject({ planId: plan.id, outcome: 'placed' });
        // Run again, and by a second instance: nothing more.
        expect(await placeDuePlans(ctx.app)).toEqual([]);
        const [order] = await ctx.database.db
          .select({ slotStart: orders.slotStart, itemsCents: orders.itemsCents })
          .from(orders)
          .where(eq(orders.id, placed!.orderId!));
        expect(order?.slotStart?.getTime(), `week ${week}`).toBe(slotStart);
        expect(order?.itemsCents).toBe(950 * 2 + 300);
        placedSlots.push(new Date(slotStart).toISOString());
        await finish(kitchen.cook.cookie, placed!.orderId!);
      }
      const all = await ordersOf(ctx, plan.id);
      expect(all.map((o) => o.slotStart?.toISOString())).toEqual(placedSlots);
      // Summer time, winter time, and summer time again.
      expect(placedSlots[0]).toBe('2026-10-29T22:00:00.000Z');
      expect(placedSlots[1]).toBe('2026-11-05T23:00:00.000Z');
      expect(placedSlots).toContain('2027-03-11T23:00:00.000Z');
      expect(placedSlots).toContain('2027-03-18T22:00:00.000Z');
    });

    it('counts a cut-off in real hours across a clock change: 17:00 the Saturday before the spring change', async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      now = Date.parse('2027-03-08T12:00:00Z');
      const customer = await signedIn(ctx, 'customer');
      // Monday 15 March 2027 18:00 in New York is 22:00 UTC (summer time from Sunday 14 March).
      const res = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id],
        address: '9 Plan Street',
        slotStart: '2027-03-08T23:00:00Z', // Monday 8 March, 18:00 (winter time)
      });
      // 'Cash' is taken as the plan's payment where the kitchen takes cash and none was asked for.
      expect(res.statusCode, res.body).toBe(201);
      const plan = res.json<CustomerPlan>();
      expect(plan.weeks[0]).toMatchObject({
        week: '2027-03-15',
        slotStart: '2027-03-15T22:00:00.000Z',
        cutoff: '2027-03-13T22:00:00.000Z',
      });
      expect(newYork(plan.weeks[0]!.cutoff)).toBe('Sat 17:00');
      expect(newYork(plan.weeks[1]!.cutoff)).toBe('Sat 18:00');
      now = Date.parse('2027-03-13T22:00:00Z');
      expect(await placeDuePlans(ctx.app)).toMatchObject([
        { planId: plan.id, week: '2027-03-15', outcome: 'placed' },
      ]);
    });

    it('skips a week, pauses until a date, and refuses a change after the cut-off, naming it', async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { customer, plan } = await thursdayPlan(ctx, kitchen);
      const change = (body: object) => call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, body);

      // Skip Thursday 29 October, then take it back, then skip it again.
      expect(
        (await change({ action: 'skip', week: '2026-10-29' })).json<CustomerPlan>().weeks[0],
      ).toMatchObject({
        week: '2026-10-29',
        state: 'skipped',
      });
      expect(
        (await change({ action: 'unskip', week: '2026-10-29' })).json<CustomerPlan>().weeks[0]!.state,
      ).toBe('planned');
      expect((await change({ action: 'skip', week: '2026-10-29' })).statusCode).toBe(200);
      // A day that is not the plan's, or before it starts: 400 naming the week.
      for (const week of ['2026-10-28', '2026-10-22', 'soon']) {
        const bad = await change({ action: 'skip', week });
        expect(bad.statusCode, week).toBe(400);
        expect(bad.json(), week).toMatchObject({ field: 'week' });
      }
      // Its cut-off: Tuesday 27 October, 18:00 in New York. Nothing is placed; the skip stands.
      now = Date.parse('2026-10-27T22:00:00Z');
      expect(await placeDuePlans(ctx.app)).toEqual([]);
      const late = await change({ action: 'unskip', week: '2026-10-29' });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({
        code: 'PLAN_CUTOFF_PASSED',
        field: 'week',
        message: 'Changes to this week closed at its cut-off, Tue 6:00 PM.',
      });
      // The next week (5 November, winter time): skipping it after its cut-off is refused, in winter time.
      now = Date.parse('2026-11-03T23:00:00Z');
      const tooLate = await change({ action: 'skip', week: '2026-11-05' });
      expect(tooLate.json()).toMatchObject({
        code: 'PLAN_CUTOFF_PASSED',
        message: 'Changes to this week closed at its cut-off, Tue 6:00 PM.',
      });
      const [placed] = await placeDuePlans(ctx.app);
      expect(placed).toMatchObject({ week: '2026-11-05', outcome: 'placed' });
      await finish(kitchen.cook.cookie, placed!.orderId!);

      // Pause until Thursday 19 November: 12 November is not placed, 19 November is.
      const paused = await change({ action: 'pause', until: '2026-11-19' });
      expect(paused.json<CustomerPlan>()).toMatchObject({ status: 'paused', pausedUntil: '2026-11-19' });
      expect(paused.json<CustomerPlan>().weeks.map((w) => [w.week, w.state])).toEqual([
        ['2026-11-05', 'placed'],
        ['2026-11-12', 'paused'],
        ['2026-11-19', 'planned'],
        ['2026-11-26', 'planned'],
      ]);
      expect((await change({ action: 'pause', until: '2026-11-01' })).json()).toMatchObject({
        field: 'until',
      });
      now = Date.parse('2026-11-10T23:01:00Z');
      expect(await placeDuePlans(ctx.app)).toEqual([]);
      now = Date.parse('2026-11-17T23:01:00Z');
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ week: '2026-11-19', outcome: 'placed' }]);
      const weeks = await ctx.database.db
        .select({ week: mealPlanWeeks.slotDate, state: mealPlanWeeks.state })
        .from(mealPlanWeeks)
        .where(eq(mealPlanWeeks.planId, plan.id))
        .orderBy(mealPlanWeeks.slotDate);
      expect(weeks).toEqual([
        { week: '2026-10-29', state: 'skipped' },
        { week: '2026-11-05', state: 'placed' },
        { week: '2026-11-19', state: 'placed' },
      ]);
      // Cancelled: nothing more is placed, and no change is taken.
      expect((await change({ action: 'cancel' })).json<CustomerPlan>()).toMatchObject({
        status: 'cancelled',
        weeks: [],
      });
      expect((await change({ action: 'resume' })).statusCode).toBe(409);
      now = Date.parse('2026-11-24T23:01:00Z');
      expect(await placeDuePlans(ctx.app)).toEqual([]);
      // Another customer's plan is not theirs to change: 404.
      const other = await signedIn(ctx, 'customer');
      expect(
        (await call(other.cookie, 'PATCH', `/api/plans/${plan.id}`, { action: 'cancel' })).statusCode,
      ).toBe(404);
      expect((await call(other.cookie, 'GET', '/api/plans')).json()).toEqual([]);
    });

    it('places one order when two placements race, when a placement died, and when the clock goes back', async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { customer, plan } = await thursdayPlan(ctx, kitchen);
      now = Date.parse('2026-10-27T22:00:00Z');
      const [a, b, c] = await Promise.all([
        placeDuePlans(ctx.app),
        placeDuePlans(ctx.app),
        placeDuePlans(ctx.app),
      ]);
      expect([...a!, ...b!, ...c!]).toMatchObject([{ outcome: 'placed' }]);
      expect(await ordersOf(ctx, plan.id)).toHaveLength(1);
      // The clock goes back an hour (before the cut-off) and on again: still one.
      now -= HOUR;
      expect(await placeDuePlans(ctx.app)).toEqual([]);
      now += 2 * HOUR;
      expect(await placeDuePlans(ctx.app)).toEqual([]);
      const [first] = await ordersOf(ctx, plan.id);
      await finish(kitchen.cook.cookie, first!.id);

      // A placement that died after placing its order and before recording it: the week stays held ('placing')
      // until its hold runs out; the next run takes it over and finds the order by its key.
      now = Date.parse('2026-11-03T23:00:00Z');
      await ctx.database.db.insert(mealPlanWeeks).values({
        planId: plan.id,
        slotDate: '2026-11-05',
        state: 'placing',
        heldUntil: new Date(now + 120_000),
      });
      const { order: orphan } = await placeOrder(
        ctx.app,
        { id: customer.user.id, email: customer.user.email },
        {
          kitchenUid: kitchen.cook.kitchen.uid,
          itemIds: [kitchen.dal.id, kitchen.dal.id, kitchen.rice.id],
          address: '9 Plan Street',
          fulfilment: 'delivery',
          slotStart: '2026-11-05T23:00:00.000Z',
          note: '',
          allergensAcknowledged: [],
          payment: 'cash',
          idempotencyKey: planOrderKey(plan.id, '2026-11-05'),
        },
      );
      expect(await placeDuePlans(ctx.app), 'held by the one that died').toEqual([]);
      now += 121_000;
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ outcome: 'placed', orderId: orphan.id }]);
      expect(await ordersOf(ctx, plan.id)).toHaveLength(2);
      const [week] = await ctx.database.db
        .select()
        .from(mealPlanWeeks)
        .where(and(eq(mealPlanWeeks.planId, plan.id), eq(mealPlanWeeks.slotDate, '2026-11-05')));
      expect(week).toMatchObject({ state: 'placed', orderId: orphan.id, heldUntil: null });
    });

    it("places a week while the customer's order for now is open; one order for now at a time, one per kitchen and slot", async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { customer, plan } = await thursdayPlan(ctx, kitchen);
      const order = (key: string, slotStart?: string) =>
        call(customer.cookie, 'POST', '/api/orders', {
          kitchenUid: kitchen.cook.kitchen.uid,
          itemIds: [kitchen.dal.id],
          address: '9 Plan Street',
          payment: 'cash',
          idempotencyKey: key,
          ...(slotStart ? { slotStart } : {}),
        });
      try {
        await forNowAndPlanned(customer, kitchen, plan, order);
      } finally {
        // Ended, so that the weeks to come are not placed in the tests after this one.
        const ended = await call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, { action: 'cancel' });
        expect(ended.statusCode, ended.body).toBe(200);
      }
    });

    async function forNowAndPlanned(
      customer: { cookie: string },
      kitchen: Awaited<ReturnType<typeof planKitchen>>,
      plan: CustomerPlan,
      order: (key: string, slotStart?: string) => ReturnType<typeof call>,
    ) {
      const ctx = get();
      // Tuesday 27 October, 15:00 in New York: an order for now, still open at the week's cut-off.
      now = Date.parse('2026-10-27T19:00:00Z');
      const asap = await order('for-now-first');
      expect(asap.statusCode, asap.body).toBe(201);
      now = Date.parse('2026-10-27T22:00:00Z');
      const [placed] = await placeDuePlans(ctx.app);
      expect(placed).toMatchObject({ planId: plan.id, outcome: 'placed' });
      // A second order for now waits for the first (the spec's one order in progress), with no field named.
      const second = await order('for-now-again');
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({
        code: 'CONFLICT',
        message:
          'You already have an order in progress. You can order again once the kitchen has finished it.',
      });
      expect(second.json().field).toBeUndefined();
      // The order page follows the order being cooked, not next week's.
      const mine = await call(customer.cookie, 'GET', '/api/orders/mine');
      expect(mine.json()).toMatchObject({ id: asap.json<{ id: string }>().id });
      // The plan's slot at this kitchen is taken by the plan's order: another pre-order for it names the slot; a
      // pre-order for another slot goes through.
      const sameSlot = await order('same-slot-order', '2026-10-29T22:00:00Z');
      expect(sameSlot.statusCode).toBe(409);
      expect(sameSlot.json()).toMatchObject({
        field: 'slotStart',
        message: 'You already have an order from this kitchen for this time. Please choose another time.',
      });
      const otherSlot = await order('other-slot-order', '2026-10-29T22:30:00Z');
      expect(otherSlot.statusCode, otherSlot.body).toBe(201);
      // Once the order for now has ended, another may be placed while the pre-orders are open.
      await finish(kitchen.cook.cookie, asap.json<{ id: string }>().id);
      expect((await order('for-now-later')).statusCode).toBe(201);
      expect(await ordersOf(ctx, plan.id)).toMatchObject([{ id: placed!.orderId, state: 'recieved' }]);
    }

    it("reminds the customer the day before a week's cut-off, once, with its dishes, and not of a skipped week", async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { customer, plan } = await thursdayPlan(ctx, kitchen);
      const ours = async () => (await remindPlans(ctx.app)).filter((r) => r.planId === plan.id);
      const reminders = () =>
        ctx.database.db
          .select({ kind: notificationOutbox.kind, subjectId: notificationOutbox.subjectId })
          .from(notificationOutbox)
          .where(
            and(
              eq(notificationOutbox.recipientId, customer.user.id),
              eq(notificationOutbox.kind, 'plan-week-reminder'),
            ),
          );
      try {
        // The first week's cut-off is Tuesday 27 October 22:00 UTC: 25 hours before it, nothing yet.
        now = Date.parse('2026-10-26T21:00:00Z');
        expect(await ours()).toEqual([]);
        now = Date.parse('2026-10-26T23:00:00Z');
        expect(await ours()).toEqual([{ planId: plan.id, week: '2026-10-29' }]);
        // Found again (another run, another instance): still one reminder.
        now += 60_000;
        await ours();
        expect(await reminders()).toEqual([{ kind: 'plan-week-reminder', subjectId: plan.id }]);
        const notice = await renderNotice(
          ctx.database.db,
          { kind: 'plan-week-reminder', subjectId: plan.id, recipientId: customer.user.id },
          'https://homecooked.example',
          new Date(now),
        );
        expect(notice?.subject).toMatch(/^Your weekly order from .+ for .+: change it by Tue 6:00\sPM$/);
        expect(notice?.text).toContain('Your plan orders Dal × 2, Rice from');
        expect(notice?.text).toContain('Skip this week');
        expect(notice?.text).toContain('https://homecooked.example/CustomerOrders#plans');
        // Another customer is not reminded of it.
        const other = await signedIn(ctx, 'customer');
        expect(
          await renderNotice(
            ctx.database.db,
            { kind: 'plan-week-reminder', subjectId: plan.id, recipientId: other.user.id },
            'https://homecooked.example',
            new Date(now),
          ),
        ).toBeNull();
        // The next week is skipped: no reminder the day before its cut-off (Tuesday 3 November 23:00 UTC).
        const skip = await call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, {
          action: 'skip',
          week: '2026-11-05',
        });
        expect(skip.statusCode, skip.body).toBe(200);
        now = Date.parse('2026-11-03T00:00:00Z');
        expect(await ours()).toEqual([]);
        expect(await reminders()).toHaveLength(1);
      } finally {
        // Cancelled before any of its weeks' cut-offs, so that none is placed in the tests after this one.
        now = START;
        await call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, { action: 'cancel' });
      }
    });

    it('records why a week could not be placed, tells the customer, and places the next week', async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx);
      const { customer, plan } = await thursdayPlan(ctx, kitchen);
      // The kitchen is paused at the cut-off.
      await ctx.database.db
        .update(kitchens)
        .set({ pausedAt: new Date(START) })
        .where(eq(kitchens.ownerId, kitchen.cook.kitchen.uid));
      now = Date.parse('2026-10-27T22:00:00Z');
      expect(await placeDuePlans(ctx.app)).toMatchObject([
        { outcome: 'failed', reason: '{name} is not taking orders right now.' },
      ]);
      expect(await ordersOf(ctx, plan.id)).toEqual([]);
      const [notice] = await ctx.database.db
        .select({ kind: notificationOutbox.kind, recipientId: notificationOutbox.recipientId })
        .from(notificationOutbox)
        .where(eq(notificationOutbox.recipientId, customer.user.id));
      expect(notice).toEqual({ kind: 'plan-week-failed', recipientId: customer.user.id });
      const mine = (await call(customer.cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();
      expect(mine[0]!.weeks[0]).toMatchObject({
        week: '2026-10-29',
        state: 'failed',
        reason: 'Test Kitchen is not taking orders right now.',
      });
      expect(mine[0]!.status).toBe('active');

      // Resumed; the next week a dish has left the menu: refused, told again.
      await ctx.database.db
        .update(kitchens)
        .set({ pausedAt: null })
        .where(eq(kitchens.ownerId, kitchen.cook.kitchen.uid));
      await ctx.database.db.delete(menuItems).where(eq(menuItems.id, kitchen.rice.id));
      now = Date.parse('2026-11-03T23:00:00Z');
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ outcome: 'failed' }]);
      const failures = await ctx.database.db
        .select({ state: mealPlanWeeks.state, code: mealPlanWeeks.reasonCode })
        .from(mealPlanWeeks)
        .where(eq(mealPlanWeeks.planId, plan.id))
        .orderBy(mealPlanWeeks.slotDate);
      expect(failures).toEqual([
        { state: 'failed', code: 'KITCHEN_CLOSED' },
        // A dish gone from the menu, in a kitchen that does not allow the cook's choice: said so (cooks-choice.test.ts).
        { state: 'failed', code: 'PLAN_DISHES_UNAVAILABLE' },
      ]);
    });

    it('places the next week when the one before failed for a full slot', async () => {
      const ctx = get();
      const kitchen = await planKitchen(ctx, { ordersPerSlot: 1 });
      const { customer, plan } = await thursdayPlan(ctx, kitchen);
      // Someone else takes the only place of Thursday 29 October 18:00 first.
      const other = await signedIn(ctx, 'customer');
      now = Date.parse('2026-10-27T12:00:00Z');
      const taken = await call(other.cookie, 'POST', '/api/orders', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id],
        address: '1 Other Road',
        payment: 'cash',
        slotStart: '2026-10-29T22:00:00Z',
        idempotencyKey: 'someone-else-first',
      });
      expect(taken.statusCode, taken.body).toBe(201);
      now = Date.parse('2026-10-27T22:00:00Z');
      expect(await placeDuePlans(ctx.app)).toMatchObject([
        { outcome: 'failed', reason: 'This time is fully booked now. Please choose another time.' },
      ]);
      // The operator's view: the failed week and why; the next week's placement within 24 hours, then overdue.
      now = Date.parse('2026-11-03T00:00:00Z');
      const mineOnly = async () => {
        const view = await operatorPlacements(ctx.app);
        const ours = (row: { planId: string }) => row.planId === plan.id;
        return { due: view.due.filter(ours), failed: view.failed.filter(ours) };
      };
      expect(await mineOnly()).toMatchObject({
        due: [{ week: '2026-11-05', cutoff: '2026-11-03T23:00:00.000Z', overdue: false }],
        failed: [
          { week: '2026-10-29', reason: 'This time is fully booked now. Please choose another time.' },
        ],
      });
      now = Date.parse('2026-11-03T23:30:00Z');
      expect((await mineOnly()).due).toMatchObject([{ week: '2026-11-05', overdue: true }]);
      expect(await placeDuePlans(ctx.app)).toMatchObject([{ outcome: 'placed' }]);
      expect((await mineOnly()).due).toEqual([]);
      // The cook sees the planned meals: the week placed, and the weeks to come, with the dishes to cook.
      const plans = (await call(kitchen.cook.cookie, 'GET', '/api/kitchen/plans')).json<KitchenPlans>();
      expect(plans.settings).toEqual({ offered: true, cutoffHours: 48, cooksChoice: false });
      expect(plans.slots[0]).toMatchObject({
        week: '2026-11-05',
        slotStart: '2026-11-05T23:00:00.000Z',
        orders: 1,
        meals: 3,
        placed: 1,
        dishes: [
          { item: 'Dal', quantity: 2 },
          { item: 'Rice', quantity: 1 },
        ],
      });
      expect(plans.slots).toHaveLength(4);
      // The customer sees the week that failed, why, and the next one placed.
      const [mine] = (await call(customer.cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();
      expect(mine!.weeks.slice(0, 2)).toMatchObject([
        {
          week: '2026-10-29',
          state: 'failed',
          reason: 'This time is fully booked now. Please choose another time.',
        },
        { week: '2026-11-05', state: 'placed' },
      ]);
    });

    it("makes 'Every week' of a placed pre-order: its day, slot and dishes, from the week after", async () => {
      const ctx = get();
      now = START;
      const kitchen = await planKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const placed = await call(customer.cookie, 'POST', '/api/orders', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.rice.id, kitchen.dal.id, kitchen.dal.id],
        address: '4 Repeat Road',
        payment: 'cash',
        note: 'Less salt',
        slotStart: '2026-10-22T22:00:00Z',
        idempotencyKey: 'pre-order-to-repeat',
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const orderId = placed.json<{ id: string }>().id;
      // Another customer's order is not theirs to repeat.
      const other = await signedIn(ctx, 'customer');
      expect((await call(other.cookie, 'POST', `/api/orders/${orderId}/every-week`)).statusCode).toBe(404);
      // Hours later (the slot no longer choosable as a new pre-order would need), it is still the order's slot.
      now = Date.parse('2026-10-22T21:00:00Z');
      const res = await call(customer.cookie, 'POST', `/api/orders/${orderId}/every-week`);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<CustomerPlan>()).toMatchObject({
        weekday: 'thu',
        slotTime: '18:00',
        fulfilment: 'delivery',
        items: [
          { item: 'Rice', quantity: 1 },
          { item: 'Dal', quantity: 2 },
        ],
        weeks: [{ week: '2026-10-29', cutoff: '2026-10-27T22:00:00.000Z' }, {}, {}, {}],
      });
      // An order 'As soon as possible' is no pre-order: 409 naming it.
      await finish(kitchen.cook.cookie, orderId);
      const asap = await call(other.cookie, 'POST', '/api/orders', {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id],
        address: '1 Road',
        payment: 'cash',
        idempotencyKey: 'an-order-for-now',
      });
      expect(asap.statusCode, asap.body).toBe(201);
      const refused = await call(
        other.cookie,
        'POST',
        `/api/orders/${asap.json<{ id: string }>().id}/every-week`,
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ field: 'orderId' });
    });

    it('refuses a plan where none is offered, a slot that cannot be chosen, and card payment where no cards are taken', async () => {
      const ctx = get();
      now = START;
      const kitchen = await planKitchen(ctx, { plansOffered: false });
      const customer = await signedIn(ctx, 'customer');
      const body = {
        kitchenUid: kitchen.cook.kitchen.uid,
        itemIds: [kitchen.dal.id],
        address: '9 Plan Street',
        slotStart: '2026-10-22T22:00:00Z',
      };
      const notOffered = await call(customer.cookie, 'POST', '/api/plans', body);
      expect(notOffered.statusCode).toBe(409);
      expect(notOffered.json()).toMatchObject({ code: 'PLANS_NOT_OFFERED', field: 'kitchenUid' });
      // The cook offers them, with a 24-hour cut-off; bad settings name their field.
      const settings = (payload: object) =>
        call(kitchen.cook.cookie, 'PUT', '/api/kitchen/plans/settings', payload);
      expect((await settings({ offered: true, cutoffHours: 24 })).json()).toEqual({
        offered: true,
        cutoffHours: 24,
        cooksChoice: false,
      });
      for (const cutoffHours of [0, 121, 1.5, '24'])
        expect((await settings({ offered: true, cutoffHours })).json(), String(cutoffHours)).toMatchObject({
          field: 'cutoffHours',
        });
      const offTheGrid = await call(customer.cookie, 'POST', '/api/plans', {
        ...body,
        slotStart: '2026-10-22T22:10:00Z',
      });
      expect(offTheGrid.json()).toMatchObject({ code: 'SLOT_UNAVAILABLE', field: 'slotStart' });
      const card = await call(customer.cookie, 'POST', '/api/plans', { ...body, payment: 'card' });
      expect(card.json()).toMatchObject({ code: 'PAYMENT_METHOD_REFUSED', field: 'payment' });
      for (const [field, value] of [
        ['itemIds', []],
        ['slotStart', 'tomorrow'],
        ['kitchenUid', 'x'],
      ] as const) {
        const bad = await call(customer.cookie, 'POST', '/api/plans', { ...body, [field]: value });
        expect(bad.statusCode, field).toBe(400);
        expect(bad.json(), field).toMatchObject({ field });
      }
      const made = await call(customer.cookie, 'POST', '/api/plans', body);
      expect(made.statusCode).toBe(201);
      expect(made.json<CustomerPlan>().weeks[0]!.cutoff).toBe('2026-10-28T22:00:00.000Z');
    });
  },
  {},
  { clock },
);
