import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { orders } from '../db/schema.js';
import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import { NO_ANSWER_REASON, UNPAID_REASON, type MoneyOverview } from '../../shared/payments.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { stepKey } from '../payments/provider.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { FakeClock } from '../test/fake-clock.js';
import {
  localProvider,
  money,
  orderCalls,
  paidKitchen,
  paidOrder,
  placeOrder,
  sessionOf,
  intentOfOrder,
} from '../test/payments-world.js';
import { pollPayments } from './payment-poll.js';
import { settleHooks } from './order-payments.js';

const clock = new FakeClock();
clock.advance(Date.now());

describeEachEngine(
  'card payments through the provider',
  (get) => {
    const { move } = orderCalls(get);
    const kitchenList = async (cookie: string) =>
      (await get().app.inject({ url: '/api/kitchen/orders', headers: { cookie } })).json<KitchenOrder[]>();
    const intentOf = (orderId: string) => intentOfOrder(get(), orderId);
    const providerState = async (orderId: string) =>
      localProvider(get()).objects.get(await intentOf(orderId))?.status;

    it('authorises at checkout (unseen by the kitchen until then) and captures when the kitchen accepts', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal], {
        // Anything the client says about money is not even read.
        totalCents: 1,
        amount: 1,
      });
      expect(placed.statusCode).toBe(201);
      const order = placed.json<CustomerOrder>();
      expect(order).toMatchObject({ state: 'awaiting payment', payment: { method: 'card' } });
      expect(order.payment.checkoutUrl).toContain('/dev-pay/checkout/cs_');
      expect(await kitchenList(world.cook.cookie)).toEqual([]);
      const session = localProvider(ctx).objects.get(sessionOf(order));
      expect(session?.amount_total).toBe(950 * 2 + 299 + 746);

      await localProvider(ctx).pay(sessionOf(order), TEST_CARDS.pays);
      await localProvider(ctx).settled();
      const listed = await kitchenList(world.cook.cookie);
      expect(listed.map((o) => [o.id, o.state])).toEqual([[order.id, 'recieved']]);
      expect((await money(ctx, order.id)).ledger).toEqual({ authorised: 2945 });

      const accepted = await move(world.cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
      expect(accepted.statusCode).toBe(200);
      const after = await money(ctx, order.id);
      expect(after.row?.paymentState).toBe('captured');
      expect(after.ledger).toEqual({
        authorised: 2945,
        captured: 2945,
        platform_fee: 746,
        kitchen_transfer: 2945 - 746,
      });
      expect(await providerState(order.id)).toBe('succeeded');
      const intent = localProvider(ctx).objects.get(await intentOf(order.id));
      expect(intent).toMatchObject({ application_fee_amount: 746, capture_method: 'manual' });
      expect(intent?.transfer_data).toEqual({ destination: world.account });
    });

    it('releases the hold when the kitchen declines, and when the customer cancels while recieved', async () => {
      const ctx = get();
      const declined = await paidOrder(ctx);
      expect(
        (await move(declined.cook.cookie, declined.order.id, { move: 'decline', reason: 'No rice' }))
          .statusCode,
      ).toBe(200);
      expect((await money(ctx, declined.order.id)).ledger).toEqual({ authorised: 2945, released: -2945 });
      expect(await providerState(declined.order.id)).toBe('canceled');

      const cancelled = await paidOrder(ctx);
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${cancelled.order.id}/cancel`,
        headers: { cookie: cancelled.customer.cookie },
        payload: {},
      });
      expect(res.statusCode).toBe(200);
      const after = await money(ctx, cancelled.order.id);
      expect(after.row).toMatchObject({ state: 'cancelled', paymentState: 'released' });
      expect(after.ledger).toEqual({ authorised: 2945, released: -2945 });
    });

    it('refunds in full when the kitchen cancels after accepting: the transfer and the fee come back', async () => {
      const ctx = get();
      const { cook, order } = await paidOrder(ctx);
      await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
      const res = await move(cook.cookie, order.id, { move: 'cancel', reason: 'Oven broke' });
      expect(res.statusCode).toBe(200);
      const after = await money(ctx, order.id);
      expect(after.row?.paymentState).toBe('refunded');
      expect(after.ledger).toMatchObject({
        captured: 2945,
        refunded: -2945,
        platform_fee_refunded: -746,
        kitchen_transfer_reversed: -(2945 - 746),
      });
      const refund = [...localProvider(ctx).objects.values()].find(
        (o) => o.object === 'refund' && o.payment_intent === after.row?.paymentIntentId,
      );
      expect(refund).toMatchObject({ amount: 2945 });
      // The transfer (the whole amount went to the kitchen's account) reversed, and the fee given back whole.
      const objects = localProvider(ctx).objects;
      expect(objects.get(String(refund?.transfer_reversal))).toMatchObject({ amount: 2945 });
      const charge = objects.get(String(objects.get(after.row?.paymentIntentId ?? '')?.latest_charge));
      expect(objects.get(String(charge?.application_fee))).toMatchObject({
        amount: 746,
        amount_refunded: 746,
      });
    });

    it("releases or refunds an order in progress the kitchen deletes from its list (the spec's Delete)", async () => {
      const ctx = get();
      const remove = (cookie: string, id: string) =>
        ctx.app.inject({ method: 'DELETE', url: `/api/kitchen/orders/${id}`, headers: { cookie } });
      const held = await paidOrder(ctx);
      expect((await remove(held.cook.cookie, held.order.id)).statusCode).toBe(204);
      expect((await money(ctx, held.order.id)).ledger).toEqual({ authorised: 2945, released: -2945 });
      const taken = await paidOrder(ctx);
      await move(taken.cook.cookie, taken.order.id, { move: 'accept', readyInMinutes: 30 });
      expect((await remove(taken.cook.cookie, taken.order.id)).statusCode).toBe(204);
      expect((await money(ctx, taken.order.id)).row?.paymentState).toBe('refunded');
      // An order awaiting its payment is not the kitchen's to delete: it does not see it.
      const world = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const unpaid = (
        await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal])
      ).json<CustomerOrder>();
      expect((await remove(world.cook.cookie, unpaid.id)).statusCode).toBe(404);
    });

    it('declines an order nobody accepted in time and releases its hold', async () => {
      const ctx = get();
      const { order } = await paidOrder(ctx);
      clock.advance((ctx.app.payments.config.acceptWithinMinutes + 1) * 60_000);
      await pollPayments(ctx.app);
      const after = await money(ctx, order.id);
      expect(after.row).toMatchObject({
        state: 'declined',
        endReason: NO_ANSWER_REASON,
        paymentState: 'released',
      });
      expect(after.ledger).toEqual({ authorised: 2945, released: -2945 });
    });

    it('leaves the cart to the customer after a declined card, and ends the unpaid order when they go back', async () => {
      const ctx = get();
      const { order, customer, cook } = await paidOrder(ctx, TEST_CARDS.declined);
      let after = await money(ctx, order.id);
      expect(after.row).toMatchObject({ state: 'awaiting payment', paymentState: 'awaiting-payment' });
      expect(await kitchenList(cook.cookie)).toEqual([]);
      const back = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${order.id}/cancel`,
        headers: { cookie: customer.cookie },
        payload: {},
      });
      expect(back.statusCode).toBe(200);
      await localProvider(ctx).settled();
      after = await money(ctx, order.id);
      expect(after.row).toMatchObject({
        state: 'cancelled',
        endReason: UNPAID_REASON,
        paymentState: 'unpaid',
      });
      expect(after.entries).toBe(0);
      expect(localProvider(ctx).objects.get(sessionOf(order))?.status).toBe('expired');
      // Not in the customer's history, and they may order again at once.
      const mine = await ctx.app.inject({ url: '/api/orders', headers: { cookie: customer.cookie } });
      expect(mine.json<CustomerOrder[]>().map((o) => o.id)).not.toContain(order.id);
    });

    it('authorises after a confirmation step', async () => {
      const ctx = get();
      const { order } = await paidOrder(ctx, TEST_CARDS.authentication);
      expect((await money(ctx, order.id)).row?.state).toBe('awaiting payment');
      await localProvider(ctx).authenticate(await intentOf(order.id));
      await localProvider(ctx).settled();
      expect((await money(ctx, order.id)).row).toMatchObject({
        state: 'recieved',
        paymentState: 'authorised',
      });
    });

    it('captures once when the provider fails mid-capture: the poll retries with the same key', async () => {
      const ctx = get();
      const { cook, order } = await paidOrder(ctx);
      const local = localProvider(ctx);
      local.failNext(/\/capture$/);
      const accepted = await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
      expect(accepted.statusCode).toBe(200);
      expect((await money(ctx, order.id)).row?.paymentState).toBe('capturing');
      clock.advance(60_000);
      await pollPayments(ctx.app);
      const after = await money(ctx, order.id);
      expect(after.row?.paymentState).toBe('captured');
      expect(after.ledger.captured).toBe(2945);
      expect(
        local.events.filter(
          (e) =>
            e.type === 'payment_intent.succeeded' &&
            (e.data as { object: { id: string } }).object.id === after.row?.paymentIntentId,
        ),
      ).toHaveLength(1);
    });

    it('opens the payment page of a submit retried minutes after a crash, open 30 minutes from then', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const body = { idempotencyKey: randomUUID() };
      const first = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal], body);
      expect(first.statusCode).toBe(201);
      const order = first.json<CustomerOrder>();
      // As if the process died before it stored the page, two minutes ago.
      await ctx.database.db
        .update(orders)
        .set({
          checkoutUrl: null,
          checkoutSessionId: null,
          createdAt: sql`created_at - interval '2 minutes'`,
        })
        .where(eq(orders.id, order.id));
      const retried = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal], body);
      expect(retried.statusCode, retried.body).toBe(200);
      const page = retried.json<CustomerOrder>().payment.checkoutUrl;
      expect(page).toMatch(/\/checkout\/cs_/);
      const session = localProvider(ctx).objects.get(sessionOf(retried.json<CustomerOrder>()));
      // Stripe's shortest: 30 minutes from the session's creation.
      expect(Number(session?.expires_at) * 1000 - Date.now()).toBeGreaterThanOrEqual(30 * 60_000);
      expect((await money(ctx, order.id)).row).toMatchObject({
        checkoutUrl: page,
        state: 'awaiting payment',
      });
    });

    it('backs off a refund the provider keeps refusing, gives up after 12 tries, and shows it on the Money tab', async () => {
      const ctx = get();
      const { cook, order } = await paidOrder(ctx);
      const local = localProvider(ctx);
      expect((await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 })).statusCode).toBe(
        200,
      );
      await local.dispute(await intentOf(order.id));
      const tries = async () => (await money(ctx, order.id)).row?.paymentFailures ?? 0;
      expect((await move(cook.cookie, order.id, { move: 'cancel', reason: 'Oven broke' })).statusCode).toBe(
        200,
      );
      expect(await tries()).toBe(1);
      // Rounds of the poll every 20 s for an hour: tries come 20 s, 40 s, 80 s… apart, not every round. (Stripe
      // answers a key's refusal again for 24 hours: the same key's later tries read that answer.)
      for (let round = 0; round < 180; round++) {
        clock.advance(20_000);
        await pollPayments(ctx.app);
      }
      const hourly = await tries();
      expect(hourly).toBeGreaterThan(4);
      expect(hourly).toBeLessThan(12);
      // Then as long as it takes: after 12 tries it is the operator's, and the poll leaves it.
      for (let round = 0; round < 20; round++) {
        clock.advance(6 * 3600_000);
        await pollPayments(ctx.app);
      }
      const { row } = await money(ctx, order.id);
      expect(row).toMatchObject({ paymentState: 'refunding', paymentFailures: 12 });
      expect(row?.paymentGaveUpAt).toBeInstanceOf(Date);
      expect(
        [...local.objects.values()].filter(
          (o) => o.object === 'refund' && o.payment_intent === row?.paymentIntentId,
        ),
      ).toEqual([]);
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const view = await ctx.app.inject({ url: '/api/operator/money', headers: { cookie: operator.cookie } });
      expect(view.statusCode).toBe(200);
      expect(view.json<MoneyOverview>().failingSteps).toContainEqual(
        expect.objectContaining({
          orderId: order.id,
          state: 'refunding',
          failures: 12,
          error: expect.stringContaining('charged back'),
          nextTryAt: null,
        }),
      );
    });

    it('refunds, never keeps, an order the kitchen deletes while its capture is pending', async () => {
      const ctx = get();
      const { cook, order } = await paidOrder(ctx);
      const local = localProvider(ctx);
      local.failNext(/\/capture$/);
      expect((await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 })).statusCode).toBe(
        200,
      );
      expect((await money(ctx, order.id)).row?.paymentState).toBe('capturing');
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/kitchen/orders/${order.id}`,
        headers: { cookie: cook.cookie },
      });
      expect(deleted.statusCode).toBe(204);
      // The poll carries the capture out, and the food will not be made: the customer gets it all back.
      clock.advance(60_000);
      await pollPayments(ctx.app);
      await local.settled();
      await pollPayments(ctx.app);
      const after = await money(ctx, order.id);
      expect(after.row).toMatchObject({ state: 'cancelled', paymentState: 'refunded' });
      expect(after.ledger).toMatchObject({ captured: 2945, refunded: -2945 });
      expect(await providerState(order.id)).toBe('succeeded');
      expect(
        [...local.objects.values()].filter(
          (o) => o.object === 'refund' && o.payment_intent === after.row?.paymentIntentId,
        ),
      ).toHaveLength(1);
    });

    it('recovers a crash between the provider’s answer and our commit (the poll finishes it)', async () => {
      const ctx = get();
      const { cook, order } = await paidOrder(ctx);
      const local = localProvider(ctx);
      local.holdEvents(true); // the event that would also tell us is lost with the process
      settleHooks.afterProviderAnswer = () => {
        throw new Error('the process died here');
      };
      try {
        await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
      } finally {
        settleHooks.afterProviderAnswer = undefined;
      }
      expect(await providerState(order.id)).toBe('succeeded');
      expect((await money(ctx, order.id)).row?.paymentState).toBe('capturing');
      clock.advance(60_000);
      await pollPayments(ctx.app);
      expect((await money(ctx, order.id)).row?.paymentState).toBe('captured');
      // The held event arriving late changes nothing twice.
      local.holdEvents(false);
      await local.settled();
      const after = await money(ctx, order.id);
      expect(after.ledger).toEqual({
        authorised: 2945,
        captured: 2945,
        platform_fee: 746,
        kitchen_transfer: 2199,
      });
      expect(local.calls.get('POST /v1/payment_intents/pi_…/capture')).toBeGreaterThanOrEqual(1);
      void stepKey;
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);
