import { and, asc, eq, gt, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatMoney } from '../../shared/money.js';
import type { PaymentStateName } from '../../shared/payments.js';
import {
  creditAccounts,
  creditEntries,
  ledgerEntries,
  orders,
  orderTips,
  paymentDifferences,
  promoCodeUses,
  reconciliationRuns,
} from '../db/schema.js';
import { registerPeriodicTask } from '../lib/periodic.js';
import type { PaymentFigures } from '../payments/provider.js';
import { CHECKOUT_TIP_ENTRY, tipEntry } from '../payments/ledger.js';

export type ReconcileApp = Pick<FastifyInstance, 'db' | 'payments' | 'clock' | 'log'>;

/** Card payments that moved in this many days are compared (a refund may come weeks after the capture). */
export const RECONCILE_WINDOW_DAYS = 35;
const DAY_MS = 24 * 3600 * 1000;
const BATCH = 100;
/** Provider calls at once (each asks for the payment and its refunds): well inside Stripe's rate limit. */
const AT_ONCE = 4;
/** Payment states the provider has settled; a step under way (`capturing`…) is the poll's, not a difference. */
const SETTLED: PaymentStateName[] = ['authorised', 'captured', 'released', 'refunded'];
const RUNS_ID = 1;
/** Held while a run writes what it found, so that two instances never flag the same difference twice. */
const WRITE_LOCK = 7_254_029;

/** What one side says of a payment, or of a kitchen's or the platform's sums, in minor units. */
/** A payment's figures in the ledger, with the kitchen they went to (none once its account is deleted). */
type LedgerSide = Figures & { kitchenId: string | null };

interface Figures {
  captured: number;
  refunded: number;
  /** The platform's part kept: its fee, less what refunds gave back. */
  platformFee: number;
  /** The kitchen's part: the transfer, less its reversal. */
  kitchen: number;
}
const FIGURE_NAMES: Record<keyof Figures, string> = {
  captured: 'captured',
  refunded: 'refunded',
  platformFee: 'platform fee kept',
  kitchen: "kitchen's part",
};
const zero = (): Figures => ({ captured: 0, refunded: 0, platformFee: 0, kitchen: 0 });
const add = (sum: Figures, more: Figures) => {
  for (const key of Object.keys(sum) as (keyof Figures)[]) sum[key] += more[key];
};

/**
 * The provider's figures as the ledger keeps them. A destination charge transfers the whole amount to the kitchen's
 * account and takes the fee back from it; a refund reverses the transfer or not (the platform's balance paying), and
 * gives back the fee or not. So the kitchen's part is what was captured less the fee kept and the reversals, and the
 * platform's part is the rest of what was not refunded.
 */
export const providerSide = (f: PaymentFigures): Figures => {
  const kitchen = f.captured - f.platformFee - f.transferReversed;
  return {
    captured: f.captured,
    refunded: f.refunded,
    platformFee: f.captured - f.refunded - kitchen,
    kitchen,
  };
};

export interface Difference {
  scope: string;
  detail: string;
}

/** One sentence naming each figure on which the ledger and the provider disagree, with both amounts; or none. */
function differenceOf(
  scope: string,
  what: string,
  ledger: Figures,
  provider: Figures,
  currency: string,
  only: (keyof Figures)[] = ['captured', 'refunded', 'platformFee', 'kitchen'],
): Difference | undefined {
  const money = (minor: number) => formatMoney(minor, currency);
  const parts = only
    .filter((key) => ledger[key] !== provider[key])
    .map(
      (key) =>
        `${FIGURE_NAMES[key]} ${money(ledger[key])} in the ledger, ${money(provider[key])} at the provider`,
    );
  return parts.length ? { scope, detail: `${what}: ${parts.join('; ')}.` } : undefined;
}

