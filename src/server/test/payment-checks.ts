import { expect } from 'vitest';
import type { PaymentStateName } from '../../shared/payments.js';
import { providerSide } from '../money/reconcile.js';
import type { PaymentState } from '../payments/provider.js';
import type { FakeClock } from './fake-clock.js';
import { money } from './payments-world.js';
import type { TestContext } from './test-app.js';

/** What the provider may hold of a payment whose order's money stands in `state` (a step pending: nothing). */
const PROVIDER_STATES: Partial<Record<PaymentStateName, readonly PaymentState[]>> = {
  authorised: ['authorised'],
  captured: ['captured'],
  released: ['released'],
  refunded: ['refunded'],
  // Never paid: the page is still open (nobody can pay an ended order's page but in a race), or closed.
  unpaid: ['awaiting-payment', 'needs-action', 'released'],
  // Not paid yet: a payment made would have been found by the poll, and the order would have reached its kitchen.
  'awaiting-payment': ['awaiting-payment', 'needs-action'],
};

/**
 * Checks that an order's ledger balances once nothing is pending: what was captured went to the platform's fee and
 * the kitchen's transfer, a refund took both back, and nothing is held unless the payment is authorised.
 */
export async function expectLedgerBalanced(ctx: TestContext, orderId: string) {
  const { row, ledger, checkoutTip, creditTransfer } = await money(ctx, orderId);
  if (!row) throw new Error(`no order ${orderId}`);
  const at = (kind: string) => ledger[kind] ?? 0;
  const where = `order ${orderId} (${row.state}, ${row.paymentState}): ${JSON.stringify(ledger)}`;
  // Tips (ADR 25): one paid with the order is in `captured` and goes whole to the kitchen (`tip_transfer`, reversed
  // by `tip_reversed` when the order is refunded in full); one paid later is `tip`, all of it `tip_transfer`.
  // Store credit (ADR 29): what it paid is beside the card's capture, and the platform funds it from its fee; what
  // is given back as credit (a refund's part, or the whole order's credit) the platform pays.
  // A promotion code (ADR 30): what the customer did not pay is beside the capture too, and its payer funds it:
  // the platform from its fee (what is beyond the fee is inside `kitchen_transfer`, the platform's transfer), or the
  // kitchen from its transfer.
  expect(at('captured') + at('tip') + at('credit_spent') + at('discount_given'), where).toBe(
    at('platform_fee') +
      at('kitchen_transfer') +
      at('tip_transfer') +
      at('credit_fee_funded') +
      at('discount_fee_funded') +
      at('discount_kitchen_funded'),
  );
  expect(
    at('refunded') + at('credit_issued') + at('credit_returned') + at('discount_given_reversed'),
    where,
  ).toBe(
    at('platform_fee_refunded') +
      at('kitchen_transfer_reversed') +
      at('tip_reversed') +
      at('credit_platform_funded') +
      at('credit_fee_funded_reversed') +
      at('discount_fee_funded_reversed') +
      at('discount_kitchen_funded_reversed'),
  );
  expect(at('authorised') + at('released') - at('captured'), where).toBe(
    row.paymentState === 'authorised' ? row.totalCents - row.creditCents : 0,
  );
  return { row, at, where, checkoutTip, creditTransfer };
}

/**
 * Checks an order's money once nothing is pending: its ledger balances (`expectLedgerBalanced`) and agrees with what
 * the provider holds of its payment (state, captured, refunded, the platform's fee kept).
 */
export async function expectMoneySettled(ctx: TestContext, orderId: string): Promise<PaymentStateName> {
  const { row, at, where, checkoutTip, creditTransfer } = await expectLedgerBalanced(ctx, orderId);
  if (row.paymentMethod === 'cash' || !row.paymentIntentId) return row.paymentState;
  const figures = await ctx.app.payments.provider?.figures(row.paymentIntentId);
  expect(PROVIDER_STATES[row.paymentState] ?? [], `${where}; the provider: ${figures?.state}`).toContain(
    figures?.state,
  );
  if (!figures) throw new Error(`the provider knows nothing of ${where}`);
  const theirs = providerSide(figures);
  expect(theirs.captured, where).toBe(at('captured'));
  expect(theirs.refunded, where).toBe(0 - at('refunded'));
  expect(theirs.platformFee, where).toBe(at('platform_fee') + at('platform_fee_refunded'));
  expect(theirs.kitchen, where).toBe(
    at('kitchen_transfer') + at('kitchen_transfer_reversed') + checkoutTip - creditTransfer,
  );
  return row.paymentState;
}

/** Moves a fake clock on by `ms`, and at least that far past the real time (rows carry the database's time). */
export function advancePast(clock: FakeClock, ms: number): void {
  clock.advance(Math.max(ms, Date.now() + ms - clock.now()));
}
