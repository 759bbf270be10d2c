import { and, asc, eq, inArray } from 'drizzle-orm';
import { groupLines } from '../../shared/orders.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens, ledgerEntries, orderItems, orderRefunds, orders, orderTips } from '../db/schema.js';
import type { Translator } from '../../shared/i18n/translator.js';
import type { PaymentCard, PaymentProvider } from '../payments/provider.js';
import { permitNumber } from './kitchen-documents.js';

/** A paid order's receipt, from the order and the ledger (ADR 25): what was paid, then refunds and tips appended. */
export interface Receipt {
  /** Never changes: derived from the order's id. */
  number: string;
  orderId: string;
  customerId: string | null;
  kitchenName: string;
  permitNumber: string | null;
  timeZone: string;
  /** When the money was taken: the card's capture, or the cash collected on delivery. */
  paidAt: Date;
  method: 'card' | 'cash';
  /** The card that paid ('visa', '4242'), once learnt from the provider; null for cash, or not known yet. */
  card: PaymentCard | null;
  fulfilment: 'delivery' | 'pickup';
  address: string;
  lines: { item: string; priceCents: number; quantity: number }[];
  itemsCents: number;
  deliveryFeeCents: number;
  feesAndTaxCents: number;
  /** The tip paid with the order. */
  tipCents: number;
  totalCents: number;
  /** Paid with store credit (ADR 29); the card paid the rest. */
  creditCents: number;
  /** A promotion code's discount (out of `totalCents` already) and who paid it (ADR 30). */
  discount: { code: string; cents: number; paidBy: 'platform' | 'kitchen' } | null;
  currency: string;
  /** Refunds given back, oldest first: to the card, and the part given as store credit. */
  refunds: { amountCents: number; creditCents: number; at: Date }[];
  /** Tips paid after delivery, each a payment of its own, oldest first. */
  laterTips: { amountCents: number; at: Date }[];
}

/** A receipt's number: 'HC-' and the order id's first twelve hex digits, upper case. */
export const receiptNumber = (orderId: string) =>
  `HC-${orderId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;

/** The receipt of an order whose money was taken (card captured, cash collected); null for any other order. */
export async function receiptOf(db: DbOrTx, orderId: string): Promise<Receipt | null> {
  const [row] = await db
    .select({ order: orders, timeZone: kitchens.timeZone })
    .from(orders)
    .leftJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const order = row.order;
  const [paid] = await db
    .select({ at: ledgerEntries.createdAt })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.orderId, orderId),
        // An order its store credit paid whole has no card capture: its credit's (ADR 29).
        inArray(ledgerEntries.entry, ['order', 'credit']),
        inArray(ledgerEntries.kind, ['captured', 'cash_collected', 'credit_spent']),
      ),
    )
    .limit(1);
  if (!paid) return null;
  const [items, refunds, tips, permit] = await Promise.all([
    db
      .select({ item: orderItems.item, priceCents: orderItems.priceCents })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.position)),
    db
      .select({
        amountCents: orderRefunds.amountCents,
        creditCents: orderRefunds.creditCents,
        at: orderRefunds.refundedAt,
      })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.state, 'refunded')))
      .orderBy(asc(orderRefunds.refundedAt)),
    db
      .select({ amountCents: orderTips.amountCents, at: orderTips.paidAt })
      .from(orderTips)
      .where(and(eq(orderTips.orderId, orderId), eq(orderTips.state, 'paid')))
      .orderBy(asc(orderTips.paidAt)),
    order.kitchenId ? permitNumber(db, order.kitchenId) : null,
  ]);
  // A whole refund of a cancelled order has no refund row of its own: the ledger's.
  const whole =
    refunds.length === 0 && order.paymentState === 'refunded'
      ? [
          {
            amountCents: order.totalCents,
            creditCents: order.creditCents,
            at: order.paymentUpdatedAt ?? paid.at,
          },
        ]
      : [];
  return {
    number: receiptNumber(order.id),
    orderId: order.id,
    customerId: order.customerId,
    kitchenName: order.kitchenName,
    permitNumber: permit,
    timeZone: row.timeZone ?? 'UTC',
    paidAt: paid.at,
    method: order.paymentMethod,
    card: order.cardBrand && order.cardLast4 ? { brand: order.cardBrand, last4: order.cardLast4 } : null,
    fulfilment: order.fulfilment,
    address: order.address,
    lines: groupLines(items).map(({ item, priceCents, quantity }) => ({ item, priceCents, quantity })),
    itemsCents: order.itemsCents,
    deliveryFeeCents: order.deliveryFeeCents,
    feesAndTaxCents: order.feesAndTaxCents,
    tipCents: order.tipCents,
    totalCents: order.totalCents,
    creditCents: order.creditCents,
    discount:
      order.discountPaidBy && order.discountCode
        ? { code: order.discountCode, cents: order.discountCents, paidBy: order.discountPaidBy }
        : null,
    currency: order.currency,
    refunds: [
      ...refunds.map((r) => ({
        amountCents: r.amountCents,
        creditCents: r.creditCents,
        at: r.at ?? paid.at,
      })),
      ...whole,
    ],
    laterTips: tips.map((tip) => ({ amountCents: tip.amountCents, at: tip.at ?? paid.at })),
  };
}

/**
 * The card that paid a receipt's order: as kept on the order when its payment was authorised, else (an order paid
 * before cards were kept, or whose provider did not answer then) as the provider says now. Null for cash, for an
 * order its store credit paid whole, or when the provider does not answer (the receipt is shown without it). A read:
 * nothing is written.
 */
export async function receiptCard(
  db: DbOrTx,
  provider: PaymentProvider | undefined,
  receipt: Receipt,
): Promise<PaymentCard | null> {
  if (receipt.card || receipt.method !== 'card' || !provider) return receipt.card;
  const [order] = await db
    .select({ intent: orders.paymentIntentId })
    .from(orders)
    .where(eq(orders.id, receipt.orderId));
  if (!order?.intent) return null;
  return provider.cardOf(order.intent).catch(() => null);
}

const BRANDS: Record<string, string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
};

/** A card brand as its owner names it: 'visa' → 'Visa', 'amex' → 'American Express'. */
export const brandName = (brand: string) =>
  BRANDS[brand] ?? brand.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * The card that paid, as a receipt says it ('Visa ending in 4242'): one text for the receipt's page, its PDF and its
 * email, so that the three never differ.
 */
export const cardText = (card: PaymentCard, tr: Translator) =>
  tr.t('{brand} ending in {last4}', { brand: brandName(card.brand), last4: card.last4 });
