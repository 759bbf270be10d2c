import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import { orderRefunds, orders } from '../db/schema.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { FakeClock } from '../test/fake-clock.js';
import { advancePast, expectLedgerBalanced, expectMoneySettled } from '../test/payment-checks.js';
import { localProvider, paidKitchen, placeOrder, sessionOf } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { CHECKOUT_CLOSES_WITHIN_MINUTES } from './checkout.js';
import { pollPayments } from './payment-poll.js';

type Json = Record<string, unknown>;

const clock = new FakeClock();
clock.advance(Date.now());

/** Orders the steps tried to deliver, over all runs (reported with the parts refunded). */
let delivered = 0;

/** Orders in each run: a few, so that moves of one meet steps of another. */
const ORDERS = 2;

const CARDS = { pays: TEST_CARDS.pays, declined: TEST_CARDS.declined, confirms: TEST_CARDS.authentication };

const onOrder = <K extends string>(kind: K) =>
  fc.record({ kind: fc.constant(kind), order: fc.nat(ORDERS - 1) });

/**
 * What can happen to a run's orders, in any order: each side's moves, the customer paying (or not), the poll, time
 * passing past the kitchen's deadline, the provider's events held back, repeated or replayed, and the provider
 * failing or losing its answer on whatever call comes next.
 */
const step = fc.oneof(
  { weight: 4, arbitrary: onOrder('accept') },
  { weight: 1, arbitrary: onOrder('decline') },
  { weight: 1, arbitrary: onOrder('customer cancel') },
  { weight: 2, arbitrary: onOrder('kitchen cancel') },
  { weight: 3, arbitrary: onOrder('progress') },
  // Accepted and taken all the way to its delivery (each move refused where it does not apply).
  { weight: 2, arbitrary: onOrder('deliver') },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pay'),
      order: fc.nat(ORDERS - 1),
      card: fc.constantFrom<keyof typeof CARDS>('pays', 'pays', 'declined', 'confirms'),
    }),
  },
  { weight: 1, arbitrary: onOrder('confirm') },
  { weight: 2, arbitrary: fc.constant({ kind: 'poll' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'time passes' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'hold events' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'release events' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('repeat event', 'replay event'), pick: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('provider fails', 'provider loses answer') }) },
  // A part of a delivered order given back, by its cook or by an operator choosing who pays (refused, changing
  // nothing, when the order is not delivered or the parts would exceed what was captured).
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('refund part'),
      order: fc.nat(ORDERS - 1),
      amount: fc.integer({ min: 1, max: 1600 }),
      by: fc.constantFrom('cook', 'operator'),
      whoPays: fc.constantFrom('kitchen', 'platform'),
      refundPlatformFee: fc.boolean(),
    }),
  },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

const isFault = (s: Step) => s.kind === 'provider fails' || s.kind === 'provider loses answer';

/** Whether the customer cancelled order `i` unpaid while the provider may have been failing (closing its page). */
const cancelledUnderFaults = (steps: Step[], i: number) =>
  steps.some((s, k) => s.kind === 'customer cancel' && s.order === i && steps.slice(0, k).some(isFault));

const run = fc.record({
  /** Which orders are paid (with a card that pays) before the steps. */
  paid: fc.array(fc.constantFrom(true, true, false), { minLength: ORDERS, maxLength: ORDERS }),
  /** Whether the provider's events are held back from the start (its payments' events not delivered yet). */
  held: fc.constantFrom(false, false, true),
  steps: fc.array(step, { maxLength: 24 }),
});

