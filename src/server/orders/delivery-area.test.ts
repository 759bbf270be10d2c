import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { OUTSIDE_DELIVERY_AREA } from '../../shared/geo.js';
import { orders } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { startFakeProvider } from '../test/fake-geocoder.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

// Kitchens' addresses are placed by a local stand-in for Photon (central London).
const fake = await startFakeProvider();
fake.places.set('Baker Street', { lat: 51.5226, lon: -0.1571 });
afterAll(() => fake.close());

const OXFORD_CIRCUS = { lat: 51.5152, lon: -0.1418 }; // 1.3 km from Baker Street
const GREENWICH = { lat: 51.4769, lon: -0.0005 }; // 11.9 km

describeEachEngine(
  'POST /api/orders and the kitchen’s delivery area',
  (get) => {
    async function order(
      ctx: TestContext,
      address: string,
      location?: unknown,
      kitchenAddress = 'Baker Street',
    ) {
      const { kitchen } = await buildKitchen(ctx, { address: kitchenAddress, deliveryRadiusKm: 2 });
      const item = await buildMenuItem(ctx, kitchen);
      const { user, cookie } = await signedIn(ctx, 'customer');
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: {
          kitchenUid: kitchen.uid,
          itemIds: [item.id],
          address,
          location,
          idempotencyKey: randomUUID(),
        },
      });
      const rows = await ctx.database.db.select().from(orders).where(eq(orders.customerId, user.id));
      return { res, rows, kitchen };
    }

    it('refuses an address picked outside the delivery radius (422 naming address), writing nothing', async () => {
      const { res, rows, kitchen } = await order(get(), 'Greenwich Park, London', GREENWICH);
      expect(kitchen.location).not.toBeNull();
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: OUTSIDE_DELIVERY_AREA, field: 'address' });
      // 2 km, in American English's miles.
      expect(res.json<{ message: string }>().message).toContain('delivers within 1.2 mi');
      expect(rows).toEqual([]);
    });

    it('accepts an address picked inside the radius', async () => {
      const { res, rows } = await order(get(), 'Oxford Circus, London', OXFORD_CIRCUS);
      expect(res.statusCode).toBe(201);
      expect(rows).toHaveLength(1);
    });

    it('accepts a typed address (no coordinates), and any address for a kitchen that could not be placed', async () => {
      expect((await order(get(), 'Somewhere far away')).res.statusCode).toBe(201);
      const unplaced = await order(get(), 'Greenwich Park, London', GREENWICH, '1 Unknown Lane');
      expect(unplaced.kitchen.location).toBeNull();
      expect(unplaced.res.statusCode).toBe(201);
    });

    it.each([{ lat: 91, lon: 0 }, { lat: 0, lon: -181 }, { lat: '51.5', lon: 0 }, [51.5, 0], 'here'])(
      'refuses a bad location (%j) with a 400 naming it, writing nothing',
      async (location) => {
        const { res, rows } = await order(get(), 'Oxford Circus, London', location);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field: expect.stringMatching(/^location/) });
        expect(rows).toEqual([]);
      },
    );
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
