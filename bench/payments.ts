// The payment steps' cost (issue 29), in `npm run bench` (or alone: BENCH_ONLY=payments): the app with
// PAYMENTS=stripe, its `stripe` SDK talking over HTTP to our server speaking Stripe's API (src/server/payments/
// local-stripe.ts), which sends its signed events back over HTTP. Against the same app's cash orders (the bare order
// route and move, no provider) in the same run: the submit, the authorisation, the accept; the provider calls per
// order; and a menu read, with and without payments.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../src/server/db/database.js';
import { kitchens } from '../src/server/db/schema.js';
import { startLocalStripe, TEST_CARDS, type LocalStripe } from '../src/server/payments/local-stripe.js';
import { stripeProvider } from '../src/server/payments/stripe-provider.js';
import { load, percentile, type BenchRow, type Proc } from './lib.js';
import { orderRequest, type BenchData } from './seed.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = quick ? 10 : 40;

/** Makes the bench kitchen's connected account at the provider, onboarded, and lets it take cash too. */
export async function connectBenchKitchen(
  database: Database,
  data: BenchData,
  local: LocalStripe,
  apiKey: string,
) {
  const provider = stripeProvider({
    secretKey: apiKey,
    webhookSecret: 'unused',
    connectWebhookSecret: undefined,
    apiBase: local.url,
  });
  const account = await provider.createPayoutAccount({ uid: data.kitchenUid, email: 'owner-0@bench.test' });
  await local.completeOnboarding(account);
  await database.db
    .update(kitchens)
    .set({ payoutAccountId: account, payoutState: 'payouts-on', acceptsCash: true })
    .where(eq(kitchens.ownerId, data.kitchenUid));
}

/** The provider and its secrets, its webhook aimed at the app that will start on `appUrl()`. */
export async function startProvider() {
  const apiKey = `sk_test_bench_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_bench_${randomBytes(8).toString('hex')}`;
  const webhook: { url?: string; secret: string; connectSecret: string } = {
    secret: webhookSecret,
    connectSecret: `${webhookSecret}_connect`,
  };
  const local = await startLocalStripe({ apiKey, webhook });
  return {
    local,
    apiKey,
    env: {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: apiKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: webhook.connectSecret,
      STRIPE_API_BASE: local.url,
    },
    aimAt: (app: Proc) => void (webhook.url = `${app.url}/api/payments/webhook`),
  };
}

const post = async (url: string, cookie: string, body: unknown) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Polls the customer's order until `done` says so; the time it took, in ms. */
async function until(app: Proc, cookie: string, done: (order: Record<string, unknown>) => boolean) {
  const start = performance.now();
  for (;;) {
    const res = await fetch(`${app.url}/api/orders/mine`, { headers: { cookie } });
    const order = (await res.json()) as Record<string, unknown> | null;
    if (order && done(order)) return performance.now() - start;
    if (performance.now() - start > 10_000) throw new Error('the order never got there');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * `ROUNDS` customers one after the other, each placing a cash order (accepted at once) and a card order (paid on
 * the provider's page, accepted); every latency is measured on the same app, in the same run. Customers from
 * `firstCustomer` on, each with no open order.
 */
export async function paymentsBench(
  app: Proc,
  provider: Awaited<ReturnType<typeof startProvider>>,
  data: BenchData,
  engine: string,
  firstCustomer: number,
  record: (row: BenchRow) => void,
) {
  const samples = { cashSubmit: [] as number[], cardSubmit: [] as number[], authorised: [] as number[] };
  const accept = { cash: [] as number[], card: [] as number[] };
  const callsBefore = [...provider.local.calls.values()].reduce((a, b) => a + b, 0);
  const ownerCookie = `kitchen_session=${data.ownerToken}`;
  const move = async (id: string) => {
    const start = performance.now();
    const res = await post(`${app.url}/api/kitchen/orders/${id}/moves`, ownerCookie, {
      move: 'accept',
      readyInMinutes: 30,
    });
    if (res.status !== 200) throw new Error(`accept answered ${res.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < ROUNDS * 2; i++) {
    const n = firstCustomer + i;
    const request = orderRequest(data, n, `pay-${engine}`);
    const cookie = request.headers.cookie;
    const card = i % 2 === 1;
    const body = { ...(JSON.parse(request.body) as object), payment: card ? 'card' : 'cash' };
    const start = performance.now();
    const placed = await post(`${app.url}/api/orders`, cookie, body);
    const submitted = performance.now() - start;
    if (placed.status !== 201)
      throw new Error(`order answered ${placed.status}: ${JSON.stringify(placed.body)}`);
    const id = String(placed.body.id);
    if (!card) {
      samples.cashSubmit.push(submitted);
      accept.cash.push(await move(id));
      continue;
    }
    samples.cardSubmit.push(submitted);
    const url = String((placed.body.payment as { checkoutUrl: string }).checkoutUrl);
    const session = /\/checkout\/(cs_[0-9a-f]+)/.exec(url)?.[1] ?? '';
    // The customer pays; from the provider's authorisation to the order reaching its kitchen (the signed event).
    const paid = performance.now();
    await provider.local.pay(session, TEST_CARDS.pays);
    await until(app, cookie, (order) => order.state === 'recieved');
    samples.authorised.push(performance.now() - paid);
    accept.card.push(await move(id));
    await until(app, cookie, (order) => (order.payment as { state: string }).state === 'captured');
  }
  const calls = [...provider.local.calls.values()].reduce((a, b) => a + b, 0) - callsBefore;
  const p50 = (values: number[]) => percentile(values, 50);
  const ms = (measure: string, values: number[], baseline?: number[]) =>
    record({
      measure,
      engine,
      value: p50(values),
      unit: 'ms',
      ...(baseline ? { baseline: p50(baseline) } : {}),
    });
  ms('payments: submit, card (opens the payment page) p50', samples.cardSubmit, samples.cashSubmit);
  ms('payments: submit, cash (no provider) p50', samples.cashSubmit);
  ms('payments: paid to authorised (signed event) p50', samples.authorised);
  ms('payments: accept, card (captures) p50', accept.card, accept.cash);
  ms('payments: accept, cash (no provider) p50', accept.cash);
  record({
    measure: 'payments: provider calls per card order (submit to captured)',
    engine,
    value: calls / ROUNDS,
    unit: '',
    target: '<= 2',
    ok: calls / ROUNDS <= 2,
  });
}

/** One menu read's rate on `app` (req/s), after a warm-up. */
export async function menuReadRate(app: Proc, data: BenchData): Promise<number> {
  const url = `${app.url}/api/kitchens/${data.kitchenUid}/menu`;
  await load({ url, connections: 20, duration: 1 });
  return (await load({ url, connections: 100, pipelining: 10, duration: quick ? 3 : 6 })).requestsPerSec;
}

/** Menu reads with card payments on against off, the apps having taken turns: the mean of each side's runs. */
export function recordMenuWithPayments(
  rates: { off: number[]; on: number[] },
  engine: string,
  record: (row: BenchRow) => void,
) {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);
  const off = mean(rates.off);
  const on = mean(rates.on);
  record({ measure: 'payments: menu reads, PAYMENTS=off, req/s', engine, value: off, unit: 'req/s' });
  record({
    measure: 'payments: menu reads, PAYMENTS=stripe, req/s',
    engine,
    value: on,
    unit: 'req/s',
    baseline: off,
    target: '>= 80% of PAYMENTS=off',
    ok: on >= off * 0.8,
  });
}
