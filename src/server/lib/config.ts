import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { LIVE_HEARTBEAT_MS } from '../../shared/live.js';
import { isLoopbackHost } from './loopback.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const portNumber = z.coerce
  .number({ error: 'must be a port number (0-65535)' })
  .int('must be a port number (0-65535)')
  .min(0)
  .max(65535);

/** The one value of DEV_SIGN_IN that serves the development sign-in beyond loopback: it says what it does. */
const UNSAFE_DEV_SIGN_IN = 'unsafe-anyone-can-sign-in';

const EnvSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyAsUndefined,
    z.enum(['development', 'production', 'test']).default('development'),
  ),
  PORT: z.preprocess(emptyAsUndefined, portNumber.default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('127.0.0.1')),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** A streaming replica of DATABASE_URL's server: public reads go there (docs/decisions/0009). */
  DATABASE_READ_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** How far behind the primary the replica may be (ms) before public reads go to the primary instead. */
  DATABASE_READ_MAX_LAG_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number of milliseconds').min(0).max(600_000).default(5000),
  ),
  /** The change bus between instances: NATS JetStream (nats://host:port); unset, PostgreSQL's LISTEN/NOTIFY. */
  BUS_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^nats$/, hostname: /./, error: 'must be a nats://host:port address' }).optional(),
  ),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).default('./data')),
  GOOGLE_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().optional()),
  OIDC_ISSUER: z.preprocess(emptyAsUndefined, z.url().default('https://accounts.google.com')),
  SESSION_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  DEV_SIGN_IN: z.preprocess(
    emptyAsUndefined,
    z.literal(UNSAFE_DEV_SIGN_IN, { error: `must be unset or ${UNSAFE_DEV_SIGN_IN}` }).optional(),
  ),
  GEOCODER: z.preprocess(emptyAsUndefined, z.enum(['photon', 'nominatim', 'off']).default('photon')),
  GEOCODER_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  SEED_DEMO: z.preprocess(emptyAsUndefined, bool.optional()),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'object' && !Array.isArray(parsed)) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
  SIGN_IN_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100000).default(30)),
  // Browsers assume the default until a stream's first heartbeat, so a server may beat faster, never slower.
  LIVE_HEARTBEAT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(LIVE_HEARTBEAT_MS).default(LIVE_HEARTBEAT_MS),
  ),
  // Open live streams one session, and one client address, may hold on an instance (file handles are finite).
  LIVE_STREAMS_PER_SESSION: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(100000).default(30),
  ),
  LIVE_STREAMS_PER_ADDRESS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(1000000).default(300),
  ),
  OPERATOR_EMAILS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const emails = (value ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e.length > 0);
      const bad = emails.filter((e) => !z.email().safeParse(e).success);
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `must be comma-separated email addresses (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
        });
        return z.NEVER;
      }
      return new Set(emails.map((e) => e.toLowerCase()));
    }),
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(24, 'must be at least 24 characters').optional(),
  ),
  METRICS_PORT: z.preprocess(emptyAsUndefined, portNumber.optional()),
  PAYMENTS: z.preprocess(emptyAsUndefined, z.enum(['stripe', 'local', 'off']).optional()),
  STRIPE_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  /** The Connect webhook endpoint's signing secret (connected accounts' events): not the platform endpoint's. */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  /** Another server speaking Stripe's API (tests, a mock): Stripe itself when unset. */
  STRIPE_API_BASE: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /** The jurisdiction profile (jurisdictions/<id>.yaml, one of no country) for places no country file covers. */
  JURISDICTION_FALLBACK: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]+$/, 'must name a profile in jurisdictions/ (such as none)')
      .default('none'),
  ),
  /** Where the profiles' files are (default: the shipped jurisdictions/): a deployment may keep its own. */
  JURISDICTIONS_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** A text file of the public page of the platform's insurance and how to complain (a default text otherwise). */
  PLATFORM_DUTIES_FILE: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  CURRENCY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 currency code')
      .transform((c) => c.toUpperCase())
      .default('USD'),
  ),
  PLATFORM_COMMISSION_PERCENT: z.preprocess(
    emptyAsUndefined,
    z.coerce.number({ error: 'must be a number' }).min(0).max(50).default(0),
  ),
  ACCEPT_WITHIN_MINUTES: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .int('must be a whole number of minutes')
      .min(1)
      .max(24 * 60)
      .default(30),
  ),
  // 0: no poll (tests run it themselves).
  PAYMENT_POLL_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number of seconds').min(0).max(3600).default(20),
  ),
  /** `off`: nothing is queued nor sent (a deployment that tells nobody, and the bench's baseline). */
  NOTIFICATIONS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('on')),
  /** Where notification emails go: smtp://user:pass@host:port or smtps://… (unset: the development mailbox). */
  SMTP_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().min(3).max(200).optional()),
  /** Web Push's VAPID keys (base64url); in development, generated and kept in DATA_DIR when unset. */
  VAPID_PUBLIC_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{80,100}$/)
      .optional(),
  ),
  VAPID_PRIVATE_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{40,50}$/)
      .optional(),
  ),
  /** Who runs this server, for push services (mailto: or https:). */
  VAPID_SUBJECT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(mailto:|https:)/)
      .optional(),
  ),
  /**
   * `allow`: push to endpoints on addresses of the server's own network (loopback, private, link-local), as tests'
   * local push service is; refused in production, where such an endpoint is never posted to.
   */
  PUSH_PRIVATE_ADDRESSES: z.preprocess(emptyAsUndefined, z.enum(['refuse', 'allow']).default('refuse')),
  /** How long a worker holds a notice it claimed: one that dies mid-send leaves it to another after this. */
  NOTIFY_LEASE_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number of seconds').min(5).max(3600).default(60),
  ),
  // 0: no worker (tests run it themselves).
  NOTIFY_POLL_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number of seconds').min(0).max(3600).default(10),
  ),
  // How often each instance looks for weekly plans' weeks whose cut-off came (ADR 26); 0: never (tests run it).
  PLAN_POLL_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number of seconds').min(0).max(3600).default(60),
  ),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  /** Browsers reach us over https: HSTS, and Secure cookies with the `__Host-` prefix. */
  https: boolean;
  /** The session cookie of each role (kitchen and customer are separate sessions). */
  sessionCookies: { kitchen: string; customer: string; operator: string };
  /** Who may sign in at /Operator (lower case); checked on every operator request, not only at sign-in. */
  operatorEmails: ReadonlySet<string>;
  databaseUrl: string | undefined;
  /** Public reads off a streaming replica of `databaseUrl` (docs/decisions/0009-public-reads-off-a-replica.md). */
  readReplica: { url: string; maxLagMs: number } | undefined;
  /** nats://…: changes travel between instances over NATS JetStream (from an outbox); unset: LISTEN/NOTIFY. */
  busUrl: string | undefined;
  dataDir: string;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  /** Serve the development sign-in provider at /dev-idp, where anyone can sign in as anyone. */
  devSignIn: boolean;
  sessionSecret: string | undefined;
  geocoder: { kind: 'photon' | 'nominatim' | 'off'; url: string };
  seedDemo: boolean | undefined;
  /** The jurisdiction profile of places no country file covers (jurisdictions/none.yaml by default). */
  jurisdictionFallback: string;
  /** The folder of the profiles' files; undefined: the shipped jurisdictions/. */
  jurisdictionsDir: string | undefined;
  /** The text of /Insurance (PLATFORM_DUTIES_FILE); undefined: the default text. */
  platformDutiesFile: string | undefined;
  /** Which proxies' X-Forwarded-For to believe (none by default). */
  trustProxy: TrustProxy;
  /** Sign-ins one address may start per minute. */
  signInRateLimit: number;
  /** How often live streams send a heartbeat. */
  liveHeartbeatMs: number;
  /** Open live streams one session and one client address may hold on this instance. */
  liveStreamLimits: { perSession: number; perAddress: number };
  /** /metrics: with this bearer token, and/or only on a port of its own (see metrics/metrics-routes.ts). */
  metrics: { token: string | undefined; port: number | undefined };
  logLevel: string;
  /**
   * Card payments: Stripe, our own server speaking Stripe's API on loopback (`local`, development), or none (`off`:
   * cash on delivery only).
   */
  payments: PaymentsConfig;
  notifications: NotificationsConfig;
  /** How often every instance places the weekly plans' weeks whose cut-off came (0: never, tests run it). */
  planPollSeconds: number;
}

export interface NotificationsConfig {
  /** False with NOTIFICATIONS=off: no notice is enqueued, no worker runs. */
  enabled: boolean;
  /** SMTP relay; unset: the development mailbox at /dev-mail (not in production: no email is sent). */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The VAPID keys, when set (in development they are generated and kept in DATA_DIR otherwise). */
  vapid: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /** How often every instance's worker looks for notices due (0: never, tests run it). */
  pollSeconds: number;
  /** How long a claimed notice is its worker's (longer than a send may take: SMTP's and push's timeouts). */
  leaseMs: number;
  /** Whether pushes may go to addresses of the server's own network (tests and development only). */
  pushPrivateAddresses: 'refuse' | 'allow';
}

export type PaymentsConfig = {
  currency: string;
  /** The platform's share of an order's items, in percent, beside the fees and tax it keeps. */
  commissionPercent: number;
  /** An order nobody accepted after this long is declined (its payment released). */
  acceptWithinMinutes: number;
  /** How often the poll that keeps payments moving runs (0: never, tests run it). */
  pollSeconds: number;
} & (
  | { kind: 'off' }
  | { kind: 'local' }
  | {
      kind: 'stripe';
      secretKey: string;
      webhookSecret: string;
      connectWebhookSecret: string;
      apiBase: string | undefined;
    }
);

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
  }
}

/**
 * The development provider lets anyone sign in as anyone, so it must never be what a reachable deployment falls
 * back to: without a Google client it is served only on loopback (PUBLIC_URL and HOST both), or when DEV_SIGN_IN
 * asks for it by name; never in production. Anything else stops the server, saying how to configure Google.
 */
function devSignInAllowed(e: z.infer<typeof EnvSchema>, publicUrl: string): boolean {
  if (e.DEV_SIGN_IN) return true;
  if (isLoopbackHost(new URL(publicUrl).hostname) && isLoopbackHost(e.HOST)) return true;
  const callback = `${publicUrl}/auth/callback`;
  throw new ConfigError(
    ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    `Invalid configuration:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are required: PUBLIC_URL (${publicUrl}) ` +
      `or HOST (${e.HOST}) is not a loopback address, and the development sign-in, where anyone can sign in as ` +
      'anyone, is served only on loopback.\n  Create an OAuth client of type "Web application" in the Google Cloud ' +
      `console (APIs & Services, Credentials) with the authorised redirect URI ${callback}, and set ` +
      'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to its id and secret.\n  (For a throw-away test deployment only: ' +
      `DEV_SIGN_IN=${UNSAFE_DEV_SIGN_IN}.)`,
  );
}

const DEFAULT_GEOCODER_URL = {
  photon: 'https://photon.komoot.io/api',
  nominatim: 'https://nominatim.openstreetmap.org/search',
  off: '',
} as const;

/** Reads the environment once; a bad value throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const variables = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(variables, `Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const google =
    e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
      ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.OIDC_ISSUER }
      : undefined;
  if ((e.GOOGLE_CLIENT_ID && !e.GOOGLE_CLIENT_SECRET) || (!e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError(
      ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
      'Invalid configuration:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
    );
  }
  if (e.NODE_ENV === 'production' && e.DEV_SIGN_IN) {
    throw new ConfigError(
      ['DEV_SIGN_IN'],
      'Invalid configuration:\n  DEV_SIGN_IN cannot be used when NODE_ENV=production ' +
        '(the development sign-in provider is never served in production)',
    );
  }
  if (e.NODE_ENV === 'production' && !google) {
    throw new ConfigError(
      ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
      'Invalid configuration:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are required when NODE_ENV=production ' +
        '(the development sign-in provider is never served in production)',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const devSignIn = !google && devSignInAllowed(e, publicUrl);
  const https = publicUrl.startsWith('https:');
  if (e.NODE_ENV === 'production' && e.PUSH_PRIVATE_ADDRESSES === 'allow') {
    throw new ConfigError(
      ['PUSH_PRIVATE_ADDRESSES'],
      'Invalid configuration:\n  PUSH_PRIVATE_ADDRESSES=allow cannot be used when NODE_ENV=production ' +
        "(a push endpoint would be a way into the server's own network)",
    );
  }
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) {
    throw new ConfigError(
      ['SESSION_SECRET'],
      'Invalid configuration:\n  SESSION_SECRET is required when NODE_ENV=production',
    );
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      ['DATABASE_READ_URL'],
      'Invalid configuration:\n  DATABASE_READ_URL needs DATABASE_URL: it names a streaming replica of a PostgreSQL ' +
        'server, and without DATABASE_URL the data is in the embedded database (DATA_DIR), which has none',
    );
  }
  if (e.BUS_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      ['BUS_URL'],
      'Invalid configuration:\n  BUS_URL needs DATABASE_URL: the NATS bus is for several instances on one ' +
        'PostgreSQL server (the embedded database serves one instance, whose changes need no bus)',
    );
  }
  const payments = paymentsConfig(e, devSignIn, publicUrl);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    https,
    sessionCookies: {
      kitchen: `${https ? '__Host-' : ''}kitchen_session`,
      customer: `${https ? '__Host-' : ''}customer_session`,
      operator: `${https ? '__Host-' : ''}operator_session`,
    },
    operatorEmails: e.OPERATOR_EMAILS,
    databaseUrl: e.DATABASE_URL,
    readReplica: e.DATABASE_READ_URL
      ? { url: e.DATABASE_READ_URL, maxLagMs: e.DATABASE_READ_MAX_LAG_MS }
      : undefined,
    busUrl: e.BUS_URL,
    dataDir: e.DATA_DIR,
    google,
    devSignIn,
    sessionSecret: e.SESSION_SECRET,
    geocoder: { kind: e.GEOCODER, url: e.GEOCODER_URL ?? DEFAULT_GEOCODER_URL[e.GEOCODER] },
    seedDemo: e.SEED_DEMO,
    platformDutiesFile: e.PLATFORM_DUTIES_FILE,
    jurisdictionFallback: e.JURISDICTION_FALLBACK,
    jurisdictionsDir: e.JURISDICTIONS_DIR,
    trustProxy: e.TRUST_PROXY,
    signInRateLimit: e.SIGN_IN_RATE_LIMIT,
    liveHeartbeatMs: e.LIVE_HEARTBEAT_MS,
    liveStreamLimits: { perSession: e.LIVE_STREAMS_PER_SESSION, perAddress: e.LIVE_STREAMS_PER_ADDRESS },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    logLevel: e.LOG_LEVEL,
    payments,
    planPollSeconds: e.PLAN_POLL_SECONDS,
    notifications: {
      enabled: e.NOTIFICATIONS === 'on',
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM ?? `HomeCooked <notifications@${new URL(publicUrl).hostname}>`,
      vapid:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : undefined,
      vapidSubject:
        e.VAPID_SUBJECT ??
        (publicUrl.startsWith('https:') ? publicUrl : 'mailto:notifications@homecooked.example'),
      pollSeconds: e.NOTIFY_POLL_SECONDS,
      leaseMs: e.NOTIFY_LEASE_SECONDS * 1000,
      pushPrivateAddresses: e.PUSH_PRIVATE_ADDRESSES,
    },
  };
}

