import type { FastifyInstance } from 'fastify';
import { notify, type Tx } from '../db/database.js';

export type Publish = (topic: string) => Promise<void>;

/**
 * Runs a write in one transaction. `publish(topic)` announces a change: it travels with the transaction
 * (pg_notify, delivered to every instance only if it commits), and after the commit this instance's hub
 * reloads the topic at once, so the writer reads its own write.
 */
export async function mutate<T>(
  app: Pick<FastifyInstance, 'db' | 'hub'>,
  fn: (tx: Tx, publish: Publish) => Promise<T>,
): Promise<T> {
  const published = new Set<string>();
  const result = await app.db.transaction(async (tx) => {
    const value = await fn(tx, async (topic) => {
      published.add(topic);
    });
    // All of the write's notices in one statement, just before the commit that delivers them.
    if (published.size > 0) await notify(tx, ...published);
    return value;
  });
  for (const topic of published) app.hub.changed(topic);
  return result;
}