/** The ledger's figures of these orders, and the kitchen each was written for. */
async function ledgerFigures(app: ReconcileApp, orderIds: string[]) {
  const rows = await app.db
    .select({
      orderId: ledgerEntries.orderId,
      kitchenId: ledgerEntries.kitchenId,
      kind: ledgerEntries.kind,
      amount: ledgerEntries.amountCents,
      entry: ledgerEntries.entry,
    })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.orderId, orderIds));
  const byOrder = new Map<string, LedgerSide>();
  for (const row of rows) {
    if (!row.orderId) continue;
    const f = byOrder.get(row.orderId) ?? { ...zero(), kitchenId: row.kitchenId };
    if (row.kind === 'captured') f.captured += row.amount;
    if (row.kind === 'refunded') f.refunded -= row.amount;
    if (row.kind === 'platform_fee' || row.kind === 'platform_fee_refunded') f.platformFee += row.amount;
    if (row.kind === 'kitchen_transfer' || row.kind === 'kitchen_transfer_reversed') f.kitchen += row.amount;
    // A tip paid with the order is in its charge and its transfer (a tip paid later is a payment of its own).
    if (row.entry === CHECKOUT_TIP_ENTRY && (row.kind === 'tip_transfer' || row.kind === 'tip_reversed'))
      f.kitchen += row.amount;
    // Store credit beyond the fee reaches the kitchen by a transfer of its own, outside the order's payment.
    if (row.kind === 'credit_transfer' || row.kind === 'credit_transfer_reversed') f.kitchen -= row.amount;
    byOrder.set(row.orderId, f);
  }
  return byOrder;
}

/**
 * The ledger's figures of tips paid after delivery (entry `tip:<id>` on their order): what the customer paid
 * (`tip`), all of it the kitchen's (`tip_transfer`, less `tip_reversed`), no refund and no platform fee (a
 * destination charge without an application fee).
 */
async function tipLedgerFigures(app: ReconcileApp, tips: { id: string; orderId: string }[]) {
  const entries = new Map(tips.map((tip) => [tipEntry(tip.id), tip.id]));
  const rows = await app.db
    .select({
      kitchenId: ledgerEntries.kitchenId,
      kind: ledgerEntries.kind,
      amount: ledgerEntries.amountCents,
      entry: ledgerEntries.entry,
    })
    .from(ledgerEntries)
    .where(
      and(
        inArray(ledgerEntries.orderId, [...new Set(tips.map((tip) => tip.orderId))]),
        inArray(ledgerEntries.entry, [...entries.keys()]),
      ),
    );
  const byTip = new Map<string, LedgerSide>();
  for (const row of rows) {
    const tipId = entries.get(row.entry);
    if (!tipId) continue;
    const f = byTip.get(tipId) ?? { ...zero(), kitchenId: row.kitchenId };
    if (row.kind === 'tip') f.captured += row.amount;
    if (row.kind === 'refunded') f.refunded -= row.amount;
    if (row.kind === 'platform_fee' || row.kind === 'platform_fee_refunded') f.platformFee += row.amount;
    if (row.kind === 'tip_transfer' || row.kind === 'tip_reversed') f.kitchen += row.amount;
    byTip.set(tipId, f);
  }
  return byTip;
}

/** Runs `task` over `items`, `AT_ONCE` at a time, in order. */
async function inTurn<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += AT_ONCE)
    out.push(...(await Promise.all(items.slice(i, i + AT_ONCE).map(task))));
  return out;
}

export interface ReconcileResult {
  /** Card payments compared: orders', and tips paid after delivery. */
  checked: number;
  /** Payments the provider could not tell us about this time (compared again next run). */
  unanswered: number;
  /** Every difference found, flagged before or not. */
  found: Difference[];
  /** Those written now (the others were flagged before in the same words). */
  flagged: Difference[];
}

/**
 * Compares the ledger with the provider, once a day: for every card order whose payment moved in the last
 * `RECONCILE_WINDOW_DAYS` (in batches), what the provider says was captured, refunded and kept as the platform's fee
 * against the ledger's rows, and the same for every tip paid after delivery in that time (a card payment of its
 * own); then the same sums per kitchen (its part) and for the platform. Each scope that disagrees (`order:<id>`,
 * `tip:<id>`, `kitchen:<uid>`, `platform`) is flagged for the operator's 'Money' tab in one sentence with both
 * amounts, unless the same sentence was flagged within the window. An order that changes while it is compared is
 * left for the next run; so is a payment the provider does not answer about (logged).
 */
