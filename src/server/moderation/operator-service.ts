import type { FastifyInstance } from 'fastify';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { KitchenListing } from '../../shared/jurisdictions.js';
import {
  NOT_AWAITING_APPROVAL,
  type ListingDecisionInput,
  type OperatorActionKind,
  type OperatorActionResult,
  type ReportTargetKind,
} from '../../shared/moderation.js';
import { setListing } from '../data/kitchen-queries.js';
import type { User } from '../identity/users.js';
import { chatMessages, kitchens, reports, reviews } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';
import { msg } from '../../shared/i18n/translator.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import type { Tx } from '../db/database.js';
import { closeReportsOf, recordAction } from './moderation-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>;
type Operator = Pick<User, 'id' | 'email'>;
type ListingDecision = ListingDecisionInput['decision'];

const NO_SUCH = {
  'chat message': msg('No chat message {id}'),
  review: msg('No review {id}'),
  kitchen: msg('No kitchen {id}'),
  report: msg('No report {id}'),
} as const;
const missing = (what: keyof typeof NO_SUCH, id: string, field: string) =>
  new HttpError(404, 'NOT_FOUND', NO_SUCH[what], field, undefined, { id });

/**
 * One operator action in one transaction: `apply` changes the target and says whether anything changed (404s
 * when there is no such target); a change is recorded in operator_actions in the same transaction. Hiding and
 * suspending also close every open report of the target (the action resolves them).
 */
async function act(
  app: App,
  operator: Operator,
  what: {
    action: 'hide_chat_message' | 'hide_review' | 'suspend_kitchen' | 'lift_suspension';
    kind: ReportTargetKind;
    id: string;
    note: string | undefined;
    closesReports: boolean;
  },
  apply: (tx: Tx, record: RecordEvent) => Promise<boolean>,
): Promise<OperatorActionResult> {
  return mutate(app, async (tx, record) => {
    const changed = await apply(tx, record);
    const closed = what.closesReports ? await closeReportsOf(tx, what.kind, what.id, operator.id) : 0;
    if (changed || closed > 0) {
      await recordAction(tx, {
        operator,
        action: what.action,
        targetKind: what.kind,
        targetId: what.id,
        note: what.note,
      });
      record({ type: 'operator.acted', action: what.action, targetId: what.id });
    }
    return { changed: changed || closed > 0 };
  });
}

/** 'Hide message': the message is gone from the chat and its history for everyone. */
export function hideChatMessage(app: App, operator: Operator, id: string, note?: string) {
  return act(
    app,
    operator,
    { action: 'hide_chat_message', kind: 'chat_message', id, note, closesReports: true },
    async (tx, record) => {
      const [row] = await tx
        .select({ hiddenAt: chatMessages.hiddenAt })
        .from(chatMessages)
        .where(eq(chatMessages.id, id))
        .for('update');
      if (!row) throw missing('chat message', id, 'id');
      if (row.hiddenAt) return false;
      await tx
        .update(chatMessages)
        .set({ hiddenAt: sql`now()` })
        .where(eq(chatMessages.id, id));
      record({ type: 'chat.hidden', messageId: id });
      return true;
    },
  );
}

/** 'Hide review': gone for everyone, and no longer counted in the kitchen's average. */
export function hideReview(app: App, operator: Operator, id: string, note?: string) {
  return act(
    app,
    operator,
    { action: 'hide_review', kind: 'review', id, note, closesReports: true },
    async (tx, record) => {
      const [row] = await tx
        .select({ hiddenAt: reviews.hiddenAt, kitchenId: reviews.kitchenId })
        .from(reviews)
        .where(eq(reviews.id, id))
        .for('update');
      if (!row) throw missing('review', id, 'id');
      if (row.hiddenAt) return false;
      await tx
        .update(reviews)
        .set({ hiddenAt: sql`now()` })
        .where(eq(reviews.id, id));
      // Open lists of the kitchen's reviews lose it; its rating (cards, header, search answers) changes.
      record({ type: 'review.hidden', reviewId: id, kitchenUid: row.kitchenId });
      return true;
    },
  );
}

