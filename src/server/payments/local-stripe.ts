import { createHmac, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseStripeForm } from './form.js';

/**
 * A server that speaks the part of Stripe's REST API the marketplace uses (Connect Express accounts and account
 * links, Checkout sessions with a manually captured PaymentIntent, capture, cancel, refunds), keeping its state in
 * memory, honouring `Idempotency-Key`, answering errors as Stripe does, and sending signed webhook events the way
 * Stripe signs them. The official `stripe` SDK talks to it (`host`, `port`, `protocol`), so the code that talks to
 * Stripe is the code under test. Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0025
 * 0000 3155 asks for a confirmation step first; saved on a Customer through a setup-mode session, 4000 0027 6000 3184
 * needs its holder for every payment (off-session: `authentication_required`) and 4000 0000 0000 0341 is saved but
 * declined when charged; 4000 0000 0000 0259 pays, then is disputed.
 *
 * Each behaviour follows a page of Stripe's documentation, named where it is built; the table of them is in
 * docs/decisions/0018-payments-follow-stripes-object-lifecycle.md, and src/server/payments/stripe-conformance.test.ts
 * runs the same scenario here and, with a test-mode key, against Stripe.
 */

type Json = Record<string, unknown>;

export interface LocalStripeOptions {
  /** The secret key clients must present (`Authorization: Bearer …`). */
  apiKey: string;
  /**
   * Where events are sent (a URL, or a function that posts them: the app's own webhook route in-process), and the
   * secret they are signed with. Sent after the answer of the request that caused them, one at a time, in order.
   */
  webhook?: {
    url?: string;
    send?: (payload: string, signature: string) => Promise<number>;
    /** The platform endpoint's signing secret. */
    secret: string;
    /**
     * The Connect endpoint's: events that happen on a connected account (`account` set, such as `account.updated`)
     * go to an endpoint listening to connected accounts, signed with its own secret (docs.stripe.com/connect/webhooks).
     */
    connectSecret?: string;
  };
  port?: number;
  /** Where the customer's payment page and the cook's onboarding page are (`/dev-pay` of the app); this server's own by default. */
  pagesBase?: string;
  /** A file that keeps the state across restarts (the development server's data folder). */
  stateFile?: string;
}

export const TEST_CARDS = {
  pays: '4242424242424242',
  declined: '4000000000000002',
  authentication: '4000002500003155',
  /** docs.stripe.com/testing: "requires authentication on all transactions, regardless of how the card is set up". */
  alwaysAuthenticate: '4000002760003184',
  /** docs.stripe.com/testing: "Attaching this card to a Customer object succeeds, but attempts to charge the customer fail." */
  attachesThenDeclines: '4000000000000341',
  /** docs.stripe.com/testing#disputes: "The charge succeeds, only to be disputed as fraudulent" (`pm_card_createDispute`). */
  disputed: '4000000000000259',
} as const;

/**
 * Stripe's test PaymentMethods (docs.stripe.com/testing, "PaymentMethods"): attached to a customer they become a
 * saved card of that number.
 */
const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: TEST_CARDS.pays,
  pm_card_authenticationRequired: TEST_CARDS.alwaysAuthenticate,
  pm_card_chargeCustomerFail: TEST_CARDS.attachesThenDeclines,
  pm_card_createDispute: TEST_CARDS.disputed,
};

const now = () => Math.floor(Date.now() / 1000);
/** A dispute's evidence fields (docs.stripe.com/api/disputes/object, `evidence`): each null until given. */
const EVIDENCE_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
] as const;
/** Stripe's dispute fee in the US, in cents (docs.stripe.com/disputes/how-disputes-work). */
const DISPUTE_FEE = 1500;
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** More of Stripe's error object: a card error names its `decline_code`, `payment_intent`, `payment_method`. */
    readonly extra: Json = {},
  ) {
    super(message);
  }
}
const missing = (what: string, value: string) =>
  new StripeError(404, 'invalid_request_error', `No such ${what}: '${value}'`, 'resource_missing');
const unexpectedState = (pi: Json, action: string) =>
  new StripeError(
    400,
    'invalid_request_error',
    `This PaymentIntent could not be ${action} because it has a status of ${String(pi.status)}.`,
    'payment_intent_unexpected_state',
  );