export async function reconcile(app: ReconcileApp): Promise<ReconcileResult> {
  const provider = app.payments.provider;
  if (!provider) return { checked: 0, unanswered: 0, found: [], flagged: [] };
  const currency = app.payments.config.currency;
  const since = new Date(app.clock.now() - RECONCILE_WINDOW_DAYS * DAY_MS);
  const found: Difference[] = [];
  const kitchens = new Map<string, { ledger: Figures; provider: Figures }>();
  const platform = { ledger: zero(), provider: zero() };
  let checked = 0;
  let unanswered = 0;
  /** The provider's figures of each payment, asked in turn; undefined where it did not answer (logged). */
  const askProvider = (
    batch: readonly { id: string; intent: string | null }[],
    idName: 'orderId' | 'tipId',
  ) =>
    inTurn(batch, async (payment) => {
      try {
        return providerSide(await provider.figures(payment.intent ?? ''));
      } catch (error) {
        app.log.warn({ err: error, [idName]: payment.id }, 'reconciliation: the provider did not answer');
        return undefined;
      }
    });
  /** One payment compared: its difference if any, and its figures added to the platform's and its kitchen's. */
  const compare = (key: string, what: string, ours: LedgerSide | undefined, provided: Figures) => {
    checked++;
    const ledger = ours ?? { ...zero(), kitchenId: null };
    const difference = differenceOf(key, what, ledger, provided, currency);
    if (difference) found.push(difference);
    add(platform.ledger, ledger);
    add(platform.provider, provided);
    if (ledger.kitchenId === null) return;
    const kitchen = kitchens.get(ledger.kitchenId) ?? { ledger: zero(), provider: zero() };
    add(kitchen.ledger, ledger);
    add(kitchen.provider, provided);
    kitchens.set(ledger.kitchenId, kitchen);
  };
  let after: string | undefined;
  for (;;) {
    const batch = await app.db
      .select({ id: orders.id, intent: orders.paymentIntentId, state: orders.paymentState })
      .from(orders)
      .where(
        and(
          eq(orders.paymentMethod, 'card'),
          isNotNull(orders.paymentIntentId),
          inArray(orders.paymentState, SETTLED),
          gte(orders.paymentUpdatedAt, since),
          after ? gt(orders.id, after) : undefined,
        ),
      )
      .orderBy(asc(orders.id))
      .limit(BATCH);
    if (batch.length === 0) break;
    after = batch.at(-1)?.id;
    const theirs = await askProvider(batch, 'orderId');
    const ids = batch.map((order) => order.id);
    // Read after the provider answered: an order whose state moved meanwhile is compared next time.
    const [ours, now] = await Promise.all([
      ledgerFigures(app, ids),
      app.db
        .select({ id: orders.id, state: orders.paymentState })
        .from(orders)
        .where(inArray(orders.id, ids)),
    ]);
    const stateNow = new Map(now.map((row) => [row.id, row.state]));
    batch.forEach((order, i) => {
      const provided = theirs[i];
      if (!provided) {
        unanswered++;
        return;
      }
      if (stateNow.get(order.id) !== order.state) return;
      compare(`order:${order.id}`, 'This order', ours.get(order.id), provided);
    });
  }
  // Tips paid after delivery, each a card payment of its own (`tip:<id>` in the ledger), compared the same way; a
  // tip is paid once and never changes here, so those paid within the window.
  let afterTip: string | undefined;
  for (;;) {
    const batch = await app.db
      .select({ id: orderTips.id, orderId: orderTips.orderId, intent: orderTips.paymentIntentId })
      .from(orderTips)
      .where(
        and(
          eq(orderTips.state, 'paid'),
          isNotNull(orderTips.paymentIntentId),
          gte(orderTips.paidAt, since),
          afterTip ? gt(orderTips.id, afterTip) : undefined,
        ),
      )
      .orderBy(asc(orderTips.id))
      .limit(BATCH);
    if (batch.length === 0) break;
    afterTip = batch.at(-1)?.id;
    const theirs = await askProvider(batch, 'tipId');
    const ours = await tipLedgerFigures(app, batch);
    batch.forEach((tip, i) => {
      const provided = theirs[i];
      if (!provided) {
        unanswered++;
        return;
      }
      compare(`tip:${tip.id}`, `The tip after delivery of order ${tip.orderId}`, ours.get(tip.id), provided);
    });
  }
  const window = `Card payments of the last ${RECONCILE_WINDOW_DAYS} days`;
  for (const [uid, sums] of kitchens) {
    const difference = differenceOf(`kitchen:${uid}`, window, sums.ledger, sums.provider, currency, [
      'kitchen',
    ]);
    if (difference) found.push(difference);
  }
  const overall = differenceOf('platform', window, platform.ledger, platform.provider, currency, [
    'captured',
    'refunded',
    'platformFee',
  ]);
  if (overall) found.push(overall);
  found.push(...(await creditDifferences(app)));
  found.push(...(await discountDifferences(app)));
  const flagged = await recordRun(app, found, since);
  return { checked, unanswered, found, flagged };
}

