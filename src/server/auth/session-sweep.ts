import { lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../db/database.js';
import { sessions } from '../db/schema.js';
import { registerPeriodicTask } from '../lib/periodic.js';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes sessions whose time is up (they no longer sign anyone in); returns how many went. */
export async function deleteExpiredSessions(db: DbOrTx, now = new Date()): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ tokenHash: sessions.tokenHash });
  return gone.length;
}

/**
 * Sweeps expired sessions when the server starts and every hour after, so the table holds only live sessions.
 * Every instance sweeps; the deletes are idempotent, so several at once do no harm.
 */
export function registerSessionSweep(app: FastifyInstance, everyMs = SWEEP_EVERY_MS): void {
  registerPeriodicTask(app, {
    everyMs,
    atStart: true,
    failure: 'could not delete expired sessions',
    run: async () => {
      const count = await deleteExpiredSessions(app.db);
      if (count > 0) app.log.info({ count }, 'expired sessions deleted');
    },
  });
}
