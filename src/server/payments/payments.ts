import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config, PaymentsConfig } from '../lib/config.js';
import { startLocalStripe, type LocalStripe } from './local-stripe.js';
import type { PaymentProvider } from './provider.js';
import { stripeProvider } from './stripe-provider.js';

/** The marketplace's card payments: the provider (none when `PAYMENTS=off`) and, for `local`, its server. */
export interface Payments {
  config: PaymentsConfig;
  provider: PaymentProvider | undefined;
  /** `PAYMENTS=local`: our own server speaking Stripe's API, whose pages /dev-pay serves. */
  local: LocalStripe | undefined;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

/** Where webhook events go: the app's own route (`local` sends them in-process, signed as Stripe signs them). */
export type SendWebhook = (payload: string, signature: string) => Promise<number>;

/**
 * Opens the configured provider. `local` starts our server speaking Stripe's API on a loopback port of its own
 * (kept in the data folder with the embedded database, in memory with PostgreSQL), and the same Stripe SDK code
 * talks to it as talks to Stripe.
 */
export async function openPayments(config: Config, sendWebhook: SendWebhook): Promise<Payments> {
  const payments = config.payments;
  if (payments.kind === 'off')
    return { config: payments, provider: undefined, local: undefined, close: async () => {} };
  if (payments.kind === 'stripe')
    return {
      config: payments,
      provider: stripeProvider({
        secretKey: payments.secretKey,
        webhookSecret: payments.webhookSecret,
        connectWebhookSecret: payments.connectWebhookSecret,
        ...(payments.apiBase ? { apiBase: payments.apiBase } : {}),
      }),
      local: undefined,
      close: async () => {},
    };
  const apiKey = `sk_test_local_${randomBytes(16).toString('hex')}`;
  const webhookSecret = `whsec_local_${randomBytes(16).toString('hex')}`;
  const connectWebhookSecret = `whsec_local_connect_${randomBytes(16).toString('hex')}`;
  const local = await startLocalStripe({
    apiKey,
    webhook: { send: sendWebhook, secret: webhookSecret, connectSecret: connectWebhookSecret },
    pagesBase: `${config.publicUrl}/dev-pay`,
    ...(config.databaseUrl === undefined && config.nodeEnv !== 'test'
      ? { stateFile: join(config.dataDir, 'dev-payments.json') }
      : {}),
  });
  return {
    config: payments,
    provider: stripeProvider({ secretKey: apiKey, webhookSecret, connectWebhookSecret, apiBase: local.url }),
    local,
    close: () => local.close(),
  };
}
