import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database, Db } from './db/database.js';
import { healthRoutes } from './health/health-routes.js';
import { createHmac } from 'node:crypto';
import { authRoutes } from './auth/auth-routes.js';
import { registerDevIdp } from './auth/dev-idp.js';
import { createOidcClient, oidcSettings } from './auth/oidc-client.js';
import { sessionSecret } from './auth/secrets.js';
import { forgetSession } from './auth/sessions.js';
import { sessionRoutes } from './auth/session-routes.js';
import { registerSessionSweep } from './auth/session-sweep.js';
import { kitchenRoutes } from './kitchens/kitchen-routes.js';
import { menuRoutes } from './menu/menu-routes.js';
import { ownMenuRoutes } from './menu/own-menu-routes.js';
import { ownKitchenRoutes } from './kitchens/own-kitchen-routes.js';
import { kitchenOrderRoutes } from './orders/kitchen-order-routes.js';
import { customerOrderRoutes } from './orders/customer-order-routes.js';
import { geocodeRoutes } from './geocode/geocode-routes.js';
import { chatRoutes } from './chat/chat-routes.js';
import { registerOriginCheck } from './lib/origin-check.js';
import { registerRateLimit } from './lib/rate-limit.js';
import { registerErrorHandler } from './lib/errors.js';
import { projectRoot } from './lib/project-root.js';
import { registerSecurityHeaders } from './lib/security-headers.js';
import { registerWebApp } from './lib/static-files.js';
import { LiveHub, SESSION_ENDED_PREFIX } from './live/hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    hub: LiveHub;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyBaseLogger;
  /** Folder of the built web app; defaults to dist/web. Missing → API only. */
  webDir?: string;
  /** How long a client may take to send a whole request, and its headers; tests shorten them. */
  timeouts?: { requestMs: number; headersMs: number };
}

// A trickling client (slowloris) holds a connection and a parser until these run out. They end when the request
// has been received, so they never touch a long answer (a live stream) or an idle keep-alive connection.
const DEFAULT_TIMEOUTS = { requestMs: 30_000, headersMs: 10_000 };

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
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const hub = new LiveHub(app.log, { heartbeatMs: config.liveHeartbeatMs });
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('hub', hub);

  const stopListening = await database.listen({
    onTopic: (topic) => {
      // Another instance signed a session out: forget it here too, before ending its streams.
      if (topic.startsWith(SESSION_ENDED_PREFIX)) forgetSession(topic.slice(SESSION_ENDED_PREFIX.length));
      hub.changed(topic);
    },
    onResync: () => hub.resyncAll(),
  });
  // Streams never end by themselves: end them first so that close() can finish.
  app.addHook('preClose', async () => hub.close());
  app.addHook('onClose', async () => stopListening());

  const secret = sessionSecret(config);
  await app.register(fastifyCookie, { secret });
  registerErrorHandler(app);
  registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https:') });

  registerOriginCheck(app, config.publicUrl);
  await registerRateLimit(app);

  registerSessionSweep(app);
  await app.register(healthRoutes);
  await app.register(sessionRoutes);
  // Our own provider, where anyone can sign in as anyone: only where the config allowed it, never in production.
  const devClientSecret = createHmac('sha256', secret).update('dev-idp-client').digest('base64url');
  if (config.devSignIn && config.nodeEnv !== 'production') {
    await registerDevIdp(app, {
      clientSecret: devClientSecret,
      cookieKey: createHmac('sha256', secret).update('dev-idp-cookies').digest('base64url'),
    });
  }
  await app.register(authRoutes, { oidc: createOidcClient(oidcSettings(config, devClientSecret)) });
  await app.register(kitchenRoutes);
  await app.register(menuRoutes);
  await app.register(ownKitchenRoutes);
  await app.register(ownMenuRoutes);
  await app.register(kitchenOrderRoutes);
  await app.register(customerOrderRoutes);
  await app.register(geocodeRoutes);
  await app.register(chatRoutes);

  const webApp = await registerWebApp(app, options.webDir ?? join(projectRoot(), 'dist', 'web'));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (webApp && isPage && (request.headers.accept ?? '').includes('text/html'))
      return webApp.sendShell(reply, 404);
    return reply.status(404).send({ code: 'NOT_FOUND', message: `No route ${request.method} ${path}` });
  });
  return app;
}
