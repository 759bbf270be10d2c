import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import type { MoneyOverview } from '../../shared/payments.js';
import { orderDisputes } from '../db/schema.js';
import { FakeClock } from '../test/fake-clock.js';
import { OPERATOR_EMAIL, operatorEnv } from '../test/moderation.js';
import { expectLedgerBalanced, expectMoneySettled } from '../test/payment-checks.js';
import {
  deliveredCardOrder,
  intentOfOrder,
  localProvider,
  money,
  objectOf,
  orderCalls,
  paidOrder,
  TO_THE_DOOR,
} from '../test/payments-world.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

/** The provider's events of `type` about payment `intent` (the provider is the whole file's). */
const eventsOf = (events: Record<string, unknown>[], type: string, intent: string | null | undefined) =>
  events.filter(
    (e) =>
      e.type === type &&
      (e.data as { object: { payment_intent?: unknown } }).object.payment_intent === intent,
  );

const clock = new FakeClock();
clock.advance(Date.now());

/** 2 × Dal at 9.50, delivery 2.99, fees and tax 7.46: 29.45; Stripe's dispute fee 15.00. */
const TOTAL = 2945;
const FEE = 1500;

describeEachEngine(
  "a cardholder's dispute of a delivered order",
  (get) => {
    async function disputedOrder(ctx: TestContext) {
      const paid = await deliveredCardOrder(ctx);
      const local = localProvider(ctx);
      const { row } = await money(ctx, paid.order.id);
      const dispute = await local.dispute(row?.paymentIntentId ?? '');
      await local.settled();
      return { ...paid, dispute: String(dispute.id) };
    }
    const submitEvidence = async (orderId: string) => {
      const operator = await signedIn(get(), 'operator', { email: OPERATOR_EMAIL });
      return get().app.inject({
        method: 'POST',
        url: `/api/operator/orders/${orderId}/dispute/evidence`,
        headers: { cookie: operator.cookie },
      });
    };

    it('shows the dispute and its deadline to both sides, takes the evidence, and records a lost one', async () => {
      const ctx = get();
      const { cook, customer, order, dispute } = await disputedOrder(ctx);
      const [row] = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, order.id));
      expect(row).toMatchObject({
        providerDisputeId: dispute,
        amountCents: TOTAL,
        feeCents: FEE,
        outcome: null,
      });
      const past = (
        await ctx.app.inject({ url: '/api/kitchen/orders/past', headers: { cookie: cook.cookie } })
      ).json<KitchenOrder[]>();
      expect(past.find((o) => o.id === order.id)?.payment.dispute).toMatchObject({
        status: 'needs_response',
        amountCents: TOTAL,
        evidenceDueBy: row?.evidenceDueBy?.toISOString(),
        evidenceSubmitted: false,
        outcome: null,
      });
      const mine = (
        await ctx.app.inject({ url: '/api/orders/mine', headers: { cookie: customer.cookie } })
      ).json<CustomerOrder>();
      expect(mine.payment.dispute?.status).toBe('needs_response');
      // The amount and the fee left the platform's balance: one entry for the dispute.
      let { ledger } = await money(ctx, order.id);
      expect(ledger).toMatchObject({ dispute_withdrawn: -TOTAL, dispute_fee: -FEE });

      const submitted = await submitEvidence(order.id);
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect(submitted.json<{ fields: string[] }>().fields).toEqual(
        expect.arrayContaining([
          'product_description',
          'customer_email_address',
          'shipping_address',
          'shipping_date',
        ]),
      );
      const local = localProvider(ctx);
      await local.settled();
      const atProvider = local.objects.get(dispute);
      expect(atProvider).toMatchObject({ status: 'under_review' });
      expect(String((atProvider?.evidence as Record<string, unknown>).product_description)).toContain('Dal');
      // Once submitted, not again.
      expect((await submitEvidence(order.id)).json()).toMatchObject({ code: 'DISPUTE_CLOSED' });

      await local.closeDispute(dispute, 'lost');
      await local.settled();
      const [closed] = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, order.id));
      expect(closed).toMatchObject({ status: 'lost', outcome: 'lost' });
      ({ ledger } = await money(ctx, order.id));
      expect(ledger.dispute_reinstated).toBeUndefined();
      // The order's own money is untouched by the dispute, and still agrees with the provider.
      await expectMoneySettled(ctx, order.id);
    });

    it('records a won dispute: the amount comes back, the fee does not; late and repeated events change nothing', async () => {
      const ctx = get();
      const { order, dispute } = await disputedOrder(ctx);
      const local = localProvider(ctx);
      await local.closeDispute(dispute, 'won');
      await local.settled();
      // Stripe retries deliveries, and the 'created' may come again after the close.
      for (const event of local.events.filter((e) => String(e.type).startsWith('charge.dispute.')))
        expect(await local.resend(event)).toBe(200);
      const [row] = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, order.id));
      expect(row).toMatchObject({ status: 'won', outcome: 'won' });
      const { ledger, entries } = await money(ctx, order.id);
      expect(ledger).toMatchObject({
        dispute_withdrawn: -TOTAL,
        dispute_fee: -FEE,
        dispute_reinstated: TOTAL,
      });
      expect(ledger.dispute_fee_returned).toBeUndefined();
      // authorised, captured and its split, and the dispute's three rows.
      expect(entries).toBe(4 + 3);
      await expectLedgerBalanced(ctx, order.id);
      expect((await submitEvidence(order.id)).json()).toMatchObject({ code: 'DISPUTE_CLOSED' });
    });

    it("'Dispute this payment' on /dev-pay opens a dispute as Stripe would, and the bank's decision closes it", async () => {
      const ctx = get();
      const paid = await deliveredCardOrder(ctx);
      const local = localProvider(ctx);
      const pagePath = new URL(paid.order.payment.checkoutUrl ?? '').pathname;
      const paidPage = await ctx.app.inject({ method: 'GET', url: pagePath });
      expect(paidPage.body).toContain('This order is paid');
      expect(paidPage.body).toContain('Dispute this payment');

      const press = () => ctx.app.inject({ method: 'POST', url: `${pagePath}/dispute` });
      const pressed = await press();
      expect(pressed.statusCode, pressed.body).toBe(303);
      expect(pressed.headers.location).toBe(pagePath);
      // Pressed again (the page reloaded): still the one dispute.
      expect((await press()).statusCode).toBe(303);
      await local.settled();
      const { row } = await money(ctx, paid.order.id);
      const created = eventsOf(local.events, 'charge.dispute.created', row?.paymentIntentId);
      expect(created).toHaveLength(1);
      // The event as Stripe sends it (API reference: Event, Dispute and Balance Transaction objects).
      const event = created[0] as { data: { object: Record<string, unknown> } } & Record<string, unknown>;
      expect(event).toMatchObject({ object: 'event', type: 'charge.dispute.created', livemode: false });
      const dispute = event.data.object;
      expect(dispute).toMatchObject({
        object: 'dispute',
        amount: TOTAL,
        currency: 'usd',
        payment_intent: row?.paymentIntentId,
        status: 'needs_response',
        is_charge_refundable: false,
        livemode: false,
        evidence_details: { has_evidence: false, past_due: false, submission_count: 0 },
        balance_transactions: [
          {
            object: 'balance_transaction',
            amount: -TOTAL,
            fee: FEE,
            net: -(TOTAL + FEE),
            fee_details: [{ amount: FEE, type: 'stripe_fee' }],
            reporting_category: 'dispute',
            type: 'adjustment',
            source: dispute.id,
          },
        ],
      });
      expect(String(dispute.charge)).toMatch(/^ch_/);
      expect(typeof (dispute.evidence_details as { due_by: unknown }).due_by).toBe('number');

      // The flow runs on: both sides see it, with the ledger's withdrawal and fee.
      const [recorded] = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, paid.order.id));
      expect(recorded).toMatchObject({ status: 'needs_response', amountCents: TOTAL, feeCents: FEE });
      expect((await money(ctx, paid.order.id)).ledger).toMatchObject({
        dispute_withdrawn: -TOTAL,
        dispute_fee: -FEE,
      });
      // The operator's Money tab lists it, open, with its deadline.
      const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
      const overview = await ctx.app.inject({
        method: 'GET',
        url: '/api/operator/money',
        headers: { cookie: operator.cookie },
      });
      expect(overview.json<MoneyOverview>().disputes.find((d) => d.orderId === paid.order.id)).toMatchObject({
        amountCents: TOTAL,
        feeCents: FEE,
        status: 'needs_response',
        evidenceSubmitted: false,
        outcome: null,
        evidenceDueBy: expect.any(String),
      });
      const shown = await ctx.app.inject({ method: 'GET', url: pagePath });
      expect(shown.body).toContain('Disputed: $29.45');
      expect(shown.body).toContain('needs response');

      // The bank sides with the cardholder.
      const decide = (outcome: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `${pagePath}/dispute/close`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `outcome=${outcome}`,
        });
      expect((await decide('maybe')).statusCode).toBe(400);
      expect((await decide('lost')).statusCode).toBe(303);
      expect((await decide('won')).statusCode).toBe(303);
      await local.settled();
      const [closed] = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, paid.order.id));
      expect(closed).toMatchObject({ status: 'lost', outcome: 'lost' });
      expect(eventsOf(local.events, 'charge.dispute.closed', row?.paymentIntentId)).toHaveLength(1);
      await expectLedgerBalanced(ctx, paid.order.id);
      await expectMoneySettled(ctx, paid.order.id);
    });

    it('reads a balance transaction as Stripe writes it: a gross amount, and a fee given back as a negative fee', async () => {
      const ctx = get();
      const { order } = await disputedOrder(ctx);
      const local = localProvider(ctx);
      const { row } = await money(ctx, order.id);
      const [created] = eventsOf(local.events, 'charge.dispute.created', row?.paymentIntentId);
      const dispute = structuredClone(objectOf(created ?? {}));
      // A bank's decision for the shop whose fee Stripe gives back too (API reference: Balance Transaction object,
      // net = amount - fee).
      dispute.status = 'won';
      (dispute.balance_transactions as Record<string, unknown>[]).push({
        id: 'txn_fee_back',
        object: 'balance_transaction',
        amount: TOTAL,
        fee: -FEE,
        net: TOTAL + FEE,
        type: 'adjustment',
        reporting_category: 'dispute_reversal',
      });
      const answer = await local.resend({
        ...created,
        id: `evt_won_${order.id}`,
        type: 'charge.dispute.closed',
        data: { object: dispute },
      });
      expect(answer).toBe(200);
      expect((await money(ctx, order.id)).ledger).toMatchObject({
        dispute_withdrawn: -TOTAL,
        dispute_fee: -FEE,
        dispute_reinstated: TOTAL,
        dispute_fee_returned: FEE,
      });
      await expectLedgerBalanced(ctx, order.id);
    });

    it("Stripe's disputing test card (4000 0000 0000 0259): its payment is disputed once the kitchen takes it", async () => {
      const ctx = get();
      const paid = await paidOrder(ctx, TEST_CARDS.disputed);
      const { move } = orderCalls(get);
      const none = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, paid.order.id));
      expect(none).toEqual([]);
      for (const body of TO_THE_DOOR)
        expect((await move(paid.cook.cookie, paid.order.id, body)).statusCode).toBe(200);
      await localProvider(ctx).settled();
      const [row] = await ctx.database.db
        .select()
        .from(orderDisputes)
        .where(eq(orderDisputes.orderId, paid.order.id));
      expect(row).toMatchObject({ amountCents: TOTAL, feeCents: FEE, outcome: null });
      expect(await expectMoneySettled(ctx, paid.order.id)).toBe('captured');
      await expectLedgerBalanced(ctx, paid.order.id);
    });

    it('refuses to dispute a payment not taken yet', async () => {
      const ctx = get();
      const paid = await paidOrder(ctx);
      const pagePath = new URL(paid.order.payment.checkoutUrl ?? '').pathname;
      const pressed = await ctx.app.inject({ method: 'POST', url: `${pagePath}/dispute` });
      expect(pressed.statusCode).toBe(200);
      expect(pressed.body).toContain('cannot be disputed');
      const { row } = await money(ctx, paid.order.id);
      const intent = row?.paymentIntentId ?? (await intentOfOrder(ctx, paid.order.id));
      expect(intent).toMatch(/^pi_/);
      expect(eventsOf(localProvider(ctx).events, 'charge.dispute.created', intent)).toEqual([]);
    });
  },
  { PAYMENTS: 'local', ...operatorEnv },
  { clock },
);
