import { loadJurisdictions, type Jurisdictions } from './data/jurisdictions.js';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import { pageLanguage, registerI18n, requestLocale } from './i18n/i18n-plugin.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { ApiErrorBody } from '../shared/errors.js';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './lib/config.js';
import type { Database, Db } from './db/database.js';
import { ReadRouter, registerReadAfterWrite, type Replica } from './db/read-replica.js';
import { healthRoutes } from './health/health-routes.js';
import { createHmac } from 'node:crypto';
import { authRoutes } from './auth/auth-routes.js';
import { registerDevIdp } from './auth/dev-idp.js';
import { createOidcClient, oidcSettings } from './auth/oidc-client.js';
import { sessionSecret } from './auth/secrets.js';
import { registerSessionSweep } from './auth/session-sweep.js';
import { badRequest, registerErrorHandler } from './lib/errors.js';
import { registerRequestTextGuard } from './lib/request-text-guard.js';
import { registerRateLimitSweep } from './identity/shared-rate-limit-store.js';
import { projectRoot } from './lib/project-root.js';
import { registerSecurityHeaders } from './lib/security-headers.js';
import { registerWebApp } from './lib/static-files.js';
import { apiRoutes, kitchenPageQueries } from './api-routes.js';
import { registerOpenApi } from './docs/openapi.js';
import { registerMetrics } from './metrics/metrics-routes.js';
import {
  createGeocoder,
  NOMINATIM_INTERVAL_MS,
  NOMINATIM_MAX_QUEUE_MS,
  type Geocoder,
} from './geocode/geocoder.js';
import { SharedIntervalGate } from './geocode/shared-interval-gate.js';
import { ChangeBus } from './live/bus.js';
import { NatsChangeBus } from './live/nats-bus.js';
import { LiveHub } from './live/hub.js';
import { registerTabStream } from './live/tab-stream.js';
import { reactions } from './reactions.js';
import { DatabaseImageStore, type ImageStore } from './pictures/image-store.js';
import { imageServeRoutes } from './images/image-serve-routes.js';
import { registerImageSweep } from './images/image-sweep.js';
import { systemClock, type Clock } from './lib/clock.js';
import { registerPortionDayWatch } from './menu/portion-days.js';
import { registerDocumentReminders } from './law/document-reminders.js';
import { loadPageRenderer, searchEngineRoutes, serverRenderedPages } from './pages/page-routes.js';
import { platformDutiesRoutes } from './pages/platform-duties.js';
import type { PageRenderer } from '../shared/page-data.js';
import { openPayments } from './payments/payments.js';
import { registerPaymentPoll } from './orders/payment-poll.js';
import { registerPlanPlacement } from './orders/plan-placement.js';
import { registerNotifications } from './notifications/notifications.js';
import { registerDevMail } from './notifications/mail/dev-mail-routes.js';
import { paymentWebhookRoutes } from './orders/payment-webhook-routes.js';
import { registerDevPayPages } from './money/dev-pay-pages.js';
import { registerReconciliation } from './money/reconcile.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    /** Where public reads go: a streaming replica when there is one (db/read-replica.ts), else `db`. */
    reads: ReadRouter;
    bus: ChangeBus;
    hub: LiveHub;
    imageStore: ImageStore;
    /** The configured geocoder: address suggestions, and placing kitchens' addresses when they are saved. */
    geocoder: Geocoder;
    /** The time: opening hours, pauses and a kitchen's "today" are decided by it (tests pass a fake). */
    clock: Clock;
    /** The rules of places (jurisdictions/*.yaml): which apply to a kitchen, by its address's parts. */
    jurisdictions: Jurisdictions;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** A streaming replica of `database` (DATABASE_READ_URL) for public reads; the caller owns it. */
  replica?: Replica;
  logger?: FastifyBaseLogger;
  /** Folder of the built web app; defaults to dist/web. Missing → API only. */
  webDir?: string;
  /**
   * Renders the public pages on the server; defaults to the built bundle beside `webDir` (dist/ssr/ssr-entry.js).
   * Null, or no bundle: every page is rendered in the browser.
   */
  pageRenderer?: PageRenderer | null;
  /** How long a client may take to send a whole request, and its headers; tests shorten them. */
  timeouts?: { requestMs: number; headersMs: number };
  /** Where uploaded pictures' bytes live; the database by default. */
  imageStore?: ImageStore;
  clock?: Clock;
}

// A trickling client (slowloris) holds a connection and a parser until these run out. They end when the request
// has been received, so they never touch a long answer (a live stream) or an idle keep-alive connection.
const DEFAULT_TIMEOUTS = { requestMs: 30_000, headersMs: 10_000 };

const devClientSecret = (secret: string) =>
  createHmac('sha256', secret).update('dev-idp-client').digest('base64url');

