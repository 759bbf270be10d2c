import { and, asc, eq, or } from 'drizzle-orm';
import {
  withOverrides,
  type PlaceParts,
  type Profile,
  type RuleOverride,
} from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { ruleOverrides } from '../db/schema.js';
import type { Jurisdictions } from './jurisdictions.js';

/** The overrides in force for a kitchen under a profile: its jurisdiction's first, then its own (ADR 27). */
export async function overridesFor(
  db: DbOrTx,
  profileId: string,
  kitchenUid: string,
): Promise<RuleOverride[]> {
  const rows = await db
    .select()
    .from(ruleOverrides)
    .where(
      or(
        and(eq(ruleOverrides.scope, 'profile'), eq(ruleOverrides.target, profileId)),
        and(eq(ruleOverrides.scope, 'kitchen'), eq(ruleOverrides.target, kitchenUid)),
      ),
    )
    .orderBy(asc(ruleOverrides.scope), asc(ruleOverrides.key));
  // 'kitchen' sorts before 'profile': the jurisdiction's are applied first, the kitchen's own over them.
  return rows
    .map((r) => ({
      scope: r.scope,
      target: r.target,
      key: r.key,
      value: r.value,
      reason: r.reason,
      operatorEmail: r.operatorEmail,
      at: r.createdAt.toISOString(),
    }))
    .sort((a, b) => (a.scope === b.scope ? 0 : a.scope === 'profile' ? -1 : 1));
}

/**
 * The rules a kitchen follows: its place's profile with the operators' overrides in force applied (its
 * jurisdiction's, then its own), and those overrides.
 */
export async function kitchenProfile(
  db: DbOrTx,
  jurisdictions: Jurisdictions,
  currency: string,
  kitchenUid: string,
  place: PlaceParts | null,
): Promise<{ profile: Profile; overrides: RuleOverride[] }> {
  const base = jurisdictions.forPlace(place);
  const overrides = await overridesFor(db, base.id, kitchenUid);
  return { profile: withOverrides(base, overrides, currency), overrides };
}
