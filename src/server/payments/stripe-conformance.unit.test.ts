import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStripe, TEST_CARDS, type LocalStripe } from './local-stripe.js';
import {
  planWeekPaymentKey,
  refundKey,
  stepKey,
  type CheckoutRequest,
  type PaymentProvider,
} from './provider.js';
import { stripeProvider } from './stripe-provider.js';

/**
 * One scenario of the Stripe objects our integration relies on, run through the official SDK against our stand-in
 * (local-stripe.ts) and, when STRIPE_SECRET_KEY holds a test-mode key, against Stripe's test mode itself: what the
 * stand-in answers is checked against what Stripe answers, not against what we expect of it. Each step names the
 * page of Stripe's documentation it follows (the table in docs/decisions/0018-payments-follow-stripes-object-lifecycle.md).
 *
 * Against Stripe, a Checkout Session with destination charges needs a connected account that can receive transfers:
 * STRIPE_TEST_CONNECTED_ACCOUNT names one onboarded in the test-mode dashboard (its checkout steps are skipped without
 * it). Nothing here pays: hosted pages are paid by a person.
 */
interface Target {
  name: string;
  provider: PaymentProvider;
  sdk: Stripe;
  /** A connected account that can receive transfers, made ready the way its platform would. */
  readyAccount(): Promise<string | undefined>;
  /**
   * A card saved on `customerId` for payments without the customer (a SetupIntent, `usage: off_session`), as the
   * customer would save it: `card` is the kind of Stripe's test card. Returns its PaymentMethod.
   */
  saveCard(customerId: string, card: SavedCardKind): Promise<string>;
  close(): Promise<void>;
}

/** Stripe's test cards for saved cards (docs.stripe.com/testing#authentication-and-setup, #declined-payments). */
type SavedCardKind = 'pays' | 'alwaysAuthenticate' | 'attachesThenDeclines';

const liveKey = process.env.STRIPE_SECRET_KEY ?? '';
const againstStripe = /^sk_test_/.test(liveKey) && !liveKey.startsWith('sk_test_local');

