import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  ModerationView,
  OpenReport,
  OperatorActionEntry,
  OperatorActionKind,
  Report,
  ReportInput,
  ReportTargetKind,
} from '../../shared/moderation.js';
import type { DbOrTx } from '../db/database.js';
import {
  chatMessages,
  kitchenDocuments,
  kitchens,
  operatorActions,
  reports,
  reviews,
  users,
} from '../db/schema.js';
import { documentFile, documentsWithFiles } from '../data/kitchen-documents.js';
import { listKitchensToRefer } from './referral-queries.js';

/** How many open reports and recent actions the operator's page holds at most. */
const MAX_OPEN_REPORTS = 200;
const MAX_RECENT_ACTIONS = 50;

/** Who owns a reportable thing (to refuse reporting one's own), or undefined when there is no such visible thing. */
export async function findReportTarget(
  db: DbOrTx,
  kind: ReportTargetKind,
  id: string,
): Promise<{ ownerId: string } | undefined> {
  switch (kind) {
    case 'chat_message': {
      const [row] = await db
        .select({ ownerId: chatMessages.userId })
        .from(chatMessages)
        .where(and(eq(chatMessages.id, id), isNull(chatMessages.hiddenAt)));
      return row;
    }
    case 'review': {
      const [row] = await db
        .select({ ownerId: reviews.customerId })
        .from(reviews)
        .where(and(eq(reviews.id, id), isNull(reviews.hiddenAt)));
      return row;
    }
    case 'kitchen': {
      const [row] = await db
        .select({ ownerId: kitchens.ownerId })
        .from(kitchens)
        .where(and(eq(kitchens.ownerId, id), isNull(kitchens.suspendedAt)));
      return row;
    }
  }
}

/** Advisory-lock namespace of reporters (chat senders use 7254002). */
const REPORTER_LOCK_CLASS = 7254003;

