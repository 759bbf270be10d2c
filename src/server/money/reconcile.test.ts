import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { MoneyOverview } from '../../shared/payments.js';
import { ledgerEntries, orders, paymentDifferences } from '../db/schema.js';
import { FakeClock } from '../test/fake-clock.js';
import {
  capturedOrder,
  cardOrder,
  cashDeliveredOrder,
  moveOrder,
  refundedOrder,
  tippedAfterDelivery,
} from '../test/money-world.js';
import { localProvider, money, paidKitchen } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { RECONCILE_WINDOW_DAYS, reconcile } from './reconcile.js';

const OPERATOR_EMAIL = 'money-operator@example.test';
const clock = new FakeClock();
clock.advance(Date.now());

const differencesOf = async (ctx: TestContext) =>
  ctx.database.db
    .select({ scope: paymentDifferences.scope, detail: paymentDifferences.detail })
    .from(paymentDifferences);

const overview = async (ctx: TestContext) => {
  const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
  const res = await ctx.app.inject({ url: '/api/operator/money', headers: { cookie: operator.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<MoneyOverview>();
};

// One database for the whole suite: the clean ledger is checked first, before any test makes it differ.
describeEachEngine(
  'reconciling the ledger with the provider',
  (get) => {
    it('finds nothing when the ledger and the provider agree, and says when it ran', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx, { acceptsCash: true });
      const { dal } = world;
      await capturedOrder(ctx, world, [dal, dal]);
      await refundedOrder(ctx, world, [dal]);
      await cardOrder(ctx, world, [dal]);
      const declined = await cardOrder(ctx, world, [dal]);
      await moveOrder(ctx, world.cook, declined.id, { move: 'decline', reason: 'No rice' });
      await cashDeliveredOrder(ctx, world, [dal]);
      await tippedAfterDelivery(ctx, world, [dal], 300);
      expect((await overview(ctx)).lastReconciledAt).toBeNull();

      const result = await reconcile(ctx.app);
      // Captured, refunded, authorised and released, delivered, and the tip after delivery (a payment of its own):
      // every card payment; cash is not the provider's.
      expect(result).toEqual({ checked: 6, unanswered: 0, found: [], flagged: [] });
      expect(await differencesOf(ctx)).toEqual([]);
      const view = await overview(ctx);
      expect(view.lastReconciledAt).toBe(new Date(clock.now()).toISOString());
      expect(view.differences).toEqual([]);
    });

    it('flags a refund made at the provider that the ledger never heard of: the order, its kitchen, the platform; once', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const order = await capturedOrder(ctx, world, [world.dal, world.dal]);
      const intent = (await money(ctx, order.id)).row?.paymentIntentId ?? '';
      await ctx.app.payments.provider?.refund(intent, `outside:${order.id}`);
      await localProvider(ctx).settled();
      expect((await money(ctx, order.id)).row?.paymentState).toBe('captured');

      const result = await reconcile(ctx.app);
      expect(result.flagged).toEqual(result.found);
      expect(result.found).toEqual(
        expect.arrayContaining([
          {
            scope: `order:${order.id}`,
            detail:
              'This order: refunded $0.00 in the ledger, $29.45 at the provider; ' +
              'platform fee kept $7.46 in the ledger, $0.00 at the provider; ' +
              "kitchen's part $21.99 in the ledger, $0.00 at the provider.",
          },
          {
            scope: `kitchen:${world.cook.kitchen.uid}`,
            detail: `Card payments of the last ${RECONCILE_WINDOW_DAYS} days: kitchen's part $21.99 in the ledger, $0.00 at the provider.`,
          },
        ]),
      );
      const platform = result.found.find((d) => d.scope === 'platform');
      expect(platform?.detail).toMatch(/refunded \$19\.95 in the ledger, \$49\.40 at the provider/);
      expect(result.found).toHaveLength(3);
      const stored = await differencesOf(ctx);
      expect(stored).toEqual(expect.arrayContaining(result.found));
      expect(stored).toHaveLength(3);

      // The next run finds the same, in the same words: nothing new is flagged.
      const again = await reconcile(ctx.app);
      expect(again.found).toEqual(result.found);
      expect(again.flagged).toEqual([]);
      expect(await differencesOf(ctx)).toHaveLength(3);
      const view = await overview(ctx);
      expect(view.differences.map((d) => d.scope).sort()).toEqual(result.found.map((d) => d.scope).sort());
    });

    it('flags an order whose ledger lost a row or holds a wrong amount, within the window only', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const lost = await capturedOrder(ctx, world, [world.dal]);
      const wrong = await capturedOrder(ctx, world, [world.dal]);
      const old = await capturedOrder(ctx, world, [world.dal]);
      const db = ctx.database.db;
      await db
        .delete(ledgerEntries)
        .where(and(eq(ledgerEntries.orderId, lost.id), eq(ledgerEntries.kind, 'kitchen_transfer')));
      await db
        .update(ledgerEntries)
        .set({ amountCents: 1900 })
        .where(and(eq(ledgerEntries.orderId, wrong.id), eq(ledgerEntries.kind, 'captured')));
      await db.delete(ledgerEntries).where(eq(ledgerEntries.orderId, old.id));
      await db
        .update(orders)
        .set({ paymentUpdatedAt: new Date(clock.now() - (RECONCILE_WINDOW_DAYS + 1) * 24 * 3600 * 1000) })
        .where(eq(orders.id, old.id));

      const { flagged } = await reconcile(ctx.app);
      const byScope = new Map(flagged.map((d) => [d.scope, d.detail]));
      expect(byScope.get(`order:${lost.id}`)).toBe(
        "This order: kitchen's part $0.00 in the ledger, $12.49 at the provider.",
      );
      expect(byScope.get(`order:${wrong.id}`)).toBe(
        'This order: captured $19.00 in the ledger, $19.95 at the provider.',
      );
      expect(byScope.get(`kitchen:${world.cook.kitchen.uid}`)).toBe(
        `Card payments of the last ${RECONCILE_WINDOW_DAYS} days: kitchen's part $12.49 in the ledger, $24.98 at the provider.`,
      );
      expect(byScope.has(`order:${old.id}`)).toBe(false);
    });

    it('compares each tip paid after delivery with its own payment: a refund made at the provider, a row lost', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      const refunded = await tippedAfterDelivery(ctx, world, [world.dal], 500);
      const lost = await tippedAfterDelivery(ctx, world, [world.dal], 300);
      const agrees = await tippedAfterDelivery(ctx, world, [world.dal], 200);
      await ctx.app.payments.provider?.refund(refunded.intent, `outside:${refunded.tipId}`);
      await localProvider(ctx).settled();
      await ctx.database.db
        .delete(ledgerEntries)
        .where(and(eq(ledgerEntries.entry, `tip:${lost.tipId}`), eq(ledgerEntries.kind, 'tip_transfer')));

      const { found } = await reconcile(ctx.app);
      const byScope = new Map(found.map((d) => [d.scope, d.detail]));
      expect(byScope.get(`tip:${refunded.tipId}`)).toBe(
        `The tip after delivery of order ${refunded.order.id}: refunded $0.00 in the ledger, $5.00 at the provider; ` +
          "kitchen's part $5.00 in the ledger, $0.00 at the provider.",
      );
      expect(byScope.get(`tip:${lost.tipId}`)).toBe(
        `The tip after delivery of order ${lost.order.id}: kitchen's part $0.00 in the ledger, $3.00 at the provider.`,
      );
      expect(byScope.has(`tip:${agrees.tipId}`)).toBe(false);
      // The orders themselves agree; the kitchen's sums count its tips (5.00 taken back, 3.00 not written).
      for (const { order } of [refunded, lost, agrees]) expect(byScope.has(`order:${order.id}`)).toBe(false);
      expect(byScope.get(`kitchen:${world.cook.kitchen.uid}`)).toBe(
        `Card payments of the last ${RECONCILE_WINDOW_DAYS} days: kitchen's part $44.47 in the ledger, $42.47 at the provider.`,
      );
    });
  },
  { PAYMENTS: 'local', OPERATOR_EMAILS: OPERATOR_EMAIL },
  { clock },
);
