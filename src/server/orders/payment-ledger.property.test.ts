import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import type { TipStarted } from '../../shared/tips.js';
import { PAYMENT_PROVIDER_DOWN } from '../../shared/payments.js';
import { orderRefunds, orders } from '../db/schema.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { FakeClock } from '../test/fake-clock.js';
import { advancePast, expectLedgerBalanced, expectMoneySettled } from '../test/payment-checks.js';
import { localProvider, paidKitchen, placeOrder, sessionOf, TO_THE_DOOR } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { CHECKOUT_CLOSES_WITHIN_MINUTES } from './checkout.js';
import { pollPayments } from './payment-poll.js';

type Json = Record<string, unknown>;

const clock = new FakeClock();
clock.advance(Date.now());

/** Orders the steps tried to deliver, over all runs (reported with the parts refunded). */
let delivered = 0;
/** What the after-sale steps did, over all runs (reported, to see that they do happen). */
const afterSale = { disputes: 0, decided: 0, tipsPaid: 0, creditOrders: 0 };
/** 'provider fails' steps taken so far: a failure queued for "the next call" may fall on any later call. */
let failuresInjected = 0;

/**
 * A client's request answered without a 5xx, but for the one answer a provider's failure asks for where the call
 * cannot wait (a payment page to open): 503 naming the provider, nothing charged (the ledger is checked after each
 * step), and only once a failure was injected.
 */
function expectAnswered(s: Step, res: { statusCode: number; body: string }): void {
  if (res.statusCode === 503 && failuresInjected > 0)
    expect(JSON.parse(res.body)).toMatchObject({ code: PAYMENT_PROVIDER_DOWN });
  else expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBeLessThan(500);
}

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
  // The cardholder disputes a captured payment (refused by the provider when not captured, refunded in full or
  // disputed already); later the bank decides it, won or lost.
  { weight: 1, arbitrary: onOrder('dispute') },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dispute decided'),
      order: fc.nat(ORDERS - 1),
      outcome: fc.constantFrom('won', 'lost'),
    }),
  },
  // A tip after delivery, a payment of its own (refused before delivery, or where the window closed), paid or not.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tip'),
      order: fc.nat(ORDERS - 1),
      amount: fc.integer({ min: 100, max: 2000 }),
      card: fc.constantFrom<keyof typeof CARDS>('pays', 'pays', 'declined'),
    }),
  },
  // The customer reports a missing dal asking for store credit: the refunds answering it are credit, not money back.
  { weight: 1, arbitrary: onOrder('report for credit') },
  // The customer orders again at the kitchen paying with their credit first (the card charged the rest); the new
  // order is one of the run's, delivered or not by later steps.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('spend credit'),
      order: fc.nat(ORDERS - 1),
      deliver: fc.boolean(),
    }),
  },
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

/**
 * The after-sale stories most runs tell besides their random steps, so that a decided dispute and an order paid with
 * store credit are not left to chance (random steps seldom line them up: an order paid, delivered, disputed, then
 * decided; or reported for credit, refunded, and the credit spent): order 0 is disputed first and decided after the
 * random steps, which meet it disputed; order 1 is reported for credit, the cook refunds a dal, and its customer
 * orders again spending the credit. Each in three runs of four.
 */
const story = fc.record({
  dispute: fc.constantFrom(true, true, true, false),
  outcome: fc.constantFrom<'won' | 'lost'>('won', 'lost'),
  credit: fc.constantFrom(true, true, true, false),
  deliverAgain: fc.boolean(),
});

type Story = typeof story extends fc.Arbitrary<infer T> ? T : never;

const run = fc.record({
  /** Which orders are paid (with a card that pays) before the steps (an order of a story always is). */
  paid: fc.array(fc.constantFrom(true, true, false), { minLength: ORDERS, maxLength: ORDERS }),
  /** Whether the provider's events are held back from the start (its payments' events not delivered yet). */
  held: fc.constantFrom(false, false, true),
  /**
   * Each order's promotion code (ADR 30): none, the platform's under its fee ($5.00 off a 9.50 dal, fee 7.46) or
   * beyond it ($9.00: the platform's own transfer pays the kitchen the rest), or the kitchen's (10 %).
   */
  codes: fc.array(fc.constantFrom('none', 'none', 'platform', 'platform beyond fee', 'kitchen'), {
    minLength: ORDERS,
    maxLength: ORDERS,
  }),
  story,
  // Fewer than before the stories (24), for about the same time per run.
  steps: fc.array(step, { maxLength: 20 }),
});