/**
 * `PAYMENTS`: `local` by default where the development sign-in is (loopback), else `off`; `local` is never served in
 * production, and `stripe` needs its keys.
 */
function paymentsConfig(e: z.infer<typeof EnvSchema>, devSignIn: boolean, publicUrl: string): PaymentsConfig {
  const kind = e.PAYMENTS ?? (devSignIn && e.NODE_ENV !== 'production' ? 'local' : 'off');
  const common = {
    currency: e.CURRENCY,
    commissionPercent: e.PLATFORM_COMMISSION_PERCENT,
    acceptWithinMinutes: e.ACCEPT_WITHIN_MINUTES,
    pollSeconds: e.PAYMENT_POLL_SECONDS,
  };
  if (kind === 'local' && e.NODE_ENV === 'production')
    throw new ConfigError(
      ['PAYMENTS'],
      'Invalid configuration:\n  PAYMENTS=local cannot be used when NODE_ENV=production (its payment pages accept ' +
        'made-up cards): set PAYMENTS=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS=off',
    );
  // Its pages pay with any card number: served on the terms of the development sign-in and mailbox, on loopback
  // (PUBLIC_URL and HOST both) or on purpose.
  const loopback = isLoopbackHost(new URL(publicUrl).hostname) && isLoopbackHost(e.HOST);
  if (kind === 'local' && !loopback && !e.DEV_SIGN_IN)
    throw new ConfigError(
      ['PAYMENTS'],
      `Invalid configuration:\n  PAYMENTS=local is served only on loopback: PUBLIC_URL (${publicUrl}) or HOST ` +
        `(${e.HOST}) is not a loopback address, and its payment pages take made-up cards. Set PAYMENTS=stripe, or ` +
        `PAYMENTS=off (for a throw-away test deployment only: DEV_SIGN_IN=${UNSAFE_DEV_SIGN_IN}).`,
    );
  if (kind === 'stripe') {
    if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET || !e.STRIPE_CONNECT_WEBHOOK_SECRET)
      throw new ConfigError(
        ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_CONNECT_WEBHOOK_SECRET'].filter(
          (name) => !e[name as keyof typeof e],
        ),
        'Invalid configuration:\n  PAYMENTS=stripe needs STRIPE_SECRET_KEY (sk_test_… or sk_live_…), ' +
          'STRIPE_WEBHOOK_SECRET (whsec_…, the signing secret of the webhook endpoint listening to your account) ' +
          'and STRIPE_CONNECT_WEBHOOK_SECRET (whsec_…, that of the endpoint listening to connected accounts)',
      );
    return {
      ...common,
      kind,
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    };
  }
  return { ...common, kind };
}
