import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { localTime } from '../../shared/opening-hours.js';
import { kitchens, menuItems } from '../db/schema.js';
import { registerPeriodicTask } from '../lib/periodic.js';
import { menuTopic } from '../data/menu-topic.js';

type WatchedApp = Pick<FastifyInstance, 'db' | 'hub' | 'clock'>;

/**
 * At each kitchen's midnight its dishes' portions start afresh, with no write to announce it. This check reloads
 * the cached menus of kitchens counting portions whose local date changed since it last looked; every instance runs
 * it for its own cache (nothing is written, so nothing goes on the change bus).
 */
export function portionDayWatch(app: WatchedApp) {
  // Each counting kitchen's local date at the last check; only kitchens counting portions now are kept.
  let days = new Map<string, string>();
  const check = async () => {
    const counting = await app.db
      .selectDistinct({ uid: kitchens.ownerId, timeZone: kitchens.timeZone })
      .from(kitchens)
      .innerJoin(
        menuItems,
        and(eq(menuItems.kitchenId, kitchens.ownerId), isNotNull(menuItems.portionsPerDay)),
      );
    const now = new Date(app.clock.now());
    const seen = new Map<string, string>();
    for (const { uid, timeZone } of counting) {
      const day = localTime(now, timeZone).date;
      const before = days.get(uid);
      seen.set(uid, day);
      if (before !== undefined && before !== day) app.hub.changed(menuTopic.key(uid));
    }
    days = seen;
  };
  /** The kitchens it keeps a date for (a kitchen deleted or no longer counting portions is let go). */
  return Object.assign(check, { tracked: () => [...days.keys()] });
}

/** Checks every minute, from start-up. */
export function registerPortionDayWatch(app: FastifyInstance): void {
  registerPeriodicTask(app, {
    everyMs: 60_000,
    atStart: true,
    failure: 'could not check the kitchens’ days for portions',
    run: portionDayWatch(app),
  });
}
