import { randomBytes, randomUUID } from 'node:crypto';
import type { BrowserContext } from '@playwright/test';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { answersWith } from '../../src/shared/allergen-declaration.js';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import type { CustomerPlan } from '../../src/shared/plans.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { loadJurisdictions } from '../../src/server/data/jurisdictions.js';
import { systemClock } from '../../src/server/lib/clock.js';
import { loadConfig } from '../../src/server/lib/config.js';
import { ChangeBus } from '../../src/server/live/bus.js';
import { registerDevPayPages } from '../../src/server/money/dev-pay-pages.js';
import { placeDuePlans } from '../../src/server/orders/plan-placement.js';
import { startLocalStripe, type LocalStripe } from '../../src/server/payments/local-stripe.js';
import type { Payments } from '../../src/server/payments/payments.js';
import { stripeProvider } from '../../src/server/payments/stripe-provider.js';
import { reactions } from '../../src/server/reactions.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';
import { freePort, privateServer, type PrivateServer } from './private-server.js';

/**
 * A weekly plan paid by a saved card, on a server of this file's own in production's configuration
 * (`PAYMENTS=stripe`) whose Stripe SDK talks to our server speaking Stripe's API, started here: this process then
 * holds the same provider as the app, so the test runs the weekly placement itself at a week's cut-off (the app's
 * clock is the real one) and the week is charged off-session as the app's own job would charge it. The provider's
 * hosted pages (the development payment pages, /dev-pay) are served here for that provider.
 */
let server: PrivateServer;
let local: LocalStripe;
let pages: FastifyInstance;
let database: Database | undefined;
const apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
const webhookSecret = `whsec_${randomBytes(12).toString('hex')}`;
const connectWebhookSecret = `whsec_${randomBytes(12).toString('hex')}`;
let stripeEnv: Record<string, string>;

test.beforeAll(async () => {
  // A server of its own, migrated and started on a busy machine: more than the default minute at times.
  test.setTimeout(180_000);
  const port = await freePort();
  const pagesPort = await freePort();
  local = await startLocalStripe({
    apiKey,
    webhook: {
      url: `http://localhost:${port}/api/payments/webhook`,
      secret: webhookSecret,
      connectSecret: connectWebhookSecret,
    },
    pagesBase: `http://localhost:${pagesPort}/dev-pay`,
  });
  stripeEnv = {
    PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: apiKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_CONNECT_WEBHOOK_SECRET: connectWebhookSecret,
    STRIPE_API_BASE: local.url,
  };
  server = await privateServer({ port, env: stripeEnv, name: 'plancard' });
  pages = Fastify();
  pages.decorate('config', { publicUrl: server.url } as FastifyInstance['config']);
  await registerDevPayPages(pages, local);
  // The pages name the app's icon, as the app serves it.
  pages.get('/favicon.svg', async (_request, reply) =>
    reply.type('image/svg+xml').send('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'),
  );
  await pages.listen({ port: pagesPort, host: '127.0.0.1' });
  await server.start();
});
test.afterAll(async () => {
  await database?.close();
  await server?.dispose();
  await pages?.close();
  await local?.close();
});

const at = (path: string) => `${server.url}${path}`;

/** The weekly placement (src/server/orders/plan-placement.ts) as the app's job runs it, its clock at `when`. */
async function placePlansAt(when: Date) {
  database ??= await openPostgres(server.databaseUrl, { poolSize: 2 });
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: server.url, ...stripeEnv });
  const payments: Payments = {
    config: config.payments,
    provider: stripeProvider({ secretKey: apiKey, webhookSecret, connectWebhookSecret, apiBase: local.url }),
    local: undefined,
    close: async () => {},
  };
  return placeDuePlans({
    db: database.db,
    bus: new ChangeBus(database),
    reactions,
    clock: { ...systemClock, now: () => when.getTime() },
    payments,
    config,
    log: pino({ enabled: false }),
    jurisdictions: loadJurisdictions('none'),
  });
}

async function signIn(context: BrowserContext, role: 'customer' | 'kitchen') {
  await context.addCookies([await server.sessionCookie(role, `${role}-${randomUUID()}@e2e.test`)]);
}

