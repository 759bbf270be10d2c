import { randomUUID } from 'node:crypto';
import { and, count, eq, notInArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { ENDED_STATES } from '../../shared/order-states.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { orderEvents, orders } from '../db/schema.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { FakeClock } from '../test/fake-clock.js';
import { advancePast, expectMoneySettled } from '../test/payment-checks.js';
import {
  localProvider,
  money,
  objectOf,
  orderCalls,
  paidKitchen,
  paidOrder,
  sessionOf,
  intentOfOrder,
} from '../test/payments-world.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { pollPayments } from './payment-poll.js';

type Json = Record<string, unknown>;

const clock = new FakeClock();
clock.advance(Date.now());

describeEachEngine(
  'card payments under races',
  (get) => {
    const { move, accept, cancelAsCustomer } = orderCalls(get);
    const submit = (cookie: string, payload: object) =>
      get().app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload });
    const callsTo = (label: string) => localProvider(get()).calls.get(label) ?? 0;
    const intentOf = (orderId: string) => intentOfOrder(get(), orderId);
    /** The provider's events about a payment intent, of one type. */
    const eventsAbout = (intent: string, type: string) =>
      localProvider(get()).events.filter(
        (e) => e.type === type && (objectOf(e).id === intent || objectOf(e).payment_intent === intent),
      );
    const ordersOf = async (customerId: string, inProgress = false) => {
      const [row] = await get()
        .database.db.select({ n: count() })
        .from(orders)
        .where(
          and(
            eq(orders.customerId, customerId),
            inProgress ? notInArray(orders.state, [...ENDED_STATES]) : undefined,
          ),
        );
      return row?.n ?? 0;
    };

    it('makes one order, one payment page and one payment of 20 submissions of one cart at once', async () => {
      const ctx = get();
      const { cook, dal } = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const sessionsBefore = callsTo('POST /v1/checkout/sessions');
      const body = {
        kitchenUid: cook.kitchen.uid,
        itemIds: [dal.id, dal.id],
        address: '4 Lane',
        idempotencyKey: randomUUID(),
      };
      const answers = await Promise.all(Array.from({ length: 20 }, () => submit(customer.cookie, body)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([...Array<number>(19).fill(200), 201]);
      const placed = answers.map((a) => a.json<CustomerOrder>());
      expect(new Set(placed.map((o) => o.id)).size).toBe(1);
      expect(new Set(placed.map((o) => o.payment.checkoutUrl)).size).toBe(1);
      expect(placed[0]?.payment.checkoutUrl).toContain('/checkout/cs_');
      expect(callsTo('POST /v1/checkout/sessions') - sessionsBefore).toBe(1);
      expect(await ordersOf(customer.user.id)).toBe(1);

      const order = placed[0] as CustomerOrder;
      const local = localProvider(ctx);
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      await local.settled();
      const intents = [...local.objects.values()].filter(
        (o) => o.object === 'payment_intent' && (o.metadata as Json).orderId === order.id,
      );
      expect(intents.map((i) => i.status)).toEqual(['requires_capture']);
      expect(await expectMoneySettled(ctx, order.id)).toBe('authorised');
    });

    it('never sends anyone to a page for an order that ended: 20 submissions at once, the provider failing once', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const { cook, dal } = await paidKitchen(ctx);
      // A few rounds: which call meets the failure, and what the others have done by then, varies.
      for (let round = 0; round < 3; round++) {
        const customer = await signedIn(ctx, 'customer');
        const body = {
          kitchenUid: cook.kitchen.uid,
          itemIds: [dal.id],
          address: '4 Lane',
          idempotencyKey: randomUUID(),
        };
        local.failNext(/^\/v1\/checkout\/sessions$/);
        const answers = await Promise.all(Array.from({ length: 20 }, () => submit(customer.cookie, body)));
        const [row] = await ctx.database.db
          .select()
          .from(orders)
          .where(eq(orders.customerId, customer.user.id));
        const sessions = [...local.objects.values()].filter(
          (o) => o.object === 'checkout.session' && (o.metadata as Json).orderId === row?.id,
        );
        const open = row?.state === 'awaiting payment';
        for (const answer of answers) {
          expect([200, 201, 503], answer.body).toContain(answer.statusCode);
          if (answer.statusCode === 503) continue;
          // Whatever an answer says is so: a page to pay on only while the order awaits its payment.
          const said = answer.json<CustomerOrder>();
          expect(said.state).toBe(row?.state);
          expect(said.payment.checkoutUrl).toBe(open ? row.checkoutUrl : null);
        }
        expect(row?.paymentState).toBe(open ? 'awaiting-payment' : 'unpaid');
        expect(sessions.map((session) => session.status)).toEqual(
          open ? ['open'] : sessions.map(() => 'expired'),
        );
        // Whichever way it went, the customer can go and pay for their cart now.
        const again = await submit(customer.cookie, open ? body : { ...body, idempotencyKey: randomUUID() });
        expect(again.json<CustomerOrder>().payment.checkoutUrl).toContain('/checkout/cs_');
      }
    });

    it('takes one of 20 different submissions at once: one order in progress, one payment page', async () => {
      const ctx = get();
      const { cook, dal } = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const sessionsBefore = callsTo('POST /v1/checkout/sessions');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          submit(customer.cookie, {
            kitchenUid: cook.kitchen.uid,
            itemIds: Array<string>(1 + (i % 3)).fill(dal.id),
            address: `${i} Lane`,
            idempotencyKey: randomUUID(),
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
      expect(await ordersOf(customer.user.id, true)).toBe(1);
      expect(await ordersOf(customer.user.id)).toBe(1);
      expect(callsTo('POST /v1/checkout/sessions') - sessionsBefore).toBe(1);
    });

    it("decides the kitchen's accept racing the customer's cancel one way: captured, or released", async () => {
      const ctx = get();
      for (let round = 0; round < 6; round++) {
        const { cook, customer, order } = await paidOrder(ctx);
        // Started in either order: the second one finds the first one's lock.
        const both = [() => accept(cook.cookie, order.id), () => cancelAsCustomer(customer.cookie, order.id)];
        if (round % 2) both.reverse();
        const answers = await Promise.all(both.map((call) => call()));
        const [accepted, cancelled] = round % 2 ? [answers[1], answers[0]] : answers;
        expect([accepted?.statusCode, cancelled?.statusCode].sort()).toEqual([200, 409]);
        await localProvider(ctx).settled();
        const state = await expectMoneySettled(ctx, order.id);
        const { row } = await money(ctx, order.id);
        if (accepted?.statusCode === 200) expect([row?.state, state]).toEqual(['accepted', 'captured']);
        else expect([row?.state, state]).toEqual(['cancelled', 'released']);
      }
    });

    it("decides the kitchen's accept racing the poll's decline at the deadline one way", async () => {
      const ctx = get();
      // From now on, an order authorised is already past its deadline: each round's poll finds its order unanswered.
      advancePast(clock, (ctx.app.payments.config.acceptWithinMinutes + 1) * 60_000);
      for (let round = 0; round < 4; round++) {
        const { cook, order } = await paidOrder(ctx);
        const [accepted] = await Promise.all([accept(cook.cookie, order.id), pollPayments(ctx.app)]);
        await localProvider(ctx).settled();
        const { row } = await money(ctx, order.id);
        const state = await expectMoneySettled(ctx, order.id);
        if (accepted.statusCode === 200) expect([row?.state, state]).toEqual(['accepted', 'captured']);
        else {
          expect(accepted.statusCode).toBe(409);
          expect([row?.state, state]).toEqual(['declined', 'released']);
        }
      }
    });

    for (const [step, path, label] of [
      ['capture', /\/capture$/, 'POST /v1/payment_intents/pi_…/capture'],
      ['release', /\/cancel$/, 'POST /v1/payment_intents/pi_…/cancel'],
      ['refund', /^\/v1\/refunds$/, 'POST /v1/refunds'],
    ] as const) {
      it(`does a ${step} once when the provider's answer to it is lost`, async () => {
        const ctx = get();
        const local = localProvider(ctx);
        const { cook, order } = await paidOrder(ctx);
        if (step === 'refund') expect((await accept(cook.cookie, order.id)).statusCode).toBe(200);
        const before = callsTo(label);
        local.loseAnswerOfNext(path);
        const res =
          step === 'capture'
            ? await accept(cook.cookie, order.id)
            : await move(cook.cookie, order.id, {
                move: step === 'release' ? 'decline' : 'cancel',
                reason: 'No rice',
              });
        expect(res.statusCode).toBe(200);
        await local.settled();
        expect(callsTo(label) - before).toBe(1);
        const intent = await intentOf(order.id);
        const event = {
          capture: 'payment_intent.succeeded',
          release: 'payment_intent.canceled',
          refund: 'charge.refunded',
        };
        expect(eventsAbout(intent, event[step])).toHaveLength(1);
        const expected = { capture: 'captured', release: 'released', refund: 'refunded' } as const;
        expect(await expectMoneySettled(ctx, order.id)).toBe(expected[step]);
      });
    }

    it('captures, then refunds, an order the kitchen cancels while its capture waits on the provider', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const { cook, order } = await paidOrder(ctx);
      local.failNext(/\/capture$/);
      expect((await accept(cook.cookie, order.id)).statusCode).toBe(200);
      expect((await money(ctx, order.id)).row?.paymentState).toBe('capturing');
      expect((await move(cook.cookie, order.id, { move: 'cancel', reason: 'Oven broke' })).statusCode).toBe(
        200,
      );
      advancePast(clock, 60_000);
      // Two instances' polls at once: each step is done once at the provider, recorded once here.
      await Promise.all([pollPayments(ctx.app), pollPayments(ctx.app)]);
      await local.settled();
      expect(await expectMoneySettled(ctx, order.id)).toBe('refunded');
      const intent = await intentOf(order.id);
      expect(eventsAbout(intent, 'payment_intent.succeeded')).toHaveLength(1);
      expect(eventsAbout(intent, 'charge.refunded')).toHaveLength(1);
    });

    it('processes one event delivered 20 times at once once', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const { cook, dal } = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const placed = await submit(customer.cookie, {
        kitchenUid: cook.kitchen.uid,
        itemIds: [dal.id],
        address: '4 Lane',
        idempotencyKey: randomUUID(),
      });
      const order = placed.json<CustomerOrder>();
      local.holdEvents(true);
      try {
        await local.pay(sessionOf(order), TEST_CARDS.pays);
        const [completed] = eventsAbout(await intentOf(order.id), 'checkout.session.completed');
        const payload = JSON.stringify(completed);
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            ctx.app.inject({
              method: 'POST',
              url: '/api/payments/webhook',
              headers: { 'content-type': 'application/json', 'stripe-signature': local.sign(payload) },
              payload,
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode)).toEqual(Array<number>(20).fill(200));
        expect(answers.filter((a) => a.json<{ duplicate: boolean }>().duplicate)).toHaveLength(19);
        const steps = await ctx.database.db
          .select({ state: orderEvents.state })
          .from(orderEvents)
          .where(eq(orderEvents.orderId, order.id));
        expect(steps.map((s) => s.state).sort()).toEqual(['awaiting payment', 'recieved']);
        expect((await money(ctx, order.id)).ledger).toEqual({ authorised: 950 + 299 + 746 });
      } finally {
        local.holdEvents(false);
        await local.settled();
      }
    });

    it("charges what the server computed, whatever the order's body says of money", async () => {
      const ctx = get();
      const { cook, dal } = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const res = await submit(customer.cookie, {
        kitchenUid: cook.kitchen.uid,
        itemIds: [dal.id, dal.id],
        address: '4 Lane',
        idempotencyKey: randomUUID(),
        payment: 'card',
        totalCents: 1,
        amount: 1,
        amountMinor: 1,
        platformFeeCents: 0,
        currency: 'JPY',
        items: [{ id: dal.id, priceCents: 1 }],
        lines: [{ menuItemId: dal.id, item: 'Dal', priceCents: 1 }],
        deliveryFeeCents: 0,
      });
      expect(res.statusCode).toBe(201);
      const order = res.json<CustomerOrder>();
      const local = localProvider(ctx);
      const session = local.objects.get(sessionOf(order));
      expect(session).toMatchObject({ amount_total: 2945, currency: 'usd', payment_intent: null });
      // The payment the page makes once the customer confirms carries the same amounts.
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      expect(local.objects.get(String(session?.payment_intent))).toMatchObject({
        amount: 2945,
        application_fee_amount: 746,
        currency: 'usd',
      });
      expect((await money(ctx, order.id)).row).toMatchObject({ totalCents: 2945, platformFeeCents: 746 });
    });
  },
  { PAYMENTS: 'local' },
  { clock },
);
