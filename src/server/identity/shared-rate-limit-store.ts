import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import { rateLimitHits } from '../db/schema.js';
import { registerPeriodicTask } from '../lib/periodic.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

interface Hits {
  current: number;
  ttl: number;
}

/** Counts a hit of `key` in its window (a new window once the last one ended), in one atomic statement. */
async function hit(db: Db, key: string, windowMs: number): Promise<Hits> {
  // The database's clock, not each instance's: every instance agrees on when a window ends.
  const ended = sql`${rateLimitHits.windowEndsAt} <= now()`;
  const rows = await db
    .insert(rateLimitHits)
    .values({ key, hits: 1, windowEndsAt: sql`now() + ${windowMs} * interval '1 millisecond'` })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        hits: sql`case when ${ended} then 1 else ${rateLimitHits.hits} + 1 end`,
        windowEndsAt: sql`case when ${ended} then excluded.window_ends_at else ${rateLimitHits.windowEndsAt} end`,
      },
    })
    .returning({
      hits: rateLimitHits.hits,
      ttl: sql<number>`ceil(extract(epoch from ${rateLimitHits.windowEndsAt} - now()) * 1000)::int`,
    })
    .prepare('rate_limit_hit') // every request of a limited route: parsed and planned once per connection
    .execute();
  const row = rows[0];
  if (!row) throw new Error('rate limit: no row returned');
  return { current: Number(row.hits), ttl: Math.max(0, Number(row.ttl)) };
}

/**
 * A store for @fastify/rate-limit that keeps the counters in PostgreSQL, so every instance counts the same hits
 * (memory would let N instances allow N times the rate). Each limited route counts under its own name, as the
 * memory store keeps a map per route. If the database cannot be reached the request fails like any other (503).
 */
export function sharedRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly namespace = '',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: Hits) => void, timeWindow: number): void {
      hit(db, `${this.namespace}${key}`, timeWindow).then(
        (hits) => callback(null, hits),
        (error: Error) => callback(error),
      );
    }

    child(
      routeOptions: FastifyRateLimitOptions & { groupId?: string; routeInfo?: { url?: string } },
    ): FastifyRateLimitStore {
      return new SharedStore(routeOptions, `${routeOptions.groupId ?? routeOptions.routeInfo?.url ?? ''} `);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}

/** Deletes counters whose window ended a while ago, every ten minutes on every instance (idempotent). */
export function registerRateLimitSweep(app: FastifyInstance): void {
  registerPeriodicTask(app, {
    everyMs: SWEEP_EVERY_MS,
    atStart: false,
    failure: 'could not delete old rate-limit counters',
    run: async () => {
      await app.db
        .delete(rateLimitHits)
        .where(lt(rateLimitHits.windowEndsAt, sql`now() - interval '1 minute'`));
    },
  });
}
