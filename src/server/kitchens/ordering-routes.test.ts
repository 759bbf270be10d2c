import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  DEFAULT_ORDERING,
  type OrderingSettings,
  type OrderingSettingsInput,
} from '../../shared/ordering.js';
import { kitchens } from '../db/schema.js';
import { findOrdering } from '../data/ordering-queries.js';
import { buildKitchen } from '../test/builders.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

/** Pickup and delivery, as soon as possible and slots of 30 minutes, a $15.00 minimum. */
const settings = (overrides: Partial<OrderingSettingsInput> = {}): OrderingSettingsInput => ({
  offersDelivery: true,
  offersPickup: true,
  pickupAddress: '5 Pickup Yard\nBack gate',
  pickupInstructions: 'Ring twice, I come down',
  takesAsap: true,
  slotMinutes: 30,
  priorNoticeMinutes: 120,
  daysAhead: 3,
  sameDayCutoff: '14:00',
  ordersPerSlot: 10,
  minimumOrderCents: 1500,
  ...overrides,
});

const kitchenRow = async (ctx: TestContext, uid: string) =>
  (await ctx.database.db.select().from(kitchens).where(eq(kitchens.ownerId, uid)))[0];

describeEachEngine("the cook's ordering options: /api/kitchen/ordering", (get) => {
  const read = (cookie?: string) =>
    get().app.inject({ url: '/api/kitchen/ordering', headers: cookie ? { cookie } : {} });
  const save = (body: unknown, cookie?: string) =>
    get().app.inject({
      method: 'PUT',
      url: '/api/kitchen/ordering',
      payload: body as object,
      headers: cookie ? { cookie } : {},
    });

  it('reads the defaults of a kitchen that never set them', async () => {
    const { cookie } = await buildKitchen(get());
    const res = await read(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(DEFAULT_ORDERING);
  });

  it('saves every option and reads them back; the public page and the other kitchens are told', async () => {
    const mine = await buildKitchen(get());
    const other = await buildKitchen(get());
    const res = await save(settings(), mine.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const expected: OrderingSettings = settings();
    expect(res.json()).toEqual(expected);
    expect((await read(mine.cookie)).json()).toEqual(expected);
    expect(await findOrdering(get().app.db, mine.kitchen.uid)).toEqual(expected);
    // The other kitchen keeps its own.
    expect((await read(other.cookie)).json()).toEqual(DEFAULT_ORDERING);

    // Back to delivery only, as soon as possible only: the nullable options are cleared.
    const plain = settings({
      offersPickup: false,
      slotMinutes: null,
      sameDayCutoff: null,
      ordersPerSlot: null,
      minimumOrderCents: 0,
    });
    const again = await save(plain, mine.cookie);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(plain);
  });

  it('trims the pickup texts, and saves slots only (no "As soon as possible") and pickup only', async () => {
    const { cookie } = await buildKitchen(get());
    const res = await save(
      settings({
        offersDelivery: false,
        pickupAddress: '  7 Lane  ',
        pickupInstructions: '  ',
        takesAsap: false,
        daysAhead: 0,
        priorNoticeMinutes: 0,
      }),
      cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      offersDelivery: false,
      offersPickup: true,
      pickupAddress: '7 Lane',
      pickupInstructions: '',
      takesAsap: false,
      slotMinutes: 30,
      daysAhead: 0,
      priorNoticeMinutes: 0,
    });
  });

  const refusals: [what: string, body: OrderingSettingsInput | Record<string, unknown>, field: string][] = [
    [
      'neither delivery nor pickup',
      settings({ offersDelivery: false, offersPickup: false }),
      'offersDelivery',
    ],
    ['pickup without an address', settings({ pickupAddress: '' }), 'pickupAddress'],
    ['pickup with a blank address', settings({ pickupAddress: '   ' }), 'pickupAddress'],
    [
      'neither "As soon as possible" nor slots',
      settings({ takesAsap: false, slotMinutes: null }),
      'takesAsap',
    ],
    ['a slot length of 20 minutes', settings({ slotMinutes: 20 }), 'slotMinutes'],
    ['6 days ahead', settings({ daysAhead: 6 }), 'daysAhead'],
    ['a cut-off of 25:00', settings({ sameDayCutoff: '25:00' }), 'sameDayCutoff'],
    ['a minimum order of -1', settings({ minimumOrderCents: -1 }), 'minimumOrderCents'],
    ['0 orders per slot', settings({ ordersPerSlot: 0 }), 'ordersPerSlot'],
    ['a prior notice of 3 days', settings({ priorNoticeMinutes: 3 * 24 * 60 }), 'priorNoticeMinutes'],
    ['a field missing', { ...settings(), offersPickup: undefined }, 'offersPickup'],
  ];
  for (const [what, body, field] of refusals)
    it(`refuses ${what} with 400 naming ${field}, changing nothing`, async () => {
      const { cookie, kitchen } = await buildKitchen(get());
      const before = await kitchenRow(get(), kitchen.uid);
      const res = await save(body, cookie);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await kitchenRow(get(), kitchen.uid)).toEqual(before);
      expect((await read(cookie)).json()).toEqual(DEFAULT_ORDERING);
    });

  it('says what is wrong in words a cook reads', async () => {
    const { cookie } = await buildKitchen(get());
    const messages = await Promise.all(
      [
        settings({ offersDelivery: false, offersPickup: false }),
        settings({ pickupAddress: '' }),
        settings({ takesAsap: false, slotMinutes: null }),
      ].map(async (body) => (await save(body, cookie)).json<{ message: string }>().message),
    );
    expect(messages).toEqual([
      'Offer delivery, pickup or both',
      'Pickup address is required for pickup',
      "Take orders 'As soon as possible', in time slots, or both",
    ]);
  });

  it('refuses anyone but a cook with a kitchen, as the payouts do, changing nothing', async () => {
    const { kitchen } = await buildKitchen(get());
    const before = await kitchenRow(get(), kitchen.uid);
    // Nobody signed in.
    expect((await read()).statusCode).toBe(401);
    expect((await save(settings())).statusCode).toBe(401);
    // A customer, and an operator.
    for (const role of ['customer', 'operator'] as const) {
      const { cookie } = await signedIn(get(), role);
      expect((await read(cookie)).statusCode).toBe(401);
      expect((await save(settings(), cookie)).statusCode).toBe(401);
    }
    // A cook who has not registered a kitchen yet.
    const { cookie } = await signedIn(get(), 'kitchen');
    const noKitchen = await save(settings(), cookie);
    expect(noKitchen.statusCode).toBe(404);
    expect(noKitchen.json()).toMatchObject({ code: 'NO_KITCHEN' });
    expect((await read(cookie)).json()).toMatchObject({ code: 'NO_KITCHEN' });
    expect(await kitchenRow(get(), kitchen.uid)).toEqual(before);
  });

  it("tells the kitchen's page (its topic) that it changed", async () => {
    const { cookie, kitchen } = await buildKitchen(get());
    const heard: string[] = [];
    get().app.bus.on('changed', (message) => void heard.push(message.topic));
    expect((await save(settings(), cookie)).statusCode).toBe(200);
    await expect.poll(() => heard).toContain(`kitchen:${kitchen.uid}`);
  });
});