test('a customer pays a weekly plan by a saved card, skips a week, and the next is charged and reaches the cook at its cut-off', async ({
  browser,
}) => {
  // A cook and a customer, two payment pages, the placement twice and axe: minutes on a busy machine.
  test.setTimeout(240_000);
  const cookContext = await browser.newContext();
  await signIn(cookContext, 'kitchen');
  const name = `Card Plans ${randomUUID().slice(0, 6)}`;
  const made = await cookContext.request.post(at('/api/kitchen'), {
    data: {
      name,
      category: 'Home',
      address: '5 Plan Road',
      imageLink: 'https://images.invalid/k.png',
      hours: ALL_DAY_HOURS,
    },
  });
  expect(made.status()).toBe(201);
  const dish = await cookContext.request.post(at('/api/kitchen/menu'), {
    data: {
      item: 'Biryani',
      price: '12.00',
      wait: '1 hour',
      imageLink: 'https://images.invalid/b.png',
      allergenAnswers: answersWith(),
    },
  });
  expect(dish.status()).toBe(201);
  const ordering = await cookContext.request.put(at('/api/kitchen/ordering'), {
    data: {
      offersDelivery: true,
      offersPickup: true,
      pickupAddress: 'Flat 4B, 12 Elm Street',
      pickupInstructions: 'Ring twice',
      takesAsap: true,
      slotMinutes: 60,
      priorNoticeMinutes: 60,
      daysAhead: 3,
      sameDayCutoff: null,
      ordersPerSlot: 10,
      minimumOrderCents: 0,
    },
  });
  expect(ordering.status()).toBe(200);

  // The cook takes cards (payouts on the provider's page) and offers weekly plans, cut-off 48 hours before a slot.
  const cook = await cookContext.newPage();
  await cook.goto(at('/MenuDashboard'));
  const getPaid = cook.getByRole('region', { name: 'Get paid' });
  await getPaid.getByRole('button', { name: 'Set up payouts' }).click();
  await cook.getByRole('button', { name: 'Activate payouts' }).click();
  await expect(getPaid.getByTestId('payout-state')).toHaveText('Payouts on');
  const plans = cook.getByRole('region', { name: 'Plans' });
  await plans.getByRole('checkbox', { name: 'Offer weekly plans' }).check();
  await plans.getByRole('textbox', { name: 'Cut-off (hours before the slot)' }).fill('48');
  await plans.getByRole('button', { name: 'Save plan settings' }).click();
  await expect(cook.getByText('Saved')).toBeVisible();

  // The customer's card pre-order for tomorrow's first slot, paid on the provider's page; then 'Every week'.
  const customerContext = await browser.newContext();
  await signIn(customerContext, 'customer');
  const customer = await customerContext.newPage();
  const { uid } = (await (await cookContext.request.get(at('/api/kitchen'))).json()) as { uid: string };
  await customer.goto(at(`/KitchenMenu/${uid}`));
  await customer.getByRole('button', { name: 'Add Biryani to cart' }).click();
  await customer.getByRole('link', { name: 'Cart (1)' }).click();
  await customer.getByRole('button', { name: 'One more Biryani' }).click();
  await customer.getByRole('radio', { name: 'Pickup' }).check();
  await customer.getByRole('radio', { name: 'Schedule for later' }).check();
  await customer.getByRole('combobox', { name: 'Day' }).selectOption({ label: 'Tomorrow' });
  const time = customer.getByRole('combobox', { name: 'Time' });
  await time.selectOption({ label: (await time.getByRole('option').first().textContent())?.trim() ?? '' });
  await customer.getByRole('button', { name: 'Submit order' }).click();
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry').fill('12/34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(customer.getByText('Your Order is sent')).toBeVisible();
  const everyWeek = customer.getByRole('region', { name: 'Every week' });
  await everyWeek.getByRole('button', { name: 'Every week' }).click();

  // The card is saved once, with the customer's consent, on the provider's page in setup mode (nothing charged).
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  await expect(customer.getByRole('heading', { name: 'Save your card for later payments' })).toBeVisible();
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry').fill('12/34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByRole('button', { name: 'Save card' }).click();

  // Back on 'Your plans': the card is learnt, the plan active; the customer skips its first week.
  await customer.waitForURL(/\/CustomerOrders\?card=/);
  const yourPlans = customer.getByRole('region', { name: 'Your plans' });
  await expect(yourPlans.getByText('Active')).toBeVisible();
  await expect(yourPlans.getByText('Save your card')).toHaveCount(0);
  await expect(yourPlans.getByText(/^Change by \w{3} \d{1,2}:\d{2} [AP]M$/)).toBeVisible();
  // The dishes of that week only: three Biryani (the plan's stay two).
  await yourPlans.getByRole('button', { name: 'Change dishes' }).click();
  await yourPlans.getByRole('textbox', { name: 'Biryani · $12.00' }).fill('3');
  await expect(yourPlans.getByRole('radio', { name: /^Only for / })).toBeChecked();
  expect(await axeFindings(customer)).toEqual([]);
  await yourPlans.getByRole('button', { name: 'Save dishes' }).click();
  await expect(yourPlans.getByText('This week: Biryani × 3')).toBeVisible();
  await expect(yourPlans.getByText('Biryani × 2', { exact: true })).toBeVisible();
  await yourPlans.getByRole('button', { name: 'Skip this week' }).click();
  await expect(yourPlans.getByText('Skipped')).toBeVisible();
  expect(await axeFindings(customer)).toEqual([]);

  // 'Change card': a fresh page on the provider; the card saved there is the plan's from then on.
  await yourPlans.getByRole('button', { name: 'Change card' }).click();
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  await customer.getByLabel('Card number').fill('5555555555554444');
  await customer.getByLabel('Expiry').fill('11/33');
  await customer.getByLabel('CVC').fill('321');
  await customer.getByRole('button', { name: 'Save card' }).click();
  await customer.waitForURL(/\/CustomerOrders\?card=/);
  await expect(yourPlans.getByRole('button', { name: 'Change card' })).toBeVisible();
  await expect(yourPlans.getByText(/Your new card is not saved yet/)).toHaveCount(0);

  // The placement at each week's cut-off: the skipped week is neither placed nor charged, the next is charged to the
  // saved card off-session (authorised, captured when the cook accepts) and reaches the kitchen.
  const [plan] = (await (await customerContext.request.get(at('/api/plans'))).json()) as CustomerPlan[];
  expect(plan).toMatchObject({ payment: 'card', status: 'active' });
  const [skipped, next] = plan!.weeks;
  expect(skipped!.state).toBe('skipped');
  const intentsBefore = [...local.objects.values()].filter((o) => o.object === 'payment_intent').length;
  expect(await placePlansAt(new Date(Date.parse(skipped!.cutoff) + 60_000))).toEqual([]);
  const placed = await placePlansAt(new Date(Date.parse(next!.cutoff) + 60_000));
  expect(placed).toMatchObject([{ planId: plan!.id, week: next!.week, outcome: 'placed' }]);
  const intents = [...local.objects.values()].filter((o) => o.object === 'payment_intent');
  expect(intents).toHaveLength(intentsBefore + 1);
  // The same dishes as the first order, so the same amount (its dishes, fees and tax), in cents.
  expect(intents.at(-1)).toMatchObject({
    status: 'requires_capture',
    capture_method: 'manual',
    amount: intents[0]!.amount,
    metadata: { orderId: placed[0]!.orderId },
  });
  // Charged to the card saved last ('Change card'), not the first.
  const method = String(intents.at(-1)!.payment_method);
  expect(local.objects.get(`number:${method}`)).toEqual({ number: '5555555555554444' });

  // The cook sees the planned order among those to answer (beside the first pre-order), and the planned meals of
  // that week.
  await cook.goto(at('/KitchenOrders'));
  await expect(cook.getByRole('button', { name: 'Accept' })).toHaveCount(2);
  await expect(cook.getByText('Biryani × 2').first()).toBeVisible();
  await cook.goto(at('/MenuDashboard'));
  const planned = cook.getByRole('table', { name: 'Planned meals, next four weeks' });
  await expect(planned.getByRole('row').filter({ hasText: '1 (1 placed)' })).toContainText('Biryani × 2');
  expect(await axeFindings(cook)).toEqual([]);

  // The customer's plan has that week placed.
  const [after] = (await (await customerContext.request.get(at('/api/plans'))).json()) as CustomerPlan[];
  expect(after!.weeks[1]).toMatchObject({ week: next!.week, state: 'placed' });
  await cookContext.close();
  await customerContext.close();
});