async function standIn(): Promise<Target> {
  const apiKey = `sk_test_local_${randomUUID().replaceAll('-', '')}`;
  const local: LocalStripe = await startLocalStripe({ apiKey });
  const api = new URL(local.url);
  const sdk = new Stripe(apiKey, {
    host: api.hostname,
    port: Number(api.port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
  const provider = stripeProvider({
    secretKey: apiKey,
    webhookSecret: 'whsec_unused',
    connectWebhookSecret: undefined,
    apiBase: local.url,
  });
  return {
    name: 'the stand-in',
    provider,
    sdk,
    async readyAccount() {
      const account = await sdk.accounts.create({ type: 'express', metadata: { kitchenUid: randomUUID() } });
      await local.completeOnboarding(account.id);
      return account.id;
    },
    // On the setup-mode page, paid with the card's number (confirming it when the card asks).
    async saveCard(customerId, card) {
      const page = await provider.startCardSetup(
        {
          customerId,
          currency: 'USD',
          metadata: {},
          successUrl: 'https://example.com/CustomerOrders?card=saved',
          cancelUrl: 'https://example.com/CustomerOrders?card=not-saved',
          expiresAt: inMinutes(40),
        },
        `conformance:${randomUUID()}:card`,
      );
      const setup = await local.pay(page.sessionId, TEST_CARDS[card]);
      if (String(setup.status) === 'requires_action') await local.authenticate(String(setup.id));
      const saved = await provider.savedCard(page.sessionId);
      return saved.paymentMethodId ?? '';
    },
    close: () => local.close(),
  };
}

function stripeTestMode(): Target {
  return {
    name: "Stripe's test mode",
    provider: stripeProvider({
      secretKey: liveKey,
      webhookSecret: 'whsec_unused',
      connectWebhookSecret: undefined,
    }),
    sdk: new Stripe(liveKey, { maxNetworkRetries: 1, telemetry: false }),
    readyAccount: async () => process.env.STRIPE_TEST_CONNECTED_ACCOUNT || undefined,
    // Nobody pays a hosted page here: the card is saved by confirming a SetupIntent with Stripe's test
    // PaymentMethods (docs.stripe.com/testing#cards, /api/setup_intents/create). One that always asks its holder is
    // attached without confirming (docs.stripe.com/payments/save-and-reuse: a test of the off-session decline).
    async saveCard(customerId, card) {
      const sdk = new Stripe(liveKey, { maxNetworkRetries: 1, telemetry: false });
      if (card === 'alwaysAuthenticate') {
        const method = await sdk.paymentMethods.attach('pm_card_authenticationRequired', {
          customer: customerId,
        });
        return method.id;
      }
      const setup = await sdk.setupIntents.create({
        customer: customerId,
        payment_method: card === 'pays' ? 'pm_card_visa' : 'pm_card_chargeCustomerFail',
        allowed_payment_method_types: ['card'],
        usage: 'off_session',
        confirm: true,
      });
      expect(setup.status).toBe('succeeded');
      return typeof setup.payment_method === 'string'
        ? setup.payment_method
        : (setup.payment_method?.id ?? '');
    },
    close: async () => {},
  };
}

const checkoutFor = (orderId: string, destination: string, expiresAt: Date): CheckoutRequest => ({
  orderId,
  amountMinor: 2945,
  currency: 'USD',
  platformFeeMinor: 746,
  destinationAccount: destination,
  description: `Conformance ${orderId}`,
  successUrl: 'https://example.com/ShoppingCart?paid=1',
  cancelUrl: 'https://example.com/ShoppingCart?unpaid=1',
  expiresAt,
});

/**
 * What `find` finds, asking again while it finds nothing: Stripe's test mode makes some objects a moment after the
 * request that causes them (a test card's dispute, a decision on evidence); the stand-in at once. Up to 60 s.
 */
async function eventually<T>(find: () => Promise<T | undefined>): Promise<T> {
  for (let waited = 0; ; waited += 500) {
    const found = await find();
    if (found !== undefined) return found;
    if (waited >= 60_000) throw new Error('not found within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** `expires_at` as Stripe takes it: whole seconds, `minutes` on. */
const inMinutes = (minutes: number) => new Date(Math.floor(Date.now() / 1000 + minutes * 60) * 1000);

function scenario(makeTarget: () => Promise<Target> | Target) {
  let target: Target;
  beforeAll(async () => {
    target = await makeTarget();
  });
  afterAll(async () => target?.close());

  // docs.stripe.com/api/accounts/create, /api/accounts/list: metadata kept; listed newest first, paged.
  it('makes an Express account with its kitchen in its metadata, not set up, and finds it again by it', async () => {
    const kitchenUid = `conformance-${randomUUID()}`;
    const id = await target.provider.createPayoutAccount({ uid: kitchenUid, email: 'cook@example.com' });
    expect(id).toMatch(/^acct_/);
    expect(await target.provider.payoutState(id)).toBe('not-set-up');
    expect(await target.provider.findPayoutAccount(kitchenUid)).toBe(id);
    // The same kitchen asked again within a day (the idempotency key's life): the same account.
    expect(await target.provider.createPayoutAccount({ uid: kitchenUid, email: 'cook@example.com' })).toBe(
      id,
    );
  });

  // docs.stripe.com/payments/save-and-reuse (off_session, confirm), /api/payment_intents/create (capture_method
  // manual), docs.stripe.com/declines/codes (authentication_required, card_declined), /api/idempotent_requests.
  it('charges a card saved for later without its holder, held for capture, once per key; one that needs its holder or fails says so', async (context) => {
    const destination = await target.readyAccount();
    if (!destination)
      return context.skip('STRIPE_TEST_CONNECTED_ACCOUNT names no onboarded connected account');
    const planId = randomUUID();
    const customerId = await target.provider.createCustomer(
      { id: randomUUID(), email: 'eater@example.com' },
      `user:${planId}:customer`,
    );
    const charge = (paymentMethodId: string, week: string) =>
      target.provider.chargeSavedCard(
        {
          orderId: `${planId}:${week}`,
          amountMinor: 2945,
          currency: 'USD',
          platformFeeMinor: 746,
          destinationAccount: destination,
          customerId,
          paymentMethodId,
          description: 'Conformance weekly plan',
        },
        planWeekPaymentKey(planId, week),
      );
    const visa = await target.saveCard(customerId, 'pays');
    const week = await charge(visa, '2026-10-29');
    expect(week).toMatchObject({ outcome: 'authorised' });
    const intentId = week.outcome === 'authorised' ? week.paymentIntentId : '';
    expect(await target.sdk.paymentIntents.retrieve(intentId)).toMatchObject({
      status: 'requires_capture',
      amount: 2945,
      application_fee_amount: 746,
      transfer_data: { destination },
      customer: customerId,
      payment_method: visa,
    });
    // The same week again (a retry after a crash): the same payment.
    expect(await charge(visa, '2026-10-29')).toEqual(week);
    await target.provider.capture(intentId, `order:${planId}:capture`);
    expect(await target.provider.paymentState(intentId)).toBe('captured');

    const asks = await charge(await target.saveCard(customerId, 'alwaysAuthenticate'), '2026-11-05');
    expect(asks).toMatchObject({ outcome: 'needs-customer', paymentIntentId: expect.stringMatching(/^pi_/) });
    const asked = await target.sdk.paymentIntents.retrieve(
      asks.outcome === 'needs-customer' ? (asks.paymentIntentId ?? '') : '',
    );
    expect(asked.status).toBe('requires_payment_method');
    expect(asked.last_payment_error).toMatchObject({ code: 'authentication_required' });

    const fails = await charge(await target.saveCard(customerId, 'attachesThenDeclines'), '2026-11-12');
    expect(fails).toMatchObject({ outcome: 'declined' });
  });

  // docs.stripe.com/api/checkout/sessions/object (`payment_intent` nullable; `url`), the changelog of 2022-08-01
  // ("Deferred PaymentIntent creation"), /api/checkout/sessions/expire.
  it('opens a payment-mode session with no PaymentIntent until the customer confirms, and expires it', async (context) => {
    const destination = await target.readyAccount();
    if (!destination)
      return context.skip('STRIPE_TEST_CONNECTED_ACCOUNT names no onboarded connected account');
    const orderId = randomUUID();
    const request = checkoutFor(orderId, destination, inMinutes(35));
    const key = `${stepKey(orderId, 'checkout')}:conformance`;
    const checkout = await target.provider.startCheckout(request, key);
    expect(checkout.url).toMatch(/^https?:\/\//);
    expect(await target.provider.checkoutPayment(checkout.sessionId)).toEqual({
      status: 'open',
      paymentIntentId: null,
    });
    const session = await target.sdk.checkout.sessions.retrieve(checkout.sessionId);
    expect(session).toMatchObject({
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      amount_total: 2945,
      currency: 'usd',
      client_reference_id: orderId,
      metadata: { orderId },
      expires_at: request.expiresAt.getTime() / 1000,
    });
    // docs.stripe.com/api/idempotent_requests: the same key and parameters answer the same session; other parameters
    // under the key are refused.
    expect((await target.provider.startCheckout(request, key)).sessionId).toBe(checkout.sessionId);
    await expect(
      target.provider.startCheckout({ ...request, expiresAt: inMinutes(40) }, key),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
    expect(await target.provider.expireCheckout(checkout.sessionId)).toBe(true);
    expect(await target.provider.checkoutPayment(checkout.sessionId)).toEqual({
      status: 'expired',
      paymentIntentId: null,
    });
    // Expired stays expired: a second expiry is refused by Stripe, and read as done.
    expect(await target.provider.expireCheckout(checkout.sessionId)).toBe(true);
  });

  // docs.stripe.com/api/checkout/sessions/create, `expires_at`: 30 minutes to 24 hours after the session's creation.
  it('refuses a session that would close under 30 minutes from its creation, naming expires_at', async (context) => {
    const destination = await target.readyAccount();
    if (!destination)
      return context.skip('STRIPE_TEST_CONNECTED_ACCOUNT names no onboarded connected account');
    const orderId = randomUUID();
    await expect(
      target.provider.startCheckout(
        checkoutFor(orderId, destination, inMinutes(29)),
        stepKey(orderId, 'checkout'),
      ),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'expires_at' });
  });

  // docs.stripe.com/api/refunds/create (`amount`, `reverse_transfer`, `refund_application_fee`: "proportionally to
  // the amount being refunded"), docs.stripe.com/connect/destination-charges ("Issue refunds").
  it('refunds parts of a captured destination charge, each once under its key, never more than was captured', async (context) => {
    const destination = await target.readyAccount();
    if (!destination)
      return context.skip('STRIPE_TEST_CONNECTED_ACCOUNT names no onboarded connected account');
    const orderId = randomUUID();
    const intent = await target.sdk.paymentIntents.create({
      amount: 2945,
      currency: 'usd',
      capture_method: 'manual',
      application_fee_amount: 746,
      transfer_data: { destination },
      payment_method: 'pm_card_visa',
      // No page to return to: a card needing a redirect is refused rather than left waiting.
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      confirm: true,
      metadata: { orderId },
    });
    expect(intent.status).toBe('requires_capture');
    await target.provider.capture(intent.id, stepKey(orderId, 'capture'));
    // The cook pays: the transfer (the whole amount went to the kitchen's account) reversed by the part, and the
    // fee's share given back to it: 7.46 × 9.50 / 29.45 = 2.41.
    const cookPays = { amount: 950, reverseTransfer: true, refundApplicationFee: true };
    const first = await target.provider.refundPart(intent.id, cookPays, refundKey(orderId, 'one'));
    expect(first).toMatchObject({ transferReversed: 950, feeRefunded: 241 });
    // The same key and part: the same refund. The platform pays the next: nothing reversed, the fee kept.
    expect(await target.provider.refundPart(intent.id, cookPays, refundKey(orderId, 'one'))).toEqual(first);
    const platformPays = { amount: 500, reverseTransfer: false, refundApplicationFee: false };
    expect(
      await target.provider.refundPart(intent.id, platformPays, refundKey(orderId, 'two')),
    ).toMatchObject({
      transferReversed: 0,
      feeRefunded: 0,
    });
    await expect(
      target.provider.refundPart(
        intent.id,
        { ...platformPays, amount: 2945 - 1450 + 1 },
        refundKey(orderId, 'three'),
      ),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
    // Partly refunded, the payment is still captured; the fee kept is its 7.46 less the 2.41 given back.
    expect(await target.provider.figures(intent.id)).toEqual({
      state: 'captured',
      amount: 2945,
      captured: 2945,
      refunded: 1450,
      platformFee: 746 - 241,
      transferReversed: 950,
    });
    expect(await target.provider.paymentState(intent.id)).toBe('captured');
    await target.provider.refundPart(
      intent.id,
      { ...platformPays, amount: 2945 - 1450 },
      refundKey(orderId, 'four'),
    );
    expect(await target.provider.paymentState(intent.id)).toBe('refunded');
  });

  // docs.stripe.com/testing#disputes: 4000 0000 0000 0259 (`pm_card_createDispute`) "The charge succeeds, only to be
  // disputed as fraudulent"; docs.stripe.com/api/disputes/object (`payment_intent` and `evidence_details.due_by`
  // nullable, every evidence field null until given), /api/disputes/list (`payment_intent`), /api/disputes/retrieve,
  // /api/disputes/update (`submit`), docs.stripe.com/testing#evidence (`winning_evidence` closes it as won),
  // docs.stripe.com/error-codes#charge-disputed (a disputed charge is not refunded).
  it('disputes a charge paid with 4000 0000 0000 0259: its amount, evidence due by, evidence submitted, won', async (context) => {
    const destination = await target.readyAccount();
    if (!destination)
      return context.skip('STRIPE_TEST_CONNECTED_ACCOUNT names no onboarded connected account');
    const orderId = randomUUID();
    const intent = await target.sdk.paymentIntents.create({
      amount: 2945,
      currency: 'usd',
      capture_method: 'automatic',
      application_fee_amount: 746,
      transfer_data: { destination },
      payment_method: 'pm_card_createDispute',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      confirm: true,
      metadata: { orderId },
    });
    expect(intent.status).toBe('succeeded');
    const listed = await eventually(
      async () => (await target.sdk.disputes.list({ payment_intent: intent.id })).data[0],
    );
    const dispute = await target.sdk.disputes.retrieve(listed.id);
    expect(dispute).toMatchObject({
      id: listed.id,
      object: 'dispute',
      amount: 2945,
      currency: 'usd',
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
      livemode: false,
      evidence_details: { has_evidence: false, past_due: false, submission_count: 0 },
    });
    expect(dispute.enhanced_eligibility_types).toEqual(expect.any(Array));
    // Nullable in the spec (0 where the bank takes no response): here a time to come, in seconds.
    expect(dispute.evidence_details.due_by).toEqual(expect.any(Number));
    expect(dispute.evidence_details.due_by ?? 0).toBeGreaterThan(Date.now() / 1000);
    expect(dispute.evidence.uncategorized_text).toBeNull();
    expect(dispute.evidence.product_description).toBeNull();
    // The disputed amount leaves the balance with the dispute's fee, in one balance transaction.
    expect(dispute.balance_transactions).toHaveLength(1);
    expect(dispute.balance_transactions[0]).toMatchObject({ amount: -2945, currency: 'usd' });
    expect(dispute.balance_transactions[0]?.fee).toBeGreaterThan(0);
    // Disputed, the charge is not refunded: the dispute decides.
    await expect(
      target.provider.refundPart(
        intent.id,
        { amount: 950, reverseTransfer: true, refundApplicationFee: true },
        refundKey(orderId, 'disputed'),
      ),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'charge_disputed' });

    await target.provider.submitDisputeEvidence(dispute.id, {
      product_description: '2 × Dal, delivered',
      uncategorized_text: 'winning_evidence',
    });
    const submitted = await target.sdk.disputes.retrieve(dispute.id);
    expect(submitted.evidence).toMatchObject({
      product_description: '2 × Dal, delivered',
      uncategorized_text: 'winning_evidence',
    });
    expect(submitted.evidence_details).toMatchObject({ has_evidence: true, submission_count: 1 });
    const won = await eventually(async () => {
      const now = await target.sdk.disputes.retrieve(dispute.id);
      return now.status === 'won' ? now : undefined;
    });
    expect(won.status).toBe('won');
    // Decided, it takes no more evidence.
    await expect(
      target.sdk.disputes.update(dispute.id, { evidence: { uncategorized_text: 'more' }, submit: true }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
  });

  // docs.stripe.com/connect/destination-charges ("Create a charge": without `application_fee_amount` the connected
  // account gets the whole amount), docs.stripe.com/api/payment_intents/object (`application_fee_amount` nullable),
  // docs.stripe.com/api/charges/object (`application_fee` and `transfer` nullable), /api/transfers/object. Our tip
  // after delivery (ADR 25) asks for exactly this, through Checkout.
  it('takes a tip after delivery as its own destination charge: captured at once, all of it transferred, no fee', async (context) => {
    const destination = await target.readyAccount();
    if (!destination)
      return context.skip('STRIPE_TEST_CONNECTED_ACCOUNT names no onboarded connected account');
    const orderId = randomUUID();
    const tipId = randomUUID();
    const intent = await target.sdk.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      capture_method: 'automatic',
      transfer_data: { destination },
      payment_method: 'pm_card_visa',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      confirm: true,
      metadata: { orderId, tipId },
    });
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 500,
      amount_received: 500,
      application_fee_amount: null,
      metadata: { orderId, tipId },
    });
    const charge = await target.sdk.charges.retrieve(String(intent.latest_charge), { expand: ['transfer'] });
    expect(charge).toMatchObject({ captured: true, amount_captured: 500, application_fee: null });
    expect(charge.application_fee_amount).toBeNull();
    expect(charge.transfer).toMatchObject({ object: 'transfer', amount: 500, destination });
    expect(await target.provider.figures(intent.id)).toEqual({
      state: 'captured',
      amount: 500,
      captured: 500,
      refunded: 0,
      platformFee: 0,
      transferReversed: 0,
    });
    expect(await target.provider.paymentState(intent.id)).toBe('captured');
  });

  // docs.stripe.com/connect/destination-charges: the destination must be able to receive transfers.
  it('refuses a destination charge to an account that has not finished onboarding', async () => {
    const account = await target.provider.createPayoutAccount({
      uid: `conformance-${randomUUID()}`,
      email: 'cook@example.com',
    });
    const orderId = randomUUID();
    await expect(
      target.provider.startCheckout(
        checkoutFor(orderId, account, inMinutes(35)),
        stepKey(orderId, 'checkout'),
      ),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
  });
}

describe('Stripe conformance: the stand-in', () => scenario(standIn));

describe.skipIf(!againstStripe)(
  "Stripe conformance: Stripe's test mode (runs when STRIPE_SECRET_KEY holds an sk_test_ key; skipped here)",
  () => scenario(stripeTestMode),
);
