import { sql } from 'drizzle-orm';
import { defineTopic, everyone } from '../live/topic.js';

/**
 * "Something searchable changed": published with every write to kitchens or dishes. Its snapshot is only the
 * database's time of the reload, so each change reaches an open search as a few bytes, and the browser asks its
 * search again (rather than the server reloading every distinct search on every change).
 */
export const catalogTopic = defineTopic<void, { changedAt: string }>({
  key: () => 'catalog',
  load: async (db) => {
    const result = (await db.execute(sql`select now()::text as at`)) as unknown as { rows: { at: string }[] };
    return { changedAt: result.rows[0]?.at ?? '' };
  },
  access: everyone,
});
