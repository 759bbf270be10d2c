import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { MEAL_CAP_REACHED, SELLING_NOT_ALLOWED } from '../../shared/jurisdictions.js';
import type { Insights } from '../../shared/insights.js';
import type { Kitchen } from '../../shared/kitchens.js';
import type { MenuItem } from '../../shared/menu.js';
import { kitchenMealCounts, kitchens, orders } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { addPapers, startCaliforniaGeocoder } from '../test/law.js';

// Kitchens' addresses are placed by a local stand-in for Photon, which names their country, state and county: the
// address picks the rules (jurisdictions/us.yaml).
const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

/** Tuesday 24 November 2026, 12:00 in Los Angeles (UTC-8). */
const NOW = Date.parse('2026-11-24T20:00:00Z');
const fakeClock = new FakeClock();
let now = NOW;
const clock: Clock = {
  now: () => now,
  sleep: (ms) => fakeClock.sleep(ms),
  timeout: (ms) => fakeClock.timeout(ms),
};

let addressCounter = 0;

describeEachEngine(
  'meal caps of a kitchen’s jurisdiction, counted where orders are placed',
  (get) => {
    let ctx: TestContext;
    beforeEach(() => {
      ctx = get();
      now = NOW;
    });

    async function capped(
      address: string,
      price = '1.00',
      ordering: Partial<typeof kitchens.$inferInsert> = {},
    ) {
      const cook = await buildKitchen(ctx, { address, timeZone: 'America/Los_Angeles' });
      if (Object.keys(ordering).length)
        await ctx.database.db.update(kitchens).set(ordering).where(eq(kitchens.ownerId, cook.kitchen.uid));
      const dish = await buildMenuItem(ctx, cook.kitchen, { item: 'Pozole', price });
      await addPapers(ctx, cook);
      return { ...cook, dish };
    }

    /** A new customer's order of `meals` portions of `dish` (a customer has one order in progress at a time). */
    async function order(
      kitchen: Kitchen,
      dish: MenuItem,
      meals: number,
      extra: Record<string, unknown> = {},
    ) {
      const { cookie } = await signedIn(ctx, 'customer');
      return ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: {
          kitchenUid: kitchen.uid,
          itemIds: Array.from({ length: meals }, () => dish.id),
          address: '1 Road',
          idempotencyKey: randomUUID(),
          ...extra,
        },
        // Each customer from an address of its own: the per-address limit stays out of the way.
        remoteAddress: `2001:db8::c:${(++addressCounter).toString(16)}`,
      });
    }

    const counts = async (kitchen: Kitchen) =>
      (
        await ctx.database.db
          .select({
            period: kitchenMealCounts.period,
            starts: kitchenMealCounts.starts,
            meals: kitchenMealCounts.meals,
            grossMinor: kitchenMealCounts.grossMinor,
          })
          .from(kitchenMealCounts)
          .where(eq(kitchenMealCounts.kitchenId, kitchen.uid))
      ).sort((a, b) => a.period.localeCompare(b.period) || a.starts.localeCompare(b.starts));

    it('sells the 30th meal of the day and refuses the 31st naming the daily cap, until the kitchen’s midnight', async () => {
      const { kitchen, dish } = await capped('12 Sunset Boulevard');
      expect((await order(kitchen, dish, 29)).statusCode).toBe(201);
      const two = await order(kitchen, dish, 2);
      expect(two.statusCode).toBe(409);
      expect(two.json()).toEqual({
        code: MEAL_CAP_REACHED,
        field: 'itemIds',
        message: `Daily meal cap reached: ${kitchen.name} may sell 30 meals a day under the rules here, and has 1 left today.`,
      });
      expect((await order(kitchen, dish, 1)).statusCode).toBe(201);
      const thirtyFirst = await order(kitchen, dish, 1);
      expect(thirtyFirst.statusCode).toBe(409);
      expect(thirtyFirst.json().message).toBe(
        `Daily meal cap reached: ${kitchen.name} may sell 30 meals a day under the rules here, and has 0 left today.`,
      );
      expect(await counts(kitchen)).toEqual([
        { period: 'day', starts: '2026-11-24', meals: 30, grossMinor: 3000 },
        { period: 'week', starts: '2026-11-23', meals: 30, grossMinor: 3000 },
        { period: 'year', starts: '2026-01-01', meals: 30, grossMinor: 3000 },
      ]);
      now = Date.parse('2026-11-25T07:59:00Z'); // 23:59 in Los Angeles: still Tuesday there
      expect((await order(kitchen, dish, 1)).statusCode).toBe(409);
      now = Date.parse('2026-11-25T08:00:00Z'); // Wednesday 00:00 there
      expect((await order(kitchen, dish, 1)).statusCode).toBe(201);
    });

    it('counts the week from Monday in the kitchen’s zone (Santa Barbara County: 60 a week)', async () => {
      const { kitchen, dish } = await capped('3 State Street');
      now = Date.parse('2026-11-23T20:00:00Z'); // Monday noon there
      expect((await order(kitchen, dish, 30)).statusCode).toBe(201);
      now = Date.parse('2026-11-24T20:00:00Z');
      expect((await order(kitchen, dish, 30)).statusCode).toBe(201);
      now = Date.parse('2026-11-25T20:00:00Z');
      const wednesday = await order(kitchen, dish, 1);
      expect(wednesday.statusCode).toBe(409);
      expect(wednesday.json()).toMatchObject({
        code: MEAL_CAP_REACHED,
        message: `Weekly meal cap reached: ${kitchen.name} may sell 60 meals a week under the rules here, and has 0 left this week.`,
      });
      now = Date.parse('2026-11-30T07:30:00Z'); // Monday 07:30 UTC is still Sunday 23:30 in Santa Barbara
      expect((await order(kitchen, dish, 1)).json()).toMatchObject({ code: MEAL_CAP_REACHED });
      now = Date.parse('2026-11-30T08:00:00Z'); // Monday 00:00 there: a new week
      expect((await order(kitchen, dish, 1)).statusCode).toBe(201);
    });

    it("shows the cook's Insights its meals against the caps, per day and per week (JSON and CSV)", async () => {
      const { kitchen, dish, cookie } = await capped('3 State Street');
      now = Date.parse('2026-11-23T20:00:00Z'); // Monday noon in Santa Barbara: 60 a week, 30 a day (the state's)
      expect((await order(kitchen, dish, 12)).statusCode).toBe(201);
      now = Date.parse('2026-11-24T20:00:00Z');
      expect((await order(kitchen, dish, 30)).statusCode).toBe(201);
      const insights = await ctx.app.inject({
        url: '/api/kitchen/insights?period=week',
        headers: { cookie },
      });
      expect(insights.statusCode, insights.body).toBe(200);
      const caps = insights.json<Insights>().caps;
      expect(caps).toMatchObject({
        mealsPerDay: 30,
        mealsPerWeek: 60,
        weeks: [{ period: '2026-11-23', meals: 42 }],
      });
      // This week so far: Monday and today.
      expect(caps?.days).toEqual([
        { period: '2026-11-23', meals: 12 },
        { period: '2026-11-24', meals: 30 },
      ]);
      const csv = await ctx.app.inject({
        url: '/api/kitchen/insights.csv?period=week&chart=caps',
        headers: { cookie },
      });
      expect(csv.statusCode, csv.body).toBe(200);
      // (With a byte-order mark, every text quoted: as every CSV file of the app.)
      expect(csv.body.split(/\r?\n/).slice(0, 4)).toEqual([
        '\uFEFF"Period","Meals","Cap"',
        '"2026-11-23",12,30',
        '"2026-11-24",30,30',
        '"2026-11-23/P1W",42,60',
      ]);

      // A kitchen in a place that caps nothing has no such chart.
      const nowhere = await capped('Somewhere unknown');
      const uncapped = await ctx.app.inject({
        url: '/api/kitchen/insights?period=week',
        headers: { cookie: nowhere.cookie },
      });
      expect(uncapped.json<Insights>().caps).toBeNull();
    });

    it('refuses the order that would pass the year’s gross, saying what is left', async () => {
      // $999.99 a dish, nine to an order: $8,999.91 of dishes each; Santa Barbara County allows $50,000 a year.
      const { kitchen, dish } = await capped('3 State Street', '999.99');
      now = Date.parse('2026-11-23T20:00:00Z');
      for (let i = 0; i < 3; i++) expect((await order(kitchen, dish, 9)).statusCode).toBe(201);
      now = Date.parse('2026-11-24T20:00:00Z');
      for (let i = 0; i < 2; i++) expect((await order(kitchen, dish, 9)).statusCode).toBe(201);
      const sixth = await order(kitchen, dish, 9);
      expect(sixth.statusCode).toBe(409);
      expect(sixth.json()).toMatchObject({
        code: MEAL_CAP_REACHED,
        message: `Yearly sales cap reached: ${kitchen.name} may sell $50,000.00 a year under the rules here, and has $5,000.45 left this year.`,
      });
      expect((await order(kitchen, dish, 5)).statusCode).toBe(201); // $4,999.95 fits
      expect((await counts(kitchen)).find((c) => c.period === 'year')).toMatchObject({
        meals: 50,
        grossMinor: 4_999_950,
      });
    });

    it('counts a pre-order against the day it is for, not the day it is placed', async () => {
      const { kitchen, dish } = await capped('12 Sunset Boulevard', '1.00', {
        slotMinutes: 60,
        priorNoticeMinutes: 120,
        daysAhead: 2,
      });
      const tomorrowSix = '2026-11-26T02:00:00.000Z'; // Wednesday 18:00 in Los Angeles
      expect((await order(kitchen, dish, 30, { slotStart: tomorrowSix })).statusCode).toBe(201);
      expect((await order(kitchen, dish, 30)).statusCode).toBe(201); // today's 30 are untouched
      const more = await order(kitchen, dish, 1, { slotStart: '2026-11-26T03:00:00.000Z' });
      expect(more.json()).toMatchObject({
        code: MEAL_CAP_REACHED,
        message: expect.stringContaining('Daily'),
      });
      expect((await counts(kitchen)).filter((c) => c.period === 'day')).toEqual([
        { period: 'day', starts: '2026-11-24', meals: 30, grossMinor: 3000 },
        { period: 'day', starts: '2026-11-25', meals: 30, grossMinor: 3000 },
      ]);
    });

    it('gives a declined order’s meals and gross back', async () => {
      const { kitchen, dish, cookie } = await capped('12 Sunset Boulevard');
      const first = await order(kitchen, dish, 30);
      expect((await order(kitchen, dish, 1)).statusCode).toBe(409);
      const declined = await ctx.app.inject({
        method: 'POST',
        url: `/api/kitchen/orders/${first.json<{ id: string }>().id}/moves`,
        headers: { cookie },
        payload: { move: 'decline', reason: 'Out of hominy' },
      });
      expect(declined.statusCode).toBe(200);
      expect((await counts(kitchen)).map((c) => [c.period, c.meals, c.grossMinor])).toEqual([
        ['day', 0, 0],
        ['week', 0, 0],
        ['year', 0, 0],
      ]);
      expect((await order(kitchen, dish, 30)).statusCode).toBe(201);
    });

    it('lets exactly one of 20 customers racing for the last meal have it', async () => {
      const { kitchen, dish } = await capped('12 Sunset Boulevard');
      expect((await order(kitchen, dish, 29)).statusCode).toBe(201);
      const answers = await Promise.all(Array.from({ length: 20 }, () => order(kitchen, dish, 1)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
      for (const refused of answers.filter((a) => a.statusCode === 409))
        expect(refused.json()).toMatchObject({
          code: MEAL_CAP_REACHED,
          message: expect.stringMatching(/^Daily meal cap reached: .* may sell 30 meals a day/),
        });
      expect((await counts(kitchen)).find((c) => c.period === 'day')?.meals).toBe(30);
      const placed = await ctx.database.db.select().from(orders).where(eq(orders.kitchenId, kitchen.uid));
      expect(placed.reduce((sum, o) => sum + o.capsMeals, 0)).toBe(30);
    });

    it('refuses orders where home kitchens may not sell, and counts nothing where no rules are configured', async () => {
      const orange = await capped('9 Harbor Boulevard');
      const refused = await order(orange.kitchen, orange.dish, 1);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        code: SELLING_NOT_ALLOWED,
        field: 'kitchenUid',
        message: `${orange.kitchen.name} cannot take orders: home kitchens may not sell meals in California under its rules.`,
      });
      // An address the geocoder cannot place: the deployment's fallback, no rules configured.
      const nowhere = await capped('Somewhere unknown');
      expect((await order(nowhere.kitchen, nowhere.dish, 31)).statusCode).toBe(201);
      expect(await counts(nowhere.kitchen)).toEqual([]);
    });
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
  { clock },
);
