import { and, desc, eq, gte, inArray, max, min, sql } from 'drizzle-orm';
import {
  REFERRAL_COMPLAINTS,
  REFERRAL_PERIOD_DAYS,
  type HealthReferral,
  type KitchenToRefer,
} from '../../shared/moderation.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens, operatorActions, orders, problemReports } from '../db/schema.js';

const DAY = 86_400_000;

/** The start of the period whose complaints count, by the app's clock. */
export const periodStart = (now: number) => new Date(now - REFERRAL_PERIOD_DAYS * DAY);

/** A food-safety complaint: a customer's 'Made me ill' report of an order (it filed a complaint of the kitchen). */
export const foodSafety = eq(problemReports.reason, 'made_ill');

/** The referrals of these kitchens, newest first. */
export async function referralsOf(db: DbOrTx, uids: string[]) {
  if (uids.length === 0) return [];
  return db
    .select({
      kitchenUid: operatorActions.targetId,
      operatorEmail: operatorActions.operatorEmail,
      createdAt: operatorActions.createdAt,
      note: operatorActions.note,
    })
    .from(operatorActions)
    .where(and(eq(operatorActions.action, 'refer_kitchen'), inArray(operatorActions.targetId, uids)))
    .orderBy(desc(operatorActions.createdAt), desc(operatorActions.id));
}

export const toReferral = (row: {
  operatorEmail: string;
  createdAt: Date;
  note: string | null;
}): HealthReferral => ({
  operatorEmail: row.operatorEmail,
  referredAt: row.createdAt.toISOString(),
  note: row.note ?? '',
});

/**
 * The kitchens with REFERRAL_COMPLAINTS or more food-safety complaints filed within the last REFERRAL_PERIOD_DAYS
 * (by the app's clock), the latest complaint first, each with its referral if one was made since its latest
 * complaint (a complaint after a referral asks for another).
 */
export async function listKitchensToRefer(db: DbOrTx, now: number): Promise<KitchenToRefer[]> {
  const rows = await db
    .select({
      uid: kitchens.ownerId,
      name: kitchens.name,
      complaints: sql<number>`count(*)::int`,
      firstAt: min(problemReports.createdAt),
      latestAt: max(problemReports.createdAt),
    })
    .from(problemReports)
    .innerJoin(orders, eq(orders.id, problemReports.orderId))
    .innerJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(and(foodSafety, gte(problemReports.createdAt, periodStart(now))))
    .groupBy(kitchens.ownerId, kitchens.name)
    .having(sql`count(*) >= ${REFERRAL_COMPLAINTS}`)
    .orderBy(desc(max(problemReports.createdAt)))
    .limit(100);
  const referrals = await referralsOf(
    db,
    rows.map((r) => r.uid),
  );
  return rows.map((row) => {
    const latestAt = row.latestAt ? new Date(row.latestAt) : new Date(now);
    const referral = referrals.find((r) => r.kitchenUid === row.uid && r.createdAt >= latestAt);
    return {
      uid: row.uid,
      name: row.name,
      complaints: Number(row.complaints),
      firstAt: new Date(row.firstAt ?? now).toISOString(),
      latestAt: latestAt.toISOString(),
      referral: referral ? toReferral(referral) : null,
    };
  });
}
