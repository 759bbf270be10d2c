import { expect, it } from 'vitest';
import type { Insights, Overview } from '../../shared/insights.js';
import { buildMenuItem } from '../test/builders.js';
import { cashDeliveredOrder, moveOrder } from '../test/money-world.js';
import { paidKitchen, placeOrder } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const get = async (ctx: TestContext, cookie: string, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: { cookie } });

describeEachEngine(
  "the cook's insights and the operator's overview",
  (context) => {
    it('shows a cook their sales, dishes, hours, customers by first name and reliability, from the rollups', async () => {
      const ctx = context();
      const world = await paidKitchen(ctx, { acceptsCash: true });
      const rice = await buildMenuItem(ctx, world.cook.kitchen, { item: 'Rice', price: '3.00' });
      const soup = await buildMenuItem(ctx, world.cook.kitchen, { item: 'Soup', price: '4.00' });
      const regular = await signedIn(ctx, 'customer', {
        displayName: 'Amira Haddad',
        email: 'amira@example.test',
      });
      // Amira's two delivered orders (dal twice, then dal and rice), and a declined one of someone else.
      for (const items of [
        [world.dal, world.dal],
        [world.dal, rice],
      ]) {
        const res = await placeOrder(ctx, regular.cookie, world.cook.kitchen.uid, items, { payment: 'cash' });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json<{ id: string }>().id;
        for (const move of ['accept', 'prepare', 'dispatch', 'deliver'])
          await moveOrder(ctx, world.cook, id, move === 'accept' ? { move, readyInMinutes: 30 } : { move });
      }
      const other = await signedIn(ctx, 'customer');
      const declined = await placeOrder(ctx, other.cookie, world.cook.kitchen.uid, [soup], {
        payment: 'cash',
      });
      await moveOrder(ctx, world.cook, declined.json<{ id: string }>().id, {
        move: 'decline',
        reason: 'No soup',
      });

      const res = await get(ctx, world.cook.cookie, '/api/kitchen/insights?period=week');
      expect(res.statusCode, res.body).toBe(200);
      const insights = res.json<Insights>();
      expect(insights.range.bucket).toBe('day');
      expect(insights.totals).toMatchObject({ orders: 3, itemsCents: 950 * 3 + 300 });
      expect(insights.sales.reduce((sum, bar) => sum + bar.orders, 0)).toBe(3);
      expect(insights.sales.reduce((sum, bar) => sum + bar.newCustomerOrders, 0)).toBe(2);
      expect(insights.dishes).toEqual([
        { menuItemId: world.dal.id, item: 'Dal', portions: 3, itemsCents: 2850 },
        { menuItemId: rice.id, item: 'Rice', portions: 1, itemsCents: 300 },
      ]);
      expect(insights.unsold).toEqual([{ menuItemId: soup.id, item: 'Soup' }]);
      expect(insights.hours.reduce((sum, cell) => sum + cell.orders, 0)).toBe(3);
      expect(insights.customers).toMatchObject({ customers: 2, returning: 1 });
      expect(insights.customers.best[0]).toMatchObject({ firstName: 'Amira', orders: 2 });
      expect(res.body).not.toContain('amira@example.test');
      expect(insights.reliability).toMatchObject({
        orders: 3,
        accepted: 2,
        declined: 1,
        delivered: 2,
        notAnswered: 0,
      });
      expect(insights.reliability.minutesToAccept).not.toBeNull();

      const csv = await get(ctx, world.cook.cookie, '/api/kitchen/insights.csv?period=week&chart=dishes');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/text\/csv/);
      expect(csv.body).toContain('"Dal",3,28.50');

      // Another cook sees only their own kitchen.
      const stranger = await paidKitchen(ctx);
      const theirs = await get(ctx, stranger.cook.cookie, '/api/kitchen/insights?period=week');
      expect(theirs.json<Insights>().totals.orders).toBe(0);
    });

    it("counts a kitchen's customers until one deletes their account", async () => {
      const ctx = context();
      const world = await paidKitchen(ctx, { acceptsCash: true });
      const regular = await signedIn(ctx, 'customer');
      for (let i = 0; i < 2; i++) {
        const res = await placeOrder(ctx, regular.cookie, world.cook.kitchen.uid, [world.dal], {
          payment: 'cash',
        });
        const id = res.json<{ id: string }>().id;
        for (const move of ['accept', 'prepare', 'dispatch', 'deliver'])
          await moveOrder(ctx, world.cook, id, move === 'accept' ? { move, readyInMinutes: 30 } : { move });
      }
      await cashDeliveredOrder(ctx, world, [world.dal]);
      const customers = async () =>
        (await get(ctx, world.cook.cookie, '/api/kitchen/insights?period=week')).json<Insights>().customers;
      expect(await customers()).toMatchObject({ customers: 2, returning: 1 });
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: '/api/account/customer',
        headers: { cookie: regular.cookie },
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await customers()).toMatchObject({ customers: 1, returning: 0, best: [{ orders: 1 }] });
    });

    it('refuses a bad period naming the field', async () => {
      const ctx = context();
      const world = await paidKitchen(ctx);
      for (const [query, field] of [
        ['period=fortnight', 'period'],
        ['period=custom&to=2026-11-01', 'from'],
        ['period=custom&from=2026-11-02&to=2026-11-01', 'to'],
        ['period=custom&from=2024-01-01&to=2026-11-01', 'to'],
        ['from=2026-02-30', 'from'],
      ]) {
        const res = await get(ctx, world.cook.cookie, `/api/kitchen/insights?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json<{ field?: string }>().field, query).toBe(field);
      }
      const csv = await get(ctx, world.cook.cookie, '/api/kitchen/insights.csv?chart=pie');
      expect(csv.statusCode).toBe(400);
      expect(csv.json<{ field?: string }>().field).toBe('chart');
    });

    it("gives the operator the marketplace's days, hours and top kitchens", async () => {
      const ctx = context();
      const world = await paidKitchen(ctx, { acceptsCash: true });
      await cashDeliveredOrder(ctx, world, [world.dal]);
      const operator = await signedIn(ctx, 'operator', { email: 'ops@example.test' });
      const res = await get(ctx, operator.cookie, '/api/operator/overview?period=week');
      expect(res.statusCode, res.body).toBe(200);
      const overview = res.json<Overview>();
      expect(overview.days.reduce((sum, d) => sum + d.orders, 0)).toBeGreaterThanOrEqual(1);
      expect(overview.hours).toHaveLength(24);
      expect(overview.topKitchens.map((k) => k.uid)).toContain(world.cook.kitchen.uid);
      const csv = await get(ctx, operator.cookie, '/api/operator/overview.csv?chart=days&period=week');
      expect(csv.statusCode).toBe(200);
      expect(csv.body.split('\r\n')[0]).toContain('Gross order value');
      const kitchen = await get(
        ctx,
        operator.cookie,
        `/api/operator/kitchens/${world.cook.kitchen.uid}/insights`,
      );
      expect(kitchen.json<Insights>().totals.orders).toBe(1);
    });
  },
  { PAYMENTS: 'local', OPERATOR_EMAILS: 'ops@example.test' },
);