/** Serialises one reporter's reports until the transaction ends: counting, the duplicate check and the insert. */
export async function lockReporter(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${REPORTER_LOCK_CLASS}, hashtext(${userId}))`);
}

/** Seconds until the reporter may report again (0: within the limit), by the database's clock. */
export async function secondsUntilReporterMayReport(
  tx: DbOrTx,
  userId: string,
  limit: { reports: number; windowMinutes: number },
): Promise<number> {
  const windowStart = sql`(clock_timestamp() - make_interval(mins => ${limit.windowMinutes}))`;
  const rows = await tx
    .select({ wait: sql<string>`extract(epoch from ${reports.createdAt} - ${windowStart})` })
    .from(reports)
    .where(and(eq(reports.reporterId, userId), sql`${reports.createdAt} > ${windowStart}`))
    .orderBy(desc(reports.createdAt))
    .offset(limit.reports - 1)
    .limit(1);
  const wait = rows[0] ? Number(rows[0].wait) : 0;
  return wait > 0 ? Math.max(1, Math.ceil(wait)) : 0;
}

/** The reporter's open report of this target, if any. */
export async function findOpenReport(db: DbOrTx, reporterId: string, input: ReportInput) {
  const [row] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(
      and(
        eq(reports.reporterId, reporterId),
        eq(reports.targetKind, input.targetKind),
        eq(reports.targetId, input.targetId),
        isNull(reports.closedAt),
      ),
    )
    .limit(1);
  return row;
}

export async function insertReport(tx: DbOrTx, reporterId: string, input: ReportInput): Promise<Report> {
  const [row] = await tx
    .insert(reports)
    .values({
      reporterId,
      targetKind: input.targetKind,
      targetId: input.targetId,
      reason: input.reason,
      createdAt: sql`clock_timestamp()`,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return {
    id: row.id,
    targetKind: row.targetKind,
    targetId: row.targetId,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
}

const reporter = alias(users, 'reporter');
const messageAuthor = alias(users, 'message_author');
const reviewAuthor = alias(users, 'review_author');
const reviewKitchen = alias(kitchens, 'review_kitchen');

/** Open reports, newest first, each with what it names as it is now. */
export async function listOpenReports(db: DbOrTx): Promise<OpenReport[]> {
  const rows = await db
    .select({
      report: reports,
      reporterName: reporter.displayName,
      message: {
        text: chatMessages.text,
        hiddenAt: chatMessages.hiddenAt,
        authorName: messageAuthor.displayName,
      },
      review: {
        stars: reviews.stars,
        text: reviews.text,
        hiddenAt: reviews.hiddenAt,
        authorName: reviewAuthor.displayName,
        kitchenUid: reviews.kitchenId,
        kitchenName: reviewKitchen.name,
      },
      kitchen: { uid: kitchens.ownerId, name: kitchens.name, suspendedAt: kitchens.suspendedAt },
    })
    .from(reports)
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(
      chatMessages,
      and(eq(reports.targetKind, 'chat_message'), eq(chatMessages.id, reports.targetId)),
    )
    .leftJoin(messageAuthor, eq(messageAuthor.id, chatMessages.userId))
    .leftJoin(reviews, and(eq(reports.targetKind, 'review'), eq(reviews.id, reports.targetId)))
    .leftJoin(reviewAuthor, eq(reviewAuthor.id, reviews.customerId))
    .leftJoin(reviewKitchen, eq(reviewKitchen.ownerId, reviews.kitchenId))
    .leftJoin(kitchens, and(eq(reports.targetKind, 'kitchen'), eq(kitchens.ownerId, reports.targetId)))
    .where(isNull(reports.closedAt))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(MAX_OPEN_REPORTS);
  return rows.map(({ report, reporterName, message, review, kitchen }) => {
    let target: OpenReport['target'] = null;
    if (report.targetKind === 'chat_message' && message?.text != null)
      target = {
        kind: 'chat_message',
        text: message.text,
        authorName: message.authorName ?? '',
        hidden: message.hiddenAt !== null,
      };
    else if (report.targetKind === 'review' && review?.stars != null && review.kitchenUid)
      target = {
        kind: 'review',
        stars: review.stars,
        text: review.text ?? '',
        authorName: review.authorName ?? '',
        kitchenUid: review.kitchenUid,
        kitchenName: review.kitchenName ?? '',
        hidden: review.hiddenAt !== null,
      };
    else if (report.targetKind === 'kitchen' && kitchen?.uid)
      target = {
        kind: 'kitchen',
        uid: kitchen.uid,
        name: kitchen.name ?? '',
        suspended: kitchen.suspendedAt !== null,
      };
    return {
      id: report.id,
      targetKind: report.targetKind,
      targetId: report.targetId,
      reason: report.reason,
      reporterName: reporterName ?? null,
      createdAt: report.createdAt.toISOString(),
      target,
    };
  });
}

export async function listRecentActions(db: DbOrTx): Promise<OperatorActionEntry[]> {
  const rows = await db
    .select()
    .from(operatorActions)
    .orderBy(desc(operatorActions.createdAt), desc(operatorActions.id))
    .limit(MAX_RECENT_ACTIONS);
  return rows.map((row) => ({
    id: row.id,
    operatorEmail: row.operatorEmail,
    action: row.action,
    targetKind: row.targetKind,
    targetId: row.targetId,
    reportId: row.reportId,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function listSuspendedKitchens(db: DbOrTx): Promise<ModerationView['suspendedKitchens']> {
  const rows = await db
    .select({ uid: kitchens.ownerId, name: kitchens.name, suspendedAt: kitchens.suspendedAt })
    .from(kitchens)
    .where(isNotNull(kitchens.suspendedAt))
    .orderBy(desc(kitchens.suspendedAt));
  return rows.map((r) => ({ uid: r.uid, name: r.name, suspendedAt: r.suspendedAt?.toISOString() ?? '' }));
}

/** The oldest kitchens waiting for a decision on their listing (or for the changes asked), with their papers. */
export async function listAwaitingApproval(db: DbOrTx): Promise<ModerationView['approvals']> {
  const rows = await db
    .select({
      uid: kitchens.ownerId,
      name: kitchens.name,
      ownerName: kitchens.ownerName,
      address: kitchens.address,
      countryCode: kitchens.countryCode,
      region: kitchens.region,
      county: kitchens.county,
      state: kitchens.listing,
      reason: kitchens.listingReason,
      registeredAt: kitchens.createdAt,
    })
    .from(kitchens)
    .where(inArray(kitchens.listing, ['awaiting-approval', 'changes-asked']))
    .orderBy(asc(kitchens.createdAt), asc(kitchens.ownerId))
    .limit(MAX_OPEN_REPORTS);
  const papers = rows.length
    ? await documentsWithFiles(db)
        .where(
          inArray(
            kitchenDocuments.kitchenId,
            rows.map((r) => r.uid),
          ),
        )
        .orderBy(kitchenDocuments.kind, desc(kitchenDocuments.expiresOn))
    : [];
  return rows.map((r) => ({
    uid: r.uid,
    name: r.name,
    ownerName: r.ownerName,
    address: r.address,
    place: [r.county, r.region, r.countryCode].filter(Boolean).join(', '),
    state: r.state === 'changes-asked' ? 'changes-asked' : 'awaiting-approval',
    reason: r.reason,
    registeredAt: r.registeredAt.toISOString(),
    documents: papers
      .filter(({ document: d }) => d.kitchenId === r.uid)
      .map(({ document: d, widths }) => ({
        kind: d.kind,
        number: d.number,
        holder: d.holder,
        expiresOn: d.expiresOn,
        file: documentFile({ ...d, widths }),
      })),
  }));
}

/** The operator's page as of `now` (the app's clock: which complaints are within the referral period). */
export async function loadModerationView(db: DbOrTx, now: number): Promise<ModerationView> {
  const [approvals, referrals, openReports, suspendedKitchens, actions] = await Promise.all([
    listAwaitingApproval(db),
    listKitchensToRefer(db, now),
    listOpenReports(db),
    listSuspendedKitchens(db),
    listRecentActions(db),
  ]);
  return { approvals, referrals, reports: openReports, suspendedKitchens, actions };
}

export interface ActionRecord {
  operator: { id: string; email: string };
  action: OperatorActionKind;
  targetKind: ReportTargetKind | null;
  targetId: string | null;
  reportId?: string | null;
  note?: string | undefined;
}

/** Records an operator's action (in the action's own transaction). */
export async function recordAction(tx: DbOrTx, record: ActionRecord): Promise<void> {
  await tx.insert(operatorActions).values({
    operatorId: record.operator.id,
    operatorEmail: record.operator.email,
    action: record.action,
    targetKind: record.targetKind,
    targetId: record.targetId,
    reportId: record.reportId ?? null,
    note: record.note || null,
    createdAt: sql`clock_timestamp()`,
  });
}

/** Closes every open report of a target; returns how many. */
export async function closeReportsOf(
  tx: DbOrTx,
  kind: ReportTargetKind,
  id: string,
  operatorId: string,
): Promise<number> {
  const rows = await tx
    .update(reports)
    .set({ closedAt: sql`now()`, closedBy: operatorId })
    .where(and(eq(reports.targetKind, kind), eq(reports.targetId, id), isNull(reports.closedAt)))
    .returning({ id: reports.id });
  return rows.length;
}
