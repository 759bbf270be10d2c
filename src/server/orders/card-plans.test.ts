import { and, eq, like } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import type { CustomerPlan } from '../../shared/plans.js';
import { kitchens, mealPlans, mealPlanWeeks, notificationOutbox, orders, users } from '../db/schema.js';
import { renderNotice } from '../notifications/render.js';
import { PLACEMENT_HOLD_MS, placeDuePlans } from './plan-placement.js';
import { planChargeHooks } from './plan-cards.js';
import type { Clock } from '../lib/clock.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { FakeClock } from '../test/fake-clock.js';
import { localProvider, money, paidKitchen } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

/**
 * Tuesday 20 October 2026, 12:00 UTC (08:00 in New York). The kitchen is in New York; its plans' weeks have a
 * 48-hour cut-off.
 */
const START = Date.parse('2026-10-20T12:00:00Z');
const fake = new FakeClock();
let now = START;
const clock: Clock = { now: () => now, sleep: (ms) => fake.sleep(ms), timeout: (ms) => fake.timeout(ms) };

/** A New York kitchen taking cards, offering plans with a 48-hour cut-off, in half-hour slots around the clock. */
async function cardPlanKitchen(ctx: TestContext) {
  const world = await paidKitchen(ctx);
  await ctx.database.db
    .update(kitchens)
    .set({
      timeZone: 'America/New_York',
      slotMinutes: 30,
      priorNoticeMinutes: 120,
      daysAhead: 3,
      ordersPerSlot: 5,
      plansOffered: true,
      planCutoffHours: 48,
    })
    .where(eq(kitchens.ownerId, world.cook.kitchen.uid));
  return world;
}

