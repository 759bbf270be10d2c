import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { kitchens } from '../db/schema.js';
import { decideListing } from '../moderation/operator-service.js';
import { startFakeProvider } from './fake-geocoder.js';
import { buildUser, type TestContext } from './test-app.js';

/** The permit number the papers below give a kitchen. */
export const PERMIT_NUMBER = 'MEHKO-2041';

/**
 * An operator approves a kitchen whose place's rules ask for a permit (it is then listed and takes orders), through
 * the service the operator's route calls: the route itself is tested in kitchen-listing.test.ts.
 */
export async function approveKitchen(ctx: TestContext, kitchenUid: string) {
  const operator = await buildUser(ctx);
  expect(await decideListing(ctx.app, operator, kitchenUid, { decision: 'approve', reason: '' })).toEqual({
    changed: true,
  });
}

/**
 * The permit and the food safety certificate California's rules require before a kitchen takes orders, added by its
 * cook, and the kitchen then approved by an operator if it awaits approval (its place's rules ask for a permit).
 */
export async function addPapers(
  ctx: TestContext,
  cook: { cookie: string; kitchen: { uid: string } },
  expiresOn = '2030-12-31',
) {
  for (const [kind, number] of [
    ['permit', PERMIT_NUMBER],
    ['food-safety-certificate', 'FSM-7731'],
  ] as const) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen/documents',
      headers: { cookie: cook.cookie },
      payload: { kind, number, expiresOn },
    });
    expect(res.statusCode).toBe(201);
  }
  const [row] = await ctx.database.db
    .select({ listing: kitchens.listing })
    .from(kitchens)
    .where(eq(kitchens.ownerId, cook.kitchen.uid));
  if (row?.listing === 'awaiting-approval') await approveKitchen(ctx, cook.kitchen.uid);
}

/**
 * A local stand-in for Photon that places addresses on these streets in California's counties, as Photon names them
 * (jurisdictions/us.yaml: Los Angeles County asks for a permit and caps meals, Santa Barbara County caps them
 * otherwise, Orange County lets no home kitchen sell). Its `base` goes in GEOCODER_URL; close it after the file.
 */
export async function startCaliforniaGeocoder() {
  const fake = await startFakeProvider();
  const places = {
    'Sunset Boulevard': { lat: 34.0983, lon: -118.3267, county: 'Los Angeles County' },
    'State Street': { lat: 34.4208, lon: -119.6982, county: 'Santa Barbara County' },
    'Harbor Boulevard': { lat: 33.8366, lon: -117.9143, county: 'Orange County' },
  };
  for (const [street, place] of Object.entries(places))
    fake.places.set(street, { ...place, countrycode: 'US', state: 'California' });
  return fake;
}
