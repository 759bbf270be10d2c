import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import type { Earnings, MoneyOverview } from '../../shared/payments.js';
import type { OrderRefund } from '../../shared/refunds.js';
import { ledgerEntries, notificationOutbox, orderRefunds } from '../db/schema.js';
import { renderNotice } from '../notifications/render.js';
import { reconcile } from '../money/reconcile.js';
import { FakeClock } from '../test/fake-clock.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { advancePast, expectMoneySettled } from '../test/payment-checks.js';
import { deliveredCardOrder, localProvider, money, orderCalls, paidOrder } from '../test/payments-world.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { pollPayments } from './payment-poll.js';

const clock = new FakeClock();
clock.advance(Date.now());

/** 2 × Dal at 9.50, delivery 2.99, fees and tax 7.46 (the platform's fee, no commission configured): 29.45. */
const TOTAL = 2945;
const FEE = 746;

describeEachEngine(
  'partial refunds of a delivered card order',
  (get) => {
    const { move } = orderCalls(get);

    /** A card order paid, accepted (captured), prepared, dispatched and delivered. */
    const deliveredOrder = deliveredCardOrder;

    const refundAsCook = (cookie: string, orderId: string, body: Record<string, unknown>) =>
      get().app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${orderId}/refunds`,
        headers: { cookie },
        payload: { key: randomUUID(), ...body },
      });
    const refundAsOperator = async (orderId: string, body: Record<string, unknown>) => {
      const operator = await signedIn(get(), 'operator', { email: OPERATOR_EMAIL });
      return get().app.inject({
        method: 'POST',
        url: `/api/operator/orders/${orderId}/refunds`,
        headers: { cookie: operator.cookie },
        payload: { key: randomUUID(), ...body },
      });
    };
    const refundsAtProvider = (intent: string) =>
      [...localProvider(get()).objects.values()].filter(
        (o) => o.object === 'refund' && o.payment_intent === intent,
      );

    it('gives back two parts, each once under its key, and refuses a third beyond what was captured', async () => {
      const ctx = get();
      const { cook, order } = await deliveredOrder(ctx);
      const first = await refundAsCook(cook.cookie, order.id, { amountCents: 950, reason: 'Missing dal' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json<OrderRefund>()).toMatchObject({
        amountCents: 950,
        whoPays: 'kitchen',
        state: 'refunded',
        reason: 'Missing dal',
        transferReversedCents: 950,
        // The fee's share of the part: 7.46 × 9.50 / 29.45, to the cent.
        feeRefundedCents: 241,
      });
      // The same request again (a double click, a retry): the same refund, nothing more at the provider.
      const key = randomUUID();
      const second = await refundAsCook(cook.cookie, order.id, { key, amountCents: 1200 });
      const repeated = await refundAsCook(cook.cookie, order.id, { key, amountCents: 1200 });
      expect(repeated.json<OrderRefund>().id).toBe(second.json<OrderRefund>().id);
      const other = await refundAsCook(cook.cookie, order.id, { key, amountCents: 100 });
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ code: 'REFUND_KEY_REUSED', field: 'key' });

      const { row } = await money(ctx, order.id);
      expect(refundsAtProvider(row?.paymentIntentId ?? '').map((r) => r.amount)).toEqual([950, 1200]);
      // 29.45 − 9.50 − 12.00 = 7.95 left: 7.96 is refused, naming the field, and changes nothing.
      const third = await refundAsCook(cook.cookie, order.id, { amountCents: TOTAL - 2150 + 1 });
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({ code: 'REFUND_TOO_LARGE', field: 'amountCents' });
      expect(third.json<{ message: string }>().message).toContain('$7.95');
      expect(refundsAtProvider(row?.paymentIntentId ?? '')).toHaveLength(2);

      // One ledger entry per refund, each with its rows; the order's own steps stay one of each kind.
      const rows = await ctx.database.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.orderId, order.id));
      const refunds = await ctx.database.db
        .select()
        .from(orderRefunds)
        .where(eq(orderRefunds.orderId, order.id));
      expect(new Set(rows.map((r) => r.entry))).toEqual(
        new Set(['order', ...refunds.map((r) => `refund:${r.id}`)]),
      );
      expect(
        rows
          .filter((r) => r.kind === 'refunded')
          .map((r) => r.amountCents)
          .sort(),
      ).toEqual([-1200, -950]);
      // The ledger balances and agrees with what the provider holds; the order stays captured (the rest was paid).
      expect(await expectMoneySettled(ctx, order.id)).toBe('captured');
      // The last 7.95 is allowed: the whole payment is then refunded.
      const last = await refundAsCook(cook.cookie, order.id, { amountCents: TOTAL - 2150 });
      expect(last.json<OrderRefund>().state).toBe('refunded');
      expect(await expectMoneySettled(ctx, order.id)).toBe('refunded');
      const { ledger } = await money(ctx, order.id);
      expect(ledger.refunded).toBe(-TOTAL);
      // All of it back: the fee too, and the kitchen's whole part.
      expect(ledger.platform_fee_refunded).toBe(-FEE);
      expect(ledger.kitchen_transfer_reversed).toBe(-(TOTAL - FEE));
    });

    it('tells the customer of each part given back by email, once each, and not again when the parts make the whole', async () => {
      const ctx = get();
      const { cook, customer, order } = await deliveredOrder(ctx);
      const customerId = customer.user.id;
      const refunds = async () =>
        ctx.database.db
          .select()
          .from(notificationOutbox)
          .where(
            and(
              eq(notificationOutbox.recipientId, customerId),
              eq(notificationOutbox.kind, 'order-refunded'),
            ),
          );
      const key = randomUUID();
      const dal = await refundAsCook(cook.cookie, order.id, {
        key,
        dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }],
      });
      expect(dal.statusCode, dal.body).toBe(200);
      // Asked again with its key: no second email.
      await refundAsCook(cook.cookie, order.id, {
        key,
        dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }],
      });
      expect(await refunds()).toHaveLength(1);
      const mail = await renderNotice(
        ctx.database.db,
        { kind: 'order-refunded', subjectId: dal.json<OrderRefund>().id, recipientId: customerId },
        'https://homecooked.test',
      );
      expect(mail?.subject).toMatch(/^Refund of \$9\.50 from /);
      expect(mail?.text).toContain('refunded $9.50 of your order: it goes back to your card');
      expect(mail?.text).toContain('1 × Dal');
      // Nobody else's to read.
      expect(
        await renderNotice(
          ctx.database.db,
          { kind: 'order-refunded', subjectId: dal.json<OrderRefund>().id, recipientId: cook.user.id },
          'https://homecooked.test',
        ),
      ).toBeNull();

      // The rest: its own email; the payment then refunded whole is not told a third time.
      const rest = await refundAsCook(cook.cookie, order.id, { amountCents: TOTAL - 950 });
      expect(rest.json<OrderRefund>().state).toBe('refunded');
      const notices = await refunds();
      expect(notices.map((n) => n.subjectId).sort()).toEqual(
        [dal.json<OrderRefund>().id, rest.json<OrderRefund>().id, order.id].sort(),
      );
      const whole = await renderNotice(
        ctx.database.db,
        { kind: 'order-refunded', subjectId: order.id, recipientId: customerId },
        'https://homecooked.test',
      );
      expect(whole).toBeNull();
      const restMail = await renderNotice(
        ctx.database.db,
        { kind: 'order-refunded', subjectId: rest.json<OrderRefund>().id, recipientId: customerId },
        'https://homecooked.test',
      );
      expect(restMail?.text).toContain('$19.95');
      expect(restMail?.text).toContain('An amount of the order');
    });

    it('lets the operator choose who pays: the cook (transfer reversed) or the platform (not), the fee given back or not', async () => {
      const ctx = get();
      const { order, account } = await deliveredOrder(ctx);
      const transferOf = () => {
        const objects = [...localProvider(ctx).objects.values()];
        return objects.find((o) => o.object === 'transfer' && o.destination === account);
      };
      const feeOf = () =>
        [...localProvider(ctx).objects.values()].find(
          (o) => o.object === 'application_fee' && o.account === account,
        );

      const platform = await refundAsOperator(order.id, { amountCents: 500, whoPays: 'platform' });
      expect(platform.json<OrderRefund>()).toMatchObject({
        whoPays: 'platform',
        refundPlatformFee: false,
        state: 'refunded',
        transferReversedCents: 0,
        feeRefundedCents: 0,
      });
      expect(transferOf()).toMatchObject({ amount: TOTAL, amount_reversed: 0 });
      expect(feeOf()).toMatchObject({ amount: FEE, amount_refunded: 0 });
      let { ledger } = await money(ctx, order.id);
      // The kitchen keeps its whole part; the platform's gives the 5.00.
      expect(ledger.kitchen_transfer_reversed).toBe(0);
      expect(ledger.platform_fee_refunded).toBe(-500);
      await expectMoneySettled(ctx, order.id);

      const withFee = await refundAsOperator(order.id, {
        amountCents: 1000,
        whoPays: 'platform',
        refundPlatformFee: true,
      });
      // Stripe gives the fee's share back to the kitchen's account: round(7.46 × 10.00 / 29.45) = 2.53.
      expect(withFee.json<OrderRefund>()).toMatchObject({ transferReversedCents: 0, feeRefundedCents: 253 });
      expect(feeOf()).toMatchObject({ amount_refunded: 253 });
      ({ ledger } = await money(ctx, order.id));
      expect(ledger.kitchen_transfer_reversed).toBe(253);
      expect(ledger.platform_fee_refunded).toBe(-500 - 1000 - 253);
      await expectMoneySettled(ctx, order.id);

      const cook = await refundAsOperator(order.id, { amountCents: 700, whoPays: 'kitchen' });
      // round(7.46 × 7.00 / 29.45) = 1.77 of the fee back; the transfer reversed by the 7.00.
      expect(cook.json<OrderRefund>()).toMatchObject({
        whoPays: 'kitchen',
        refundPlatformFee: true,
        transferReversedCents: 700,
        feeRefundedCents: 177,
      });
      expect(transferOf()).toMatchObject({ amount_reversed: 700 });
      ({ ledger } = await money(ctx, order.id));
      expect(ledger.kitchen_transfer_reversed).toBe(253 - (700 - 177));
      expect(ledger.platform_fee_refunded).toBe(-500 - 1000 - 253 - 177);
      await expectMoneySettled(ctx, order.id);
      // The daily reconciliation finds nothing to flag.
      expect((await reconcile(ctx.app)).found.filter((d) => d.scope === `order:${order.id}`)).toEqual([]);
    });

    it('refunds once when the answer is lost, and is asked again by the poll with its key when the provider fails', async () => {
      const ctx = get();
      const { cook, order } = await deliveredOrder(ctx);
      const local = localProvider(ctx);
      const { row: orderRow } = await money(ctx, order.id);
      const intent = orderRow?.paymentIntentId ?? '';
      // Made at the provider, its answer lost: the SDK asks again with the same key and is answered from the record.
      const before = local.calls.get('POST /v1/refunds') ?? 0;
      local.loseAnswerOfNext(/^\/v1\/refunds$/);
      const lost = await refundAsCook(cook.cookie, order.id, { amountCents: 950 });
      expect(lost.json<OrderRefund>().state).toBe('refunded');
      expect(local.calls.get('POST /v1/refunds')).toBe(before + 1);
      // The provider fails before doing anything: the refund waits for the poll.
      local.failNext(/^\/v1\/refunds$/);
      const failed = await refundAsCook(cook.cookie, order.id, { amountCents: 500 });
      expect(failed.statusCode, failed.body).toBe(200);
      expect(failed.json<OrderRefund>().state).toBe('refunding');
      expect(refundsAtProvider(intent)).toHaveLength(1);
      // Not before its turn (20 s on), then once.
      advancePast(clock, 60_000);
      await pollPayments(ctx.app);
      const rows = await ctx.database.db
        .select()
        .from(orderRefunds)
        .where(eq(orderRefunds.orderId, order.id));
      expect(rows.map((r) => r.state)).toEqual(['refunded', 'refunded']);
      expect(refundsAtProvider(intent).map((r) => r.amount)).toEqual([950, 500]);
      await expectMoneySettled(ctx, order.id);
    });

    it('prices dishes asked back as the order has them, and refuses more of a dish than it has', async () => {
      const ctx = get();
      const { cook, order, customer } = await deliveredOrder(ctx);
      const dal = { item: 'Dal', priceCents: 950 };
      const tooMany = await refundAsCook(cook.cookie, order.id, { dishes: [{ ...dal, quantity: 3 }] });
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json()).toMatchObject({ code: 'NOT_REFUNDABLE', field: 'dishes' });
      const cheaper = await refundAsCook(cook.cookie, order.id, {
        dishes: [{ ...dal, priceCents: 9500, quantity: 1 }],
      });
      expect(cheaper.json()).toMatchObject({ field: 'dishes' });
      const both = await refundAsCook(cook.cookie, order.id, {
        amountCents: 100,
        dishes: [{ ...dal, quantity: 1 }],
      });
      expect(both.statusCode).toBe(400);
      expect(both.json()).toMatchObject({ field: 'amountCents' });
      const one = await refundAsCook(cook.cookie, order.id, {
        dishes: [{ ...dal, quantity: 1 }],
        reason: 'Missing',
      });
      expect(one.json<OrderRefund>()).toMatchObject({ amountCents: 950, state: 'refunded' });
      const [row] = await ctx.database.db
        .select()
        .from(orderRefunds)
        .where(eq(orderRefunds.orderId, order.id));
      expect(row?.lines).toEqual([{ name: 'Dal', quantity: 1, cents: 950 }]);
      // The customer's order says what came back.
      const mine = await ctx.app.inject({ url: '/api/orders/mine', headers: { cookie: customer.cookie } });
      expect(mine.json<CustomerOrder>().payment.refunds).toEqual([
        { id: row?.id, amountCents: 950, creditCents: 0, state: 'refunded', at: expect.any(String) },
      ]);
    });

    it("shows on the cook's earnings and the operator's Money tab, one line per refund", async () => {
      const ctx = get();
      const { cook, order } = await deliveredOrder(ctx);
      await refundAsCook(cook.cookie, order.id, { amountCents: 950 });
      await refundAsCook(cook.cookie, order.id, { amountCents: 300 });
      const earnings = (
        await ctx.app.inject({ url: '/api/kitchen/earnings', headers: { cookie: cook.cookie } })
      ).json<Earnings>();
      const line = earnings.lines.find((l) => l.orderId === order.id);
      // 9.50 gives 2.41 of the fee back, 3.00 gives 0.76: the cook's part is 21.99 − 7.09 − 2.24.
      expect(line).toMatchObject({
        refundedCents: 1250,
        platformFeeCents: FEE - 241 - 76,
        netCents: TOTAL - FEE - (950 - 241) - (300 - 76),
      });
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const overview = (
        await ctx.app.inject({ url: '/api/operator/money', headers: { cookie: operator.cookie } })
      ).json<MoneyOverview>();
      expect(
        overview.refunds
          .filter((r) => r.orderId === order.id)
          .map((r) => r.amountCents)
          .sort(),
      ).toEqual([300, 950]);
    });

    it('refuses an order not delivered, an order of another kitchen, other roles and bad input, changing nothing', async () => {
      const ctx = get();
      const paid = await paidOrder(ctx);
      await move(paid.cook.cookie, paid.order.id, { move: 'accept', readyInMinutes: 30 });
      const early = await refundAsCook(paid.cook.cookie, paid.order.id, { amountCents: 100 });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'NOT_REFUNDABLE' });

      const { order } = await deliveredOrder(ctx);
      expect((await refundAsCook(paid.cook.cookie, order.id, { amountCents: 100 })).statusCode).toBe(404);
      const customer = await refundAsCook(paid.customer.cookie, order.id, { amountCents: 100 });
      expect(customer.statusCode).toBe(401);
      const asCook = await ctx.app.inject({
        method: 'POST',
        url: `/api/operator/orders/${order.id}/refunds`,
        headers: { cookie: paid.cook.cookie },
        payload: { key: randomUUID(), amountCents: 100, whoPays: 'kitchen' },
      });
      expect(asCook.statusCode).toBe(401);
      for (const [body, field] of [
        [{ amountCents: 0 }, 'amountCents'],
        [{ amountCents: 1.5 }, 'amountCents'],
        [{ amountCents: 100, key: 'x' }, 'key'],
        [{ amountCents: 100, reason: 'a'.repeat(301) }, 'reason'],
      ] as const) {
        const res = await refundAsOperator(order.id, { whoPays: 'kitchen', ...body });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ field });
      }
      const noPayer = await refundAsOperator(order.id, { amountCents: 100, whoPays: 'customer' });
      expect(noPayer.json()).toMatchObject({ field: 'whoPays' });
      expect(
        await ctx.database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id)),
      ).toEqual([]);
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);
