import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, type Role } from './sessions.js';
import { tooManyRequests } from '../lib/errors.js';
import { sharedRateLimitStore } from './shared-rate-limit-store.js';

/**
 * Per-route limits (`config: { rateLimit: limits.x }`). On PostgreSQL they are counted in the database, so they
 * hold across every instance; with PGlite (one process) in memory. Chat counts its messages itself (chat-service).
 */
/** Address suggestions a minute, per address. */
export const GEOCODE_LIMITS = { signedIn: 120, anonymous: 30 };

/**
 * Who a limit counts against: the signed-in user of one of `roles` (by their id: never the session's token, which
 * would put a working secret in `rate_limit_hits` for anyone with a database dump to read), or else the client's
 * address. A made-up cookie is no session, so it counts against the address too: keys stay short (a uuid or an
 * address), whatever a client sends.
 */
const perUser =
  (prefix: string, roles: readonly Role[]) =>
  async (request: FastifyRequest): Promise<string> => {
    for (const role of roles) {
      const user = await currentUser(request, role);
      if (user) return `${prefix}:user:${user.id}`;
    }
    return `${prefix}:ip:${request.ip}`;
  };

export const limits = {
  /** Starting sign-in, per address: enough for a person, too few to hammer the provider (SIGN_IN_RATE_LIMIT). */
  signIn: { max: 30, timeWindow: '1 minute' },
  /** Placing orders, per customer (many customers may share one address, e.g. a campus network). */
  orders: { max: 30, timeWindow: '1 minute', keyGenerator: perUser('order', ['customer']) },
  /** Picture uploads, per cook: a cook adding a menu uploads a few a minute. */
  imageUploads: { max: 30, timeWindow: '1 minute', keyGenerator: perUser('image', ['kitchen']) },
  /** 'Download my data', per person: each reads everything a person has, so a few a minute is plenty. */
  dataExports: { max: 10, timeWindow: '1 minute', keyGenerator: perUser('export', ['customer', 'kitchen']) },
  /**
   * Address suggestions, per address (debounced typing makes about one a second at most): fewer for anonymous
   * visitors (the landing page's address picker) than for signed-in people (a checkout), so strangers cannot spend
   * the provider's budget that customers need.
   */
  geocode: {
    max: async (request: FastifyRequest) =>
      (await currentUser(request, 'customer')) || (await currentUser(request, 'kitchen'))
        ? GEOCODE_LIMITS.signedIn
        : GEOCODE_LIMITS.anonymous,
    timeWindow: '1 minute',
  },
};

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    ...(app.database.kind === 'postgres' ? { store: sharedRateLimitStore(app.db) } : {}),
    keyGenerator: (request: FastifyRequest) => request.ip,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return tooManyRequests(
        'Too many requests. Please wait {seconds, plural, one {# second} other {# seconds}} and try again.',
        seconds,
        { seconds },
      );
    },
  });
}
