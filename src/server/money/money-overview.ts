import { and, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MoneyOverview } from '../../shared/payments.js';
import {
  creditAccounts,
  ledgerEntries,
  orderDisputes,
  orders,
  paymentDifferences,
  type LedgerKind,
} from '../db/schema.js';
import { lastReconciled } from './reconcile.js';

const DIFFERENCES_SHOWN = 100;
const REFUNDS_SHOWN = 50;
const FAILING_SHOWN = 100;
const DISPUTES_SHOWN = 50;

/** A sum of the ledger's rows of these kinds, as a number (0 when there is none). */
const sumOf = (...kinds: LedgerKind[]) =>
  sql<number>`coalesce(sum(${ledgerEntries.amountCents}) filter (where ${inArray(ledgerEntries.kind, kinds)}), 0)::int`.mapWith(
    Number,
  );

/**
 * The operator's 'Money' tab, from the ledger in the marketplace's currency: card money captured and refunded, the
 * platform's fees kept and the kitchens' transfers (both net of refunds), what is held now (authorised, neither
 * captured nor released yet); the reconciliation's differences and last run; the latest refunds and disputes; the payment steps
 * that keep failing.
 */
export async function moneyOverview(app: Pick<FastifyInstance, 'db' | 'payments'>): Promise<MoneyOverview> {
  const currency = app.payments.config.currency;
  const inCurrency = eq(ledgerEntries.currency, currency);
  const [[totals], [held], differences, refunds, last, failing, disputes, [credit]] = await Promise.all([
    app.db
      .select({
        capturedCents: sumOf('captured'),
        refundedCents: sql<number>`-${sumOf('refunded')}`.mapWith(Number),
        platformFeeCents: sumOf('platform_fee', 'platform_fee_refunded'),
        kitchenTransferCents: sumOf('kitchen_transfer', 'kitchen_transfer_reversed'),
        creditIssuedCents: sql<number>`-${sumOf('credit_issued')}`.mapWith(Number),
        creditSpentCents: sql<number>`${sumOf('credit_spent')} + ${sumOf('credit_returned')}`.mapWith(Number),
      })
      .from(ledgerEntries)
      .where(inCurrency),
    // Orders whose hold stands: what was authorised, less what was released or captured of it.
    app.db
      .select({
        heldCents: sql<number>`${sumOf('authorised', 'released')} - ${sumOf('captured')}`.mapWith(Number),
      })
      .from(ledgerEntries)
      .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
      .where(and(inCurrency, inArray(orders.paymentState, ['authorised', 'capturing', 'releasing']))),
    app.db
      .select({
        id: paymentDifferences.id,
        at: paymentDifferences.createdAt,
        scope: paymentDifferences.scope,
        detail: paymentDifferences.detail,
      })
      .from(paymentDifferences)
      .orderBy(desc(paymentDifferences.createdAt), desc(paymentDifferences.id))
      .limit(DIFFERENCES_SHOWN),
    app.db
      .select({
        orderId: ledgerEntries.orderId,
        at: ledgerEntries.createdAt,
        kitchenName: orders.kitchenName,
        amount: ledgerEntries.amountCents,
      })
      .from(ledgerEntries)
      .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
      .where(and(eq(ledgerEntries.kind, 'refunded'), isNotNull(ledgerEntries.orderId), inCurrency))
      .orderBy(desc(ledgerEntries.createdAt))
      .limit(REFUNDS_SHOWN),
    lastReconciled(app),
    app.db
      .select({
        orderId: orders.id,
        kitchenName: orders.kitchenName,
        state: orders.paymentState,
        failures: orders.paymentFailures,
        error: orders.paymentError,
        nextTryAt: orders.paymentRetryAt,
        gaveUpAt: orders.paymentGaveUpAt,
      })
      .from(orders)
      .where(gt(orders.paymentFailures, 0))
      .orderBy(desc(orders.paymentGaveUpAt), desc(orders.paymentFailures))
      .limit(FAILING_SHOWN),
    app.db
      .select({ dispute: orderDisputes, kitchenName: orders.kitchenName })
      .from(orderDisputes)
      .innerJoin(orders, eq(orders.id, orderDisputes.orderId))
      .orderBy(desc(orderDisputes.createdAt), desc(orderDisputes.id))
      .limit(DISPUTES_SHOWN),
    app.db
      .select({ cents: sql<number>`coalesce(sum(${creditAccounts.balanceCents}), 0)::int`.mapWith(Number) })
      .from(creditAccounts)
      .where(eq(creditAccounts.currency, currency)),
  ]);
  return {
    currency,
    totals: {
      capturedCents: totals?.capturedCents ?? 0,
      platformFeeCents: totals?.platformFeeCents ?? 0,
      kitchenTransferCents: totals?.kitchenTransferCents ?? 0,
      refundedCents: totals?.refundedCents ?? 0,
      heldCents: held?.heldCents ?? 0,
      creditIssuedCents: totals?.creditIssuedCents ?? 0,
      creditSpentCents: totals?.creditSpentCents ?? 0,
      creditHeldCents: credit?.cents ?? 0,
    },
    differences: differences.map((d) => ({ ...d, at: d.at.toISOString() })),
    refunds: refunds.map((r) => ({
      orderId: r.orderId ?? '',
      at: r.at.toISOString(),
      kitchenName: r.kitchenName,
      amountCents: -r.amount,
    })),
    lastReconciledAt: last?.toISOString() ?? null,
    disputes: disputes.map(({ dispute, kitchenName }) => ({
      orderId: dispute.orderId,
      kitchenName,
      at: dispute.createdAt.toISOString(),
      amountCents: dispute.amountCents,
      feeCents: dispute.feeCents,
      status: dispute.status,
      evidenceDueBy: dispute.evidenceDueBy?.toISOString() ?? null,
      evidenceSubmitted: dispute.evidenceSubmittedAt !== null,
      outcome: dispute.outcome,
    })),
    failingSteps: failing.map((f) => ({
      ...f,
      error: f.error ?? '',
      nextTryAt: f.gaveUpAt ? null : (f.nextTryAt?.toISOString() ?? null),
      gaveUpAt: f.gaveUpAt?.toISOString() ?? null,
    })),
  };
}
