import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { localTime } from '../../shared/opening-hours.js';
import { kitchenDocuments, kitchenHelpers, kitchens } from '../db/schema.js';
import { helperCardRule, listHelpers } from '../data/kitchen-documents.js';
import { mutate } from '../events/mutate.js';
import { registerPeriodicTask } from '../lib/periodic.js';

/** How many days before a document expires its cook is reminded. */
export const REMINDER_DAYS = [30, 7, 1] as const;

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * Reminds cooks of documents that expire within 30, 7 or 1 days (in their kitchen's zone), each reminder once: the
 * nearest one due (a sweep that missed a day sends the one due now, not those passed), its notice's key deciding
 * that it is told once however often the sweep finds it. A document renewed by a later one is not reminded of.
 */
export async function sendDocumentReminders(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock'>,
) {
  const now = new Date(app.clock.now());
  // Every zone is within a day of UTC's date: look a day either side, then decide in each kitchen's zone.
  const utcToday = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(utcToday) - DAY_MS).toISOString().slice(0, 10);
  const to = new Date(Date.parse(utcToday) + (Math.max(...REMINDER_DAYS) + 1) * DAY_MS)
    .toISOString()
    .slice(0, 10);
  const renewed = sql`exists (select 1 from ${kitchenDocuments} later where later.kitchen_id = ${kitchenDocuments.kitchenId}
    and later.kind = ${kitchenDocuments.kind} and later.holder = ${kitchenDocuments.holder}
    and later.expires_on > ${kitchenDocuments.expiresOn})`;
  const due = await app.db
    .select({
      id: kitchenDocuments.id,
      kitchenUid: kitchenDocuments.kitchenId,
      expiresOn: kitchenDocuments.expiresOn,
      timeZone: kitchens.timeZone,
    })
    .from(kitchenDocuments)
    .innerJoin(kitchens, eq(kitchens.ownerId, kitchenDocuments.kitchenId))
    .where(
      and(gte(kitchenDocuments.expiresOn, from), lte(kitchenDocuments.expiresOn, to), sql`not ${renewed}`),
    );
  const reminders = due.flatMap((document) => {
    const left = daysBetween(localTime(now, document.timeZone).date, document.expiresOn);
    const daysBefore = [...REMINDER_DAYS].reverse().find((days) => left >= 0 && left <= days);
    return daysBefore === undefined ? [] : [{ ...document, daysBefore }];
  });
  if (!reminders.length) return 0;
  await mutate(app, async (_tx, record) => {
    for (const r of reminders)
      record({
        type: 'document.expiring',
        kitchenUid: r.kitchenUid,
        documentId: r.id,
        daysBefore: r.daysBefore,
      });
  });
  return reminders.length;
}

/**
 * Reminds cooks of a helper's food handler card due within 30, 7 or 1 days and not added (valid on the day it is
 * due), each reminder once, as for documents: the day it is due is the helper's start plus the days the kitchen's
 * rules give (the profile's certificate for helpers); a kitchen whose rules ask none is not reminded.
 */
export async function sendHelperCardReminders(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock' | 'jurisdictions'>,
) {
  const now = new Date(app.clock.now());
  // Helpers who started in the last year and a bit: any rule's days (30 in California) fall well within it.
  const since = new Date(now.getTime() - 400 * DAY_MS).toISOString().slice(0, 10);
  const kitchensWithNew = await app.db
    .selectDistinct({
      uid: kitchens.ownerId,
      timeZone: kitchens.timeZone,
      countryCode: kitchens.countryCode,
      region: kitchens.region,
      county: kitchens.county,
    })
    .from(kitchenHelpers)
    .innerJoin(kitchens, eq(kitchens.ownerId, kitchenHelpers.kitchenId))
    .where(gte(kitchenHelpers.startedOn, since));
  const reminders: { kitchenUid: string; helperId: string; daysBefore: number }[] = [];
  for (const kitchen of kitchensWithNew) {
    const rule = helperCardRule(app.jurisdictions.forPlace(kitchen).rules);
    if (!rule) continue;
    const today = localTime(now, kitchen.timeZone).date;
    for (const helper of await listHelpers(app.db, kitchen.uid, rule)) {
      if (helper.dueOn === null || (helper.card && helper.card.expiresOn >= helper.dueOn)) continue;
      const left = daysBetween(today, helper.dueOn);
      const daysBefore = [...REMINDER_DAYS].reverse().find((days) => left >= 0 && left <= days);
      if (daysBefore !== undefined)
        reminders.push({ kitchenUid: kitchen.uid, helperId: helper.id, daysBefore });
    }
  }
  if (!reminders.length) return 0;
  await mutate(app, async (_tx, record) => {
    for (const r of reminders) record({ type: 'helper-card.due', ...r });
  });
  return reminders.length;
}

/** Looks every hour, from start-up. */
export function registerDocumentReminders(app: FastifyInstance): void {
  registerPeriodicTask(app, {
    everyMs: 3_600_000,
    atStart: true,
    failure: 'could not send the reminders of documents about to expire',
    run: async () => {
      await sendDocumentReminders(app);
      await sendHelperCardReminders(app);
    },
  });
}
