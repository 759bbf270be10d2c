import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import type { Kitchen, KitchenInput } from '../../shared/kitchens.js';
import { ALL_DAY_HOURS, WEEKDAYS, type TimeRange, type WeeklyHours } from '../../shared/opening-hours.js';
import { MAX_DAYS_AHEAD, type KitchenSlots } from '../../shared/ordering.js';
import { kitchens, slotBookings } from '../db/schema.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { giveSlotBack, slotCounts, takeSlot } from './slot-bookings.js';
import { slotsTopic } from './slots-topic.js';

// The server's clock, set by each test: slots, prior notice and 'As soon as possible' are decided by it.
const TUESDAY_NOON = Date.parse('2026-11-24T12:00:00Z');
let time = TUESDAY_NOON;
const clock: Clock = { ...systemClock, now: () => time };
const iso = (text: string) => new Date(text).toISOString();
const everyDayHours = (...ranges: TimeRange[]) =>
  Object.fromEntries(WEEKDAYS.map((day) => [day, ranges])) as WeeklyHours;

describeEachEngine(
  'a kitchen’s slots',
  (get) => {
    let ctx: TestContext;
    beforeEach(() => {
      ctx = get();
      time = TUESDAY_NOON;
    });

    /** A kitchen in UTC open 10:00–20:00 every day, its ordering columns then set as given. */
    async function kitchenWith(
      ordering: Partial<typeof kitchens.$inferInsert>,
      input: Partial<KitchenInput> = {},
    ): Promise<Kitchen> {
      const { kitchen } = await buildKitchen(ctx, {
        timeZone: 'UTC',
        hours: everyDayHours(['10:00', '20:00']),
        ...input,
      });
      if (Object.keys(ordering).length > 0)
        await ctx.database.db.update(kitchens).set(ordering).where(eq(kitchens.ownerId, kitchen.uid));
      return kitchen;
    }

    const slotsOf = (uid: string) => ctx.app.inject(`/api/kitchens/${uid}/slots`);
    /** A row written here, not by a route: told to the hub as the route's event would (src/server/reactions.ts). */
    const written = (uid: string) => ctx.app.hub.changed(slotsTopic.key(uid));
    const listed = async (uid: string) => (await slotsOf(uid)).json<KitchenSlots>();

    it('lists the slots ahead on the server’s clock, with the kitchen’s public ordering options', async () => {
      const kitchen = await kitchenWith({
        slotMinutes: 30,
        priorNoticeMinutes: 60,
        daysAhead: 1,
        offersPickup: true,
        pickupAddress: '5 Back Lane',
        minimumOrderCents: 1500,
      });
      const response = await slotsOf(kitchen.uid);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json<KitchenSlots>();
      expect(body).toMatchObject({
        offersDelivery: true,
        offersPickup: true,
        takesAsap: true,
        slotMinutes: 30,
        priorNoticeMinutes: 60,
        daysAhead: 1,
        minimumOrderCents: 1500,
        timeZone: 'UTC',
        asap: true,
      });
      // The pickup address is told only to a customer whose pickup order was accepted.
      expect(JSON.stringify(body)).not.toContain('5 Back Lane');
      // Today 13:00 (an hour's notice) to 19:30, then tomorrow's 10:00 to 19:30.
      expect(body.slots).toHaveLength(14 + 20);
      expect(body.slots[0]).toEqual({
        start: iso('2026-11-24T13:00Z'),
        end: iso('2026-11-24T13:30Z'),
        date: '2026-11-24',
        left: null,
        available: true,
      });
      expect(body.slots.at(-1)?.date).toBe('2026-11-25');
      // Later the same day, fewer.
      time = Date.parse('2026-11-24T18:00:00Z');
      expect((await listed(kitchen.uid)).slots[0]?.start).toBe(iso('2026-11-24T19:00Z'));
    });

    it('lists no slots for a kitchen that never set its ordering options: delivery, as soon as possible', async () => {
      const kitchen = await kitchenWith({});
      expect(await listed(kitchen.uid)).toEqual({
        offersDelivery: true,
        offersPickup: false,
        takesAsap: true,
        slotMinutes: null,
        priorNoticeMinutes: 120,
        daysAhead: 2,
        minimumOrderCents: 0,
        timeZone: 'UTC',
        asap: true,
        slots: [],
      });
    });

    it('offers ‘As soon as possible’ only while the kitchen takes it, is open and is not paused', async () => {
      const kitchen = await kitchenWith({ slotMinutes: 60 });
      expect((await listed(kitchen.uid)).asap).toBe(true);
      time = Date.parse('2026-11-24T21:00:00Z'); // closed
      expect((await listed(kitchen.uid)).asap).toBe(false);
      time = TUESDAY_NOON;
      await ctx.database.db
        .update(kitchens)
        .set({ pausedAt: new Date(time - 60_000), pausedUntil: new Date(time + 60 * 60_000) })
        .where(eq(kitchens.ownerId, kitchen.uid));
      written(kitchen.uid);
      expect((await listed(kitchen.uid)).asap).toBe(false);
      time += 2 * 60 * 60_000; // the pause is over
      expect((await listed(kitchen.uid)).asap).toBe(true);
      await ctx.database.db
        .update(kitchens)
        .set({ takesAsap: false })
        .where(eq(kitchens.ownerId, kitchen.uid));
      written(kitchen.uid);
      const slotsOnly = await listed(kitchen.uid);
      expect(slotsOnly).toMatchObject({ takesAsap: false, asap: false });
      expect(slotsOnly.slots.length).toBeGreaterThan(0);
    });

    it('counts each slot’s bookings against its cap, and gives places back', async () => {
      const kitchen = await kitchenWith({
        slotMinutes: 30,
        priorNoticeMinutes: 0,
        daysAhead: 0,
        ordersPerSlot: 2,
      });
      const db = ctx.database.db;
      const one = new Date('2026-11-24T13:00:00Z');
      const two = new Date('2026-11-24T13:30:00Z');
      expect(await takeSlot(db, kitchen.uid, one, 2)).toBe(true);
      expect(await takeSlot(db, kitchen.uid, one, 2)).toBe(true);
      expect(await takeSlot(db, kitchen.uid, one, 2)).toBe(false);
      expect(await takeSlot(db, kitchen.uid, two, 2)).toBe(true);
      // A row written another way counts the same (an earlier booking of a slot already passed is not listed).
      await db
        .insert(slotBookings)
        .values({ kitchenId: kitchen.uid, slotStart: new Date('2026-11-24T14:00:00Z'), taken: 7 });
      await db
        .insert(slotBookings)
        .values({ kitchenId: kitchen.uid, slotStart: new Date('2026-11-24T09:00:00Z'), taken: 1 });
      written(kitchen.uid);
      const byStart = new Map((await listed(kitchen.uid)).slots.map((slot) => [slot.start, slot]));
      expect(byStart.get(iso('2026-11-24T12:00Z'))).toMatchObject({ left: 2, available: true });
      expect(byStart.get(one.toISOString())).toMatchObject({ left: 0, available: false });
      expect(byStart.get(two.toISOString())).toMatchObject({ left: 1, available: true });
      expect(byStart.get(iso('2026-11-24T14:00Z'))).toMatchObject({ left: 0, available: false });

      expect(
        await slotCounts(db, kitchen.uid, new Date(TUESDAY_NOON), new Date('2026-11-24T14:00:00Z')),
      ).toEqual(
        new Map([
          [one.toISOString(), 2],
          [two.toISOString(), 1],
        ]),
      );

      await giveSlotBack(db, kitchen.uid, one);
      written(kitchen.uid);
      expect(
        (await listed(kitchen.uid)).slots.find((slot) => slot.start === one.toISOString()),
      ).toMatchObject({
        left: 1,
        available: true,
      });
      // Never below none; a slot never booked is left alone.
      await giveSlotBack(db, kitchen.uid, two);
      await giveSlotBack(db, kitchen.uid, two);
      await giveSlotBack(db, kitchen.uid, new Date('2026-11-24T15:00:00Z'));
      const rows = await db
        .select({ taken: slotBookings.taken })
        .from(slotBookings)
        .where(and(eq(slotBookings.kitchenId, kitchen.uid), eq(slotBookings.slotStart, two)));
      expect(rows).toEqual([{ taken: 0 }]);
      expect(
        (await db.select().from(slotBookings).where(eq(slotBookings.kitchenId, kitchen.uid))).map(
          (r) => r.taken,
        ),
      ).not.toContain(-1);
    });

    it('counts bookings without a cap, and never refuses them', async () => {
      const kitchen = await kitchenWith({ slotMinutes: 30 });
      const start = new Date('2026-11-24T16:00:00Z');
      for (let i = 0; i < 3; i++)
        expect(await takeSlot(ctx.database.db, kitchen.uid, start, null)).toBe(true);
      expect(await slotCounts(ctx.database.db, kitchen.uid, start, new Date(start.getTime() + 1))).toEqual(
        new Map([[start.toISOString(), 3]]),
      );
    });

    it('gives the last place to one of 20 orders racing for it, each in its own transaction', async () => {
      const kitchen = await kitchenWith({ slotMinutes: 30, ordersPerSlot: 5 });
      const start = new Date('2026-11-24T17:00:00Z');
      for (let i = 0; i < 4; i++) await takeSlot(ctx.database.db, kitchen.uid, start, 5);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          ctx.database.db.transaction((tx) => takeSlot(tx, kitchen.uid, start, 5)),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      // And 20 racing for an empty slot of 3 places: three get one.
      const empty = new Date('2026-11-24T17:30:00Z');
      const fresh = await Promise.all(
        Array.from({ length: 20 }, () =>
          ctx.database.db.transaction((tx) => takeSlot(tx, kitchen.uid, empty, 3)),
        ),
      );
      expect(fresh.filter(Boolean)).toHaveLength(3);
      expect(await slotCounts(ctx.database.db, kitchen.uid, start, new Date('2026-11-24T18:00:00Z'))).toEqual(
        new Map([
          [start.toISOString(), 5],
          [empty.toISOString(), 3],
        ]),
      );
    });

    it('answers 404 for an unknown or suspended kitchen, and 400 naming uid for a malformed one', async () => {
      expect((await slotsOf(randomUUID())).statusCode).toBe(404);
      const kitchen = await kitchenWith({ slotMinutes: 30 });
      await ctx.database.db
        .update(kitchens)
        .set({ suspendedAt: new Date(time) })
        .where(eq(kitchens.ownerId, kitchen.uid));
      const suspended = await slotsOf(kitchen.uid);
      expect(suspended.statusCode).toBe(404);
      expect(suspended.json()).toMatchObject({ code: 'NOT_FOUND' });
      const bad = await slotsOf('not-a-uuid');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION', field: 'uid' });
    });

    it('lays the slots in the kitchen’s own time zone', async () => {
      const kitchen = await kitchenWith(
        { slotMinutes: 30, priorNoticeMinutes: 0, daysAhead: 0 },
        { timeZone: 'Asia/Kolkata', hours: everyDayHours(['18:00', '20:00']) },
      );
      // Noon UTC is 17:30 in Kolkata: 18:00 there is 12:30 UTC.
      const body = await listed(kitchen.uid);
      expect(body.timeZone).toBe('Asia/Kolkata');
      expect(body.slots.map((slot) => slot.start)).toEqual([
        iso('2026-11-24T12:30Z'),
        iso('2026-11-24T13:00Z'),
        iso('2026-11-24T13:30Z'),
        iso('2026-11-24T14:00Z'),
      ]);
    });

    const loads = () => ctx.app.hub.loadsByKind.get('slots') ?? 0;

    it('computes a kitchen’s slots once per change, not per request, and again when its first slot’s notice runs out', async () => {
      const cook = await buildKitchen(ctx, { timeZone: 'UTC', hours: everyDayHours(['10:00', '20:00']) });
      const dal = await buildMenuItem(ctx, cook.kitchen, { item: 'Dal', price: '9.50' });
      const settings = await ctx.app.inject({
        url: '/api/kitchen/ordering',
        headers: { cookie: cook.cookie },
      });
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: '/api/kitchen/ordering',
        headers: { cookie: cook.cookie },
        payload: {
          ...settings.json<Record<string, unknown>>(),
          offersPickup: true,
          pickupAddress: '5 Back Lane',
          slotMinutes: 30,
          priorNoticeMinutes: 60,
          daysAhead: 0,
          ordersPerSlot: 2,
        },
      });
      expect(saved.statusCode).toBe(200);
      const before = loads();
      const first = await listed(cook.kitchen.uid);
      for (let i = 0; i < 5; i++) expect(await listed(cook.kitchen.uid)).toEqual(first);
      expect(loads()).toBe(before + 1);
      // Noon with an hour's notice: 13:00 is the first slot.
      expect(first.slots[0]).toMatchObject({ start: iso('2026-11-24T13:00Z'), left: 2 });

      // An order for it, through the order route: its event changes the slots, on every instance.
      const customer = await signedIn(ctx, 'customer');
      const placed = await ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie: customer.cookie },
        payload: {
          idempotencyKey: `key-${randomUUID()}`,
          kitchenUid: cook.kitchen.uid,
          itemIds: [dal.id],
          fulfilment: 'pickup',
          slotStart: iso('2026-11-24T13:00Z'),
        },
      });
      expect(placed.statusCode).toBe(201);
      const booked = await listed(cook.kitchen.uid);
      expect(booked.slots[0]).toMatchObject({ start: iso('2026-11-24T13:00Z'), left: 1 });
      await listed(cook.kitchen.uid);
      expect(loads()).toBe(before + 2);

      // 12:00 is the last moment 13:00 is an hour ahead: still listed, from the same answer; a moment later it goes.
      time = Date.parse('2026-11-24T12:00:00Z');
      expect((await listed(cook.kitchen.uid)).slots[0]?.start).toBe(iso('2026-11-24T13:00Z'));
      expect(loads()).toBe(before + 2);
      time += 1;
      expect((await listed(cook.kitchen.uid)).slots[0]?.start).toBe(iso('2026-11-24T13:30Z'));
      expect(loads()).toBe(before + 3);
    });

    it('is sent compressed as the client asks, the same JSON in each coding: the bench’s extreme kitchen under 8 KiB', async () => {
      // Open all day in 15-minute slots, 5 days ahead, with a cap and bookings in every third slot (bench/slots.ts).
      const kitchen = await kitchenWith(
        { slotMinutes: 15, priorNoticeMinutes: 0, daysAhead: MAX_DAYS_AHEAD, ordersPerSlot: 8 },
        { timeZone: 'America/New_York', hours: ALL_DAY_HOURS },
      );
      const length = 15 * 60_000;
      await ctx.database.db.insert(slotBookings).values(
        Array.from({ length: ((MAX_DAYS_AHEAD + 1) * 24 * 60) / 15 / 3 }, (_, i) => ({
          kitchenId: kitchen.uid,
          slotStart: new Date(TUESDAY_NOON + i * 3 * length),
          taken: 1 + (i % 8),
        })),
      );
      written(kitchen.uid);
      const plain = await ctx.app.inject({ url: `/api/kitchens/${kitchen.uid}/slots` });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.json<KitchenSlots>().slots.length).toBeGreaterThan(500);
      const sizes: Record<string, number> = { identity: plain.rawPayload.length };
      for (const [asked, coding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
      ] as const) {
        const res = await ctx.app.inject({
          url: `/api/kitchens/${kitchen.uid}/slots`,
          headers: { 'accept-encoding': asked },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers).toMatchObject({
          'content-encoding': coding,
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          vary: 'accept-encoding',
        });
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        expect(decode(res.rawPayload).toString()).toBe(plain.body);
        sizes[coding] = res.rawPayload.length;
      }
      console.log(`slots of the bench's extreme kitchen: ${JSON.stringify(sizes)} bytes`);
      expect(sizes.identity).toBeGreaterThan(50 * 1024);
      expect(sizes.br).toBeLessThanOrEqual(8 * 1024);
      expect(sizes.gzip).toBeLessThanOrEqual(8 * 1024);
    });
  },
  {},
  { clock },
);
