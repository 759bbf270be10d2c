import { randomUUID } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import { UNPAID_REASON } from '../../shared/payments.js';
import { stripeSignature, TEST_CARDS, type LocalStripe } from '../payments/local-stripe.js';
import { fingerprintTables } from '../test/fingerprint.js';
import {
  localProvider,
  money,
  objectOf,
  orderCalls,
  paidKitchen,
  paidOrder,
  placeOrder,
  sessionOf,
  intentOfOrder,
} from '../test/payments-world.js';
import { describeEachEngineWithStripe } from '../test/stripe-world.js';
import { describeEachEngine, signedIn, testConfig, type TestContext } from '../test/test-app.js';
import { buildKitchen } from '../test/builders.js';

type Json = Record<string, unknown>;

/** Every table a webhook could change: a refused or repeated delivery must leave them as they were. */
const TABLES = ['orders', 'order_events', 'order_items', 'ledger_entries', 'payment_events', 'kitchens'];
/** The same, without the record of processed event ids (an event processed for nothing is still recorded). */
const EFFECTS = TABLES.filter((table) => table !== 'payment_events');

/** The events the provider sent about a payment intent, oldest first. */
const eventsOf = (local: LocalStripe, intent: string) =>
  local.events.filter((e) => objectOf(e).id === intent || objectOf(e).payment_intent === intent);

/** Posts `payload` to the webhook as it is, with these headers. */
const post = (ctx: TestContext, payload: string | Buffer, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    payload,
  });

/** Posts an event as the provider does (its payload and signature), signed at `timestamp` (now by default). */
const deliver = (ctx: TestContext, event: Json, timestamp?: number) => {
  const payload = JSON.stringify(event, null, 2);
  return post(ctx, payload, { 'stripe-signature': localProvider(ctx).sign(payload, timestamp) });
};

/** The same event as the provider would send it anew (another delivery Stripe would not tell from a new event). */
const replayed = (event: Json): Json => ({ ...event, id: `evt_${randomUUID().replaceAll('-', '')}` });

