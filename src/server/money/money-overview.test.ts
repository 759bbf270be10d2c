import { expect, it } from 'vitest';
import type { MoneyOverview } from '../../shared/payments.js';
import { paymentDifferences } from '../db/schema.js';
import { capturedOrder, cardOrder, cashDeliveredOrder, refundedOrder } from '../test/money-world.js';
import { paidKitchen } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const OPERATOR_EMAIL = 'money-tab@example.test';

const overview = async (ctx: TestContext) => {
  const operator = await signedIn(ctx, 'operator', { email: OPERATOR_EMAIL });
  const res = await ctx.app.inject({ url: '/api/operator/money', headers: { cookie: operator.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<MoneyOverview>();
};

describeEachEngine(
  "the operator's 'Money' tab",
  (get) => {
    it("totals the ledger's card money: captured, refunded, the platform's fees and the kitchens' part kept, held", async () => {
      const ctx = get();
      const before = await overview(ctx);
      const world = await paidKitchen(ctx, { acceptsCash: true });
      const { dal } = world;
      await capturedOrder(ctx, world, [dal, dal]);
      const refunded = await refundedOrder(ctx, world, [dal]);
      await cardOrder(ctx, world, [dal]);
      await cashDeliveredOrder(ctx, world, [dal]);
      const after = await overview(ctx);
      expect(after.currency).toBe('USD');
      const delta = Object.fromEntries(
        Object.entries(after.totals).map(([key, value]) => [
          key,
          value - before.totals[key as keyof MoneyOverview['totals']],
        ]),
      );
      // 29.45 and 19.95 captured, 19.95 of it refunded; 7.46 of fees kept, 21.99 to the kitchen; 19.95 on hold.
      // The cash paid to the cook is no card money.
      expect(delta).toEqual({
        capturedCents: 2945 + 1995,
        refundedCents: 1995,
        platformFeeCents: 746,
        kitchenTransferCents: 2199,
        heldCents: 1995,
        // No store credit in this world (ADR 29).
        creditIssuedCents: 0,
        creditSpentCents: 0,
        creditHeldCents: 0,
      });
      expect(after.refunds[0]).toMatchObject({
        orderId: refunded.id,
        kitchenName: world.cook.kitchen.name,
        amountCents: 1995,
      });
    });

    it('shows the latest differences first', async () => {
      const ctx = get();
      await ctx.database.db.insert(paymentDifferences).values([
        { scope: 'platform', detail: 'Older.', createdAt: new Date('2026-01-01T00:00:00Z') },
        { scope: 'platform', detail: 'Newer.', createdAt: new Date('2026-01-02T00:00:00Z') },
      ]);
      const view = await overview(ctx);
      expect(view.differences.map((d) => [d.detail, d.at])).toEqual([
        ['Newer.', '2026-01-02T00:00:00.000Z'],
        ['Older.', '2026-01-01T00:00:00.000Z'],
      ]);
    });

    it('is for operators only', async () => {
      const ctx = get();
      const url = '/api/operator/money';
      const customer = await signedIn(ctx, 'customer', { email: OPERATOR_EMAIL });
      const cook = await signedIn(ctx, 'kitchen');
      const unlisted = await signedIn(ctx, 'operator');
      expect((await ctx.app.inject({ url })).statusCode).toBe(401);
      expect((await ctx.app.inject({ url, headers: { cookie: customer.cookie } })).statusCode).toBe(401);
      expect((await ctx.app.inject({ url, headers: { cookie: cook.cookie } })).statusCode).toBe(401);
      const refused = await ctx.app.inject({ url, headers: { cookie: unlisted.cookie } });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain('capturedCents');
    });
  },
  { PAYMENTS: 'local', OPERATOR_EMAILS: OPERATOR_EMAIL },
);
