import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStripe, TEST_CARDS, type LocalStripe } from './local-stripe.js';
import { planWeekPaymentKey, type PaymentProvider } from './provider.js';
import { stripeProvider } from './stripe-provider.js';

/**
 * A card saved for a weekly plan and charged at each week's cut-off without the customer, through the official SDK
 * against the stand-in: Checkout in setup mode saves it on a Customer (docs.stripe.com/payments/save-and-reuse?
 * platform=checkout), a PaymentIntent with `off_session` and `confirm` charges it ("Charge the saved payment method
 * later"), and Stripe's test cards answer as docs.stripe.com/testing says.
 */
describe('saved cards and off-session payments (the stand-in, through the SDK)', () => {
  let local: LocalStripe;
  let provider: PaymentProvider;
  let sdk: Stripe;
  let destination: string;

  beforeAll(async () => {
    const apiKey = `sk_test_local_${randomUUID().replaceAll('-', '')}`;
    local = await startLocalStripe({ apiKey });
    provider = stripeProvider({
      secretKey: apiKey,
      webhookSecret: 'whsec_unused',
      connectWebhookSecret: undefined,
      apiBase: local.url,
    });
    const api = new URL(local.url);
    sdk = new Stripe(apiKey, {
      host: api.hostname,
      port: Number(api.port),
      protocol: 'http',
      telemetry: false,
    });
    const account = await sdk.accounts.create({ type: 'express', metadata: { kitchenUid: randomUUID() } });
    await local.completeOnboarding(account.id);
    destination = account.id;
  });
  afterAll(async () => local?.close());

  /** A customer who saved `card` on a setup-mode page (confirming it when the card asks them to). */
  async function saved(card: string) {
    const planId = randomUUID();
    const customerId = await provider.createCustomer(
      { id: randomUUID(), email: 'eater@example.com' },
      `user:${planId}:customer`,
    );
    expect(customerId).toMatch(/^cus_/);
    const page = await provider.startCardSetup(
      {
        customerId,
        currency: 'USD',
        metadata: { planId },
        successUrl: 'https://example.com/CustomerOrders?card=saved',
        cancelUrl: 'https://example.com/CustomerOrders?card=not-saved',
        expiresAt: new Date((Math.floor(Date.now() / 1000) + 40 * 60) * 1000),
      },
      `plan:${planId}:card`,
    );
    // No SetupIntent, no card, until the customer confirms.
    expect(await provider.savedCard(page.sessionId)).toEqual({ status: 'open', paymentMethodId: null });
    const setup = await local.pay(page.sessionId, card);
    // What saving it asked of the customer (the object is the stand-in's own, changed by the step after).
    const asked = String(setup.status);
    if (asked === 'requires_action') await local.authenticate(String(setup.id));
    const result = await provider.savedCard(page.sessionId);
    expect(result.status).toBe('complete');
    expect(result.paymentMethodId).toMatch(/^pm_/);
    const session = await sdk.checkout.sessions.retrieve(page.sessionId);
    expect(session).toMatchObject({ mode: 'setup', customer: customerId, metadata: { planId } });
    return { planId, customerId, paymentMethodId: result.paymentMethodId!, asked };
  }

  /** The week's order's id, as the placement makes it: one per plan and week. */
  const orderIds = new Map<string, string>();
  const charge = (card: Awaited<ReturnType<typeof saved>>, week: string) =>
    provider.chargeSavedCard(
      {
        orderId:
          orderIds.get(`${card.planId}${week}`) ??
          orderIds.set(`${card.planId}${week}`, randomUUID()).get(`${card.planId}${week}`)!,
        amountMinor: 2945,
        currency: 'USD',
        platformFeeMinor: 746,
        destinationAccount: destination,
        customerId: card.customerId,
        paymentMethodId: card.paymentMethodId,
        description: 'Weekly plan',
      },
      planWeekPaymentKey(card.planId, week),
    );

  it('saves a card on the customer and holds each week’s payment for capture, once per plan and week', async () => {
    const card = await saved(TEST_CARDS.pays);
    const method = await sdk.paymentMethods.retrieve(card.paymentMethodId);
    expect(method).toMatchObject({ customer: card.customerId, card: { last4: '4242' } });
    const first = await charge(card, '2026-10-29');
    expect(first).toMatchObject({ outcome: 'authorised' });
    const intentId = first.outcome === 'authorised' ? first.paymentIntentId : '';
    const intent = await sdk.paymentIntents.retrieve(intentId);
    expect(intent).toMatchObject({
      status: 'requires_capture',
      amount: 2945,
      application_fee_amount: 746,
      transfer_data: { destination },
      customer: card.customerId,
      payment_method: card.paymentMethodId,
    });
    // A retry of the week (a crash after the call) answers the same payment; the next week is another.
    const calls = local.calls.get('POST /v1/payment_intents') ?? 0;
    expect(await charge(card, '2026-10-29')).toEqual(first);
    expect(local.calls.get('POST /v1/payment_intents')).toBe(calls);
    const next = await charge(card, '2026-11-05');
    expect(next.outcome === 'authorised' && next.paymentIntentId).not.toBe(intentId);
    // The kitchen accepts: captured as any order.
    await provider.capture(intentId, `order:${randomUUID()}:capture`);
    expect(await provider.paymentState(intentId)).toBe('captured');
  });

  it('asks the customer when the card needs them (4000 0027 6000 3184): authentication_required off-session', async () => {
    const card = await saved(TEST_CARDS.alwaysAuthenticate);
    // Saving it asked for the confirmation step too.
    expect(card.asked).toBe('requires_action');
    const result = await charge(card, '2026-10-29');
    expect(result).toMatchObject({
      outcome: 'needs-customer',
      paymentIntentId: expect.stringMatching(/^pi_/),
    });
    const intent = await sdk.paymentIntents.retrieve(
      result.outcome === 'needs-customer' ? result.paymentIntentId! : '',
    );
    expect(intent.status).toBe('requires_payment_method');
    expect(intent.last_payment_error).toMatchObject({ code: 'authentication_required' });
    // The same key answers the same refusal (Stripe keeps errors under the key too).
    expect(await charge(card, '2026-10-29')).toEqual(result);
  });

  it('declines a card saved fine that fails when charged (4000 0000 0000 0341)', async () => {
    const card = await saved(TEST_CARDS.attachesThenDeclines);
    expect(card.asked).toBe('succeeded');
    const result = await charge(card, '2026-10-29');
    expect(result).toMatchObject({ outcome: 'declined', message: 'Your card was declined.' });
    expect(local.events.map((e) => e.type)).toContain('payment_intent.payment_failed');
  });

  it('refuses a saved card used without its customer, and one saved on another', async () => {
    const card = await saved(TEST_CARDS.pays);
    const other = await saved(TEST_CARDS.pays);
    await expect(charge({ ...card, customerId: other.customerId }, '2026-10-29')).rejects.toMatchObject({
      statusCode: 400,
      param: 'payment_method',
    });
  });
});
