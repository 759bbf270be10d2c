import { expect, it } from 'vitest';
import type { Earnings } from '../../shared/payments.js';
import { buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import {
  cashDeliveredOrder,
  capturedOrder,
  cardOrder,
  ledgerAt,
  moveOrder,
  refundedOrder,
} from '../test/money-world.js';
import { paidKitchen } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { EARNINGS_CSV_HEADER } from './earnings-csv.js';

// Mid-March in Auckland (NZDT, UTC+13): the kitchen's calendar is a day, and at the end of February a month, ahead of UTC's.
const clock = new FakeClock();
clock.advance(Date.parse('2026-03-15T00:00:00Z'));

/** A kitchen in Auckland taking cards and cash, with its dish (Dal, 9.50). */
async function aucklandKitchen(ctx: TestContext) {
  const world = await paidKitchen(ctx, { acceptsCash: true });
  const zoned = await ctx.app.inject({
    method: 'PATCH',
    url: '/api/kitchen',
    headers: { cookie: world.cook.cookie },
    payload: { timeZone: 'Pacific/Auckland' },
  });
  expect(zoned.statusCode, zoned.body).toBe(200);
  return world;
}

const earningsOf = async (ctx: TestContext, cookie: string, query = '') => {
  const res = await ctx.app.inject({ url: `/api/kitchen/earnings${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Earnings>();
};

describeEachEngine(
  "the cook's earnings",
  (get) => {
    it("lists each paid order from the ledger with its fees, refund and net, totalled per day and month of the kitchen's zone", async () => {
      const ctx = get();
      const world = await aucklandKitchen(ctx);
      const { dal } = world;
      const captured = await capturedOrder(ctx, world, [dal, dal]);
      const refunded = await refundedOrder(ctx, world, [dal]);
      const cash = await cashDeliveredOrder(ctx, world, [dal]);
      // Not paid: authorised and waiting for the kitchen, and declined (its hold released).
      await cardOrder(ctx, world, [dal]);
      const declined = await cardOrder(ctx, world, [dal]);
      await moveOrder(ctx, world.cook, declined.id, { move: 'decline', reason: 'No rice' });
      // 20:00 UTC on 10 March is 09:00 on 11 March in Auckland; 12:30 UTC on 28 February is 01:30 on 1 March there.
      await ledgerAt(ctx, [captured.id], '2026-03-10T20:00:00Z');
      await ledgerAt(ctx, [refunded.id], '2026-03-10T09:00:00Z');
      await ledgerAt(ctx, [cash.id], '2026-02-28T12:30:00Z');

      const march = await earningsOf(ctx, world.cook.cookie, '?from=2026-03-01&to=2026-03-31');
      expect(march).toMatchObject({
        currency: 'USD',
        timeZone: 'Pacific/Auckland',
        from: '2026-03-01',
        to: '2026-03-31',
      });
      // The platform keeps the fees and tax (7.46, no commission configured); the cook the rest.
      expect(march.lines).toEqual([
        {
          orderId: captured.id,
          at: '2026-03-10T20:00:00.000Z',
          day: '2026-03-11',
          method: 'card',
          items: ['Dal', 'Dal'],
          itemsCents: 1900,
          deliveryFeeCents: 299,
          platformFeeCents: 746,
          refundedCents: 0,
          tipCents: 0,
          netCents: 1900 + 299,
        },
        {
          orderId: refunded.id,
          at: '2026-03-10T09:00:00.000Z',
          day: '2026-03-10',
          method: 'card',
          items: ['Dal'],
          itemsCents: 950,
          deliveryFeeCents: 299,
          platformFeeCents: 0,
          refundedCents: 950 + 299 + 746,
          tipCents: 0,
          netCents: 0,
        },
        {
          orderId: cash.id,
          at: '2026-02-28T12:30:00.000Z',
          day: '2026-03-01',
          method: 'cash',
          items: ['Dal'],
          itemsCents: 950,
          deliveryFeeCents: 299,
          platformFeeCents: 0,
          refundedCents: 0,
          tipCents: 0,
          netCents: 950 + 299 + 746,
        },
      ]);
      expect(march.days).toEqual([
        {
          period: '2026-03-11',
          orders: 1,
          platformFeeCents: 746,
          refundedCents: 0,
          tipCents: 0,
          netCents: 2199,
        },
        {
          period: '2026-03-10',
          orders: 1,
          platformFeeCents: 0,
          refundedCents: 1995,
          tipCents: 0,
          netCents: 0,
        },
        {
          period: '2026-03-01',
          orders: 1,
          platformFeeCents: 0,
          refundedCents: 0,
          tipCents: 0,
          netCents: 1995,
        },
      ]);
      expect(march.months).toEqual([
        {
          period: '2026-03',
          orders: 3,
          platformFeeCents: 746,
          refundedCents: 1995,
          tipCents: 0,
          netCents: 2199 + 1995,
        },
      ]);

      // February in Auckland ended before the cash was paid, though it was still 28 February in UTC.
      expect((await earningsOf(ctx, world.cook.cookie, '?from=2026-02-01&to=2026-02-28')).lines).toEqual([]);
      // One day: the kitchen's 11 March only.
      const day = await earningsOf(ctx, world.cook.cookie, '?from=2026-03-11&to=2026-03-11');
      expect(day.lines.map((l) => l.orderId)).toEqual([captured.id]);
      // Left out: the last 12 months to the kitchen's today (15 March there).
      const recent = await earningsOf(ctx, world.cook.cookie);
      expect(recent).toMatchObject({ from: '2025-04-01', to: '2026-03-15' });
      expect(recent.lines.map((l) => l.orderId)).toEqual([captured.id, refunded.id, cash.id]);
    });

    it('shows a cook only their own kitchen’s paid orders', async () => {
      const ctx = get();
      const world = await aucklandKitchen(ctx);
      const other = await aucklandKitchen(ctx);
      await ledgerAt(ctx, [(await capturedOrder(ctx, other, [other.dal])).id], '2026-03-12T00:00:00Z');
      const mine = await earningsOf(ctx, world.cook.cookie);
      expect(mine).toMatchObject({ lines: [], days: [], months: [] });
      expect((await earningsOf(ctx, other.cook.cookie)).lines).toHaveLength(1);
    });

    it('answers the same lines as a CSV file, amounts as decimals, a formula-looking dish neutralised', async () => {
      const ctx = get();
      const world = await aucklandKitchen(ctx);
      const formula = await buildMenuItem(ctx, world.cook.kitchen, {
        item: '=HYPERLINK("http://evil.example","Dal")',
        price: '4.00',
      });
      const comma = await buildMenuItem(ctx, world.cook.kitchen, { item: 'Rice, spiced', price: '2.50' });
      const refunded = await refundedOrder(ctx, world, [world.dal]);
      const cash = await cashDeliveredOrder(ctx, world, [formula, comma]);
      await ledgerAt(ctx, [refunded.id], '2026-03-10T09:00:00Z');
      await ledgerAt(ctx, [cash.id], '2026-02-28T12:30:00Z');

      const res = await ctx.app.inject({
        url: '/api/kitchen/earnings.csv?from=2026-03-01&to=2026-03-31',
        headers: { cookie: world.cook.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="earnings-2026-03-01-to-2026-03-31.csv"',
      );
      expect(res.body.startsWith('\uFEFF')).toBe(true);
      expect(res.body.endsWith('\r\n')).toBe(true);
      const rows = res.body.slice(1).trimEnd().split('\r\n');
      expect(rows).toEqual([
        EARNINGS_CSV_HEADER.map((column) => `"${column}"`).join(','),
        `"2026-03-10","2026-03-10T09:00:00.000Z","${refunded.id}","card","Dal",9.50,2.99,0.00,19.95,0.00,0.00,"USD"`,
        `"2026-03-01","2026-02-28T12:30:00.000Z","${cash.id}","cash",` +
          `"'=HYPERLINK(""http://evil.example"",""Dal""); Rice, spiced",6.50,2.99,0.00,0.00,0.00,16.95,"USD"`,
      ]);
      expect(EARNINGS_CSV_HEADER[0]).toBe('Day');
    });

    it('refuses anyone but a signed-in cook with a kitchen', async () => {
      const ctx = get();
      const customer = await signedIn(ctx, 'customer');
      const kitchenless = await signedIn(ctx, 'kitchen');
      const operator = await signedIn(ctx, 'operator');
      for (const url of ['/api/kitchen/earnings', '/api/kitchen/earnings.csv']) {
        expect((await ctx.app.inject({ url })).statusCode).toBe(401);
        expect((await ctx.app.inject({ url, headers: { cookie: customer.cookie } })).statusCode).toBe(401);
        expect((await ctx.app.inject({ url, headers: { cookie: operator.cookie } })).statusCode).toBe(401);
        const none = await ctx.app.inject({ url, headers: { cookie: kitchenless.cookie } });
        expect(none.statusCode).toBe(404);
        expect(none.json()).toMatchObject({ code: 'NO_KITCHEN' });
      }
    });

    it('refuses a bad day or range with 400, naming the parameter', async () => {
      const ctx = get();
      const world = await aucklandKitchen(ctx);
      const cases: [string, string][] = [
        ['?from=2026-13-01', 'from'],
        ['?from=2026-02-30', 'from'],
        ['?from=yesterday', 'from'],
        ['?to=2026-3-1', 'to'],
        ['?from=2026-03-10&to=2026-03-09', 'to'],
        ['?from=2026-03-01&from=2026-03-02', 'from'],
        // Days a calendar of ours cannot reach: the first answered 500 (an invalid time, year 10000's day after).
        ['?to=9999-12-31', 'to'],
        ['?from=9999-12-31', 'from'],
        ['?from=2026-03-01&to=9999-12-31', 'to'],
        ['?from=0001-01-01', 'from'],
        ['?from=2101-01-01&to=2101-01-02', 'from'],
      ];
      for (const path of ['/api/kitchen/earnings', '/api/kitchen/earnings.csv'])
        for (const [query, field] of cases) {
          const res = await ctx.app.inject({
            url: `${path}${query}`,
            headers: { cookie: world.cook.cookie },
          });
          expect(res.statusCode, `${path}${query}`).toBe(400);
          expect(res.json(), `${path}${query}`).toMatchObject({ code: 'VALIDATION', field });
          expect(res.json<{ message: string }>().message).toContain(field);
        }
    });
  },
  { PAYMENTS: 'local' },
  { clock },
);