/** Stripe's signature header for `payload` at `timestamp`: `t=…,v1=HMAC-SHA256(secret, "t.payload")`. */
export function stripeSignature(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface LocalStripe {
  url: string;
  host: string;
  port: number;
  /** What the provider holds, by id (accounts, checkout sessions, payment intents, refunds). */
  objects: Map<string, Json>;
  /** Every event sent, oldest first. */
  events: Json[];
  /**
   * The customer pays on the session's page with `card`: the payment is authorised, declined, or asks for a step. On
   * a setup-mode session the card is saved (the SetupIntent is answered), declined, or asks for a step.
   */
  pay(sessionId: string, card: string): Promise<Json>;
  /** The customer completes the confirmation step: the payment is authorised (a SetupIntent's card saved). */
  authenticate(paymentIntentId: string): Promise<Json>;
  /**
   * The cardholder disputes the payment's charge: a Dispute is opened (`charge.dispute.created`), its amount and fee
   * taken from the platform's balance, and a refund of the charge is refused from then on (`charge_disputed`).
   */
  dispute(paymentIntentId: string): Promise<Json>;
  /** The bank decides: `charge.dispute.closed`, won (the amount given back) or lost. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Promise<Json>;
  /** The cook finishes onboarding: charges and payouts enabled. */
  completeOnboarding(accountId: string): Promise<void>;
  /** The next request to `pathPattern` fails with a 500 before doing anything (a provider outage). */
  failNext(pathPattern: RegExp): void;
  /** The next request to `pathPattern` is carried out, but its answer is lost (the connection drops). */
  loseAnswerOfNext(pathPattern: RegExp): void;
  /** Sends an event again, as Stripe retries a delivery. */
  resend(event: Json): Promise<number>;
  /** The `Stripe-Signature` its webhook would send with `payload` (now, or at `timestamp`): tests forge deliveries. */
  sign(payload: string, timestamp?: number): string;
  /** Resolves once every event sent so far has been delivered (answered). */
  settled(): Promise<void>;
  /** Whether events are delivered (a test holds them back to play them in another order). */
  holdEvents(hold: boolean): void;
  /** How many requests reached each `METHOD path` (after idempotent replays). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

export async function startLocalStripe(options: LocalStripeOptions): Promise<LocalStripe> {
  const saved = options.stateFile ? await readState(options.stateFile) : undefined;
  const objects = new Map<string, Json>(saved?.objects ?? []);
  const events: Json[] = [];
  const calls = new Map<string, number>();
  const idempotent = new Map<string, { params: string; status: number; body: string }>(
    saved?.idempotent ?? [],
  );
  const failures: RegExp[] = [];
  const lostAnswers: RegExp[] = [];
  let base = '';
  let delivering: Promise<unknown> = Promise.resolve();
  let held: Json[] | undefined;
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    const file = options.stateFile;
    if (!file) return;
    const state = JSON.stringify({ objects: [...objects], idempotent: [...idempotent] });
    saving = saving.then(() => writeState(file, state)).catch(() => undefined);
  };

  const deliver = async (event: Json): Promise<number> => {
    const webhook = options.webhook;
    if (!webhook) return 0;
    const payload = JSON.stringify(event, null, 2);
    const secret = event.account ? (webhook.connectSecret ?? webhook.secret) : webhook.secret;
    const signature = stripeSignature(payload, secret);
    if (webhook.send) return webhook.send(payload, signature).catch(() => 0);
    if (!webhook.url) return 0;
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    }).catch(() => undefined);
    return res?.status ?? 0;
  };
  /** Queued behind the answer being written, as Stripe sends events after the call that caused them. */
  const enqueue = (event: Json) => {
    if (held) return void held.push(event);
    delivering = delivering
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => deliver(event));
  };
  const emit = async (type: string, object: Json, account?: string) => {
    const event: Json = {
      id: id('evt'),
      object: 'event',
      api_version: '2025-01-01',
      created: now(),
      type,
      livemode: false,
      ...(account ? { account } : {}),
      data: { object: structuredClone(object) },
    };
    events.push(event);
    save();
    enqueue(event);
  };

  /**
   * A dispute's balance transaction (API reference, Balance Transaction object): `amount` is gross (negative: sent
   * to the cardholder), `fee` what Stripe charged for it, `net` = `amount` - `fee`, the change to the balance; its
   * `source` is the dispute (set by the caller once the dispute has its id) and its reporting category `dispute`.
   */
  const disputeBalanceTransaction = (amount: number, fee: number, currency: string): Json => ({
    id: id('txn'),
    object: 'balance_transaction',
    amount,
    available_on: now(),
    created: now(),
    currency,
    description: amount < 0 ? 'Chargeback withdrawal' : 'Chargeback reversal',
    exchange_rate: null,
    fee,
    fee_details:
      fee === 0
        ? []
        : [{ amount: fee, application: null, currency, description: 'Dispute fee', type: 'stripe_fee' }],
    net: amount - fee,
    reporting_category: amount < 0 ? 'dispute' : 'dispute_reversal',
    source: null,
    status: 'available',
    type: 'adjustment',
  });

  const pagesBase = () => options.pagesBase ?? base;
  const get = (prefix: string, key: string): Json => {
    const found = objects.get(key);
    if (!found || !key.startsWith(prefix)) throw missing(prefix === 'pi' ? 'payment_intent' : prefix, key);
    return found;
  };

  /**
   * docs.stripe.com/connect/destination-charges: the destination must be able to receive transfers, which an Express
   * account can once its onboarding is done; otherwise Stripe refuses the payment, naming `param`.
   */
  // docs.stripe.com/api/errors: an `amount` that is not a positive integer is `parameter_invalid_integer`.
  const refuseAmount = (amount: number) => {
    if (!Number.isInteger(amount) || amount <= 0)
      throw new StripeError(
        400,
        'invalid_request_error',
        'Invalid positive integer',
        'parameter_invalid_integer',
        'amount',
      );
  };
  const refuseDestination = (destination: unknown, param: string) => {
    if (destination && get('acct', String(destination)).charges_enabled !== true)
      throw new StripeError(
        400,
        'invalid_request_error',
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, legacy_payments',
        undefined,
        param,
      );
  };

  /**
   * A captured destination charge moves money (docs.stripe.com/connect/destination-charges, "Collect fees"): the whole
   * amount is transferred to the destination account (a Transfer, `charge.transfer`), and `application_fee_amount`
   * comes back to the platform from it (an Application Fee, `charge.application_fee`).
   */
  const settleDestinationCharge = (intent: Json, charge: Json) => {
    const destination = ((intent.transfer_data ?? {}) as Json).destination;
    if (typeof destination !== 'string') return;
    const transfer: Json = {
      id: id('tr'),
      object: 'transfer',
      amount: intent.amount,
      amount_reversed: 0,
      reversed: false,
      currency: intent.currency,
      destination,
      source_transaction: charge.id,
      created: now(),
    };
    objects.set(transfer.id as string, transfer);
    charge.transfer = transfer.id;
    if (intent.application_fee_amount === null || intent.application_fee_amount === undefined) return;
    const fee: Json = {
      id: id('fee'),
      object: 'application_fee',
      account: destination,
      amount: intent.application_fee_amount,
      amount_refunded: 0,
      refunded: false,
      charge: charge.id,
      currency: intent.currency,
      created: now(),
    };
    objects.set(fee.id as string, fee);
    charge.application_fee = fee.id;
  };

  /**
   * `expand[]=a.b` gives the object named by id in field `a` (and in its field `b`) in its place; `data.x` expands
   * `x` in each item of a list (docs.stripe.com/api/expanding_objects). The stored objects stay as they are.
   */
  const expanded = (value: Json, path: string[]): Json => {
    const [head, ...rest] = path;
    if (head === undefined) return value;
    if (head === 'data' && Array.isArray(value.data))
      return { ...value, data: (value.data as Json[]).map((item) => expanded(item, rest)) };
    const field = value[head];
    const target = typeof field === 'string' ? objects.get(field) : field;
    if (!target || typeof target !== 'object' || Array.isArray(target)) return value;
    return { ...value, [head]: expanded(target as Json, rest) };
  };
  const expandAll = (answer: Json, params: Json): Json =>
    Object.values((params.expand ?? {}) as Json).reduce<Json>(
      (out, path) => expanded(out, String(path).split('.')),
      answer,
    );

  const handlers: [string, RegExp, (match: RegExpExecArray, params: Json) => Json | Promise<Json>][] = [
    [
      'POST',
      /^\/v1\/accounts$/,
      (_m, p) => {
        const account: Json = {
          id: id('acct'),
          object: 'account',
          type: p.type ?? 'express',
          email: p.email ?? null,
          country: p.country ?? 'US',
          charges_enabled: false,
          payouts_enabled: false,
          details_submitted: false,
          metadata: p.metadata ?? {},
          requirements: { currently_due: ['external_account', 'tos_acceptance.date'], disabled_reason: null },
        };
        objects.set(account.id as string, account);
        return account;
      },
    ],
    ['GET', /^\/v1\/accounts\/([^/]+)$/, (m) => get('acct', m[1] ?? '')],
    // docs.stripe.com/api/accounts/list and /api/pagination: newest first, `limit` (default 10, at most 100),
    // `starting_after` an id of the previous page, `has_more`.
    [
      'GET',
      /^\/v1\/accounts$/,
      (_m, query) => {
        const all = [...objects.values()].filter((o) => o.object === 'account').reverse();
        const after =
          query.starting_after === undefined ? -1 : all.findIndex((o) => o.id === query.starting_after);
        const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10)));
        const page = all.slice(after + 1, after + 1 + limit);
        return { object: 'list', url: '/v1/accounts', has_more: after + 1 + limit < all.length, data: page };
      },
    ],
    [
      'POST',
      /^\/v1\/account_links$/,
      (_m, p) => {
        const account = get('acct', String(p.account));
        if (!p.return_url || !p.refresh_url)
          throw new StripeError(
            400,
            'invalid_request_error',
            'Missing required param: return_url.',
            'parameter_missing',
            'return_url',
          );
        return {
          object: 'account_link',
          created: now(),
          expires_at: now() + 300,
          url: `${pagesBase()}/onboard/${String(account.id)}?return_url=${encodeURIComponent(String(p.return_url))}`,
        };
      },
    ],
    [
      'POST',
      /^\/v1\/checkout\/sessions$/,
      (_m, p) => {
        if (p.mode === 'setup') return setupSession(p);
        const pid = (p.payment_intent_data ?? {}) as Json;
        const items = (p.line_items ?? []) as Json[];
        const amount = items.reduce((sum, item) => {
          const price = (item.price_data ?? {}) as Json;
          return sum + Number(price.unit_amount ?? 0) * Number(item.quantity ?? 1);
        }, 0);
        const currency = String(((items[0]?.price_data ?? {}) as Json).currency ?? 'usd');
        if (!Number.isInteger(amount) || amount <= 0)
          throw new StripeError(
            400,
            'invalid_request_error',
            'Invalid line_items: amount must be positive.',
            'parameter_invalid_integer',
            'line_items',
          );
        const destination = ((pid.transfer_data ?? {}) as Json).destination;
        refuseDestination(destination, 'payment_intent_data[transfer_data][destination]');
        // docs.stripe.com/api/checkout/sessions/create, `expires_at`: 30 minutes to 24 hours after creation.
        const expiresAt = Number(p.expires_at ?? now() + 24 * 3600);
        if (expiresAt < now() + 30 * 60 || expiresAt > now() + 24 * 3600)
          throw new StripeError(
            400,
            'invalid_request_error',
            'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
            'parameter_invalid_integer',
            'expires_at',
          );
        // The PaymentIntent it will make, kept aside: since API version 2022-08-01 a payment-mode session has no
        // PaymentIntent until the customer confirms (Stripe's changelog, "Deferred PaymentIntent creation";
        // docs.stripe.com/api/checkout/sessions/object, `payment_intent` nullable).
        const planned: Json = {
          amount,
          currency,
          capture_method: pid.capture_method ?? 'automatic',
          application_fee_amount:
            pid.application_fee_amount === undefined ? null : Number(pid.application_fee_amount),
          transfer_data: destination ? { destination } : null,
          metadata: pid.metadata ?? {},
        };
        const session: Json = {
          id: id('cs'),
          object: 'checkout.session',
          mode: p.mode ?? 'payment',
          status: 'open',
          payment_status: 'unpaid',
          amount_total: amount,
          currency,
          client_reference_id: p.client_reference_id ?? null,
          metadata: p.metadata ?? {},
          payment_intent: null,
          success_url: p.success_url,
          cancel_url: p.cancel_url,
          expires_at: expiresAt,
          url: '',
        };
        session.url = `${pagesBase()}/checkout/${String(session.id)}`;
        objects.set(session.id as string, session);
        objects.set(`planned:${String(session.id)}`, planned);
        return session;
      },
    ],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (m) => get('cs', m[1] ?? '')],
    [
      'POST',
      /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      async (m) => {
        const session = get('cs', m[1] ?? '');
        if (session.status !== 'open')
          throw new StripeError(
            400,
            'invalid_request_error',
            'Only open sessions can be expired.',
            'checkout_session_unexpected_state',
          );
        // docs.stripe.com/api/checkout/sessions/expire: the session can no longer be paid; a PaymentIntent a failed
        // attempt made on it is canceled with it.
        session.status = 'expired';
        session.url = null;
        if (typeof session.payment_intent === 'string') {
          const intent = get('pi', session.payment_intent);
          if (intent.status === 'requires_payment_method' || intent.status === 'requires_action') {
            intent.status = 'canceled';
            intent.cancellation_reason = 'abandoned';
            await emit('payment_intent.canceled', intent);
          }
        }
        await emit('checkout.session.expired', session);
        return session;
      },
    ],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, (m) => get('pi', m[1] ?? '')],
    // docs.stripe.com/api/payment_intents/create with `confirm=true` and a test PaymentMethod (docs.stripe.com/testing:
    // `pm_card_visa` pays): what a server-side payment makes, and what the conformance scenario pays with (a hosted
    // page is paid by a person).
    [
      'POST',
      /^\/v1\/payment_intents$/,
      async (_m, p) => {
        const amount = Number(p.amount);
        refuseAmount(amount);
        const destination = ((p.transfer_data ?? {}) as Json).destination;
        refuseDestination(destination, 'transfer_data[destination]');
        const method = p.payment_method === undefined ? null : String(p.payment_method);
        const customer = p.customer === undefined ? null : String(p.customer);
        if (customer) get('cus', customer);
        const number = method === null ? undefined : cardOf(method, customer);
        const intent: Json = {
          id: id('pi'),
          object: 'payment_intent',
          amount,
          currency: String(p.currency ?? 'usd'),
          capture_method: p.capture_method ?? 'automatic',
          application_fee_amount:
            p.application_fee_amount === undefined ? null : Number(p.application_fee_amount),
          transfer_data: destination ? { destination } : null,
          metadata: p.metadata ?? {},
          customer,
          payment_method: method,
          amount_capturable: 0,
          amount_received: 0,
          status: method === null ? 'requires_payment_method' : 'requires_confirmation',
          last_payment_error: null,
          next_action: null,
          latest_charge: null,
          cancellation_reason: null,
          created: now(),
        };
        objects.set(intent.id as string, intent);
        if (p.confirm !== 'true' || number === undefined) return intent;
        return confirmWithCard(intent, number, p.off_session === 'true');
      },
    ],
    // docs.stripe.com/api/customers/create, /api/customers/retrieve.
    [
      'POST',
      /^\/v1\/customers$/,
      (_m, p) => {
        const customer: Json = {
          id: id('cus'),
          object: 'customer',
          email: p.email ?? null,
          name: p.name ?? null,
          metadata: p.metadata ?? {},
          invoice_settings: { default_payment_method: null },
          livemode: false,
          created: now(),
        };
        objects.set(customer.id as string, customer);
        return customer;
      },
    ],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (m) => get('cus', m[1] ?? '')],
    ['GET', /^\/v1\/setup_intents\/([^/]+)$/, (m) => get('seti', m[1] ?? '')],
    ['GET', /^\/v1\/payment_methods\/([^/]+)$/, (m) => get('pm', m[1] ?? '')],
    // docs.stripe.com/api/payment_methods/attach: a test PaymentMethod (`pm_card_visa`, …) attached becomes a new
    // PaymentMethod of the customer; a PaymentMethod attached to one customer cannot be attached to another.
    [
      'POST',
      /^\/v1\/payment_methods\/([^/]+)\/attach$/,
      (m, p) => {
        const customer = get('cus', String(p.customer));
        const test = TEST_PAYMENT_METHODS[m[1] ?? ''];
        if (test) return savedCard(test, String(customer.id));
        const method = get('pm', m[1] ?? '');
        if (method.customer && method.customer !== customer.id)
          throw new StripeError(
            400,
            'invalid_request_error',
            'The payment method you provided has already been attached to a customer.',
            'payment_method_unexpected_state',
          );
        method.customer = customer.id;
        return method;
      },
    ],
    ['GET', /^\/v1\/charges\/([^/]+)$/, (m) => get('ch', m[1] ?? '')],
    ['GET', /^\/v1\/transfers\/([^/]+)$/, (m) => get('tr', m[1] ?? '')],
    // docs.stripe.com/api/transfers/create: the platform's balance pays a connected account (`destination`), with
    // `transfer_group` and `metadata` kept as given; "Separate charges and transfers" is where Stripe describes it.
    [
      'POST',
      /^\/v1\/transfers$/,
      async (_m, p) => {
        const amount = Number(p.amount);
        refuseAmount(amount);
        refuseDestination(p.destination, 'destination');
        const transfer: Json = {
          id: id('tr'),
          object: 'transfer',
          amount,
          amount_reversed: 0,
          reversed: false,
          currency: String(p.currency ?? 'usd'),
          destination: p.destination,
          source_transaction: null,
          transfer_group: p.transfer_group ?? null,
          metadata: p.metadata ?? {},
          created: now(),
        };
        objects.set(transfer.id as string, transfer);
        return transfer;
      },
    ],
    // docs.stripe.com/api/transfer_reversals/create: without `amount` the whole rest of the transfer comes back.
    [
      'POST',
      /^\/v1\/transfers\/([^/]+)\/reversals$/,
      async (m, p) => {
        const transfer = get('tr', m[1] ?? '');
        const left = Number(transfer.amount) - Number(transfer.amount_reversed);
        const amount = p.amount === undefined ? left : Number(p.amount);
        if (!Number.isInteger(amount) || amount <= 0 || amount > left)
          throw new StripeError(
            400,
            'invalid_request_error',
            'Transfer reversal amount is greater than the amount left on the transfer.',
            'amount_too_large',
            'amount',
          );
        const reversal: Json = {
          id: id('trr'),
          object: 'transfer_reversal',
          amount,
          currency: transfer.currency,
          transfer: transfer.id,
          created: now(),
        };
        objects.set(reversal.id as string, reversal);
        transfer.amount_reversed = Number(transfer.amount_reversed) + amount;
        transfer.reversed = transfer.amount_reversed === transfer.amount;
        return reversal;
      },
    ],
    ['GET', /^\/v1\/application_fees\/([^/]+)$/, (m) => get('fee', m[1] ?? '')],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/capture$/,
      async (m) => {
        const intent = get('pi', m[1] ?? '');
        if (intent.status !== 'requires_capture') throw unexpectedState(intent, 'captured');
        intent.status = 'succeeded';
        intent.amount_received = intent.amount;
        intent.amount_capturable = 0;
        if (typeof intent.latest_charge === 'string') {
          const charge = get('ch', intent.latest_charge);
          charge.captured = true;
          charge.amount_captured = intent.amount;
          settleDestinationCharge(intent, charge);
        }
        await emit('payment_intent.succeeded', intent);
        if (objects.delete(`dispute-on-capture:${String(intent.id)}`))
          await openDispute(intent, 'fraudulent');
        return intent;
      },
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
      async (m) => {
        const intent = get('pi', m[1] ?? '');
        if (intent.status === 'succeeded' || intent.status === 'canceled')
          throw unexpectedState(intent, 'canceled');
        // docs.stripe.com/api/checkout/sessions/object, `payment_intent`: "You can't confirm or cancel the
        // PaymentIntent for a Checkout Session. To cancel, expire the Checkout Session instead." (while it is open)
        const open = [...objects.values()].some(
          (o) => o.object === 'checkout.session' && o.payment_intent === intent.id && o.status === 'open',
        );
        if (open)
          throw new StripeError(
            400,
            'invalid_request_error',
            'You cannot cancel this PaymentIntent because it belongs to an open Checkout Session; expire the session instead.',
            'payment_intent_unexpected_state',
          );
        intent.status = 'canceled';
        intent.amount_capturable = 0;
        await emit('payment_intent.canceled', intent);
        return intent;
      },
    ],
    [
      'POST',
      /^\/v1\/refunds$/,
      async (_m, p) => {
        const intent = get('pi', String(p.payment_intent));
        // docs.stripe.com/disputes: a disputed charge is not refunded (the dispute decides), error `charge_disputed`.
        const disputed =
          typeof intent.latest_charge === 'string' && get('ch', intent.latest_charge).disputed === true;
        if (disputed)
          throw new StripeError(
            400,
            'invalid_request_error',
            `Charge ${String(intent.latest_charge)} has been charged back; cannot issue a refund.`,
            'charge_disputed',
          );
        if (intent.status !== 'succeeded')
          throw new StripeError(
            400,
            'invalid_request_error',
            'This PaymentIntent has no charge to refund.',
            'charge_not_refundable',
          );
        const refunded = objects.get(`refunds:${String(intent.id)}`) as Json | undefined;
        const left = Number(intent.amount_received) - Number(refunded?.amount ?? 0);
        const amount = p.amount === undefined ? left : Number(p.amount);
        refuseAmount(amount);
        // docs.stripe.com/api/refunds/create, `amount`: at most what is left of the charge to refund.
        if (left <= 0)
          throw new StripeError(
            400,
            'invalid_request_error',
            `Charge ${String(intent.latest_charge)} has already been refunded.`,
            'charge_already_refunded',
          );
        if (amount > left)
          throw new StripeError(
            400,
            'invalid_request_error',
            `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
            'amount_too_large',
            'amount',
          );
        const charge = typeof intent.latest_charge === 'string' ? get('ch', intent.latest_charge) : {};
        const refund: Json = {
          id: id('re'),
          object: 'refund',
          amount,
          charge: charge.id ?? null,
          currency: intent.currency,
          payment_intent: intent.id,
          status: 'succeeded',
          transfer_reversal: null,
          metadata: p.metadata ?? {},
          created: now(),
        };
        // docs.stripe.com/api/refunds/create: `reverse_transfer` reverses the transfer "proportionally to the amount
        // being refunded (either the entire or partial amount)"; `refund_application_fee` refunds the application fee
        // "in an amount proportional to the amount of the charge refunded" ("if a full charge refund is given, the full
        // application fee will be refunded"); a part is rounded to the nearest minor unit.
        // docs.stripe.com/connect/destination-charges, "Issue refunds": without them the platform's balance pays.
        const captured = Number(intent.amount_received);
        // A refund without `amount` is of the whole charge (what is left of it): all the rest goes back.
        const whole = p.amount === undefined;
        if (p.reverse_transfer === 'true' && typeof charge.transfer === 'string') {
          const transfer = get('tr', charge.transfer);
          const reversed = Number(transfer.amount_reversed);
          const part = whole
            ? Number(transfer.amount) - reversed
            : Math.min(
                Number(transfer.amount) - reversed,
                Math.round((Number(transfer.amount) * amount) / captured),
              );
          const reversal: Json = {
            id: id('trr'),
            object: 'transfer_reversal',
            amount: part,
            currency: intent.currency,
            transfer: transfer.id,
            created: now(),
          };
          objects.set(reversal.id as string, reversal);
          transfer.amount_reversed = reversed + part;
          transfer.reversed = transfer.amount_reversed === transfer.amount;
          refund.transfer_reversal = reversal.id;
        }
        if (p.refund_application_fee === 'true' && typeof charge.application_fee === 'string') {
          const fee = get('fee', charge.application_fee);
          const before = Number(fee.amount_refunded);
          const part = whole
            ? Number(fee.amount) - before
            : Math.min(Number(fee.amount) - before, Math.round((Number(fee.amount) * amount) / captured));
          fee.amount_refunded = before + part;
          fee.refunded = fee.amount_refunded === fee.amount;
        }
        objects.set(refund.id as string, refund);
        const total = Number(refunded?.amount ?? 0) + amount;
        objects.set(`refunds:${String(intent.id)}`, { amount: total });
        // `charge.refunded` is about the Charge (docs.stripe.com/api/events/types#event_types-charge.refunded), which
        // names its PaymentIntent; it is sent for partial refunds too, with `refunded` false until the whole is.
        Object.assign(charge, { amount_refunded: total, refunded: total === captured });
        await emit('charge.refunded', { ...charge, payment_intent: intent.id });
        return refund;
      },
    ],
    // docs.stripe.com/api/disputes/list: newest first, filtered by `charge` or `payment_intent`.
    [
      'GET',
      /^\/v1\/disputes$/,
      (_m, query) => ({
        object: 'list',
        url: '/v1/disputes',
        has_more: false,
        data: [...objects.values()]
          .filter(
            (o) =>
              o.object === 'dispute' &&
              (!query.payment_intent || o.payment_intent === query.payment_intent) &&
              (!query.charge || o.charge === query.charge),
          )
          .reverse(),
      }),
    ],
    ['GET', /^\/v1\/disputes\/([^/]+)$/, (m) => get('dp', m[1] ?? '')],
    // docs.stripe.com/api/disputes/update: evidence fields merged; `submit=true` sends them (status `under_review`),
    // and a closed dispute takes none.
    [
      'POST',
      /^\/v1\/disputes\/([^/]+)$/,
      async (m, p) => {
        const dispute = get('dp', m[1] ?? '');
        if (dispute.status === 'won' || dispute.status === 'lost' || dispute.status === 'under_review')
          throw new StripeError(
            400,
            'invalid_request_error',
            'This dispute is already closed or its evidence submitted.',
            'dispute_already_closed',
          );
        dispute.evidence = { ...(dispute.evidence as Json), ...((p.evidence ?? {}) as Json) };
        const details = dispute.evidence_details as Json;
        details.has_evidence = true;
        if (p.submit === 'true') {
          dispute.status = 'under_review';
          details.submission_count = Number(details.submission_count) + 1;
          details.submission_method = 'manual';
        }
        await emit('charge.dispute.updated', dispute);
        // docs.stripe.com/testing#evidence: in test mode, `winning_evidence` or `losing_evidence` as the
        // uncategorized text closes the submitted dispute as won or lost.
        const text = (dispute.evidence as Json).uncategorized_text;
        if (p.submit === 'true' && (text === 'winning_evidence' || text === 'losing_evidence'))
          await decideDispute(dispute, text === 'winning_evidence' ? 'won' : 'lost');
        return dispute;
      },
    ],
    [
      'GET',
      /^\/v1\/refunds$/,
      (_m, query) => ({
        object: 'list',
        url: '/v1/refunds',
        has_more: false,
        data: [...objects.values()].filter(
          (o) =>
            o.object === 'refund' && (!query.payment_intent || o.payment_intent === query.payment_intent),
        ),
      }),
    ],
  ];

  /** A card saved as a PaymentMethod (its number kept aside, as Stripe keeps it from us), of `customer` if named. */
  const savedCard = (number: string, customer: string | null): Json => {
    const method: Json = {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      card: { brand: 'visa', last4: number.slice(-4), exp_month: 12, exp_year: new Date().getFullYear() + 3 },
      customer,
      metadata: {},
      livemode: false,
      created: now(),
    };
    objects.set(method.id as string, method);
    objects.set(`number:${String(method.id)}`, { number });
    return method;
  };

  /**
   * The card number of a PaymentMethod a payment names: `pm_card_visa` (a test PaymentMethod, on no customer), or a
   * saved one, which must be used with its customer (docs.stripe.com/payments/save-and-reuse, "Charge the saved
   * payment method later": `customer` and `payment_method` together).
   */
  const cardOf = (method: string, customer: string | null): string => {
    if (method === 'pm_card_visa') return TEST_CARDS.pays;
    if (method === 'pm_card_createDispute') return TEST_CARDS.disputed;
    const found = objects.get(method);
    if (!found || found.object !== 'payment_method')
      throw new StripeError(
        400,
        'invalid_request_error',
        `No such PaymentMethod: '${method}'`,
        'resource_missing',
        'payment_method',
      );
    if (found.customer !== customer)
      throw new StripeError(
        400,
        'invalid_request_error',
        found.customer
          ? 'The provided PaymentMethod belongs to another Customer, or no customer was given with it.'
          : 'The provided PaymentMethod was not attached to a Customer; attach it before using it again.',
        'payment_method_unexpected_state',
        'payment_method',
      );
    return String((objects.get(`number:${method}`) ?? {}).number ?? TEST_CARDS.pays);
  };

  /**
   * Confirms a payment with a card (docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method
   * later"; docs.stripe.com/testing). Off-session, a card that needs its holder fails with a 402 `card_error`
   * `authentication_required` and the PaymentIntent back in `requires_payment_method`, its `last_payment_error` set;
   * on-session it waits in `requires_action`. A declined card fails with `card_declined` the same way. The error
   * carries the PaymentIntent and the PaymentMethod.
   */
  const confirmWithCard = async (intent: Json, number: string, offSession: boolean): Promise<Json> => {
    const needsHolder =
      number === TEST_CARDS.alwaysAuthenticate || (!offSession && number === TEST_CARDS.authentication);
    if (needsHolder && !offSession) {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk' };
      await emit('payment_intent.requires_action', intent);
      return intent;
    }
    const declined = number === TEST_CARDS.declined || number === TEST_CARDS.attachesThenDeclines;
    if (!needsHolder && !declined) return authorise(intent, number);
    const error: Json = needsHolder
      ? {
          type: 'card_error',
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message:
            'Your card was declined. This transaction requires authentication. Please check your card details and try again.',
        }
      : {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        };
    const method = typeof intent.payment_method === 'string' ? objects.get(intent.payment_method) : undefined;
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { ...error, ...(method ? { payment_method: method } : {}) };
    await emit('payment_intent.payment_failed', intent);
    throw new StripeError(402, 'card_error', String(error.message), String(error.code), undefined, {
      decline_code: error.decline_code,
      payment_intent: structuredClone(intent),
      ...(method ? { payment_method: method } : {}),
    });
  };

  /**
   * A Checkout Session in setup mode (docs.stripe.com/payments/save-and-reuse?platform=checkout): no line items, a
   * `currency` (dynamic payment methods need it), the `customer` the card is saved on. Its SetupIntent is made when
   * the customer confirms, as a payment-mode session's PaymentIntent is (`setup_intent` nullable in the session
   * object): our code reads it from the completed session.
   */
  const setupSession = (p: Json): Json => {
    if (!p.currency)
      throw new StripeError(
        400,
        'invalid_request_error',
        'Missing required param: currency.',
        'parameter_missing',
        'currency',
      );
    if (p.customer !== undefined) get('cus', String(p.customer));
    const expiresAt = Number(p.expires_at ?? now() + 24 * 3600);
    if (expiresAt < now() + 30 * 60 || expiresAt > now() + 24 * 3600)
      throw new StripeError(
        400,
        'invalid_request_error',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'parameter_invalid_integer',
        'expires_at',
      );
    const session: Json = {
      id: id('cs'),
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      payment_status: 'no_payment_required',
      amount_total: null,
      currency: String(p.currency).toLowerCase(),
      customer: p.customer ?? null,
      client_reference_id: p.client_reference_id ?? null,
      metadata: p.metadata ?? {},
      payment_intent: null,
      setup_intent: null,
      success_url: p.success_url,
      cancel_url: p.cancel_url,
      expires_at: expiresAt,
      url: '',
    };
    session.url = `${pagesBase()}/checkout/${String(session.id)}`;
    objects.set(session.id as string, session);
    objects.set(`planned:${String(session.id)}`, {
      metadata: ((p.setup_intent_data ?? {}) as Json).metadata ?? {},
    });
    return session;
  };

  /** The card is saved: a PaymentMethod on the session's customer, the SetupIntent `succeeded`, the session done. */
  const completeSetup = async (setup: Json, number: string): Promise<Json> => {
    const method = savedCard(number, typeof setup.customer === 'string' ? setup.customer : null);
    Object.assign(setup, {
      status: 'succeeded',
      payment_method: method.id,
      next_action: null,
      last_setup_error: null,
    });
    const session = [...objects.values()].find(
      (o) => o.object === 'checkout.session' && o.setup_intent === setup.id,
    );
    if (session) {
      session.status = 'complete';
      await emit('checkout.session.completed', session);
    }
    await emit('setup_intent.succeeded', setup);
    return setup;
  };

  /** The customer saves `number` on a setup-mode session's page. */
  const saveCard = async (session: Json, number: string): Promise<Json> => {
    let setup = typeof session.setup_intent === 'string' ? get('seti', session.setup_intent) : undefined;
    if (!setup) {
      setup = {
        id: id('seti'),
        object: 'setup_intent',
        status: 'requires_payment_method',
        usage: 'off_session',
        customer: session.customer ?? null,
        payment_method: null,
        last_setup_error: null,
        next_action: null,
        metadata: (objects.get(`planned:${String(session.id)}`) ?? {}).metadata ?? {},
        livemode: false,
        created: now(),
      };
      objects.set(setup.id as string, setup);
      session.setup_intent = setup.id;
    }
    if (setup.status !== 'requires_payment_method')
      throw new StripeError(400, 'invalid_request_error', 'This card is already being saved.');
    if (number === TEST_CARDS.declined) {
      setup.last_setup_error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      await emit('setup_intent.setup_failed', setup);
      return setup;
    }
    // docs.stripe.com/testing: these cards ask their holder to authenticate when they are set up.
    if (number === TEST_CARDS.alwaysAuthenticate || number === TEST_CARDS.authentication) {
      setup.status = 'requires_action';
      setup.next_action = { type: 'use_stripe_sdk' };
      objects.set(`number:${String(setup.id)}`, { number });
      await emit('setup_intent.requires_action', setup);
      return setup;
    }
    return completeSetup(setup, number);
  };

  const authenticate = async (paymentIntentId: string): Promise<Json> => {
    if (paymentIntentId.startsWith('seti_')) {
      const setup = get('seti', paymentIntentId);
      if (setup.status !== 'requires_action')
        throw new StripeError(400, 'invalid_request_error', 'This card needs no confirmation.');
      return completeSetup(setup, String((objects.get(`number:${paymentIntentId}`) ?? {}).number));
    }
    const intent = get('pi', paymentIntentId);
    // Only a payment waiting on its confirmation step goes on (docs.stripe.com/payments/paymentintents/lifecycle:
    // `requires_action` until the customer authenticates); one declined, or never tried, is not authorised by it.
    if (intent.status !== 'requires_action')
      throw new StripeError(400, 'invalid_request_error', 'This payment needs no confirmation.');
    return authorise(intent);
  };

  /**
   * The card is authorised: with manual capture the PaymentIntent waits in `requires_capture`, and its Charge says
   * until when it can be captured (`payment_method_details.card.capture_before`: 7 days for online card payments,
   * docs.stripe.com/payments/place-a-hold-on-a-payment-method). With manual capture Checkout completes the session
   * with `payment_status: unpaid` (docs.stripe.com/api/checkout/sessions/object).
   */
  const authorise = async (intent: Json, number?: string): Promise<Json> => {
    const paymentIntentId = String(intent.id);
    const manual = intent.capture_method === 'manual';
    intent.status = manual ? 'requires_capture' : 'succeeded';
    intent.amount_capturable = manual ? intent.amount : 0;
    intent.amount_received = manual ? 0 : intent.amount;
    intent.last_payment_error = null;
    const charge: Json = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: manual ? 0 : intent.amount,
      captured: !manual,
      currency: intent.currency,
      payment_intent: paymentIntentId,
      status: 'succeeded',
      // docs.stripe.com/api/charges/object: these are null, not absent, until there is one.
      application_fee: null,
      application_fee_amount: intent.application_fee_amount ?? null,
      transfer: null,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      payment_method_details: {
        type: 'card',
        card: { brand: 'visa', last4: '4242', ...(manual ? { capture_before: now() + 7 * 24 * 3600 } : {}) },
      },
      created: now(),
    };
    objects.set(charge.id as string, charge);
    intent.latest_charge = charge.id;
    if (!manual) settleDestinationCharge(intent, charge);
    const session = [...objects.values()].find(
      (o) => o.object === 'checkout.session' && o.payment_intent === paymentIntentId,
    );
    if (session) {
      session.status = 'complete';
      session.payment_status = intent.capture_method === 'manual' ? 'unpaid' : 'paid';
      await emit('checkout.session.completed', session);
    }
    await emit(manual ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded', intent);
    // docs.stripe.com/testing#disputes: 4000 0000 0000 0259 pays, then its charge is disputed as fraudulent (once
    // captured: a charge is disputed for money taken).
    if (number === TEST_CARDS.disputed) {
      if (manual) objects.set(`dispute-on-capture:${paymentIntentId}`, {});
      else await openDispute(intent, 'fraudulent');
    }
    return intent;
  };

  /**
   * The cardholder disputes a payment's charge (docs.stripe.com/disputes/how-disputes-work): a Dispute as
   * docs.stripe.com/api/disputes/object has it (every evidence field null until given, `evidence_details.due_by`
   * when evidence is due, `enhanced_eligibility_types`, the card's network and case type), the disputed amount and
   * Stripe's dispute fee (15.00 USD) leaving the balance in one balance transaction; `charge.dispute.created`. A
   * refund of the charge is refused from then on (`charge_disputed`).
   */
  const openDispute = async (intent: Json, reason: string): Promise<Json> => {
    if (typeof intent.latest_charge !== 'string') throw new Error('no charge to dispute');
    const charge = get('ch', intent.latest_charge);
    // A cardholder disputes money taken: a charge captured, not refunded in full, not disputed already.
    if (charge.captured !== true || charge.refunded === true || charge.disputed === true)
      throw new StripeError(
        400,
        'invalid_request_error',
        'This charge cannot be disputed: it is not captured, refunded in full, or disputed already.',
        'charge_not_disputable',
      );
    charge.disputed = true;
    const amount = Number(charge.amount_captured ?? intent.amount_received);
    const dispute: Json = {
      id: id('dp'),
      object: 'dispute',
      amount,
      currency: intent.currency,
      charge: charge.id,
      payment_intent: intent.id,
      reason,
      status: 'needs_response',
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      enhanced_eligibility_types: [],
      intended_submission_method: null,
      payment_method_details: {
        type: 'card',
        card: { brand: 'visa', case_type: 'chargeback', network: 'visa', network_reason_code: '10.4' },
      },
      evidence: {
        ...Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])),
        enhanced_evidence: {},
      },
      evidence_details: {
        due_by: now() + 7 * 24 * 3600,
        enhanced_eligibility: {},
        has_evidence: false,
        past_due: false,
        submission_count: 0,
        submission_method: 'not_submitted',
      },
      balance_transactions: [disputeBalanceTransaction(-amount, DISPUTE_FEE, String(intent.currency))],
      created: now(),
    };
    for (const bt of dispute.balance_transactions as Json[]) bt.source = dispute.id;
    objects.set(dispute.id as string, dispute);
    await emit('charge.dispute.created', dispute);
    return dispute;
  };

  /** The bank decides: `charge.dispute.closed`, won (the amount given back) or lost. */
  const decideDispute = async (dispute: Json, outcome: 'won' | 'lost'): Promise<Json> => {
    if (dispute.status === 'won' || dispute.status === 'lost') throw new Error('the dispute is closed');
    dispute.status = outcome;
    // Won: the amount comes back in a second balance transaction (the fee stays taken: this stand-in's reading of
    // "How disputes work"; the ledger writes whatever balance transactions the dispute lists).
    if (outcome === 'won')
      (dispute.balance_transactions as Json[]).push({
        ...disputeBalanceTransaction(Number(dispute.amount), 0, String(dispute.currency)),
        source: dispute.id,
      });
    await emit('charge.dispute.closed', dispute);
    return dispute;
  };

  /** The session's PaymentIntent, made at the customer's first confirmation (see the session's creation). */
  const intentOf = (session: Json): Json => {
    if (typeof session.payment_intent === 'string') return get('pi', session.payment_intent);
    const planned = objects.get(`planned:${String(session.id)}`) ?? {};
    const intent: Json = {
      ...planned,
      id: id('pi'),
      object: 'payment_intent',
      amount_capturable: 0,
      amount_received: 0,
      status: 'requires_payment_method',
      last_payment_error: null,
      latest_charge: null,
      cancellation_reason: null,
      created: now(),
    };
    objects.set(intent.id as string, intent);
    session.payment_intent = intent.id;
    return intent;
  };

  const answer = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://local');
    const method = req.method ?? 'GET';
    if (req.headers.authorization !== `Bearer ${options.apiKey}`)
      return answer(
        res,
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }),
      );
    const route = handlers.find(([m, pattern]) => m === method && pattern.test(url.pathname));
    if (!route)
      return answer(
        res,
        404,
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            message: `Unrecognized request URL (${method}: ${url.pathname}).`,
          },
        }),
      );
    const failure = failures.findIndex((pattern) => pattern.test(url.pathname));
    if (failure >= 0) {
      failures.splice(failure, 1);
      return answer(
        res,
        500,
        JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred.' } }),
      );
    }
    const key = req.headers['idempotency-key'];
    const cacheKey =
      typeof key === 'string' && method === 'POST' ? `${method} ${url.pathname} ${key}` : undefined;
    const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
    if (cached) {
      if (cached.params !== rawBody)
        return answer(
          res,
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          }),
        );
      res.setHeader('idempotent-replayed', 'true');
      return answer(res, cached.status, cached.body);
    }
    const label = `${method} ${url.pathname.replace(/\/(acct|cs|pi|re|ch|tr|fee|dp|cus|seti|pm)_[0-9a-f]+/g, '/$1_…')}`;
    calls.set(label, (calls.get(label) ?? 0) + 1);
    let status = 200;
    let body: string;
    try {
      const [, pattern, handler] = route;
      const match = pattern.exec(url.pathname) as RegExpExecArray;
      const params = parseStripeForm(method === 'POST' ? rawBody : url.search.slice(1));
      body = JSON.stringify(expandAll(await handler(match, params), params));
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
      status = error.status;
      body = JSON.stringify({
        error: {
          type: error.type,
          message: error.message,
          code: error.code,
          param: error.param,
          ...error.extra,
        },
      });
    }
    // Stripe keeps the answer of an idempotent request, errors included, for 24 hours.
    if (cacheKey && status !== 500) idempotent.set(cacheKey, { params: rawBody, status, body });
    if (method === 'POST') save();
    const lost = lostAnswers.findIndex((pattern) => pattern.test(url.pathname));
    if (lost >= 0) {
      lostAnswers.splice(lost, 1);
      req.socket.destroy();
      return;
    }
    answer(res, status, body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      answer(res, 500, JSON.stringify({ error: { type: 'api_error', message: String(error) } })),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    host: '127.0.0.1',
    port,
    objects,
    events,
    calls,
    async pay(sessionId, card) {
      const session = get('cs', sessionId);
      if (session.status !== 'open')
        throw new StripeError(400, 'invalid_request_error', 'This checkout session is no longer open.');
      if (session.mode === 'setup') {
        const setup = await saveCard(session, card.replace(/\s/g, ''));
        save();
        return setup;
      }
      const intent = intentOf(session);
      save();
      if (intent.status !== 'requires_payment_method')
        throw new StripeError(400, 'invalid_request_error', 'This payment is already under way.');
      const number = card.replace(/\s/g, '');
      if (number === TEST_CARDS.declined) {
        intent.last_payment_error = {
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined',
        };
        await emit('payment_intent.payment_failed', intent);
        return intent;
      }
      if (number === TEST_CARDS.authentication) {
        intent.status = 'requires_action';
        await emit('payment_intent.requires_action', intent);
        return intent;
      }
      return authorise(intent, number);
    },
    authenticate,
    async dispute(paymentIntentId) {
      const dispute = await openDispute(get('pi', paymentIntentId), 'fraudulent');
      save();
      return dispute;
    },
    async closeDispute(disputeId, outcome) {
      const dispute = await decideDispute(get('dp', disputeId), outcome);
      save();
      return dispute;
    },
    async completeOnboarding(accountId) {
      const account = get('acct', accountId);
      Object.assign(account, {
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        requirements: { currently_due: [], disabled_reason: null },
      });
      await emit('account.updated', account, accountId);
    },
    settled: async () => {
      for (;;) {
        const current = delivering;
        await current;
        if (current === delivering) return;
      }
    },
    holdEvents(hold) {
      if (hold) held ??= [];
      else {
        const release = held ?? [];
        held = undefined;
        release.forEach(enqueue);
      }
    },
    failNext: (pattern) => void failures.push(pattern),
    loseAnswerOfNext: (pattern) => void lostAnswers.push(pattern),
    resend: deliver,
    sign: (payload, timestamp) => {
      if (!options.webhook) throw new Error('this server sends no webhook events');
      return stripeSignature(payload, options.webhook.secret, timestamp);
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await saving;
    },
  };
}

interface SavedState {
  objects: [string, Json][];
  idempotent: [string, { params: string; status: number; body: string }][];
}

async function readState(file: string): Promise<SavedState | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as SavedState;
  } catch {
    return undefined;
  }
}

/** Written whole to a new file, then renamed over the old: a crash leaves one or the other, never half. */
async function writeState(file: string, state: string): Promise<void> {
  await writeFile(`${file}.tmp`, state);
  await rename(`${file}.tmp`, file);
}