/** The story's steps: those before the random steps, and those after them. */
function storySteps(
  { dispute, outcome, credit, deliverAgain }: Story,
  held: boolean,
): { before: Step[]; after: Step[] } {
  const before: Step[] = [];
  const after: Step[] = [];
  // Held events would keep the payments unknown, and nothing after-sale happens to an order not paid.
  if (held && (dispute || credit)) before.push({ kind: 'release events' });
  if (dispute) {
    before.push({ kind: 'dispute', order: 0 });
    after.push({ kind: 'dispute decided', order: 0, outcome });
  }
  if (credit)
    before.push(
      { kind: 'report for credit', order: 1 },
      {
        kind: 'refund part',
        order: 1,
        amount: 950,
        by: 'cook',
        whoPays: 'kitchen',
        refundPlatformFee: false,
      },
      { kind: 'spend credit', order: 1, deliver: deliverAgain },
    );
  return { before, after };
}

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
      // Counted over this engine's runs (the counts are kept over both, for the report).
      const decidedBefore = afterSale.decided;
      const creditBefore = afterSale.creditOrders;

      await fc.assert(
        fc.asyncProperty(run, async ({ paid: drawn, held, codes, story: told, steps: random }) => {
          const { before, after } = storySteps(told, held);
          const steps = [...before, ...random, ...after];
          const paid = drawn.map(
            (isPaid, i) => isPaid || (i === 0 && told.dispute) || (i === 1 && told.credit),
          );
          // Each run starts at the real time: one run's 'time passes' does not make every later run's orders late.
          clock.advance(Date.now() - clock.now());
          const firstEvent = local.events.length;
          const world = await paidKitchen(ctx);
          const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
          local.holdEvents(held);
          const made: Record<string, string> = {};
          for (const [kind, body, who] of [
            ['platform', { amountOffCents: 500 }, operator.cookie],
            ['platform beyond fee', { amountOffCents: 900 }, operator.cookie],
            ['kitchen', { percentOff: 10 }, world.cook.cookie],
          ] as const) {
            const res = await ctx.app.inject({
              method: 'POST',
              url: `/api/${kind === 'kitchen' ? 'kitchen' : 'operator'}/codes`,
              headers: { cookie: who },
              payload: body,
            });
            expect(res.statusCode, res.body).toBe(201);
            made[kind] = res.json<{ code: { code: string } }>().code.code;
          }
          const placed: { order: CustomerOrder; cookie: string }[] = [];
          for (const [i, isPaid] of paid.entries()) {
            const customer = await signedIn(ctx, 'customer');
            const code = made[codes[i] ?? 'none'];
            const res = await placeOrder(
              ctx,
              customer.cookie,
              world.cook.kitchen.uid,
              [world.dal],
              code ? { code } : {},
            );
            expect(res.statusCode, res.body).toBe(201);
            const order = res.json<CustomerOrder>();
            placed.push({ order, cookie: customer.cookie });
            if (isPaid) await local.pay(sessionOf(order), CARDS.pays);
          }
          await local.settled();
          const disputes = new Map<string, string>();

          for (const s of steps) {
            await apply(ctx, s, { world, operatorCookie: operator.cookie, placed, firstEvent, disputes });
            // After every step, each order's ledger balances (but for a step still waiting on the provider).
            await expectBalancedNow(placed.map((p) => p.order.id));
          }
          const ids = placed.map((p) => p.order.id);

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
      console.info(
        `payment property: ${delivered} deliveries tried, ${refunded.length} parts refunded, ` +
          `${afterSale.disputes} disputes (${afterSale.decided} decided), ${afterSale.tipsPaid} tips paid after ` +
          `delivery, ${afterSale.creditOrders} orders paid partly with credit`,
      );
      // The stories did happen (in most runs; some, a fault queued on the provider turns away): a decided dispute
      // and an order paid with credit are covered, not merely possible.
      const runs = Number(process.env.PAYMENT_PROPERTY_RUNS ?? 25);
      expect(afterSale.decided - decidedBefore, 'disputes decided').toBeGreaterThanOrEqual(
        Math.ceil(runs / 4),
      );
      expect(afterSale.creditOrders - creditBefore, 'orders paid with credit').toBeGreaterThanOrEqual(
        Math.ceil(runs / 4),
      );

      /** Each order's ledger balances, unless one of its steps is still waiting on the provider. */
      async function expectBalancedNow(ids: string[]) {
        const rows = await ctx.database.db
          .select({ id: orders.id, state: orders.paymentState })
          .from(orders)
          .where(inArray(orders.id, ids));
        const refunding = await ctx.database.db
          .select({ id: orderRefunds.orderId })
          .from(orderRefunds)
          .where(and(inArray(orderRefunds.orderId, ids), eq(orderRefunds.state, 'refunding')));
        const waiting = new Set(refunding.map((r) => r.id));
        for (const row of rows)
          if (!(pending as readonly string[]).includes(row.state) && !waiting.has(row.id))
            await expectLedgerBalanced(ctx, row.id);
      }

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
  run: {
    world: Awaited<ReturnType<typeof paidKitchen>>;
    operatorCookie: string;
    /** The run's orders: those placed first, then those a step placed (spending credit). */
    placed: { order: CustomerOrder; cookie: string }[];
    firstEvent: number;
    /** Each order's open dispute, by order id. */
    disputes: Map<string, string>;
  },
): Promise<void> {
  const { world, operatorCookie, placed, firstEvent, disputes } = run;
  const kitchenCookie = world.cook.cookie;
  const local = localProvider(ctx);
  const inject = async (cookie: string, url: string, payload: object) => {
    const res = await ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBeLessThan(500);
  };
  const target = 'order' in s ? placed[s.order] : undefined;
  const orderId = target?.order.id ?? '';
  const moves = `/api/kitchen/orders/${orderId}/moves`;
  // An after-sale step follows the order's delivery (each move refused where it does not apply): else it would
  // seldom find an order delivered.
  if (s.kind === 'dispute' || s.kind === 'tip' || s.kind === 'report for credit') {
    for (const body of TO_THE_DOOR) await inject(kitchenCookie, moves, body);
    await local.settled();
  }
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
    case 'dispute': {
      const [row] = await ctx.database.db
        .select({ intent: orders.paymentIntentId })
        .from(orders)
        .where(eq(orders.id, orderId));
      if (!row?.intent || disputes.has(orderId)) break;
      // Refused unless its charge was captured, is not refunded in full and not disputed already.
      const dispute = await local.dispute(row.intent).catch(() => undefined);
      if (dispute) {
        disputes.set(orderId, String(dispute.id));
        afterSale.disputes++;
      }
      break;
    }
    case 'dispute decided': {
      const dispute = disputes.get(orderId);
      if (!dispute) break;
      disputes.delete(orderId);
      await local.closeDispute(dispute, s.outcome);
      afterSale.decided++;
      break;
    }
    case 'tip': {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${orderId}/tips`,
        headers: { cookie: target?.cookie ?? '' },
        payload: { amountCents: s.amount, requestKey: randomUUID() },
      });
      expectAnswered(s, res);
      const page = res.statusCode < 300 ? res.json<TipStarted>().checkoutUrl : null;
      const session = /\/checkout\/(cs_[0-9a-f]+)/.exec(page ?? '')?.[1];
      if (
        session &&
        (await local.pay(session, CARDS[s.card]).then(
          () => s.card === 'pays',
          () => false,
        ))
      )
        afterSale.tipsPaid++;
      break;
    }
    case 'report for credit':
      await inject(target?.cookie ?? '', `/api/orders/${orderId}/problem`, {
        reason: 'missing',
        dishes: [{ item: 'Dal', priceCents: 950, quantity: 1 }],
        refundAs: 'credit',
      });
      break;
    case 'spend credit': {
      const cookie = target?.cookie ?? '';
      const res = await placeOrder(ctx, cookie, world.cook.kitchen.uid, [world.dal], { useCredit: true });
      expectAnswered(s, res);
      if (res.statusCode !== 201) break;
      const order = res.json<CustomerOrder>();
      placed.push({ order, cookie });
      if (order.creditCents > 0) afterSale.creditOrders++;
      // The card pays what the credit does not (an order the credit covers has no payment page).
      if (order.totalCents > order.creditCents) await local.pay(sessionOf(order), CARDS.pays);
      await local.settled();
      if (s.deliver)
        for (const body of TO_THE_DOOR)
          await inject(kitchenCookie, `/api/kitchen/orders/${order.id}/moves`, body);
      break;
    }
    case 'provider fails':
      failuresInjected++;
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
