import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import { CODE_ALPHABET, GENERATED_CODE_LENGTH, type PromoCode } from '../../shared/promo-codes.js';
import { ledgerEntries, promoCodes } from '../db/schema.js';
import { reconcile } from '../money/reconcile.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { discountOf } from '../payments/promo-codes.js';
import { FakeClock } from '../test/fake-clock.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { expectLedgerBalanced, expectMoneySettled } from '../test/payment-checks.js';
import {
  localProvider,
  money,
  orderCalls,
  paidKitchen,
  placeOrder,
  sessionOf,
  TO_THE_DOOR,
} from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const clock = new FakeClock();
clock.advance(Date.now());

/** 2 × Dal at 9.50, delivery 2.99, fees and tax 7.46 (the platform's fee, no commission configured): 29.45. */
const TOTAL = 2945;
const FEE = 746;
const HOUR = 3600_000;

describeEachEngine(
  'promotion codes (ADR 30)',
  (get) => {
    const { move, cancelAsCustomer } = orderCalls(get);
    const unique = (prefix: string) => `${prefix}${randomUUID().slice(0, 8).toUpperCase()}`;

    const operator = (ctx: TestContext) => signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
    async function makeCode(
      ctx: TestContext,
      cookie: string,
      body: Record<string, unknown>,
      who = 'operator',
    ) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/${who}/codes`,
        headers: { cookie },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ code: PromoCode }>().code;
    }
    const platformCode = async (ctx: TestContext, body: Record<string, unknown>) =>
      makeCode(ctx, (await operator(ctx)).cookie, body);

    /** A customer's 2 × Dal order at a paid kitchen with a code; paid by card, accepted (captured). */
    async function capturedWith(
      ctx: TestContext,
      world: Awaited<ReturnType<typeof paidKitchen>>,
      code: string,
    ) {
      const customer = await signedIn(ctx, 'customer');
      const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal], {
        code,
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const order = placed.json<CustomerOrder>();
      await localProvider(ctx).pay(sessionOf(order), TEST_CARDS.pays);
      await localProvider(ctx).settled();
      const accepted = await move(world.cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
      expect(accepted.statusCode, accepted.body).toBe(200);
      await localProvider(ctx).settled();
      expect(await expectMoneySettled(ctx, order.id)).toBe('captured');
      return { customer, order };
    }

    it("a platform code under its fee lowers the fee; the kitchen's part is unchanged", async () => {
      const ctx = get();
      const code = unique('FIRST');
      await platformCode(ctx, { code: code.toLowerCase(), amountOffCents: 500 });
      const world = await paidKitchen(ctx);
      // Typed in any case.
      const { order } = await capturedWith(ctx, world, ` ${code.toLowerCase()} `);
      expect(order).toMatchObject({
        totalCents: TOTAL - 500,
        discount: { code, cents: 500, paidBy: 'platform' },
      });
      expect(localProvider(ctx).objects.get(sessionOf(order))?.amount_total).toBe(TOTAL - 500);
      const { ledger } = await money(ctx, order.id);
      expect(ledger).toMatchObject({
        captured: TOTAL - 500,
        platform_fee: FEE - 500,
        kitchen_transfer: TOTAL - FEE,
        discount_given: 500,
        discount_fee_funded: 500,
      });
      expect(ledger.credit_transfer).toBeUndefined();
      expect((await reconcile(ctx.app)).found).toEqual([]);
    });

    it('a platform code beyond its fee: the platform pays the kitchen the rest by a transfer of its own', async () => {
      const ctx = get();
      const code = unique('TEN');
      await platformCode(ctx, { code, amountOffCents: 1000 });
      const world = await paidKitchen(ctx);
      const { order } = await capturedWith(ctx, world, code);
      const { ledger } = await money(ctx, order.id);
      expect(ledger).toMatchObject({
        captured: TOTAL - 1000,
        kitchen_transfer: TOTAL - FEE,
        discount_given: 1000,
        discount_fee_funded: FEE,
        credit_transfer: 1000 - FEE,
      });
      expect(ledger.platform_fee ?? 0).toBe(0);
      const transfers = [...localProvider(ctx).objects.values()].filter(
        (o) => o.object === 'transfer' && o.destination === world.account,
      );
      expect(transfers.map((t) => t.amount).sort((a, b) => Number(a) - Number(b))).toEqual([
        1000 - FEE,
        TOTAL - 1000,
      ]);
      expect((await reconcile(ctx.app)).found).toEqual([]);
    });

    it("a cook's code lowers the kitchen's transfer; the platform's fee is unchanged", async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const code = unique('ASHA');
      const made = await makeCode(ctx, world.cook.cookie, { code, percentOff: 10 }, 'kitchen');
      expect(made).toMatchObject({ paidBy: 'kitchen', kitchenUid: world.cook.kitchen.uid });
      const { order } = await capturedWith(ctx, world, code);
      // 10 % of 19.00 of dishes.
      expect(order.discount).toEqual({ code, cents: 190, paidBy: 'kitchen' });
      const { ledger } = await money(ctx, order.id);
      expect(ledger).toMatchObject({
        captured: TOTAL - 190,
        platform_fee: FEE,
        kitchen_transfer: TOTAL - 190 - FEE,
        discount_given: 190,
        discount_kitchen_funded: 190,
      });
      expect((await reconcile(ctx.app)).found).toEqual([]);
      // A discount the ledger lost is named by the reconciliation.
      await ctx.database.db
        .delete(ledgerEntries)
        .where(and(eq(ledgerEntries.orderId, order.id), eq(ledgerEntries.kind, 'discount_kitchen_funded')));
      expect((await reconcile(ctx.app)).found).toContainEqual({
        scope: `discount:${order.id}`,
        detail: `Code ${code} (paid by the kitchen): $1.90 off the order, $1.90 in the ledger ($0.00 paid by the kitchen), $1.90 in its use.`,
      });
      const listed = await ctx.app.inject({
        method: 'GET',
        url: '/api/kitchen/codes',
        headers: { cookie: world.cook.cookie },
      });
      expect(listed.json<{ codes: PromoCode[] }>().codes).toMatchObject([
        { code, uses: 1, discountCents: 190 },
      ]);
      // Another cook cannot see or turn it off.
      const other = await paidKitchen(ctx);
      const theirs = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/kitchen/codes/${made.id}`,
        headers: { cookie: other.cook.cookie },
        payload: { active: false },
      });
      expect(theirs.statusCode).toBe(404);
    });

    it('refuses a code for each of its limits, naming the code and why', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const elsewhere = await paidKitchen(ctx);
      const now = clock.now();
      const codes = {
        expired: await platformCode(ctx, {
          amountOffCents: 100,
          startsAt: new Date(now - 2 * HOUR).toISOString(),
          endsAt: new Date(now - HOUR).toISOString(),
        }),
        later: await platformCode(ctx, { amountOffCents: 100, startsAt: new Date(now + HOUR).toISOString() }),
        minimum: await platformCode(ctx, { amountOffCents: 100, minOrderCents: 5000 }),
        other: await platformCode(ctx, { amountOffCents: 100, kitchenUid: elsewhere.cook.kitchen.uid }),
        first: await platformCode(ctx, { amountOffCents: 100, firstOrderOnly: true }),
        once: await platformCode(ctx, { amountOffCents: 100, maxUsesPerCustomer: 1 }),
        off: await platformCode(ctx, { amountOffCents: 100 }),
      };
      for (const code of Object.values(codes))
        expect(code.code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{${GENERATED_CODE_LENGTH}}$`));
      const ops = await operator(ctx);
      const off = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/operator/codes/${codes.off.id}`,
        headers: { cookie: ops.cookie },
        payload: { active: false },
      });
      expect(off.json()).toMatchObject({ code: { active: false } });
      const customer = await signedIn(ctx, 'customer');
      const attempt = (code: string) =>
        placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal], { code });
      const refusals: [string, RegExp][] = [
        [codes.expired.code, /has expired/],
        [codes.later.code, /can be used from/],
        [codes.minimum.code, /at least \$50\.00/],
        [codes.other.code, /for orders from Lola/],
        [codes.off.code, /turned off/],
        ['NOSUCHCODE', /There is no code NOSUCHCODE/],
      ];
      for (const [code, why] of refusals) {
        const res = await attempt(code);
        expect(res.statusCode, `${code}: ${res.body}`).toBe(409);
        expect(res.json()).toMatchObject({ code: 'CODE_REFUSED', field: 'code' });
        expect(res.json<{ message: string }>().message).toMatch(why);
      }
      const badShape = await attempt('no');
      expect(badShape.statusCode).toBe(400);
      expect(badShape.json()).toMatchObject({ field: 'code' });
      // Once per customer: a second order with it is refused once the first is placed.
      const once = await attempt(codes.once.code);
      expect(once.statusCode, once.body).toBe(201);
      const placedOnce = once.json<CustomerOrder>();
      await localProvider(ctx).pay(sessionOf(placedOnce), TEST_CARDS.pays);
      await localProvider(ctx).settled();
      for (const body of TO_THE_DOOR)
        expect((await move(world.cook.cookie, placedOnce.id, body)).statusCode).toBe(200);
      await localProvider(ctx).settled();
      const twice = await attempt(codes.once.code);
      expect(twice.json()).toMatchObject({ code: 'CODE_REFUSED', field: 'code' });
      expect(twice.json<{ message: string }>().message).toMatch(/used the code .* already/);
      // The customer has a delivered order now: first orders only.
      const first = await attempt(codes.first.code);
      expect(first.json<{ message: string }>().message).toMatch(/first orders only/);
      // The cart's 'Apply' says the same, and what a good code takes off.
      const quote = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders/code',
        headers: { cookie: customer.cookie },
        payload: { code: codes.expired.code, kitchenUid: world.cook.kitchen.uid, itemIds: [world.dal.id] },
      });
      expect(quote.statusCode).toBe(409);
      expect(quote.json()).toMatchObject({ code: 'CODE_REFUSED', field: 'code' });
    });

    it("a code's last use raced by 20 customers goes to one; a cancelled order gives it back", async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const made = await platformCode(ctx, { amountOffCents: 300, maxUses: 1 });
      const customers = await Promise.all(Array.from({ length: 20 }, () => signedIn(ctx, 'customer')));
      const results = await Promise.all(
        customers.map((c) =>
          placeOrder(ctx, c.cookie, world.cook.kitchen.uid, [world.dal], { code: made.code }),
        ),
      );
      const won = results.filter((r) => r.statusCode === 201);
      expect(won).toHaveLength(1);
      for (const lost of results.filter((r) => r.statusCode !== 201)) {
        expect(lost.statusCode, lost.body).toBe(409);
        expect(lost.json<{ message: string }>().message).toMatch(/used up/);
      }
      const [row] = await ctx.database.db.select().from(promoCodes).where(eq(promoCodes.id, made.id));
      expect(row?.usesCount).toBe(1);
      // The winner goes back from the payment page: the use is given back, and another customer can have it.
      const winner = customers[results.findIndex((r) => r.statusCode === 201)];
      const order = won[0]?.json<CustomerOrder>();
      const cancelled = await cancelAsCustomer(winner?.cookie ?? '', order?.id ?? '');
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const [after] = await ctx.database.db.select().from(promoCodes).where(eq(promoCodes.id, made.id));
      expect(after?.usesCount).toBe(0);
      const again = await placeOrder(ctx, customers[5]?.cookie ?? '', world.cook.kitchen.uid, [world.dal], {
        code: made.code,
      });
      expect(again.statusCode, again.body).toBe(201);
    });

    it('refunds a discounted order up to what the customer paid, never more', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const code = unique('COOK');
      await makeCode(ctx, world.cook.cookie, { code, amountOffCents: 400 }, 'kitchen');
      const { order } = await capturedWith(ctx, world, code);
      for (const body of TO_THE_DOOR.slice(1))
        expect((await move(world.cook.cookie, order.id, body)).statusCode).toBe(200);
      await localProvider(ctx).settled();
      const refund = (amountCents: number) =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/kitchen/orders/${order.id}/refunds`,
          headers: { cookie: world.cook.cookie },
          payload: { key: randomUUID(), amountCents },
        });
      const tooMuch = await refund(TOTAL - 400 + 1);
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json()).toMatchObject({ code: 'REFUND_TOO_LARGE', field: 'amountCents' });
      const all = await refund(TOTAL - 400);
      expect(all.statusCode, all.body).toBe(200);
      await localProvider(ctx).settled();
      await expectLedgerBalanced(ctx, order.id);
    });

    it('refuses bad code input naming the field, and a code that exists already', async () => {
      const ctx = get();
      const ops = await operator(ctx);
      const post = (payload: Record<string, unknown>) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/operator/codes',
          headers: { cookie: ops.cookie },
          payload,
        });
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'amountOffCents'],
        [{ amountOffCents: 100, percentOff: 10 }, 'amountOffCents'],
        [{ percentOff: 101 }, 'percentOff'],
        [{ amountOffCents: -5 }, 'amountOffCents'],
        [{ amountOffCents: 100, maxDiscountCents: 50 }, 'maxDiscountCents'],
        [{ amountOffCents: 100, endsAt: 'tomorrow' }, 'endsAt'],
        [{ amountOffCents: 100, code: 'a b!' }, 'code'],
        [{ amountOffCents: 100, kitchenUid: randomUUID() }, 'kitchenUid'],
        [{ amountOffCents: 100, maxUses: 0 }, 'maxUses'],
      ];
      for (const [payload, field] of cases) {
        const res = await post(payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ field });
      }
      const code = unique('DUP');
      expect((await post({ code, amountOffCents: 100 })).statusCode).toBe(201);
      const dup = await post({ code: code.toLowerCase(), amountOffCents: 100 });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ field: 'code' });
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);

it('computes a discount in whole minor units, capped, and a kitchen never below nothing', () => {
  const code = { amountOffCents: null, percentOff: 15, maxDiscountCents: 200, paidBy: 'platform' as const };
  expect(discountOf(code, { itemsCents: 999, commissionCents: 0 })).toBe(149);
  expect(discountOf(code, { itemsCents: 5000, commissionCents: 0 })).toBe(200);
  expect(
    discountOf({ ...code, amountOffCents: 5000, percentOff: null }, { itemsCents: 950, commissionCents: 0 }),
  ).toBe(950);
  expect(
    discountOf(
      { ...code, amountOffCents: 5000, percentOff: null, paidBy: 'kitchen' },
      { itemsCents: 950, commissionCents: 95 },
    ),
  ).toBe(855);
});
