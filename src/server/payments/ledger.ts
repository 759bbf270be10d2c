import type { DbOrTx } from '../db/database.js';
import { ledgerEntries, type LedgerKind } from '../db/schema.js';

/** The order a ledger row belongs to. */
export interface LedgerOrder {
  id: string;
  kitchenId: string | null;
  currency: string;
  paymentIntentId: string | null;
}

/**
 * Writes movements of an order's money (minor units, signed), in the transaction of the change they belong to.
 * One row per order, entry and kind: a step recorded twice (a retry, a replayed event) is written once. `entry` names
 * one of several movements of the same kind (`refund:<id>`); the order's own steps are `order`.
 */
export async function writeLedger(
  tx: DbOrTx,
  order: LedgerOrder,
  movements: readonly (readonly [LedgerKind, number])[],
  entry = 'order',
): Promise<void> {
  if (movements.length === 0) return;
  await tx
    .insert(ledgerEntries)
    .values(
      movements.map(([kind, amountCents]) => ({
        orderId: order.id,
        kitchenId: order.kitchenId,
        kind,
        amountCents,
        currency: order.currency,
        providerRef: order.paymentIntentId,
        entry,
      })),
    )
    .onConflictDoNothing({ target: [ledgerEntries.orderId, ledgerEntries.entry, ledgerEntries.kind] });
}

/** The ledger entry of a tip paid with its order (ADR 25); a tip paid after delivery is `tip:<id>`. */
export const CHECKOUT_TIP_ENTRY = 'tip:checkout';
export const tipEntry = (tipId: string) => `tip:${tipId}`;