/**
 * Store credit (ADR 29) reconciles with itself: each account's balance is the sum of its entries, and what the ledger
 * says customers hold (credit given by refunds, less credit spent on captured orders, plus credit given back from
 * them) is what the accounts hold and the orders not captured yet have taken from them. Customers who deleted their
 * account are left out (their credit went with it).
 */
export async function creditDifferences(app: Pick<ReconcileApp, 'db' | 'payments'>): Promise<Difference[]> {
  const currency = app.payments.config.currency;
  const money = (minor: number) => formatMoney(minor, currency);
  const found: Difference[] = [];
  const accounts = await app.db
    .select({
      customerId: creditAccounts.customerId,
      balance: creditAccounts.balanceCents,
      sum: sql<number>`coalesce((select sum(${creditEntries.amountCents}) from ${creditEntries}
        where ${creditEntries.customerId} = ${creditAccounts.customerId}), 0)::int`.mapWith(Number),
    })
    .from(creditAccounts)
    .where(
      sql`${creditAccounts.balanceCents} <> coalesce((select sum(${creditEntries.amountCents}) from ${creditEntries}
        where ${creditEntries.customerId} = ${creditAccounts.customerId}), 0)`,
    )
    .limit(BATCH);
  for (const a of accounts)
    found.push({
      scope: `credit:${a.customerId}`,
      detail: `Store credit: balance ${money(a.balance)}, its entries add up to ${money(a.sum)}.`,
    });
  const [[ledger], [held], [held2]] = await Promise.all([
    app.db
      .select({
        cents:
          sql<number>`coalesce(-sum(${ledgerEntries.amountCents}) filter (where ${ledgerEntries.kind} in ('credit_issued', 'credit_returned')), 0)::int
          - coalesce(sum(${ledgerEntries.amountCents}) filter (where ${ledgerEntries.kind} = 'credit_spent'), 0)::int`.mapWith(
            Number,
          ),
      })
      .from(ledgerEntries)
      .innerJoin(orders, eq(orders.id, ledgerEntries.orderId))
      .where(and(isNotNull(orders.customerId), eq(ledgerEntries.currency, currency))),
    app.db
      .select({ cents: sql<number>`coalesce(sum(${creditAccounts.balanceCents}), 0)::int`.mapWith(Number) })
      .from(creditAccounts)
      .where(eq(creditAccounts.currency, currency)),
    app.db
      .select({ cents: sql<number>`coalesce(sum(${orders.creditCents}), 0)::int`.mapWith(Number) })
      .from(orders)
      .where(
        and(
          isNotNull(orders.customerId),
          eq(orders.currency, currency),
          inArray(orders.paymentState, ['awaiting-payment', 'authorised', 'capturing', 'releasing']),
        ),
      ),
  ]);
  const inLedger = ledger?.cents ?? 0;
  const inAccounts = (held?.cents ?? 0) + (held2?.cents ?? 0);
  if (inLedger !== inAccounts)
    found.push({
      scope: 'credit',
      detail: `Store credit: ${money(inLedger)} held by customers in the ledger, ${money(inAccounts)} in their accounts and orders not captured yet.`,
    });
  return found;
}

/**
 * Promotion codes (ADR 30) reconcile with their uses: every paid order with a code (captured, or cash paid) has its
 * ledger entry `discount` of the whole discount, paid by whom the code says (the kitchen's rows the discount, the
 * platform's at most its fee), and the use that took it, still counted. Each order that disagrees is named.
 */