describeEachEngine(
  'the payment webhook',
  (get) => {
    const fingerprint = (tables = TABLES) => fingerprintTables(get().database.db, tables);
    const { move, cancelAsCustomer } = orderCalls(get);

    /** A card order whose customer paid, the provider's events about it held back: the order still awaits them. */
    async function paidWithEventsHeld() {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const customer = await signedIn(ctx, 'customer');
      const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal]);
      expect(placed.statusCode).toBe(201);
      const order = placed.json<CustomerOrder>();
      const local = localProvider(ctx);
      local.holdEvents(true);
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      const intent = await intentOfOrder(ctx, order.id);
      return { ...world, customer, order, intent, held: eventsOf(local, intent) };
    }

    it('refuses an event without a signature, with a wrong or expired one: 400 naming stripe-signature, nothing changes', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      try {
        const { order, held } = await paidWithEventsHeld();
        expect(held.map((e) => e.type)).toEqual([
          'checkout.session.completed',
          'payment_intent.amount_capturable_updated',
        ]);
        const before = await fingerprint();
        const now = Math.floor(Date.now() / 1000);
        for (const event of held) {
          const payload = JSON.stringify(event, null, 2);
          const refusals: Record<string, string>[] = [
            {},
            { 'stripe-signature': '' },
            { 'stripe-signature': 'nonsense' },
            { 'stripe-signature': stripeSignature(payload, 'whsec_someone_else') },
            // Signed by the provider, over another body.
            { 'stripe-signature': local.sign(`${payload} `) },
            // Signed by the provider, six minutes ago (Stripe's tolerance is five).
            { 'stripe-signature': local.sign(payload, now - 6 * 60) },
            { 'stripe-signature': local.sign(payload, now - 5 * 60 - 1) },
          ];
          for (const headers of refusals) {
            const res = await post(ctx, payload, headers);
            expect(res.statusCode, JSON.stringify(headers)).toBe(400);
            expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'stripe-signature' });
          }
        }
        expect(await fingerprint()).toBe(before);
        expect((await money(ctx, order.id)).row?.state).toBe('awaiting payment');

        // The same events, as the provider sends them: the order reaches its kitchen.
        local.holdEvents(false);
        await local.settled();
        expect((await money(ctx, order.id)).row).toMatchObject({
          state: 'recieved',
          paymentState: 'authorised',
        });
      } finally {
        local.holdEvents(false);
        await local.settled();
      }
    });

    it('acknowledges a repeated delivery as a duplicate and changes nothing twice', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const { cook, order } = await paidOrder(ctx);
      expect((await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 })).statusCode).toBe(
        200,
      );
      await local.settled();
      const intent = (await money(ctx, order.id)).row?.paymentIntentId ?? '';
      const sent = eventsOf(local, intent);
      expect(sent.map((e) => e.type)).toEqual([
        'checkout.session.completed',
        'payment_intent.amount_capturable_updated',
        'payment_intent.succeeded',
      ]);
      const before = await fingerprint();
      for (const event of sent) {
        expect(await local.resend(event)).toBe(200);
        const again = await deliver(ctx, event);
        expect(again.statusCode).toBe(200);
        expect(again.json()).toEqual({ received: true, duplicate: true });
      }
      expect(await fingerprint()).toBe(before);
      expect((await money(ctx, order.id)).ledger).toEqual({
        authorised: 2945,
        captured: 2945,
        platform_fee: 746,
        kitchen_transfer: 2199,
      });
    });

    it('changes nothing for an old event replayed under a new id after the order moved on', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const { cook, order } = await paidOrder(ctx);
      await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
      await local.settled();
      const intent = (await money(ctx, order.id)).row?.paymentIntentId ?? '';
      const before = await fingerprint(EFFECTS);
      // The payment's own events, and ones that would end an unpaid order or confirm a release.
      const completed = eventsOf(local, intent).find((e) => e.type === 'checkout.session.completed') ?? {};
      const stale = [
        ...eventsOf(local, intent),
        { ...completed, type: 'checkout.session.expired' },
        {
          ...completed,
          type: 'payment_intent.canceled',
          data: { object: { ...objectOf(completed), object: 'payment_intent', id: intent } },
        },
      ];
      for (const event of stale) {
        const res = await deliver(ctx, replayed(event));
        expect(res.statusCode, String(event.type)).toBe(200);
        expect(res.json()).toEqual({ received: true, duplicate: false });
      }
      await local.settled();
      expect(await fingerprint(EFFECTS)).toBe(before);
      expect((await money(ctx, order.id)).row).toMatchObject({ state: 'accepted', paymentState: 'captured' });

      // Once refunded, the capture's and the authorisation's events replayed change nothing either.
      await move(cook.cookie, order.id, { move: 'cancel', reason: 'Oven broke' });
      await local.settled();
      const refunded = await fingerprint(EFFECTS);
      for (const event of eventsOf(local, intent))
        expect((await deliver(ctx, replayed(event))).statusCode).toBe(200);
      await local.settled();
      expect(await fingerprint(EFFECTS)).toBe(refunded);
      expect((await money(ctx, order.id)).row?.paymentState).toBe('refunded');
    });

    it('takes events in any order: each changes only what its order still waits for', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      try {
        const { cook, order, intent, held } = await paidWithEventsHeld();
        // The authorisation's second event first: the order reaches its kitchen once.
        const [completed, capturable] = held;
        expect((await deliver(ctx, capturable ?? {})).statusCode).toBe(200);
        expect((await money(ctx, order.id)).row?.state).toBe('recieved');
        expect((await deliver(ctx, completed ?? {})).statusCode).toBe(200);
        expect((await money(ctx, order.id)).ledger).toEqual({ authorised: 2945 });

        // Accepted, then cancelled by the kitchen: captured and refunded, every event held back.
        await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 30 });
        await move(cook.cookie, order.id, { move: 'cancel', reason: 'Oven broke' });
        const settled = await money(ctx, order.id);
        expect(settled.row?.paymentState).toBe('refunded');
        const all = eventsOf(local, intent);
        expect(all.map((e) => e.type)).toEqual([
          'checkout.session.completed',
          'payment_intent.amount_capturable_updated',
          'payment_intent.succeeded',
          'charge.refunded',
        ]);
        const before = await fingerprint(EFFECTS);
        // Newest first, then as the provider sends them (their ids seen once already: duplicates).
        for (const event of [...all].reverse().filter((e) => e !== completed && e !== capturable))
          expect((await deliver(ctx, event)).json()).toEqual({ received: true, duplicate: false });
        local.holdEvents(false);
        await local.settled();
        expect(await fingerprint(EFFECTS)).toBe(before);
        expect((await money(ctx, order.id)).ledger).toEqual({
          authorised: 2945,
          captured: 2945,
          platform_fee: 746,
          kitchen_transfer: 2199,
          refunded: -2945,
          platform_fee_refunded: -746,
          kitchen_transfer_reversed: -2199,
        });
      } finally {
        local.holdEvents(false);
        await local.settled();
      }
    });

    it('releases at once a payment made in another tab before the customer went back: its events may never come', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      try {
        const { customer, order, intent } = await paidWithEventsHeld();
        // The page cannot be closed (it was paid): the provider is asked where the payment stands.
        expect((await cancelAsCustomer(customer.cookie, order.id)).statusCode).toBe(200);
        const after = await money(ctx, order.id);
        expect(after.row).toMatchObject({
          state: 'cancelled',
          endReason: UNPAID_REASON,
          paymentState: 'released',
        });
        expect(after.ledger).toEqual({ authorised: 2945, released: -2945 });
        expect(local.objects.get(intent)?.status).toBe('canceled');
        // The payment's events, arriving after all, change nothing twice.
        const before = await fingerprint(EFFECTS);
        local.holdEvents(false);
        await local.settled();
        expect(await fingerprint(EFFECTS)).toBe(before);
      } finally {
        local.holdEvents(false);
        await local.settled();
      }
    });

    it('releases such a payment once its events arrive when the provider could not be asked', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      try {
        const { customer, order, intent } = await paidWithEventsHeld();
        // Closing the page fails, and so does asking whether it was paid.
        local.failNext(/\/expire$/);
        local.failNext(/^\/v1\/checkout\/sessions\/[^/]+$/);
        expect((await cancelAsCustomer(customer.cookie, order.id)).statusCode).toBe(200);
        expect((await money(ctx, order.id)).row?.paymentState).toBe('unpaid');
        expect(local.objects.get(intent)?.status).toBe('requires_capture');
        local.holdEvents(false);
        await local.settled();
        const after = await money(ctx, order.id);
        expect(after.row).toMatchObject({ state: 'cancelled', paymentState: 'released' });
        expect(after.ledger).toEqual({ authorised: 2945, released: -2945 });
        expect(local.objects.get(intent)?.status).toBe('canceled');
      } finally {
        local.holdEvents(false);
        await local.settled();
      }
    });

    it('answers 200 to an event naming no order of ours, and logs it', async () => {
      const ctx = get();
      const warn = vi.spyOn(ctx.app.log, 'warn');
      try {
        const before = await fingerprint(EFFECTS);
        const strangers: Json[] = [
          { object: 'payment_intent', id: 'pi_unknown0000', metadata: { orderId: randomUUID() } },
          {
            object: 'checkout.session',
            id: 'cs_unknown0000',
            payment_intent: 'pi_unknown0001',
            metadata: {},
          },
          {
            object: 'payment_intent',
            id: 'pi_unknown0002',
            metadata: { orderId: "'; drop table orders; --" },
          },
          { object: 'charge', id: 'ch_unknown', metadata: 'not an object' },
        ];
        for (const [i, object] of strangers.entries()) {
          const type =
            [
              'payment_intent.succeeded',
              'checkout.session.completed',
              'payment_intent.canceled',
              'charge.refunded',
            ][i] ?? '';
          const id = `evt_stranger_${randomUUID()}`;
          const res = await deliver(ctx, { id, object: 'event', type, data: { object } });
          expect(res.statusCode, type).toBe(200);
          expect(res.json()).toEqual({ received: true, duplicate: false });
          expect(warn).toHaveBeenCalledWith(
            expect.objectContaining({ eventId: id, type }),
            expect.any(String),
          );
        }
        expect(await fingerprint(EFFECTS)).toBe(before);
      } finally {
        warn.mockRestore();
      }
    });

    it('acknowledges and ignores an event of a type it does not handle', async () => {
      const ctx = get();
      const { order } = await paidOrder(ctx);
      const intent = (await money(ctx, order.id)).row?.paymentIntentId ?? '';
      const before = await fingerprint(EFFECTS);
      for (const type of [
        'customer.created',
        'payment_intent.created',
        'charge.dispute.created',
        'x'.repeat(300),
      ]) {
        const res = await deliver(ctx, {
          id: `evt_${randomUUID()}`,
          object: 'event',
          type,
          data: { object: { object: 'payment_intent', id: intent, metadata: { orderId: order.id } } },
        });
        expect(res.statusCode, type).toBe(200);
        expect(res.json()).toEqual({ received: true, duplicate: false });
      }
      expect(await fingerprint(EFFECTS)).toBe(before);
    });

    it('answers 4xx, never 5xx, to a body that is not an event (signed or not), empty or huge; nothing changes', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const before = await fingerprint();
      const bodies = [
        '',
        'not json',
        '{"id": "evt_1", "type": ',
        'null',
        '[]',
        '"evt_1"',
        '42',
        '{}',
        '{"id": 1, "type": "payment_intent.succeeded", "data": {"object": {}}}',
        '{"id": "evt_no_type", "data": {"object": {}}}',
        '{"id": "evt_no_data", "type": "payment_intent.succeeded"}',
        '{"id": "evt_null_data", "type": "payment_intent.succeeded", "data": null}',
        '{"id": "evt_null_object", "type": "payment_intent.succeeded", "data": {"object": null}}',
        '{"id": "evt_text_object", "type": "payment_intent.succeeded", "data": {"object": "pi_1"}}',
        '{"id": "evt_list_object", "type": "charge.refunded", "data": {"object": []}}',
        '{"id": "", "type": "payment_intent.succeeded", "data": {"object": {}}}',
        '\u0000\u0001',
      ];
      for (const body of bodies) {
        const unsignedAndSigned: Record<string, string>[] = [{}, { 'stripe-signature': local.sign(body) }];
        for (const headers of unsignedAndSigned) {
          const res = await post(ctx, body, headers);
          expect(res.statusCode, `${body} ${JSON.stringify(headers)}: ${res.body}`).toBeGreaterThanOrEqual(
            400,
          );
          expect(res.statusCode, `${body}: ${res.body}`).toBeLessThan(500);
        }
      }
      // Another content type, none at all, and a body far over the limit (its signature never even read).
      const event = JSON.stringify({
        id: 'evt_other_type',
        object: 'event',
        type: 'x',
        data: { object: {} },
      });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
        const res = await post(ctx, event, { 'content-type': type, 'stripe-signature': local.sign(event) });
        expect(res.statusCode, type).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, type).toBeLessThan(500);
      }
      const untyped = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'stripe-signature': local.sign(event) },
        payload: event,
      });
      expect(untyped.statusCode).toBeGreaterThanOrEqual(400);
      expect(untyped.statusCode).toBeLessThan(500);
      const huge = JSON.stringify({
        id: 'evt_huge',
        type: 'x',
        data: { object: { pad: 'x'.repeat(3_000_000) } },
      });
      const tooBig = await post(ctx, huge, { 'stripe-signature': local.sign(huge) });
      expect(tooBig.statusCode).toBe(413);
      expect(await fingerprint()).toBe(before);
    });
  },
  { PAYMENTS: 'local' },
);

