import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { startLocalStripe, type LocalStripe } from '../payments/local-stripe.js';
import { closeTestContext, createTestContext, type TestAppOptions, type TestContext } from './test-app.js';
import { ENGINES, type Engine } from './test-database.js';

/** A test app in production's configuration (`PAYMENTS=stripe`), and the server speaking Stripe's API it uses. */
export interface StripeTestContext extends TestContext {
  local: LocalStripe;
  webhookSecret: string;
  /** The Connect endpoint's signing secret (connected accounts' events). */
  connectWebhookSecret: string;
  /** Where the app listens: `http://127.0.0.1:<port>`. */
  address: string;
}

/**
 * Starts a server speaking Stripe's API on a port of its own, then an app with `PAYMENTS=stripe` whose Stripe SDK
 * talks to it over HTTP, listening on a loopback port to which the server posts its signed events: the path a
 * payment takes in production, end to end.
 */
export async function createStripeTestContext(
  engine: Engine,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<StripeTestContext> {
  const apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(12).toString('hex')}`;
  // The app's address is known once it listens, which is after it is built against this server: it is set then.
  const connectWebhookSecret = `whsec_${randomBytes(12).toString('hex')}`;
  const webhook = { url: '', secret: webhookSecret, connectSecret: connectWebhookSecret };
  const local = await startLocalStripe({ apiKey, webhook });
  const ctx = await createTestContext(
    engine,
    {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: apiKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: connectWebhookSecret,
      STRIPE_API_BASE: local.url,
      ...env,
    },
    options,
  );
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  webhook.url = `${address}/api/payments/webhook`;
  return { ...ctx, local, webhookSecret, connectWebhookSecret, address };
}

/** `describeEachEngine` for apps built by `createStripeTestContext`. */
export function describeEachEngineWithStripe(
  name: string,
  suite: (get: () => StripeTestContext) => void,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): void {
  describe.each(ENGINES)(`${name} [%s]`, (engine) => {
    let ctx: StripeTestContext | undefined;
    beforeAll(async () => {
      ctx = await createStripeTestContext(engine, env, options);
    });
    afterAll(async () => {
      await ctx?.local.settled();
      await closeTestContext(ctx);
      await ctx?.local.close();
    });
    suite(() => {
      if (!ctx) throw new Error('test context not ready');
      return ctx;
    });
  });
}