export async function discountDifferences(app: Pick<ReconcileApp, 'db' | 'payments'>): Promise<Difference[]> {
  const currency = app.payments.config.currency;
  // Spelt out: in a select list Drizzle leaves a column of a single table unqualified, which a subquery would read
  // as its own table's.
  const ORDER_ID = sql.raw('"orders"."id"');
  const money = (minor: number) => formatMoney(minor, currency);
  const sumOf = (kinds: string[]) =>
    sql<number>`coalesce((select sum(l.amount_cents) from ${ledgerEntries} l where l.order_id = ${ORDER_ID}
      and l.entry = 'discount' and l.kind in (${sql.join(
        kinds.map((k) => sql`${k}`),
        sql`, `,
      )})), 0)::int`.mapWith(Number);
  const given = sumOf(['discount_given', 'discount_given_reversed']);
  const byKitchen = sumOf(['discount_kitchen_funded', 'discount_kitchen_funded_reversed']);
  const used = sql<number>`coalesce((select sum(u.discount_cents) from ${promoCodeUses} u
    where u.order_id = ${ORDER_ID} and u.returned_at is null), 0)::int`.mapWith(Number);
  const rows = await app.db
    .select({
      id: orders.id,
      code: orders.discountCode,
      paidBy: orders.discountPaidBy,
      discount: orders.discountCents,
      given,
      byKitchen,
      used,
    })
    .from(orders)
    .where(
      and(
        sql`${orders.discountCents} > 0`,
        eq(orders.currency, currency),
        inArray(orders.paymentState, ['captured', 'cash-paid']),
        sql`(${given} <> ${orders.discountCents} or ${used} <> ${orders.discountCents}
          or (${orders.discountPaidBy} = 'kitchen') <> (${byKitchen} = ${orders.discountCents}))`,
      ),
    )
    .limit(BATCH);
  return rows.map((row) => ({
    scope: `discount:${row.id}`,
    detail: `Code ${row.code ?? ''} (paid by the ${row.paidBy ?? 'platform'}): ${money(row.discount)} off the order, ${money(row.given)} in the ledger (${money(row.byKitchen)} paid by the kitchen), ${money(row.used)} in its use.`,
  }));
}

/** Writes the differences not flagged before in the same words (within the window), and the run's end. */
async function recordRun(app: ReconcileApp, found: Difference[], since: Date): Promise<Difference[]> {
  return app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${WRITE_LOCK})`);
    const scopes = [...new Set(found.map((d) => d.scope))];
    const before = scopes.length
      ? await tx
          .select({ scope: paymentDifferences.scope, detail: paymentDifferences.detail })
          .from(paymentDifferences)
          .where(and(inArray(paymentDifferences.scope, scopes), gte(paymentDifferences.createdAt, since)))
      : [];
    const known = new Set(before.map((d) => `${d.scope}\n${d.detail}`));
    const fresh = found.filter((d) => !known.has(`${d.scope}\n${d.detail}`));
    if (fresh.length) await tx.insert(paymentDifferences).values(fresh);
    const finishedAt = new Date(app.clock.now());
    await tx
      .insert(reconciliationRuns)
      .values({ id: RUNS_ID, finishedAt })
      .onConflictDoUpdate({ target: reconciliationRuns.id, set: { finishedAt } });
    return fresh;
  });
}

/** When the reconciliation last ran to the end, if ever. */
export async function lastReconciled(app: Pick<FastifyInstance, 'db'>): Promise<Date | undefined> {
  const [run] = await app.db
    .select({ finishedAt: reconciliationRuns.finishedAt })
    .from(reconciliationRuns)
    .where(eq(reconciliationRuns.id, RUNS_ID));
  return run?.finishedAt;
}

/** How often an instance asks whether a day has passed since the last run (a restart does not skip a day). */
const CHECK_EVERY_MS = 3600 * 1000;
/** A run is due this long after the last one finished (on any instance). */
const DUE_AFTER_MS = 23 * 3600 * 1000;

/**
 * The daily reconciliation, where card payments are on and the payment poll runs (tests, which turn the poll off,
 * run it by hand). Every instance checks each hour; the one that finds a day gone since the last run does it.
 */
export function registerReconciliation(app: FastifyInstance): void {
  if (!app.payments.provider || app.payments.config.pollSeconds <= 0) return;
  registerPeriodicTask(app, {
    everyMs: CHECK_EVERY_MS,
    atStart: true,
    failure: 'the reconciliation failed; it runs again within the hour',
    run: async () => {
      const last = await lastReconciled(app);
      if (last && app.clock.now() - last.getTime() < DUE_AFTER_MS) return;
      const result = await reconcile(app);
      app.log.info(
        { checked: result.checked, unanswered: result.unanswered, flagged: result.flagged.length },
        'reconciled the ledger with the payment provider',
      );
    },
  });
}