describeEachEngine(
  'weekly plans paid by a saved card',
  (get) => {
    const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      get().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

    /** A customer's card plan of Dal × 2 on Thursdays at 18:00 New York time (its first week 29 October). */
    async function cardPlan(ctx: TestContext, world: Awaited<ReturnType<typeof cardPlanKitchen>>) {
      now = START;
      const customer = await signedIn(ctx, 'customer');
      const res = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: world.cook.kitchen.uid,
        itemIds: [world.dal.id, world.dal.id],
        address: '9 Plan Street',
        payment: 'card',
        slotStart: '2026-10-22T22:00:00Z',
      });
      expect(res.statusCode, res.body).toBe(201);
      return { customer, plan: res.json<CustomerPlan>() };
    }

    /** The customer saves `card` on the plan's page (confirming it when the card asks them to). */
    async function saveCard(ctx: TestContext, plan: CustomerPlan, card: string) {
      const session = /\/(cs_[0-9a-f]+)/.exec(plan.cardSetupUrl ?? '')?.[1] ?? '';
      const setup = await localProvider(ctx).pay(session, card);
      if (String(setup.status) === 'requires_action') await localProvider(ctx).authenticate(String(setup.id));
    }

    const mine = async (cookie: string) => (await call(cookie, 'GET', '/api/plans')).json<CustomerPlan[]>();

    it("opens the provider's card-saving page, waits for the card, and keeps it on the plan once saved", async () => {
      const ctx = get();
      const world = await cardPlanKitchen(ctx);
      const { customer, plan } = await cardPlan(ctx, world);
      expect(plan).toMatchObject({ payment: 'card', status: 'waiting-for-card' });
      expect(plan.cardSetupUrl).toMatch(/\/dev-pay\/checkout\/cs_/);
      const [row] = await ctx.database.db.select().from(mealPlans).where(eq(mealPlans.id, plan.id));
      const session = localProvider(ctx).objects.get(row!.cardSetupSessionId!);
      const [user] = await ctx.database.db.select().from(users).where(eq(users.id, customer.user.id));
      expect(user!.paymentCustomerId).toMatch(/^cus_/);
      expect(session).toMatchObject({
        mode: 'setup',
        customer: user!.paymentCustomerId,
        metadata: { planId: plan.id },
      });
      expect(String(session?.success_url)).toContain(`/CustomerOrders?card=${plan.id}`);
      // Not saved yet: still waiting, whoever asks.
      expect((await mine(customer.cookie))[0]).toMatchObject({ status: 'waiting-for-card' });

      await saveCard(ctx, plan, TEST_CARDS.pays);
      // Back on 'Your plans': the card is learnt from the provider and kept.
      const [back] = await mine(customer.cookie);
      expect(back).toMatchObject({ id: plan.id, status: 'active', cardSetupUrl: null });
      const [kept] = await ctx.database.db.select().from(mealPlans).where(eq(mealPlans.id, plan.id));
      expect(kept!.cardPaymentMethodId).toMatch(/^pm_/);

      // A second card plan of the same customer: the same provider customer, a page of its own.
      const again = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: world.cook.kitchen.uid,
        itemIds: [world.dal.id],
        address: '9 Plan Street',
        payment: 'card',
        slotStart: '2026-10-22T22:30:00Z',
      });
      expect(again.statusCode, again.body).toBe(201);
      const [second] = await ctx.database.db
        .select()
        .from(mealPlans)
        .where(eq(mealPlans.id, again.json<CustomerPlan>().id));
      expect(second!.cardSetupSessionId).not.toBe(row!.cardSetupSessionId);
      expect(localProvider(ctx).objects.get(second!.cardSetupSessionId!)).toMatchObject({
        customer: user!.paymentCustomerId,
      });
      const [still] = await ctx.database.db.select().from(users).where(eq(users.id, customer.user.id));
      expect(still!.paymentCustomerId).toBe(user!.paymentCustomerId);
    });
    /** Thursday 29 October's week: its cut-off is Tuesday 27 October, 18:00 in New York (22:00 UTC). */
    const CUTOFF = Date.parse('2026-10-27T22:00:00Z');

    /** A customer's card plan with `card` saved, and what placing its first week at its cut-off did. */
    async function placedWeek(ctx: TestContext, card: string) {
      const world = await cardPlanKitchen(ctx);
      const { customer, plan } = await cardPlan(ctx, world);
      await saveCard(ctx, plan, card);
      expect((await mine(customer.cookie))[0]).toMatchObject({ status: 'active' });
      now = CUTOFF + 60_000;
      const outcomes = (await placeDuePlans(ctx.app)).filter((o) => o.planId === plan.id);
      const [week] = await ctx.database.db
        .select()
        .from(mealPlanWeeks)
        .where(and(eq(mealPlanWeeks.planId, plan.id), eq(mealPlanWeeks.slotDate, '2026-10-29')));
      const planOrders = await ctx.database.db
        .select()
        .from(orders)
        .where(like(orders.idempotencyKey, `plan-${plan.id}-%`));
      const notices = await ctx.database.db
        .select({ kind: notificationOutbox.kind, subjectId: notificationOutbox.subjectId })
        .from(notificationOutbox)
        .where(eq(notificationOutbox.recipientId, customer.user.id));
      return { world, customer, plan, outcomes, week, planOrders, notices };
    }

    it('charges the week to the saved card off-session at its cut-off: authorised, in the kitchen, ledger balanced', async () => {
      const ctx = get();
      const { outcomes, week, planOrders, world } = await placedWeek(ctx, TEST_CARDS.pays);
      expect(outcomes).toMatchObject([{ outcome: 'placed', week: '2026-10-29' }]);
      expect(planOrders).toHaveLength(1);
      const order = planOrders[0]!;
      expect(week).toMatchObject({ state: 'placed', orderId: order.id });
      expect(order).toMatchObject({ state: 'recieved', paymentMethod: 'card', paymentState: 'authorised' });
      // No payment page: the card was charged without the customer.
      expect(order.checkoutSessionId).toBeNull();
      const intent = localProvider(ctx).objects.get(order.paymentIntentId!);
      expect(intent).toMatchObject({
        status: 'requires_capture',
        amount: order.totalCents,
        application_fee_amount: order.platformFeeCents,
        transfer_data: { destination: world.account },
      });
      // The ledger holds what the provider holds: the order's total, authorised.
      const { ledger } = await money(ctx, order.id);
      expect(ledger).toEqual({ authorised: order.totalCents });
    });

    it('a declined card: the order ends unpaid, the week fails with the reason, and the customer is told', async () => {
      const ctx = get();
      const { outcomes, week, planOrders, notices, customer } = await placedWeek(
        ctx,
        TEST_CARDS.attachesThenDeclines,
      );
      expect(outcomes).toMatchObject([
        { outcome: 'failed', reason: 'Your card was declined, so this week was not ordered.' },
      ]);
      expect(week).toMatchObject({ state: 'failed', reasonCode: 'PLAN_CARD_FAILED' });
      expect(planOrders).toHaveLength(1);
      expect(planOrders[0]).toMatchObject({ state: 'cancelled', paymentState: 'unpaid' });
      expect((await money(ctx, planOrders[0]!.id)).ledger).toEqual({});
      expect(notices).toContainEqual({ kind: 'plan-week-failed', subjectId: week!.id });
      const [plan] = await mine(customer.cookie);
      expect(plan).toMatchObject({ status: 'active' });
      expect(plan!.weeks.find((w) => w.week === '2026-10-29')).toMatchObject({
        state: 'failed',
        reason: 'Your card was declined, so this week was not ordered.',
      });
    });

    it("a card that needs its holder: 'Your card needs you', a page to pay on, and the week skipped if not paid", async () => {
      const ctx = get();
      const { outcomes, week, planOrders, notices, customer } = await placedWeek(
        ctx,
        TEST_CARDS.alwaysAuthenticate,
      );
      expect(outcomes).toMatchObject([{ outcome: 'placed' }]);
      const order = planOrders[0]!;
      expect(order).toMatchObject({ state: 'awaiting payment', paymentState: 'awaiting-payment' });
      expect(order.checkoutUrl).toMatch(/\/dev-pay\/checkout\/cs_/);
      expect(notices).toContainEqual({ kind: 'plan-card-needs-you', subjectId: order.id });
      const notice = await renderNotice(
        ctx.database.db,
        { kind: 'plan-card-needs-you', subjectId: order.id, recipientId: customer.user.id },
        'https://homecooked.example',
      );
      expect(notice?.subject).toBe("Your card needs you: confirm this week's payment");
      expect(notice?.text).toContain('https://homecooked.example/CustomerOrders');
      // Another run finds it placed: one notice.
      now += PLACEMENT_HOLD_MS + 60_000;
      await placeDuePlans(ctx.app);
      const again = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(
          and(
            eq(notificationOutbox.recipientId, customer.user.id),
            eq(notificationOutbox.kind, 'plan-card-needs-you'),
          ),
        );
      expect(again).toHaveLength(1);
      // Its page closes unpaid: the order ends unpaid, the week is skipped with the reason, the customer told.
      expect(await ctx.app.payments.provider!.expireCheckout(order.checkoutSessionId!)).toBe(true);
      await localProvider(ctx).settled();
      await vi.waitFor(async () => {
        const [after] = await ctx.database.db
          .select()
          .from(mealPlanWeeks)
          .where(eq(mealPlanWeeks.id, week!.id));
        expect(after).toMatchObject({ state: 'failed', reasonCode: 'PLAN_CARD_FAILED' });
      });
      const [ended] = await ctx.database.db.select().from(orders).where(eq(orders.id, order.id));
      expect(ended).toMatchObject({ state: 'cancelled', paymentState: 'unpaid' });
      const [plan] = await mine(customer.cookie);
      expect(plan!.weeks.find((w) => w.week === '2026-10-29')?.reason).toBe(
        "This week's payment was not confirmed in time, so this week was skipped.",
      );
    });

    it('a crash after the charge: the retry gets the same PaymentIntent by the week’s key, and one order', async () => {
      const ctx = get();
      const world = await cardPlanKitchen(ctx);
      const { customer, plan } = await cardPlan(ctx, world);
      await saveCard(ctx, plan, TEST_CARDS.pays);
      await mine(customer.cookie);
      const local = localProvider(ctx);
      let crashed = 0;
      planChargeHooks.afterCharge = () => {
        crashed++;
        throw new Error('test: the instance died after the provider answered');
      };
      now = CUTOFF + 60_000;
      try {
        expect((await placeDuePlans(ctx.app)).filter((o) => o.planId === plan.id)).toEqual([]);
      } finally {
        planChargeHooks.afterCharge = undefined;
      }
      expect(crashed).toBe(1);
      const charges = local.calls.get('POST /v1/payment_intents') ?? 0;
      const [held] = await ctx.database.db
        .select()
        .from(mealPlanWeeks)
        .where(eq(mealPlanWeeks.planId, plan.id));
      expect(held).toMatchObject({ state: 'placing' });
      // Within the hold nobody takes it; after it, the next run does.
      now += 60_000;
      expect((await placeDuePlans(ctx.app)).filter((o) => o.planId === plan.id)).toEqual([]);
      now += PLACEMENT_HOLD_MS;
      const outcomes = (await placeDuePlans(ctx.app)).filter((o) => o.planId === plan.id);
      expect(outcomes).toMatchObject([{ outcome: 'placed' }]);
      const planOrders = await ctx.database.db
        .select()
        .from(orders)
        .where(like(orders.idempotencyKey, `plan-${plan.id}-%`));
      expect(planOrders).toHaveLength(1);
      expect(planOrders[0]).toMatchObject({ state: 'recieved', paymentState: 'authorised' });
      // The same PaymentIntent, answered again under the week's key: no second payment at the provider.
      expect(local.calls.get('POST /v1/payment_intents') ?? 0).toBe(charges);
      const intents = [...local.objects.values()].filter(
        (o) =>
          o.object === 'payment_intent' &&
          (o.metadata as Record<string, string>)?.orderId === planOrders[0]!.id,
      );
      expect(intents.map((o) => o.id)).toEqual([planOrders[0]!.paymentIntentId]);
      expect((await money(ctx, planOrders[0]!.id)).ledger).toEqual({ authorised: planOrders[0]!.totalCents });
    });
    it("'Change card': a fresh page while the plan keeps its card; the card saved there is charged from then on", async () => {
      const ctx = get();
      const world = await cardPlanKitchen(ctx);
      const { customer, plan } = await cardPlan(ctx, world);
      await saveCard(ctx, plan, TEST_CARDS.pays);
      const [saved] = await mine(customer.cookie);
      expect(saved).toMatchObject({ status: 'active', hasCard: true, cardSetupUrl: null });
      const [before] = await ctx.database.db.select().from(mealPlans).where(eq(mealPlans.id, plan.id));

      const change = () => call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, { action: 'card' });
      const opened = await change();
      expect(opened.statusCode, opened.body).toBe(200);
      const replacing = opened.json<CustomerPlan>();
      expect(replacing).toMatchObject({ status: 'active', hasCard: true });
      expect(replacing.cardSetupUrl).toMatch(/\/dev-pay\/checkout\/cs_/);
      expect(replacing.cardSetupUrl).not.toBe(plan.cardSetupUrl);
      // Pressed again while that page is open: the same page.
      expect((await change()).json<CustomerPlan>().cardSetupUrl).toBe(replacing.cardSetupUrl);
      // Not saved yet: the card saved before is the plan's.
      const [still] = await ctx.database.db.select().from(mealPlans).where(eq(mealPlans.id, plan.id));
      expect(still!.cardPaymentMethodId).toBe(before!.cardPaymentMethodId);

      // A card that is declined when charged, saved on it: it replaces the first, and the week is charged to it.
      await saveCard(ctx, replacing, TEST_CARDS.attachesThenDeclines);
      const [back] = await mine(customer.cookie);
      expect(back).toMatchObject({ status: 'active', hasCard: true, cardSetupUrl: null });
      const [after] = await ctx.database.db.select().from(mealPlans).where(eq(mealPlans.id, plan.id));
      expect(after!.cardPaymentMethodId).toMatch(/^pm_/);
      expect(after!.cardPaymentMethodId).not.toBe(before!.cardPaymentMethodId);
      now = CUTOFF + 60_000;
      expect((await placeDuePlans(ctx.app)).filter((o) => o.planId === plan.id)).toMatchObject([
        { outcome: 'failed', reason: 'Your card was declined, so this week was not ordered.' },
      ]);
    });

    it('an expired card-saving page is reopened as a fresh one; a cash plan has none', async () => {
      const ctx = get();
      const world = await cardPlanKitchen(ctx);
      const { customer, plan } = await cardPlan(ctx, world);
      const [row] = await ctx.database.db.select().from(mealPlans).where(eq(mealPlans.id, plan.id));
      await ctx.app.payments.provider!.expireCheckout(row!.cardSetupSessionId!);
      const reopened = await call(customer.cookie, 'PATCH', `/api/plans/${plan.id}`, { action: 'card' });
      expect(reopened.statusCode, reopened.body).toBe(200);
      const fresh = reopened.json<CustomerPlan>();
      expect(fresh).toMatchObject({ status: 'waiting-for-card', hasCard: false });
      expect(fresh.cardSetupUrl).toMatch(/\/dev-pay\/checkout\/cs_/);
      expect(fresh.cardSetupUrl).not.toBe(plan.cardSetupUrl);
      await saveCard(ctx, fresh, TEST_CARDS.pays);
      expect((await mine(customer.cookie))[0]).toMatchObject({ status: 'active', hasCard: true });
      // Another customer cannot open it; a cash plan has no card to save (409 naming the action).
      const stranger = await signedIn(ctx, 'customer');
      expect(
        (await call(stranger.cookie, 'PATCH', `/api/plans/${plan.id}`, { action: 'card' })).statusCode,
      ).toBe(404);
      await ctx.database.db
        .update(kitchens)
        .set({ acceptsCash: true })
        .where(eq(kitchens.ownerId, world.cook.kitchen.uid));
      const cash = await call(customer.cookie, 'POST', '/api/plans', {
        kitchenUid: world.cook.kitchen.uid,
        itemIds: [world.dal.id],
        address: '9 Plan Street',
        payment: 'cash',
        slotStart: '2026-10-22T22:30:00Z',
      });
      expect(cash.statusCode, cash.body).toBe(201);
      const refused = await call(customer.cookie, 'PATCH', `/api/plans/${cash.json<CustomerPlan>().id}`, {
        action: 'card',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ field: 'action' });
    });
  },
  { PAYMENTS: 'local' },
  { clock },
);
