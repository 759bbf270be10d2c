import { and, desc, eq, sql } from 'drizzle-orm';
import { CREDIT_TOO_LOW, type CreditAccount, type CreditKind } from '../../shared/credit.js';
import { msg } from '../../shared/i18n/translator.js';
import type { DbOrTx } from '../db/database.js';
import { creditAccounts, creditEntries, orders } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';

/**
 * Store credit (ADR 29): each customer's account and its movements. Every change is one entry named once per
 * account (`entry`) and the balance moved by the same amount, in the caller's transaction: a repeat (a retry, a
 * replayed step) writes nothing, and the balance can never go below zero (its check refuses a spend that another
 * spend beat, so two at once cannot both take the same credit).
 */
export interface CreditMove {
  customerId: string;
  kind: CreditKind;
  /** Signed minor units: positive gives credit, negative spends it. */
  amountCents: number;
  currency: string;
  entry: string;
  orderId?: string | null;
}

/** 409: less credit than asked (another order took it meanwhile). */
export const creditTooLow = () =>
  new HttpError(
    409,
    CREDIT_TOO_LOW,
    msg('Your store credit has changed. Please look at your order again.'),
    'useCredit',
  );

/**
 * Moves a customer's credit by one entry. Returns false for a repeat of an entry already written (nothing changes);
 * throws 409 CREDIT_TOO_LOW when a spend is more than the balance (the transaction rolls back).
 */
export async function moveCredit(tx: DbOrTx, move: CreditMove): Promise<boolean> {
  if (move.amountCents === 0) return false;
  await tx
    .insert(creditAccounts)
    .values({ customerId: move.customerId, currency: move.currency })
    .onConflictDoNothing({ target: creditAccounts.customerId });
  const [written] = await tx
    .insert(creditEntries)
    .values({
      customerId: move.customerId,
      kind: move.kind,
      amountCents: move.amountCents,
      currency: move.currency,
      entry: move.entry,
      orderId: move.orderId ?? null,
    })
    .onConflictDoNothing({ target: [creditEntries.customerId, creditEntries.entry] })
    .returning({ id: creditEntries.id });
  if (!written) return false;
  // One statement decides: it waits for a spend under way on the same account, then finds the balance it left.
  const [moved] = await tx
    .update(creditAccounts)
    .set({ balanceCents: sql`${creditAccounts.balanceCents} + ${move.amountCents}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(creditAccounts.customerId, move.customerId),
        sql`${creditAccounts.balanceCents} + ${move.amountCents} >= 0`,
      ),
    )
    .returning({ balance: creditAccounts.balanceCents });
  if (!moved) throw creditTooLow();
  return true;
}

/** A customer's credit balance now (0 without an account). */
export async function creditBalance(db: DbOrTx, customerId: string): Promise<number> {
  const [row] = await db
    .select({ balance: creditAccounts.balanceCents })
    .from(creditAccounts)
    .where(eq(creditAccounts.customerId, customerId));
  return row?.balance ?? 0;
}

/** The entry names of an order's credit: what it spent, and what was given back of it. */
export const spentEntry = (orderId: string) => `order:${orderId}:spent`;
export const returnedEntry = (orderId: string) => `order:${orderId}:returned`;
/** A refund (or its part) given as credit. */
export const creditRefundEntry = (refundId: string) => `refund:${refundId}`;

/** The account page's view: balance and movements, newest first (the latest `limit`). */
export async function creditAccountOf(
  db: DbOrTx,
  customerId: string,
  currency: string,
  limit = 100,
): Promise<CreditAccount> {
  const [balance, rows] = await Promise.all([
    creditBalance(db, customerId),
    db
      .select({ entry: creditEntries, kitchenName: orders.kitchenName })
      .from(creditEntries)
      .leftJoin(orders, eq(orders.id, creditEntries.orderId))
      .where(eq(creditEntries.customerId, customerId))
      .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id))
      .limit(limit),
  ]);
  return {
    currency,
    balanceCents: balance,
    entries: rows.map(({ entry, kitchenName }) => ({
      id: entry.id,
      kind: entry.kind,
      amountCents: entry.amountCents,
      orderId: entry.orderId,
      kitchenName: kitchenName ?? null,
      at: entry.createdAt.toISOString(),
    })),
  };
}
