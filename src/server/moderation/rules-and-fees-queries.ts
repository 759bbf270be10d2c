import type { FastifyInstance } from 'fastify';
import { asc, desc, inArray } from 'drizzle-orm';
import type { OperatorRules, RuleOverride } from '../../shared/jurisdictions.js';
import { FEE_NOTICE_DAYS, type FeeChanges } from '../../shared/payments.js';
import { feeChanges, kitchens, ruleOverrides } from '../db/schema.js';
import { commissionOn, utcDay } from '../data/fee-changes.js';

type App = Pick<FastifyInstance, 'db' | 'jurisdictions' | 'clock' | 'payments'>;

const asOverride = (r: typeof ruleOverrides.$inferSelect): RuleOverride => ({
  scope: r.scope,
  target: r.target,
  key: r.key,
  value: r.value,
  reason: r.reason,
  operatorEmail: r.operatorEmail,
  at: r.createdAt.toISOString(),
});

/**
 * The operator's 'Rules and fees': every shipped profile's caps as its file says them with the overrides in force
 * there, and the kitchens with overrides of their own (ADR 27). The table holds one row per scope, target and key.
 */
export async function operatorRules(app: App): Promise<OperatorRules> {
  const rows = await app.db.select().from(ruleOverrides).orderBy(asc(ruleOverrides.key));
  const overrides = rows.map(asOverride);
  const kitchenUids = [...new Set(overrides.filter((o) => o.scope === 'kitchen').map((o) => o.target))];
  const named = kitchenUids.length
    ? await app.db
        .select({ uid: kitchens.ownerId, name: kitchens.name })
        .from(kitchens)
        .where(inArray(kitchens.ownerId, kitchenUids))
        .orderBy(asc(kitchens.name))
    : [];
  return {
    currency: app.payments.config.currency,
    profiles: app.jurisdictions.profiles().map((p) => ({
      id: p.id,
      name: p.name,
      caps: p.rules.caps,
      overrides: overrides.filter((o) => o.scope === 'profile' && o.target === p.id),
    })),
    kitchens: named.map((k) => ({
      uid: k.uid,
      name: k.name,
      overrides: overrides.filter((o) => o.scope === 'kitchen' && o.target === k.uid),
    })),
  };
}

/** The commission in force today, the earliest day a change may be announced for, and every change announced. */
export async function operatorFeeChanges(app: App): Promise<FeeChanges> {
  const now = app.clock.now();
  const [{ commissionPercent }, rows] = await Promise.all([
    commissionOn(app.db, app.payments.config.commissionPercent, utcDay(new Date(now))),
    app.db.select().from(feeChanges).orderBy(desc(feeChanges.effectiveOn), desc(feeChanges.createdAt)),
  ]);
  return {
    commissionPercent,
    earliestEffectiveOn: utcDay(new Date(now + FEE_NOTICE_DAYS * 86_400_000)),
    changes: rows.map((r) => ({
      id: r.id,
      commissionPercent: r.commissionBasisPoints / 100,
      effectiveOn: r.effectiveOn,
      operatorEmail: r.operatorEmail,
      announcedAt: r.createdAt.toISOString(),
    })),
  };
}
