import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { DataExport } from '../../shared/account.js';
import type { CreditAccount } from '../../shared/credit.js';
import type { CustomerOrder } from '../../shared/orders.js';
import type { MoneyOverview } from '../../shared/payments.js';
import type { OrderRefund } from '../../shared/refunds.js';
import { creditAccounts, creditEntries } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';
import { reconcile } from '../money/reconcile.js';
import { moveCredit } from '../payments/credit.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { FakeClock } from '../test/fake-clock.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { expectLedgerBalanced, expectMoneySettled } from '../test/payment-checks.js';
import {
  deliveredCardOrder,
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
const setClock = (at: number) => clock.advance(at - clock.now());

/** 2 × Dal at 9.50, delivery 2.99, fees and tax 7.46 (the platform's fee, no commission configured): 29.45. */
const TOTAL = 2945;
const FEE = 746;
const DAL = { item: 'Dal', priceCents: 950 };

describeEachEngine(
  'store credit (ADR 29)',
  (get) => {
    const { move } = orderCalls(get);

    const account = async (cookie: string) => {
      const res = await get().app.inject({ method: 'GET', url: '/api/account/credit', headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<CreditAccount>();
    };
    const refundAsCook = (cookie: string, orderId: string, body: Record<string, unknown>) =>
      get().app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${orderId}/refunds`,
        headers: { cookie },
        payload: { key: randomUUID(), ...body },
      });
    const refundsAtProvider = (intent: string | null | undefined) =>
      [...localProvider(get()).objects.values()].filter(
        (o) => o.object === 'refund' && o.payment_intent === intent,
      );

    /**
     * A delivered card order whose customer reported a missing dal asking for store credit, and whose cook refunded
     * it: the customer holds `dals` × 9.50 of credit.
     */
    async function creditFromAReport(ctx: TestContext, dals = 1) {
      const delivered = await deliveredCardOrder(ctx);
      setClock(Date.now());
      const reported = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${delivered.order.id}/problem`,
        headers: { cookie: delivered.customer.cookie },
        payload: { reason: 'missing', dishes: [{ ...DAL, quantity: dals }], refundAs: 'credit' },
      });
      expect(reported.statusCode, reported.body).toBe(201);
      expect(reported.json()).toMatchObject({ refundAs: 'credit' });
      const refund = await refundAsCook(delivered.cook.cookie, delivered.order.id, {
        dishes: [{ ...DAL, quantity: dals }],
      });
      expect(refund.statusCode, refund.body).toBe(200);
      return { ...delivered, refund: refund.json<OrderRefund>() };
    }

    /** The customer's next order, 2 × Dal at another kitchen, paying with their credit first. */
    async function orderWithCredit(ctx: TestContext, cookie: string) {
      const world = await paidKitchen(ctx);
      const placed = await placeOrder(ctx, cookie, world.cook.kitchen.uid, [world.dal, world.dal], {
        useCredit: true,
      });
      expect(placed.statusCode, placed.body).toBe(201);
      return { ...world, order: placed.json<CustomerOrder>() };
    }

    it('gives a refund as credit instead of money back, and spends it on the next order at any kitchen', async () => {
      const ctx = get();
      const first = await creditFromAReport(ctx);
      // Nothing went back to the card: the refund is credit, done at once, and the platform pays it.
      expect(first.refund).toMatchObject({ amountCents: 950, state: 'refunded' });
      const { row } = await money(ctx, first.order.id);
      expect(refundsAtProvider(row?.paymentIntentId)).toEqual([]);
      const { ledger } = await expectLedgerBalanced(ctx, first.order.id).then(() =>
        money(ctx, first.order.id),
      );
      expect(ledger).toMatchObject({ credit_issued: -950, credit_platform_funded: -950 });
      expect(ledger.refunded).toBeUndefined();
      expect(await account(first.customer.cookie)).toMatchObject({
        balanceCents: 950,
        entries: [{ kind: 'refund', amountCents: 950, orderId: first.order.id }],
      });

      // The next order, at another kitchen: the card is charged the rest; the kitchen's part is unchanged.
      const next = await orderWithCredit(ctx, first.customer.cookie);
      expect(next.order.creditCents).toBe(950);
      const session = localProvider(ctx).objects.get(sessionOf(next.order));
      expect(session?.amount_total).toBe(TOTAL - 950);
      expect((await account(first.customer.cookie)).balanceCents).toBe(0);
      await localProvider(ctx).pay(sessionOf(next.order), TEST_CARDS.pays);
      await localProvider(ctx).settled();
      const accepted = await move(next.cook.cookie, next.order.id, { move: 'accept', readyInMinutes: 30 });
      expect(accepted.statusCode, accepted.body).toBe(200);
      await localProvider(ctx).settled();
      expect(await expectMoneySettled(ctx, next.order.id)).toBe('captured');
      const after = await money(ctx, next.order.id);
      // 9.50 of credit is more than the 7.46 fee: the platform's fee at the provider is nothing, and it pays the
      // kitchen the other 2.04 by a transfer of its own, so the kitchen gets 29.45 − 7.46 all the same.
      expect(after.ledger).toMatchObject({
        captured: TOTAL - 950,
        credit_spent: 950,
        credit_fee_funded: FEE,
        kitchen_transfer: TOTAL - FEE,
        credit_transfer: 950 - FEE,
      });
      const transfers = [...localProvider(ctx).objects.values()].filter(
        (o) => o.object === 'transfer' && o.destination === next.account,
      );
      expect(transfers.map((t) => t.amount).sort((a, b) => Number(a) - Number(b))).toEqual([
        950 - FEE,
        TOTAL - 950,
      ]);
      expect((await account(first.customer.cookie)).entries.map((e) => [e.kind, e.amountCents])).toEqual([
        ['spent', -950],
        ['refund', 950],
      ]);
      // The reconciliation finds nothing to say, credit included; the Money tab counts it.
      const result = await reconcile(ctx.app);
      expect(result.found).toEqual([]);
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const overview = await ctx.app.inject({
        method: 'GET',
        url: '/api/operator/money',
        headers: { cookie: operator.cookie },
      });
      expect(overview.json<MoneyOverview>().totals).toMatchObject({
        creditIssuedCents: 950,
        creditSpentCents: 950,
      });
    });

    it("puts the credit in 'Download my data': the balance now and every entry, oldest first", async () => {
      const ctx = get();
      const first = await creditFromAReport(ctx);
      const next = await orderWithCredit(ctx, first.customer.cookie);
      await localProvider(ctx).pay(sessionOf(next.order), TEST_CARDS.pays);
      await localProvider(ctx).settled();
      const declined = await move(next.cook.cookie, next.order.id, { move: 'decline', reason: 'Sold out' });
      expect(declined.statusCode, declined.body).toBe(200);
      await localProvider(ctx).settled();

      const res = await ctx.app.inject({
        url: '/api/account/customer/export',
        headers: { cookie: first.customer.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      const data = DataExport.parse(res.json());
      expect(data.storeCredit).toMatchObject({ currency: 'USD', balanceCents: 950 });
      expect(data.storeCredit?.entries.map((e) => [e.kind, e.amountCents, e.orderId, e.kitchenName])).toEqual(
        [
          ['refund', 950, first.order.id, first.cook.kitchen.name],
          ['spent', -950, next.order.id, next.cook.kitchen.name],
          ['returned', 950, next.order.id, next.cook.kitchen.name],
        ],
      );
      // The same as the account page says, oldest first.
      const page = await account(first.customer.cookie);
      expect(page.balanceCents).toBe(950);
      expect(data.storeCredit?.entries.map((e) => e.id)).toEqual(page.entries.map((e) => e.id).reverse());
      // The cook, who never had credit, has none in theirs.
      const cooks = await ctx.app.inject({
        url: '/api/account/kitchen/export',
        headers: { cookie: next.cook.cookie },
      });
      expect(DataExport.parse(cooks.json()).storeCredit).toBeNull();
    });

    it('refuses a spend beyond the balance, and of two spends of the same credit at once lets one win', async () => {
      const ctx = get();
      const customer = await signedIn(ctx, 'customer');
      const give = (amountCents: number, entry: string) =>
        ctx.database.db.transaction((tx) =>
          moveCredit(tx, {
            customerId: customer.user.id,
            kind: 'refund',
            amountCents,
            currency: 'USD',
            entry,
          }),
        );
      expect(await give(1000, 'test:gift')).toBe(true);
      // The same entry again writes nothing.
      expect(await give(1000, 'test:gift')).toBe(false);
      const spend = (amountCents: number, entry: string) =>
        ctx.database.db.transaction((tx) =>
          moveCredit(tx, {
            customerId: customer.user.id,
            kind: 'spent',
            amountCents: -amountCents,
            currency: 'USD',
            entry,
          }),
        );
      const tooMuch = await spend(1001, 'test:too-much').catch((e: unknown) => e);
      expect(tooMuch).toBeInstanceOf(HttpError);
      expect(tooMuch).toMatchObject({ code: 'CREDIT_TOO_LOW' });
      const race = await Promise.allSettled([spend(700, 'test:a'), spend(700, 'test:b')]);
      expect(race.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const [held] = await ctx.database.db
        .select()
        .from(creditAccounts)
        .where(eq(creditAccounts.customerId, customer.user.id));
      expect(held?.balanceCents).toBe(300);
      const entries = await ctx.database.db
        .select()
        .from(creditEntries)
        .where(eq(creditEntries.customerId, customer.user.id));
      expect(entries.map((e) => e.amountCents).sort((a, b) => a - b)).toEqual([-700, 1000]);
      // (Spent to the end: credit given outside a refund has no ledger entry the reconciliation would find.)
      expect(await spend(300, 'test:rest')).toBe(true);
    });

    it('two orders placed at once with the same credit: one takes it, the other is charged in full', async () => {
      const ctx = get();
      const first = await creditFromAReport(ctx);
      const world = await paidKitchen(ctx);
      const second = await paidKitchen(ctx);
      const [a, b] = await Promise.all(
        [world, second].map((w) =>
          placeOrder(ctx, first.customer.cookie, w.cook.kitchen.uid, [w.dal, w.dal], { useCredit: true }),
        ),
      );
      // One order in progress per customer decides between them, or the credit's own check: never both.
      const placed = [a, b].filter((r) => r?.statusCode === 201).map((r) => r?.json<CustomerOrder>());
      expect(placed.reduce((sum, o) => sum + (o?.creditCents ?? 0), 0)).toBeLessThanOrEqual(950);
      expect((await account(first.customer.cookie)).balanceCents).toBe(
        950 - placed.reduce((sum, o) => sum + (o?.creditCents ?? 0), 0),
      );
    });

    it('refunds an order paid partly with credit: the card first, the rest back as credit, never more than paid', async () => {
      const ctx = get();
      const first = await creditFromAReport(ctx);
      const next = await orderWithCredit(ctx, first.customer.cookie);
      await localProvider(ctx).pay(sessionOf(next.order), TEST_CARDS.pays);
      await localProvider(ctx).settled();
      for (const body of TO_THE_DOOR) {
        const res = await move(next.cook.cookie, next.order.id, body);
        expect(res.statusCode, res.body).toBe(200);
      }
      await localProvider(ctx).settled();
      const card = TOTAL - 950;
      const one = await refundAsCook(next.cook.cookie, next.order.id, { amountCents: 1500 });
      expect(one.json<OrderRefund>()).toMatchObject({ state: 'refunded' });
      // Never more than was paid, card and credit together.
      const over = await refundAsCook(next.cook.cookie, next.order.id, { amountCents: TOTAL - 1500 + 1 });
      expect(over.statusCode).toBe(409);
      expect(over.json()).toMatchObject({ code: 'REFUND_TOO_LARGE' });
      // The card paid 19.95: 15.00 back leaves 4.95 on it; 14.45 asked: 4.95 to the card, 9.50 back as credit.
      const two = await refundAsCook(next.cook.cookie, next.order.id, { amountCents: TOTAL - 1500 });
      expect(two.statusCode, two.body).toBe(200);
      expect(two.json<OrderRefund>()).toMatchObject({ state: 'refunded', amountCents: TOTAL - 1500 });
      const { row } = await money(ctx, next.order.id);
      expect(refundsAtProvider(row?.paymentIntentId).map((r) => r.amount)).toEqual([1500, card - 1500]);
      expect((await account(first.customer.cookie)).balanceCents).toBe(950);
      expect(await expectMoneySettled(ctx, next.order.id)).toBe('refunded');
      const { ledger } = await money(ctx, next.order.id);
      expect(ledger.refunded).toBe(-card);
      expect(ledger.credit_issued).toBe(-950);
      expect((await reconcile(ctx.app)).found).toEqual([]);
    });

    it('an order the credit covers needs no card; declined, its credit comes back', async () => {
      const ctx = get();
      const first = await creditFromAReport(ctx, 2);
      // A dish of 9.50 alone: 9.50 + 2.99 + 7.46 = 19.95 is more than 19.00 of credit; one of 5.00 is covered.
      const world = await paidKitchen(ctx, { price: '5.00' });
      const placed = await placeOrder(ctx, first.customer.cookie, world.cook.kitchen.uid, [world.dal], {
        useCredit: true,
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const order = placed.json<CustomerOrder>();
      const total = 500 + 299 + FEE;
      expect(order).toMatchObject({ creditCents: total, state: 'recieved' });
      expect(order.payment).toMatchObject({ state: 'authorised', checkoutUrl: null });
      expect((await account(first.customer.cookie)).balanceCents).toBe(1900 - total);
      const declined = await move(world.cook.cookie, order.id, { move: 'decline', reason: 'Sold out' });
      expect(declined.statusCode, declined.body).toBe(200);
      expect((await account(first.customer.cookie)).balanceCents).toBe(1900);
      expect(await expectMoneySettled(ctx, order.id)).toBe('released');

      // Again, accepted this time: captured with no card, the kitchen paid its part by the platform's transfer.
      const again = await placeOrder(ctx, first.customer.cookie, world.cook.kitchen.uid, [world.dal], {
        useCredit: true,
      });
      const paid = again.json<CustomerOrder>();
      const accepted = await move(world.cook.cookie, paid.id, { move: 'accept', readyInMinutes: 30 });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await expectMoneySettled(ctx, paid.id)).toBe('captured');
      expect((await money(ctx, paid.id)).ledger).toMatchObject({
        credit_spent: total,
        credit_transfer: total - FEE,
        kitchen_transfer: total - FEE,
      });
      expect((await reconcile(ctx.app)).found).toEqual([]);
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);