describeEachEngine(
  'the ledger under any sequence of moves, events and failures',
  (get) => {
    it('balances per order and agrees with the provider once settled', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const provider = ctx.app.payments.provider;
      if (!provider) throw new Error('no provider');
      const pending = ['capturing', 'releasing', 'refunding'] as const;
      const acceptWithin = ctx.app.payments.config.acceptWithinMinutes;

      await fc.assert(
        fc.asyncProperty(run, async ({ paid, held, steps }) => {
          // Each run starts at the real time: one run's 'time passes' does not make every later run's orders late.
          clock.advance(Date.now() - clock.now());
          const firstEvent = local.events.length;
          const world = await paidKitchen(ctx);
          const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
          local.holdEvents(held);
          const placed: { order: CustomerOrder; cookie: string }[] = [];
          for (const isPaid of paid) {
            const customer = await signedIn(ctx, 'customer');
            const res = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal]);
            expect(res.statusCode, res.body).toBe(201);
            const order = res.json<CustomerOrder>();
            placed.push({ order, cookie: customer.cookie });
            if (isPaid) await local.pay(sessionOf(order), CARDS.pays);
          }
          await local.settled();
          const ids = placed.map((p) => p.order.id);

          for (const s of steps) await apply(ctx, s, world.cook.cookie, operator.cookie, placed, firstEvent);

          // 1. The events still held back are lost: the poll alone settles every step.
          await drainFaults(() => provider.payoutState(world.account));
          await settle(ids);
          for (const [i, id] of ids.entries()) {
            const { row } = await expectLedgerBalanced(ctx, id);
            // Known gap: an order the customer ended unpaid while the provider failed to close its page, paid
            // meanwhile in another tab, is released only when that payment's event arrives (the poll does not
            // look at ended orders).
            if (row.paymentState === 'unpaid' && cancelledUnderFaults(steps, i)) continue;
            await expectMoneySettled(ctx, id);
          }
          // 2. They arrive late: nothing changes twice, and what they alone could tell is caught up.
          local.holdEvents(false);
          await local.settled();
          await settle(ids);
          for (const id of ids) await expectMoneySettled(ctx, id);
          // 3. Time runs out on what is left open: unanswered orders are declined, unpaid pages closed (a page closes
          // 31 to 36 minutes after it opened, on a 5-minute step of the wall clock: red in CI at 12:02 when the
          // step fell late and only 32 minutes had passed).
          advancePast(clock, (Math.max(acceptWithin, CHECKOUT_CLOSES_WITHIN_MINUTES) + 1) * 60_000);
          await settle(ids);
          for (const id of ids)
            expect(['captured', 'released', 'refunded', 'unpaid']).toContain(
              await expectMoneySettled(ctx, id),
            );
        }),
        // Modest in the suite (each run builds a kitchen and its orders through the API, about a third of a second);
        // PAYMENT_PROPERTY_RUNS=800 for a long search.
        {
          numRuns: Number(process.env.PAYMENT_PROPERTY_RUNS ?? 25),
          endOnFailure: true,
          // A failure's seed and path, to replay it: PAYMENT_PROPERTY_SEED=-1488969824 PAYMENT_PROPERTY_PATH=2.
          ...(process.env.PAYMENT_PROPERTY_SEED
            ? { seed: Number(process.env.PAYMENT_PROPERTY_SEED), path: process.env.PAYMENT_PROPERTY_PATH }
            : {}),
        },
      );
      const refunded = await ctx.database.db
        .select({ id: orderRefunds.id })
        .from(orderRefunds)
        .where(eq(orderRefunds.state, 'refunded'));
      console.info(`payment property: ${delivered} deliveries tried, ${refunded.length} parts refunded`);

      /** Runs the poll, a little later each time, until no step of these orders waits on the provider. */
      async function settle(ids: string[]) {
        for (let round = 0; round < 8; round++) {
          advancePast(clock, 60_000);
          await pollPayments(ctx.app);
          await local.settled();
          const waiting = await ctx.database.db
            .select({ id: orders.id })
            .from(orders)
            .where(and(inArray(orders.id, ids), inArray(orders.paymentState, [...pending])));
          const refunding = await ctx.database.db
            .select({ id: orderRefunds.id })
            .from(orderRefunds)
            .where(and(inArray(orderRefunds.orderId, ids), eq(orderRefunds.state, 'refunding')));
          if (waiting.length === 0 && refunding.length === 0) return;
        }
        throw new Error('payment steps still pending after 8 rounds of the poll');
      }
    }, 240_000);
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);

