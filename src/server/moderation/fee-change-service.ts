import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { FEE_NOTICE_DAYS, type FeeChange, type FeeChangeInput } from '../../shared/payments.js';
import { msg } from '../../shared/i18n/translator.js';
import { feeChanges, kitchens } from '../db/schema.js';
import { utcDay } from '../data/fee-changes.js';
import type { User } from '../identity/users.js';
import { badRequest } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import { recordAction } from './moderation-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock'>;
type Operator = Pick<User, 'id' | 'email'>;

/**
 * An operator schedules a change of the platform's commission from a day at least FEE_NOTICE_DAYS after today (UTC,
 * by the app's clock; 400 naming `effectiveOn` otherwise), and every cook is told by email through the notifications'
 * outbox, in the same transaction as the change and its line in the operators' log (ADR 27).
 */
export function scheduleFeeChange(app: App, operator: Operator, input: FeeChangeInput): Promise<FeeChange> {
  const earliest = utcDay(new Date(app.clock.now() + FEE_NOTICE_DAYS * 86_400_000));
  if (input.effectiveOn < earliest)
    throw badRequest(
      msg('A change of fees must be announced {days} days ahead: it can apply from {date} at the earliest'),
      'effectiveOn',
      { days: FEE_NOTICE_DAYS, date: earliest },
    );
  return mutate(app, async (tx, record) => {
    const [row] = await tx
      .insert(feeChanges)
      .values({
        commissionBasisPoints: Math.round(input.commissionPercent * 100),
        effectiveOn: input.effectiveOn,
        operatorId: operator.id,
        operatorEmail: operator.email,
        createdAt: sql`clock_timestamp()`,
      })
      .returning();
    if (!row) throw new Error('the change of fees was not written');
    const cooks = await tx.select({ uid: kitchens.ownerId }).from(kitchens);
    await recordAction(tx, {
      operator,
      action: 'schedule_fee_change',
      targetKind: null,
      targetId: null,
      // No note: the server's words would be English; the change itself is listed on 'Rules and fees'.
    });
    record({ type: 'fees.change-announced', feeChangeId: row.id, kitchenUids: cooks.map((c) => c.uid) });
    record({ type: 'operator.acted', action: 'schedule_fee_change', targetId: row.id });
    return {
      id: row.id,
      commissionPercent: row.commissionBasisPoints / 100,
      effectiveOn: row.effectiveOn,
      operatorEmail: row.operatorEmail,
      announcedAt: row.createdAt.toISOString(),
      cooks: cooks.length,
    };
  });
}
