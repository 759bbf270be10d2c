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
 * One row per order and kind: a step recorded twice (a retry, a replayed event) is written once.
 */
export async function writeLedger(
  tx: DbOrTx,
  order: LedgerOrder,
  movements: readonly (readonly [LedgerKind, number])[],
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
      })),
    )
    .onConflictDoNothing({ target: [ledgerEntries.orderId, ledgerEntries.kind] });
}