/** Carries out one step; every answer of ours is a 2xx or a 4xx, never a 5xx. */
async function apply(
  ctx: TestContext,
  s: Step,
  kitchenCookie: string,
  operatorCookie: string,
  placed: { order: CustomerOrder; cookie: string }[],
  firstEvent: number,
): Promise<void> {
  const local = localProvider(ctx);
  const inject = async (cookie: string, url: string, payload: object) => {
    const res = await ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBeLessThan(500);
  };
  const target = 'order' in s ? placed[s.order] : undefined;
  const orderId = target?.order.id ?? '';
  const moves = `/api/kitchen/orders/${orderId}/moves`;
  switch (s.kind) {
    case 'accept':
      await inject(kitchenCookie, moves, { move: 'accept', readyInMinutes: 30 });
      break;
    case 'decline':
      await inject(kitchenCookie, moves, { move: 'decline', reason: 'No rice' });
      break;
    case 'kitchen cancel':
      await inject(kitchenCookie, moves, { move: 'cancel', reason: 'Oven broke' });
      break;
    case 'customer cancel':
      await inject(target?.cookie ?? '', `/api/orders/${orderId}/cancel`, {});
      break;
    case 'deliver':
      for (const body of [
        { move: 'accept', readyInMinutes: 30 },
        { move: 'prepare' },
        { move: 'dispatch' },
        { move: 'deliver' },
      ])
        await inject(kitchenCookie, moves, body);
      delivered++;
      break;
    case 'progress': {
      const [row] = await ctx.database.db
        .select({ state: orders.state })
        .from(orders)
        .where(eq(orders.id, orderId));
      const next = { accepted: 'prepare', preparing: 'dispatch', 'out for delivery': 'deliver' } as Record<
        string,
        string
      >;
      await inject(kitchenCookie, moves, { move: next[row?.state ?? ''] ?? 'prepare' });
      break;
    }
    case 'pay':
      // A page already paid, closed or expired refuses, as Stripe's does.
      await local.pay(sessionOf(target?.order as CustomerOrder), CARDS[s.card]).catch(() => undefined);
      break;
    case 'confirm': {
      const session = local.objects.get(sessionOf(target?.order as CustomerOrder));
      await local.authenticate(String(session?.payment_intent)).catch(() => undefined);
      break;
    }
    case 'poll':
      advancePast(clock, 31_000);
      await pollPayments(ctx.app);
      break;
    case 'time passes':
      advancePast(clock, (ctx.app.payments.config.acceptWithinMinutes + 1) * 60_000);
      break;
    case 'hold events':
      local.holdEvents(true);
      break;
    case 'release events':
      local.holdEvents(false);
      break;
    case 'repeat event':
    case 'replay event': {
      const sent = local.events.slice(firstEvent);
      const event = sent[s.pick % Math.max(sent.length, 1)];
      if (!event) break;
      if (s.kind === 'repeat event') expect(await local.resend(event)).toBe(200);
      else {
        const payload = JSON.stringify({ ...event, id: `evt_${randomUUID().replaceAll('-', '')}` } as Json);
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/payments/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': local.sign(payload) },
          payload,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      break;
    }
    case 'refund part':
      if (s.by === 'cook')
        await inject(kitchenCookie, `/api/kitchen/orders/${orderId}/refunds`, {
          key: randomUUID(),
          amountCents: s.amount,
        });
      else
        await inject(operatorCookie, `/api/operator/orders/${orderId}/refunds`, {
          key: randomUUID(),
          amountCents: s.amount,
          whoPays: s.whoPays,
          refundPlatformFee: s.refundPlatformFee,
        });
      break;
    case 'provider fails':
      local.failNext(/./);
      break;
    case 'provider loses answer':
      local.loseAnswerOfNext(/./);
      break;
  }
  await local.settled();
}

/** Calls the provider until a call goes through: every failure queued for 'the next call' is then spent. */
async function drainFaults(call: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await call();
      return;
    } catch {
      // One queued failure spent.
    }
  }
  throw new Error('the provider kept failing');
}