/** Builds the whole server (API, live streams, web app) on an open database. The caller owns `database`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const { trustProxy } = config;
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: 64 * 1024,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node looks for expired requests only this often (30 s by default, which would triple the headers limit).
      connectionsCheckingInterval: Math.ceil(timeouts.headersMs / 10),
    },
    // A hop count trusts the nearest N proxies (Fastify's types take it as a function of the hop).
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    return503OnClosing: true,
    // A path that is not valid percent-encoding: the same JSON error as any other bad input.
    frameworkErrors: (error, request, reply) => {
      const refusal = badRequest('The address is not valid: {problem}', 'url', { problem: error.message });
      const tr = request.server.i18n?.translator(requestLocale(request));
      const message = tr ? tr.t(refusal.message, refusal.values) : refusal.message;
      const body: ApiErrorBody = { code: refusal.code, message, field: refusal.field };
      void (reply as FastifyReply).status(400).send(body);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // LISTEN/NOTIFY by default; BUS_URL: NATS JetStream, from the database's outbox (docs/operations.md).
  const bus = config.busUrl
    ? new NatsChangeBus(database.db, {
        url: config.busUrl,
        onError: (error) => app.log.warn({ err: error }, 'change bus: relay or consumer failed (retried)'),
      })
    : new ChangeBus(database);
  const reads = new ReadRouter(database, options.replica, {
    maxLagMs: config.readReplica?.maxLagMs ?? 0,
    log: app.log,
  });
  // Before the hub's: a change is noted before any reload it causes asks where to read.
  bus.on('changed', () => reads.heardChange());
  bus.onResync(() => reads.heardChange());
  const hub = new LiveHub(app.log, { heartbeatMs: config.liveHeartbeatMs, limits: config.liveStreamLimits });
  hub.follow(bus);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('reads', reads);
  app.addHook('onClose', async () => reads.close());
  app.decorate('bus', bus);
  app.decorate('hub', hub);
  // NOTIFICATIONS=off: the same reactions, but nobody is told with the tab closed.
  app.decorate(
    'reactions',
    config.notifications.enabled
      ? reactions
      : {
          noticesOf: () => [],
          messagesOf: (events) => reactions.messagesOf(events).filter((m) => m.type !== 'notices-queued'),
        },
  );
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('jurisdictions', loadJurisdictions(config.jurisdictionFallback, config.jurisdictionsDir));
  app.decorate('imageStore', options.imageStore ?? new DatabaseImageStore(database.db));
  // Nominatim allows 1 request/s for the whole application: on PostgreSQL every instance shares one schedule.
  const sharedGate = database.kind === 'postgres' && config.geocoder.kind === 'nominatim';
  app.decorate(
    'geocoder',
    createGeocoder(config, app.log, {
      ...(sharedGate
        ? {
            gate: new SharedIntervalGate(
              database.db,
              'nominatim',
              NOMINATIM_INTERVAL_MS,
              NOMINATIM_MAX_QUEUE_MS,
            ),
          }
        : {}),
    }),
  );
  // Card payments; `local` sends its signed events to our own webhook route, in-process.
  const payments = await openPayments(config, async (payload, signature) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      payload,
    });
    return res.statusCode;
  });
  app.decorate('payments', payments);
  app.addHook('onClose', async () => payments.close());
  const stopListening = await bus.listen();
  // Streams never end by themselves: end them first so that close() can finish.
  app.addHook('preClose', async () => hub.close());
  app.addHook('onClose', async () => stopListening());

  const secret = sessionSecret(config);
  await app.register(fastifyCookie, { secret });
  registerI18n(app);
  registerReadAfterWrite(app, reads, config.readReplica?.maxLagMs ?? 0);
  // Every answer's headers, and JSON errors unless a scope says otherwise.
  registerErrorHandler(app);
  registerRequestTextGuard(app);
  registerSecurityHeaders(app, { https: config.https });
  registerSessionSweep(app);
  registerImageSweep(app, app.clock);
  registerPortionDayWatch(app);
  registerDocumentReminders(app);
  if (database.kind === 'postgres') registerRateLimitSweep(app);
  registerPaymentPoll(app);
  registerPlanPlacement(app);
  registerReconciliation(app);
  // Email and push with the tab closed: the channels, and the worker that empties the outbox.
  await registerNotifications(app, config);

  // Before every route: the API description is generated from the routes as they register, and the tab's one
  // live stream learns every live list's route.
  await registerOpenApi(app);
  registerTabStream(app);
  // Each part in its own plugin scope, with its own rules (hooks, error handler, rate limits).
  await app.register(healthRoutes);
  registerMetrics(app);
  await app.register(apiRoutes);
  await app.register(paymentWebhookRoutes);
  await app.register(imageServeRoutes);
  await app.register(authRoutes, { oidc: createOidcClient(oidcSettings(config, devClientSecret(secret))) });
  // Our own provider, where anyone can sign in as anyone: only where the config allowed it, never in production.
  if (config.devSignIn && config.nodeEnv !== 'production') {
    await registerDevIdp(app, {
      clientSecret: devClientSecret(secret),
      cookieKey: createHmac('sha256', secret).update('dev-idp-cookies').digest('base64url'),
    });
  }
  // The `local` provider's payment and onboarding pages (PAYMENTS=local: never in production).
  if (payments.local && config.nodeEnv !== 'production') await registerDevPayPages(app, payments.local);
  await registerDevMail(app);
  await app.register(searchEngineRoutes);
  await app.register(platformDutiesRoutes);
  const webDir = options.webDir ?? join(projectRoot(), 'dist', 'web');
  const renderer =
    options.pageRenderer === undefined
      ? await loadPageRenderer(join(webDir, '..', 'ssr', 'ssr-entry.js'))
      : (options.pageRenderer ?? undefined);
  const webApp = await registerWebApp(app, webDir, {
    shellLanguage: (locale) => pageLanguage(app.i18n, locale, config.payments.currency, undefined),
    ...(renderer
      ? {
          serverRendered: (indexHtml, sendShell) =>
            serverRenderedPages(app, renderer, indexHtml, sendShell, kitchenPageQueries(app)),
        }
      : {}),
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (webApp && isPage && (request.headers.accept ?? '').includes('text/html'))
      return webApp.sendShell(reply, 404);
    const message = app.i18n
      .translator(request.locale)
      .t('No route {method} {path}', { method: request.method, path });
    return reply.status(404).send({ code: 'NOT_FOUND', message });
  });
  return app;
}
