import type { FastifyInstance } from 'fastify';
import { and, eq, max, sql } from 'drizzle-orm';
import { REFERRAL_PERIOD_DAYS, type ReferralResult } from '../../shared/moderation.js';
import { msg } from '../../shared/i18n/translator.js';
import type { Profile } from '../../shared/jurisdictions.js';
import { kitchens, orders, problemReports } from '../db/schema.js';
import type { User } from '../identity/users.js';
import { HttpError } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import { recordAction } from './moderation-queries.js';
import { foodSafety, periodStart, referralsOf, toReferral } from './referral-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock' | 'jurisdictions'>;
type Operator = Pick<User, 'id' | 'email'>;

/** The authority a kitchen's rules name (the issuer of the permit they ask for), or null when they name none. */
export function authorityOf(profile: Profile): string | null {
  return profile.rules.permit ? `${profile.rules.permit.issuer} (${profile.name})` : null;
}

/**
 * 'Refer to the local health authority': records who referred the kitchen, when, and to which authority (the issuer
 * of the permit its place's rules ask for, if they name one) in the operators' log, in one transaction under the
 * kitchen's lock. A kitchen already referred since its latest food-safety complaint is not referred again (pressing
 * twice records one referral): `changed: false` with that referral. 404 for no such kitchen.
 */
export function referKitchen(app: App, operator: Operator, uid: string): Promise<ReferralResult> {
  return mutate(app, async (tx, record) => {
    const [kitchen] = await tx
      .select({ countryCode: kitchens.countryCode, region: kitchens.region, county: kitchens.county })
      .from(kitchens)
      .where(eq(kitchens.ownerId, uid))
      .for('update');
    if (!kitchen)
      throw new HttpError(404, 'NOT_FOUND', msg('No kitchen {id}'), 'uid', undefined, { id: uid });
    const since = periodStart(app.clock.now());
    const [complaints] = await tx
      .select({
        all: sql<number>`count(*)::int`,
        inPeriod: sql<number>`(count(*) filter (where ${problemReports.createdAt} >= ${since}))::int`,
        latestAt: max(problemReports.createdAt),
      })
      .from(problemReports)
      .innerJoin(orders, eq(orders.id, problemReports.orderId))
      .where(and(foodSafety, eq(orders.kitchenId, uid)));
    const [previous] = await referralsOf(tx, [uid]);
    const latestAt = complaints?.latestAt ? new Date(complaints.latestAt) : null;
    if (previous && (!latestAt || previous.createdAt >= latestAt))
      return { changed: false, referral: toReferral(previous) };
    const authority = authorityOf(
      app.jurisdictions.forPlace({
        countryCode: kitchen.countryCode,
        region: kitchen.region,
        county: kitchen.county,
      }),
    );
    const count = Number(complaints?.inPeriod ?? 0);
    const note = [
      authority
        ? `Referred to ${authority}.`
        : "Referred to the local health authority (the kitchen's rules name none).",
      `${count} food-safety ${count === 1 ? 'complaint' : 'complaints'} in the last ${REFERRAL_PERIOD_DAYS} days.`,
    ].join(' ');
    await recordAction(tx, { operator, action: 'refer_kitchen', targetKind: 'kitchen', targetId: uid, note });
    record({ type: 'operator.acted', action: 'refer_kitchen', targetId: uid });
    const [made] = await referralsOf(tx, [uid]);
    if (!made) throw new Error('the referral was not recorded');
    return { changed: true, referral: toReferral(made) };
  });
}