/** 'Suspend kitchen': hidden from the landing page and search, its menu page unavailable, orders refused. */
export function suspendKitchen(app: App, operator: Operator, uid: string, note?: string) {
  return act(
    app,
    operator,
    { action: 'suspend_kitchen', kind: 'kitchen', id: uid, note, closesReports: true },
    async (tx, record) => {
      const rows = await tx
        .update(kitchens)
        .set({ suspendedAt: sql`coalesce(${kitchens.suspendedAt}, now())` })
        .where(eq(kitchens.ownerId, uid))
        .returning({ was: sql<boolean>`${kitchens.suspendedAt} = now()` });
      const [row] = rows;
      if (!row) throw missing('kitchen', uid, 'uid');
      if (!row.was) return false;
      record({ type: 'kitchen.suspended', kitchenUid: uid });
      return true;
    },
  );
}

/** 'Lift suspension': the kitchen is back everywhere. */
export function liftSuspension(app: App, operator: Operator, uid: string, note?: string) {
  return act(
    app,
    operator,
    { action: 'lift_suspension', kind: 'kitchen', id: uid, note, closesReports: false },
    async (tx, record) => {
      const [exists] = await tx
        .select({ uid: kitchens.ownerId })
        .from(kitchens)
        .where(eq(kitchens.ownerId, uid));
      if (!exists) throw missing('kitchen', uid, 'uid');
      const lifted = await tx
        .update(kitchens)
        .set({ suspendedAt: null })
        .where(and(eq(kitchens.ownerId, uid), isNotNull(kitchens.suspendedAt)))
        .returning({ uid: kitchens.ownerId });
      if (lifted.length === 0) return false;
      record({ type: 'kitchen.reinstated', kitchenUid: uid });
      return true;
    },
  );
}

/** 'Close report': the report leaves the open list, whatever it named stays as it is. */
export function closeReport(
  app: App,
  operator: Operator,
  id: string,
  note?: string,
): Promise<OperatorActionResult> {
  return mutate(app, async (tx, record) => {
    const [report] = await tx
      .select({ closedAt: reports.closedAt, targetKind: reports.targetKind, targetId: reports.targetId })
      .from(reports)
      .where(eq(reports.id, id))
      .for('update');
    if (!report) throw missing('report', id, 'id');
    if (report.closedAt) return { changed: false };
    await tx
      .update(reports)
      .set({ closedAt: sql`now()`, closedBy: operator.id })
      .where(and(eq(reports.id, id), isNull(reports.closedAt)));
    await recordAction(tx, {
      operator,
      action: 'close_report',
      targetKind: report.targetKind,
      targetId: report.targetId,
      reportId: id,
      note,
    });
    record({ type: 'report.closed', reportId: id });
    return { changed: true };
  });
}

const DECIDED = {
  approve: { action: 'approve_kitchen', state: 'listed' },
  'ask-changes': { action: 'ask_kitchen_changes', state: 'changes-asked' },
  refuse: { action: 'refuse_kitchen', state: 'refused' },
} as const satisfies Record<ListingDecision, { action: OperatorActionKind; state: KitchenListing }>;

/**
 * An operator's decision on a kitchen whose place's rules ask for a permit: 'approve' lists it, 'ask-changes' and
 * 'refuse' keep it off the lists with the reason the cook reads. Only a kitchen awaiting a decision (or the changes
 * asked; a refused one may still be approved) can be decided on: 409 otherwise, changing nothing. The decision is in
 * the operators' log with its reason, in the same transaction.
 */
export function decideListing(
  app: App,
  operator: Operator,
  uid: string,
  input: ListingDecisionInput,
): Promise<OperatorActionResult> {
  const decided = DECIDED[input.decision];
  const from: KitchenListing[] =
    input.decision === 'approve'
      ? ['awaiting-approval', 'changes-asked', 'refused']
      : ['awaiting-approval', 'changes-asked'];
  return mutate(app, async (tx, record) => {
    const [row] = await tx
      .select({ listing: kitchens.listing })
      .from(kitchens)
      .where(eq(kitchens.ownerId, uid))
      .for('update');
    if (!row) throw missing('kitchen', uid, 'uid');
    if (!from.includes(row.listing))
      throw new HttpError(
        409,
        NOT_AWAITING_APPROVAL,
        msg('This kitchen is not waiting for a decision'),
        'uid',
      );
    await setListing(tx, uid, { state: decided.state, reason: input.reason, decided: true }, from);
    await recordAction(tx, {
      operator,
      action: decided.action,
      targetKind: 'kitchen',
      targetId: uid,
      note: input.reason,
    });
    record({ type: 'kitchen.listing-changed', kitchenUid: uid, listing: decided.state });
    record({ type: 'operator.acted', action: decided.action, targetId: uid });
    return { changed: true };
  });
}