describeEachEngineWithStripe('card payments with PAYMENTS=stripe, over HTTP both ways', (get) => {
  const move = (cookie: string, id: string, body: object) =>
    get().app.inject({
      method: 'POST',
      url: `/api/kitchen/orders/${id}/moves`,
      headers: { cookie },
      payload: body,
    });
  const intentOf = (orderId: string) => intentOfOrder(get(), orderId);

  it('pays at checkout and captures when the kitchen accepts', async () => {
    const ctx = get();
    const { cook, order } = await paidOrder(ctx);
    expect(order.payment.checkoutUrl).toContain(`${ctx.local.url}/checkout/cs_`);
    expect((await money(ctx, order.id)).row).toMatchObject({ state: 'recieved', paymentState: 'authorised' });
    expect((await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 20 })).statusCode).toBe(200);
    await ctx.local.settled();
    const after = await money(ctx, order.id);
    expect(after.row?.paymentState).toBe('captured');
    expect(after.ledger).toEqual({
      authorised: 2945,
      captured: 2945,
      platform_fee: 746,
      kitchen_transfer: 2199,
    });
    expect(await ctx.app.payments.provider?.figures(await intentOf(order.id))).toEqual({
      state: 'captured',
      amount: 2945,
      captured: 2945,
      refunded: 0,
      platformFee: 746,
      transferReversed: 0,
    });
  });

  it("follows the README's two endpoints: a kitchen's account.updated counts when the Connect endpoint's secret signed it", async () => {
    const ctx = get();
    const cook = await buildKitchen(ctx);
    const link = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen/payouts/onboarding',
      headers: { cookie: cook.cookie },
    });
    const account = /\/onboard\/(acct_[0-9a-f]+)/.exec(link.json<{ url: string }>().url)?.[1] ?? '';
    const payoutState = async () =>
      (await ctx.app.inject({ url: '/api/kitchen/payouts', headers: { cookie: cook.cookie } })).json<{
        state: string;
      }>().state;
    expect(await payoutState()).toBe('not-set-up');
    const onboarded = {
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'account.updated',
      account,
      data: {
        object: { id: account, charges_enabled: true, payouts_enabled: true, details_submitted: true },
      },
    };
    const payload = JSON.stringify(onboarded);
    // Signed by the platform's endpoint, it is no connected account's event: acknowledged, nothing changes.
    const platform = await post(ctx, payload, {
      'stripe-signature': stripeSignature(payload, ctx.webhookSecret),
    });
    expect(platform.statusCode).toBe(200);
    expect(await payoutState()).toBe('not-set-up');
    // As Stripe sends it, to the Connect endpoint (the stand-in signs a connected account's events with its secret).
    await ctx.local.completeOnboarding(account);
    await ctx.local.settled();
    expect(await payoutState()).toBe('payouts-on');
    const connect = { ...onboarded, id: `evt_${randomUUID().replaceAll('-', '')}` };
    const signed = JSON.stringify(connect);
    expect(
      (await post(ctx, signed, { 'stripe-signature': stripeSignature(signed, ctx.connectWebhookSecret) }))
        .statusCode,
    ).toBe(200);
    // Without the second secret the server does not start, naming it.
    expect(() =>
      testConfig({
        PAYMENTS: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_0123456789',
        STRIPE_WEBHOOK_SECRET: ctx.webhookSecret,
      }),
    ).toThrow(/STRIPE_CONNECT_WEBHOOK_SECRET/);
  });

  it('releases the hold when the kitchen declines', async () => {
    const ctx = get();
    const { cook, order } = await paidOrder(ctx);
    expect((await move(cook.cookie, order.id, { move: 'decline', reason: 'No rice' })).statusCode).toBe(200);
    await ctx.local.settled();
    expect((await money(ctx, order.id)).ledger).toEqual({ authorised: 2945, released: -2945 });
    expect(ctx.local.objects.get(await intentOf(order.id))?.status).toBe('canceled');
  });

  it('refunds the whole order when the kitchen cancels after accepting', async () => {
    const ctx = get();
    const { cook, order } = await paidOrder(ctx);
    await move(cook.cookie, order.id, { move: 'accept', readyInMinutes: 20 });
    expect((await move(cook.cookie, order.id, { move: 'cancel', reason: 'Oven broke' })).statusCode).toBe(
      200,
    );
    await ctx.local.settled();
    const after = await money(ctx, order.id);
    expect(after.row?.paymentState).toBe('refunded');
    expect(after.ledger).toMatchObject({
      refunded: -2945,
      platform_fee_refunded: -746,
      kitchen_transfer_reversed: -2199,
    });
    expect(await ctx.app.payments.provider?.figures(await intentOf(order.id))).toEqual({
      state: 'refunded',
      amount: 2945,
      captured: 2945,
      refunded: 2945,
      platformFee: 0,
      transferReversed: 2945,
    });
  });

  it('refuses over HTTP an event whose signature is older than five minutes', async () => {
    const ctx = get();
    const { order } = await paidOrder(ctx);
    const intent = await intentOf(order.id);
    const event = eventsOf(ctx.local, intent).find((e) => e.type === 'checkout.session.completed') ?? {};
    const payload = JSON.stringify(replayed(event));
    const url = `${ctx.address}/api/payments/webhook`;
    const send = (signature: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const old = Math.floor(Date.now() / 1000) - 301;
    const refused = await send(stripeSignature(payload, ctx.webhookSecret, old));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ field: 'stripe-signature' });
    const fresh = await send(stripeSignature(payload, ctx.webhookSecret));
    expect(fresh.status).toBe(200);
  });
});
