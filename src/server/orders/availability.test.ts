import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { Kitchen, KitchenInput } from '../../shared/kitchens.js';
import type { MenuItem, MenuItemInput } from '../../shared/menu.js';
import { ALL_DAY_HOURS, type WeeklyHours } from '../../shared/opening-hours.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { eq } from 'drizzle-orm';
import { menuItems, orderEvents, orders } from '../db/schema.js';
import { portionDayWatch } from '../menu/portion-days.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

// The server's clock, set by each test: opening hours, pauses and a kitchen's "today" are decided by it.
let time = Date.parse('2026-11-24T12:00:00Z'); // a Tuesday
const clock: Clock = { ...systemClock, now: () => time };
const closedAllWeek: WeeklyHours = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };

describeEachEngine(
  'kitchen availability decides orders',
  (get) => {
    let ctx: TestContext;
    beforeEach(() => {
      ctx = get();
      time = Date.parse('2026-11-24T12:00:00Z');
    });

    async function kitchenWith(input: Partial<KitchenInput>, dishes: Partial<MenuItemInput>[] = [{}]) {
      const { kitchen, cookie } = await buildKitchen(ctx, input);
      const items: MenuItem[] = [];
      for (const [i, dish] of dishes.entries())
        items.push(await buildMenuItem(ctx, kitchen, { item: `Dish ${i + 1}`, ...dish }));
      return { kitchen, cookie, items };
    }

    async function order(kitchen: Kitchen, itemIds: string[], cookie?: string) {
      const customer = cookie ?? (await signedIn(ctx, 'customer')).cookie;
      return ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie: customer, origin: ctx.config.publicUrl },
        payload: { kitchenUid: kitchen.uid, itemIds, address: '1 Road', idempotencyKey: randomUUID() },
      });
    }

    const menuOf = async (kitchen: Kitchen) =>
      (await ctx.app.inject(`/api/kitchens/${kitchen.uid}/menu`)).json<MenuItem[]>();

    it('refuses an order outside the hours, naming the next opening in the kitchen’s time zone', async () => {
      // Tuesdays 10:00–12:00 in Kolkata (UTC+5:30): 12:00 UTC is 17:30 there.
      const { kitchen, items } = await kitchenWith({
        timeZone: 'Asia/Kolkata',
        hours: { ...closedAllWeek, tue: [['10:00', '12:00']] },
      });
      const refused = await order(kitchen, [items[0]!.id]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'KITCHEN_CLOSED',
        field: 'kitchenUid',
        message: `${kitchen.name} is closed now. It opens Tue 10:00 AM.`,
      });
      time = Date.parse('2026-11-24T05:00:00Z'); // 10:30 in Kolkata
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(201);
    });

    it('keeps the spec’s hours (10:00 AM - 8:15 PM) for a kitchen that never set any', async () => {
      const { kitchen, items } = await kitchenWith({ hours: null, timeZone: 'UTC' });
      expect(kitchen.hours).toBeNull();
      time = Date.parse('2026-11-24T20:15:00Z');
      expect((await order(kitchen, [items[0]!.id])).json()).toMatchObject({
        message: `${kitchen.name} is closed now. It opens Wed 10:00 AM.`,
      });
      time = Date.parse('2026-11-24T20:14:00Z');
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(201);
    });

    it('refuses orders while paused, until the pause ends or the cook resumes', async () => {
      const { kitchen, cookie, items } = await kitchenWith({ hours: ALL_DAY_HOURS });
      const pause = (body: object) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/kitchen/pause',
          headers: { cookie, origin: ctx.config.publicUrl },
          payload: body,
        });
      const paused = await pause({ paused: true, until: new Date(time + 3600_000).toISOString() });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json<Kitchen>().pausedUntil).toBe(new Date(time + 3600_000).toISOString());
      expect((await order(kitchen, [items[0]!.id])).json()).toMatchObject({
        code: 'KITCHEN_CLOSED',
        message: `${kitchen.name} is not taking orders right now.`,
      });
      time += 3600_000;
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(201);

      expect((await pause({ paused: true })).statusCode).toBe(200);
      time += 7 * 24 * 3600_000;
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(409);
      expect((await pause({ paused: false })).json<Kitchen>().pausedAt).toBeNull();
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(201);

      // Bad input names its field and changes nothing.
      const past = await pause({ paused: true, until: new Date(time - 1000).toISOString() });
      expect(past.statusCode).toBe(400);
      expect(past.json()).toMatchObject({ field: 'until' });
      // Beyond the calendar's last day (2100-12-31): year 10000 where the zone's day ends.
      for (const until of ['9999-12-31T23:59:59-14:00', '2101-01-01T00:00:00Z']) {
        const far = await pause({ paused: true, until });
        expect(far.statusCode, until).toBe(400);
        expect(far.json(), until).toMatchObject({ code: 'VALIDATION', field: 'until' });
        expect(far.json<{ message: string }>().message).toContain('until');
      }
      expect((await pause({ paused: 'yes' })).statusCode).toBe(400);
      expect((await pause({ paused: false, until: new Date(time + 1000).toISOString() })).statusCode).toBe(
        400,
      );
      expect((await ctx.app.inject(`/api/kitchens/${kitchen.uid}`)).json<Kitchen>().pausedAt).toBeNull();
    });

    it('refuses a dish marked sold out, naming it', async () => {
      const { kitchen, items } = await kitchenWith({ hours: ALL_DAY_HOURS }, [
        { item: 'Dal', soldOut: true },
        { item: 'Rice' },
      ]);
      const refused = await order(kitchen, [items[1]!.id, items[0]!.id]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'SOLD_OUT',
        field: 'itemIds',
        message: /Dal is sold out/,
      });
    });

    it('never oversells: 20 customers racing for the last 5 portions make exactly 5 orders', async () => {
      const { kitchen, items } = await kitchenWith({ hours: ALL_DAY_HOURS }, [{ portionsPerDay: 5 }]);
      const customers = await Promise.all(
        Array.from({ length: 20 }, async () => (await signedIn(ctx, 'customer')).cookie),
      );
      const answers = await Promise.all(customers.map((c) => order(kitchen, [items[0]!.id], c)));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes.filter((c) => c === 201)).toHaveLength(5);
      expect(codes.filter((c) => c === 409)).toHaveLength(15);
      expect(answers.find((a) => a.statusCode === 409)?.json()).toMatchObject({
        code: 'SOLD_OUT',
        message: 'Dish 1 is sold out. Please change your cart and order again.',
      });
      expect((await menuOf(kitchen))[0]).toMatchObject({ portionsPerDay: 5, portionsLeft: 0 });
    });

    it('says how many are left when a cart asks for more, and gives portions back when an order is declined', async () => {
      const {
        kitchen,
        cookie: owner,
        items,
      } = await kitchenWith({ hours: ALL_DAY_HOURS }, [{ item: 'Biryani', portionsPerDay: 3 }]);
      const id = items[0]!.id;
      const first = await order(kitchen, [id, id]);
      expect(first.statusCode).toBe(201);
      expect((await menuOf(kitchen))[0]!.portionsLeft).toBe(1);
      const tooMany = await order(kitchen, [id, id]);
      expect(tooMany.json()).toMatchObject({
        code: 'SOLD_OUT',
        message: 'Only 1 Biryani left (you asked for 2). Please change your cart and order again.',
      });
      const declined = await ctx.app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${first.json<{ id: string }>().id}/moves`,
        headers: { cookie: owner, origin: ctx.config.publicUrl },
        payload: { move: 'decline', reason: 'Out of rice' },
      });
      expect(declined.statusCode, declined.body).toBe(200);
      expect((await menuOf(kitchen))[0]!.portionsLeft).toBe(3);
      expect((await order(kitchen, [id, id, id])).statusCode).toBe(201);
    });

    it('gives portions back, and tells the customer, when the kitchen deletes an order in progress', async () => {
      const {
        kitchen,
        cookie: owner,
        items,
      } = await kitchenWith({ hours: ALL_DAY_HOURS }, [{ item: 'Biryani', portionsPerDay: 2 }]);
      const id = items[0]!.id;
      const first = await order(kitchen, [id, id]);
      expect(first.statusCode).toBe(201);
      const orderId = first.json<{ id: string }>().id;
      expect((await menuOf(kitchen))[0]!.portionsLeft).toBe(0);
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/kitchen/orders/${orderId}`,
        headers: { cookie: owner, origin: ctx.config.publicUrl },
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      // Not made: its portions are there to order again, and its customer sees it cancelled, and why.
      expect((await menuOf(kitchen))[0]!.portionsLeft).toBe(2);
      const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, orderId));
      expect(row).toMatchObject({ state: 'cancelled', endReason: 'The kitchen deleted this order' });
      expect(row?.archivedAt).toBeInstanceOf(Date);
      const events = await ctx.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
      expect(events.map((e) => [e.state, e.byRole])).toContainEqual(['cancelled', 'kitchen']);
    });

    it('counts portions afresh at the kitchen’s midnight', async () => {
      // New York: 23:30 on Tuesday is 04:30 UTC on Wednesday.
      const { kitchen, items } = await kitchenWith({ hours: ALL_DAY_HOURS, timeZone: 'America/New_York' }, [
        { portionsPerDay: 1 },
      ]);
      const watch = portionDayWatch(ctx.app);
      time = Date.parse('2026-11-25T04:30:00Z');
      await watch();
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(201);
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(409);
      expect((await menuOf(kitchen))[0]!.portionsLeft).toBe(0);
      time = Date.parse('2026-11-25T05:00:00Z'); // 00:00 on Wednesday in New York
      await watch(); // the minute's check reloads the cached menu: a new day
      expect((await menuOf(kitchen))[0]!.portionsLeft).toBe(1);
      expect((await order(kitchen, [items[0]!.id])).statusCode).toBe(201);
      // A kitchen that no longer counts portions is let go of.
      expect(watch.tracked()).toContain(kitchen.uid);
      await ctx.database.db
        .update(menuItems)
        .set({ portionsPerDay: null })
        .where(eq(menuItems.kitchenId, kitchen.uid));
      await watch();
      expect(watch.tracked()).not.toContain(kitchen.uid);
    });
  },
  {},
  { clock },
);
