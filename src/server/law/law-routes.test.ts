import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import type { KitchenBooking, KitchenRules } from '../../shared/jurisdictions.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { addPapers, PERMIT_NUMBER, startCaliforniaGeocoder } from '../test/law.js';

// Kitchens' addresses are placed by a local stand-in for Photon, which names their country, state and county.
const fake = await startCaliforniaGeocoder();
afterAll(() => fake.close());

let addressCounter = 0;

describeEachEngine(
  "GET /api/kitchen/rules ('Rules for your kitchen') and GET /api/kitchens/:uid/booking",
  (get) => {
    async function orderMeals(ctx: TestContext, kitchenUid: string, dishId: string, meals: number) {
      const { cookie } = await signedIn(ctx, 'customer');
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: {
          kitchenUid,
          itemIds: Array.from({ length: meals }, () => dishId),
          address: '1 Road',
          idempotencyKey: randomUUID(),
        },
        remoteAddress: `2001:db8::d:${(++addressCounter).toString(16)}`,
      });
      expect(res.statusCode).toBe(201);
    }

    it('tells the cook which rules apply and why, with the meals and sales counted so far', async () => {
      const ctx = get();
      const { kitchen, cookie } = await buildKitchen(ctx, {
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      const rules = async () =>
        ctx.app.inject({ method: 'GET', url: '/api/kitchen/rules', headers: { cookie } });
      const first = await rules();
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      const body = first.json<KitchenRules>();
      expect(body).toMatchObject({
        place: { countryCode: 'US', region: 'California', county: 'Los Angeles County' },
        profile: {
          id: 'us/ca/los-angeles',
          name: 'Los Angeles County',
          fallback: false,
          rules: { sellingAllowed: true, caps: { mealsPerDay: 30, mealsPerWeek: 90 } },
        },
        counted: { today: 0, thisWeek: 0, thisYearGrossMinor: 0 },
      });
      expect(body.profile.levels.map((l) => l.name)).toEqual(['California', 'Los Angeles County']);
      for (const level of body.profile.levels) expect(level.sources.length).toBeGreaterThan(0);
      await addPapers(ctx, { cookie, kitchen });
      const dish = await buildMenuItem(ctx, kitchen, { price: '12.50' });
      await orderMeals(ctx, kitchen.uid, dish.id, 3);
      expect((await rules()).json<KitchenRules>().counted).toEqual({
        today: 3,
        thisWeek: 3,
        thisYearGrossMinor: 3750,
      });
    });

    it('gives a kitchen no profile covers the fallback, with nothing counted', async () => {
      const ctx = get();
      const { cookie } = await buildKitchen(ctx, { address: 'Nowhere in particular' });
      const res = await ctx.app.inject({ method: 'GET', url: '/api/kitchen/rules', headers: { cookie } });
      expect(res.json()).toMatchObject({
        place: { countryCode: null, region: null, county: null },
        profile: { id: 'none', name: 'No rules configured', fallback: true, rules: { sellingAllowed: true } },
        counted: null,
      });
    });

    it('refuses the rules without a kitchen session (401), and to a cook with no kitchen yet (404)', async () => {
      const ctx = get();
      expect((await ctx.app.inject({ method: 'GET', url: '/api/kitchen/rules' })).statusCode).toBe(401);
      const customer = await signedIn(ctx, 'customer');
      const asCustomer = await ctx.app.inject({
        method: 'GET',
        url: '/api/kitchen/rules',
        headers: { cookie: customer.cookie },
      });
      expect(asCustomer.statusCode).toBe(401);
      const cook = await signedIn(ctx, 'kitchen');
      const noKitchen = await ctx.app.inject({
        method: 'GET',
        url: '/api/kitchen/rules',
        headers: { cookie: cook.cookie },
      });
      expect(noKitchen.statusCode).toBe(404);
      expect(noKitchen.json()).toMatchObject({ code: 'NO_KITCHEN' });
    });

    it("says 'Fully booked today' once the day's meals are sold, to anyone", async () => {
      const ctx = get();
      const { kitchen, cookie } = await buildKitchen(ctx, {
        address: '12 Sunset Boulevard',
        timeZone: 'America/Los_Angeles',
      });
      await addPapers(ctx, { cookie, kitchen });
      const dish = await buildMenuItem(ctx, kitchen, { price: '1.00' });
      const booking = async () =>
        (await ctx.app.inject(`/api/kitchens/${kitchen.uid}/booking`)).json<KitchenBooking>();
      // Los Angeles County asks for the permit number on the menu page.
      const permitNumber = PERMIT_NUMBER;
      expect(await booking()).toEqual({
        capped: true,
        fullyBookedToday: false,
        mealsLeftToday: 30,
        permitNumber,
      });
      await orderMeals(ctx, kitchen.uid, dish.id, 28);
      expect(await booking()).toEqual({
        capped: true,
        fullyBookedToday: false,
        mealsLeftToday: 2,
        permitNumber,
      });
      await orderMeals(ctx, kitchen.uid, dish.id, 2);
      expect(await booking()).toEqual({
        capped: true,
        fullyBookedToday: true,
        mealsLeftToday: 0,
        permitNumber,
      });
      const other = await buildKitchen(ctx, { address: 'Nowhere in particular' });
      expect((await ctx.app.inject(`/api/kitchens/${other.kitchen.uid}/booking`)).json()).toEqual({
        capped: false,
        fullyBookedToday: false,
        mealsLeftToday: null,
        permitNumber: null,
      });
    });

    it('answers 404 for no such kitchen and 400 naming uid for a malformed one', async () => {
      const ctx = get();
      expect((await ctx.app.inject(`/api/kitchens/${randomUUID()}/booking`)).statusCode).toBe(404);
      const bad = await ctx.app.inject('/api/kitchens/not-a-uuid/booking');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'uid' });
    });
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
