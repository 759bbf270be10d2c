import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Kitchen } from '../../shared/kitchens.js';
import { instantAt, localTime } from '../../shared/opening-hours.js';
import type { Earnings, EarningsLine, EarningsQuery, EarningsTotal } from '../../shared/payments.js';
import type { DbOrTx } from '../db/database.js';
import { ledgerEntries, orderItems, orders, type LedgerKind } from '../db/schema.js';

/** The ledger's kinds that make an order paid, and the moment they were written its payment time. */
const PAID_KINDS: LedgerKind[] = ['captured', 'cash_collected'];
const PLATFORM_KINDS: LedgerKind[] = ['platform_fee', 'platform_fee_refunded'];
const COOK_KINDS: LedgerKind[] = ['kitchen_transfer', 'kitchen_transfer_reversed', 'cash_collected'];
/** A tip's part of what the kitchen got (its own entry, ADR 25): whole, outside the platform's fee. */
const TIP_KINDS: LedgerKind[] = ['tip_transfer', 'tip_reversed'];

/** A calendar day `days` after `day` (YYYY-MM-DD), or before it when negative. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The days asked, in the kitchen's zone: both as given, or the last 12 months (from the first of the month 11
 * months back to today) for whichever is left out.
 */
export function earningsRange(
  query: EarningsQuery,
  timeZone: string,
  now: Date,
): { from: string; to: string } {
  const today = localTime(now, timeZone).date;
  // A `from` after today alone asks for nothing yet: one day, not a refusal.
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  if (query.from) return { from: query.from, to };
  const [y, m] = to.split('-').map(Number) as [number, number];
  const from = new Date(Date.UTC(y, m - 12, 1)).toISOString().slice(0, 10);
  return { from, to };
}

/** Sums the totals of lines by a key of their day (the day itself, or its month). */
function totalsBy(lines: readonly EarningsLine[], period: (day: string) => string): EarningsTotal[] {
  const totals = new Map<string, EarningsTotal>();
  for (const line of lines) {
    const key = period(line.day);
    const total = totals.get(key) ?? {
      period: key,
      orders: 0,
      platformFeeCents: 0,
      refundedCents: 0,
      tipCents: 0,
      netCents: 0,
    };
    total.orders += 1;
    total.platformFeeCents += line.platformFeeCents;
    total.refundedCents += line.refundedCents;
    total.tipCents += line.tipCents;
    total.netCents += line.netCents;
    totals.set(key, total);
  }
  return [...totals.values()];
}

/**
 * A kitchen's paid orders whose payment falls on the days asked (its zone), newest first, with what each brought
 * the cook, as the ledger has it: a card order from its capture on (a refund shows on the capture's line), a cash
 * order from its delivery. Totals per day and month are of those lines.
 */
export async function kitchenEarnings(
  db: DbOrTx,
  kitchen: Pick<Kitchen, 'uid' | 'timeZone'>,
  range: { from: string; to: string },
  currency: string,
): Promise<Earnings> {
  const { timeZone } = kitchen;
  const start = instantAt(range.from, 0, timeZone);
  const end = instantAt(addDays(range.to, 1), 0, timeZone);
  const paid = await db
    .select({ orderId: ledgerEntries.orderId, at: ledgerEntries.createdAt })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kitchenId, kitchen.uid),
        inArray(ledgerEntries.kind, PAID_KINDS),
        gte(ledgerEntries.createdAt, start),
        lt(ledgerEntries.createdAt, end),
      ),
    );
  const paidAt = new Map(paid.flatMap(({ orderId, at }) => (orderId ? [[orderId, at] as const] : [])));
  const ids = [...paidAt.keys()];
  const empty = { currency, timeZone, ...range, lines: [], days: [], months: [] };
  if (ids.length === 0) return empty;
  const [movements, rows, items] = await Promise.all([
    db
      .select({ orderId: ledgerEntries.orderId, kind: ledgerEntries.kind, amount: ledgerEntries.amountCents })
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.orderId, ids)),
    db
      .select({
        id: orders.id,
        method: orders.paymentMethod,
        itemsCents: orders.itemsCents,
        deliveryFeeCents: orders.deliveryFeeCents,
        discountCents: orders.discountCents,
        discountCode: orders.discountCode,
        discountPaidBy: orders.discountPaidBy,
      })
      .from(orders)
      .where(inArray(orders.id, ids)),
    db
      .select({ orderId: orderItems.orderId, item: orderItems.item })
      .from(orderItems)
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.orderId), asc(orderItems.position)),
  ]);
  const sums = new Map<string, { platform: number; refunded: number; tip: number; net: number }>();
  for (const { orderId, kind, amount } of movements) {
    if (!orderId) continue;
    const sum = sums.get(orderId) ?? { platform: 0, refunded: 0, tip: 0, net: 0 };
    if (PLATFORM_KINDS.includes(kind)) sum.platform += amount;
    if (kind === 'refunded') sum.refunded -= amount;
    if (COOK_KINDS.includes(kind)) sum.net += amount;
    if (TIP_KINDS.includes(kind)) {
      sum.tip += amount;
      sum.net += amount;
    }
    sums.set(orderId, sum);
  }
  const names = new Map<string, string[]>();
  for (const { orderId, item } of items) names.set(orderId, [...(names.get(orderId) ?? []), item]);
  const lines = rows
    .map((row): EarningsLine => {
      const at = paidAt.get(row.id) as Date;
      const sum = sums.get(row.id) ?? { platform: 0, refunded: 0, tip: 0, net: 0 };
      return {
        orderId: row.id,
        at: at.toISOString(),
        day: localTime(at, timeZone).date,
        method: row.method,
        items: names.get(row.id) ?? [],
        itemsCents: row.itemsCents,
        deliveryFeeCents: row.deliveryFeeCents,
        // Only on an order with a code: the lines of others are as they were.
        ...(row.discountPaidBy && row.discountCode
          ? { discount: { code: row.discountCode, cents: row.discountCents, paidBy: row.discountPaidBy } }
          : {}),
        platformFeeCents: sum.platform,
        refundedCents: sum.refunded,
        tipCents: sum.tip,
        netCents: sum.net,
      };
    })
    .sort((a, b) => b.at.localeCompare(a.at) || a.orderId.localeCompare(b.orderId));
  return {
    ...empty,
    lines,
    days: totalsBy(lines, (day) => day),
    months: totalsBy(lines, (day) => day.slice(0, 7)),
  };
}
