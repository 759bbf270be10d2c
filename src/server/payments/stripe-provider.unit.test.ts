import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStripe, stripeSignature, TEST_CARDS, type LocalStripe } from './local-stripe.js';
import { BadWebhook, stepKey, type PaymentProvider, type ProviderEvent } from './provider.js';
import { stripeProvider } from './stripe-provider.js';

const SECRET_KEY = 'sk_test_local_0123456789';
const WEBHOOK_SECRET = 'whsec_local_0123456789';
const CONNECT_SECRET = 'whsec_local_connect_0123456789';

/** A webhook endpoint: every delivery checked by the provider as the app's route will, kept in order. */
async function webhookReceiver(provider: () => PaymentProvider) {
  const received: ProviderEvent[] = [];
  const refused: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        received.push(provider().readEvent(Buffer.concat(chunks), req.headers['stripe-signature'] as string));
        res.writeHead(200).end();
      } catch (error) {
        refused.push((error as Error).message);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhook`;
  return { url, received, refused, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('the Stripe provider, through the stripe SDK, against a server speaking Stripe’s API', () => {
  let local: LocalStripe;
  let provider: PaymentProvider;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  const typesOf = (events: ProviderEvent[]) => events.map((e) => e.type);

  beforeAll(async () => {
    hooks = await webhookReceiver(() => provider);
    local = await startLocalStripe({
      apiKey: SECRET_KEY,
      webhook: { url: hooks.url, secret: WEBHOOK_SECRET, connectSecret: CONNECT_SECRET },
    });
    provider = stripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      connectWebhookSecret: CONNECT_SECRET,
      apiBase: local.url,
    });
  });
  afterAll(async () => {
    await local.close();
    await hooks.close();
  });

  /** A kitchen with payouts on, and an order's checkout for 3245 (cents) of which 746 are the platform's. */
  async function paidCheckout(orderId: string, card: string = TEST_CARDS.pays) {
    const account = await provider.createPayoutAccount({
      uid: `k-${orderId}`,
      email: `${orderId}@cook.test`,
    });
    await local.completeOnboarding(account);
    const checkout = await provider.startCheckout(
      {
        orderId,
        amountMinor: 3245,
        currency: 'USD',
        platformFeeMinor: 746,
        destinationAccount: account,
        description: `Order ${orderId}`,
        successUrl: 'http://localhost:3000/CustomerOrderStatus?paid=1',
        cancelUrl: 'http://localhost:3000/ShoppingCart',
        expiresAt: new Date(Date.now() + 31 * 60_000),
      },
      stepKey(orderId, 'checkout'),
    );
    // Stripe makes the session's PaymentIntent when the customer confirms, not before.
    expect(await provider.checkoutPayment(checkout.sessionId)).toEqual({
      status: 'open',
      paymentIntentId: null,
    });
    await local.pay(checkout.sessionId, card);
    const { paymentIntentId } = await provider.checkoutPayment(checkout.sessionId);
    if (!paymentIntentId) throw new Error('no payment after the customer paid');
    return { account, checkout: { ...checkout, paymentIntentId } };
  }

  it("onboards a kitchen's payout account: not set up, then payouts on", async () => {
    const account = await provider.createPayoutAccount({ uid: 'k1', email: 'cook@example.test' });
    expect(await provider.payoutState(account)).toBe('not-set-up');
    const url = await provider.onboardingUrl(account, {
      returnUrl: 'http://localhost:3000/MenuDashboard?payouts=done',
      refreshUrl: 'http://localhost:3000/MenuDashboard?payouts=again',
    });
    expect(url).toContain(account);
    await local.completeOnboarding(account);
    expect(await provider.payoutState(account)).toBe('payouts-on');
    // The same kitchen asked twice (a double click): one account.
    expect(await provider.createPayoutAccount({ uid: 'k1', email: 'cook@example.test' })).toBe(account);
  });

  it('authorises at checkout with the platform fee and the destination, captures once, and says so by signed events', async () => {
    const { account, checkout } = await paidCheckout('o1');
    expect(local.objects.get(checkout.paymentIntentId)).toMatchObject({
      amount: 3245,
      capture_method: 'manual',
      application_fee_amount: 746,
      transfer_data: { destination: account },
      metadata: { orderId: 'o1' },
    });
    expect(await provider.paymentState(checkout.paymentIntentId)).toBe('authorised');
    expect(await provider.checkoutPayment(checkout.sessionId)).toMatchObject({ status: 'complete' });
    // The hold lasts as the charge says (7 days for an online card payment), not as we assume.
    const before = await provider.captureBefore(checkout.paymentIntentId);
    expect(before!.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    await provider.capture(checkout.paymentIntentId, stepKey('o1', 'capture'));
    expect(await provider.captureBefore(checkout.paymentIntentId)).toBeNull();
    // A retry of the same step (the answer was slow) changes nothing.
    await provider.capture(checkout.paymentIntentId, stepKey('o1', 'capture'));
    expect(local.calls.get('POST /v1/payment_intents/pi_…/capture')).toBe(1);
    expect(await provider.paymentState(checkout.paymentIntentId)).toBe('captured');
    // Another key would be a second capture: the provider refuses it.
    await expect(provider.capture(checkout.paymentIntentId, 'another-key')).rejects.toThrow(
      /status of succeeded/,
    );
    await expect
      .poll(() => typesOf(hooks.received))
      .toEqual(
        expect.arrayContaining([
          'checkout.session.completed',
          'payment_intent.amount_capturable_updated',
          'payment_intent.succeeded',
        ]),
      );
    expect(hooks.refused).toEqual([]);
  });

  it('releases a hold, and refunds a captured payment in full, once', async () => {
    const held = await paidCheckout('o2');
    await provider.release(held.checkout.paymentIntentId, stepKey('o2', 'release'));
    expect(await provider.paymentState(held.checkout.paymentIntentId)).toBe('released');
    const captured = await paidCheckout('o3');
    await provider.capture(captured.checkout.paymentIntentId, stepKey('o3', 'capture'));
    await provider.refund(captured.checkout.paymentIntentId, stepKey('o3', 'refund'));
    await provider.refund(captured.checkout.paymentIntentId, stepKey('o3', 'refund'));
    expect(await provider.paymentState(captured.checkout.paymentIntentId)).toBe('refunded');
    expect(
      [...local.objects.values()].filter(
        (o) => o.object === 'refund' && o.payment_intent === captured.checkout.paymentIntentId,
      ),
    ).toHaveLength(1);
  });

  it('leaves a declined card unpaid, and a card that asks for a step waiting for it', async () => {
    const declined = await paidCheckout('o4', TEST_CARDS.declined);
    expect(await provider.paymentState(declined.checkout.paymentIntentId)).toBe('awaiting-payment');
    expect(local.objects.get(declined.checkout.paymentIntentId)?.last_payment_error).toMatchObject({
      message: 'Your card was declined',
    });
    // A declined payment is not authorised by a confirmation step it never asked for.
    await expect(local.authenticate(declined.checkout.paymentIntentId)).rejects.toThrow(
      /needs no confirmation/,
    );
    expect(await provider.paymentState(declined.checkout.paymentIntentId)).toBe('awaiting-payment');
    const stepped = await paidCheckout('o5', TEST_CARDS.authentication);
    expect(await provider.paymentState(stepped.checkout.paymentIntentId)).toBe('needs-action');
    await local.authenticate(stepped.checkout.paymentIntentId);
    expect(await provider.paymentState(stepped.checkout.paymentIntentId)).toBe('authorised');
  });

  it('captures exactly once when the provider fails, or the answer is lost, and the step is tried again', async () => {
    const failing = await paidCheckout('o6');
    local.failNext(/\/capture$/);
    await expect(
      provider.capture(failing.checkout.paymentIntentId, stepKey('o6', 'capture')),
    ).rejects.toThrow();
    expect(await provider.paymentState(failing.checkout.paymentIntentId)).toBe('authorised');
    await provider.capture(failing.checkout.paymentIntentId, stepKey('o6', 'capture'));
    expect(await provider.paymentState(failing.checkout.paymentIntentId)).toBe('captured');

    const lost = await paidCheckout('o7');
    const before = local.calls.get('POST /v1/payment_intents/pi_…/capture') ?? 0;
    local.loseAnswerOfNext(/\/capture$/);
    // Done at the provider, its answer lost on the way: the SDK asks again with the same idempotency key, and the
    // provider answers from its record of the first (the SDK retries a closed connection whatever its settings).
    await provider.capture(lost.checkout.paymentIntentId, stepKey('o7', 'capture'));
    expect(local.calls.get('POST /v1/payment_intents/pi_…/capture')).toBe(before + 1);
    expect(await provider.paymentState(lost.checkout.paymentIntentId)).toBe('captured');
  });

  it('refuses a webhook without a signature, wrongly signed, tampered with or too old', () => {
    const event = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: {} },
    });
    expect(provider.readEvent(event, stripeSignature(event, WEBHOOK_SECRET))).toMatchObject({ id: 'evt_1' });
    const refusals = [
      () => provider.readEvent(event, undefined),
      () => provider.readEvent(event, stripeSignature(event, 'whsec_someone_else')),
      () =>
        provider.readEvent(event.replace('succeeded', 'canceled'), stripeSignature(event, WEBHOOK_SECRET)),
      () =>
        provider.readEvent(
          event,
          stripeSignature(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301),
        ),
      () => provider.readEvent('not json', stripeSignature('not json', WEBHOOK_SECRET)),
    ];
    for (const refusal of refusals) expect(refusal).toThrow(BadWebhook);
  });

  it("reads a connected account's events signed by the Connect endpoint's secret, and names the account", async () => {
    const account = await provider.createPayoutAccount({ uid: 'k-connect', email: 'connect@cook.test' });
    await local.completeOnboarding(account);
    await expect
      .poll(() => hooks.received.find((e) => e.type === 'account.updated' && e.object.id === account))
      .toMatchObject({ account });
    const payload = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      type: 'account.updated',
      account,
      data: { object: { id: account } },
    });
    // The platform's endpoint names no connected account, whatever the body says.
    expect(provider.readEvent(payload, stripeSignature(payload, WEBHOOK_SECRET)).account).toBeUndefined();
    expect(provider.readEvent(payload, stripeSignature(payload, CONNECT_SECRET)).account).toBe(account);
    expect(hooks.refused).toEqual([]);
  });

  it('finds a payout account made earlier for a kitchen, past many others', async () => {
    const made = await provider.createPayoutAccount({ uid: 'k-lost', email: 'lost@cook.test' });
    for (let i = 0; i < 120; i++)
      await provider.createPayoutAccount({ uid: `k-other-${i}`, email: 'o@cook.test' });
    expect(await provider.findPayoutAccount('k-lost')).toBe(made);
    expect(await provider.findPayoutAccount('k-never')).toBeUndefined();
  });

  it('expires an open page: it can no longer be paid, and a payment tried on it is canceled', async () => {
    const { checkout } = await paidCheckout('o8', TEST_CARDS.declined);
    expect(await provider.expireCheckout(checkout.sessionId)).toBe(true);
    expect(await provider.checkoutPayment(checkout.sessionId)).toMatchObject({ status: 'expired' });
    expect(await provider.paymentState(checkout.paymentIntentId)).toBe('released');
    await expect(local.pay(checkout.sessionId, TEST_CARDS.pays)).rejects.toThrow(/no longer open/);
  });
});
