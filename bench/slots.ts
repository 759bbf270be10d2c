// The slots of a kitchen (issue 30), in `npm run bench` (or alone: BENCH_ONLY=slots): GET /api/kitchens/:uid/slots
// for the heaviest kitchen the settings allow (open 00:00–24:00, 15-minute slots, 5 days ahead, a cap, bookings in
// a third of its slots: about 570 slots laid out and counted on every read, never cached) against the same
// kitchen's menu (30 dishes, from the live cache) in the same run: the same number of requests, interleaved.
import { ALL_DAY_HOURS } from '../src/shared/opening-hours.js';
import { MAX_DAYS_AHEAD } from '../src/shared/ordering.js';
import { eq } from 'drizzle-orm';
import type { Database } from '../src/server/db/database.js';
import { kitchens, slotBookings } from '../src/server/db/schema.js';
import { percentile, type BenchRow, type Proc } from './lib.js';
import type { BenchData } from './seed.js';

const quick = process.env.BENCH_QUICK === '1';
/** Requests of each route, and how many are in flight at once. */
const REQUESTS = quick ? 400 : 3000;
const CONCURRENCY = 10;
const SLOT_MINUTES = 15;
const CAP = 8;

/** The bench kitchen takes orders in 15-minute slots 5 days ahead, with bookings in every third slot ahead. */
export async function prepareSlotsKitchen(database: Database, data: BenchData): Promise<number> {
  await database.db
    .update(kitchens)
    .set({
      openingHours: ALL_DAY_HOURS,
      timeZone: 'America/New_York',
      slotMinutes: SLOT_MINUTES,
      priorNoticeMinutes: 0,
      daysAhead: MAX_DAYS_AHEAD,
      ordersPerSlot: CAP,
    })
    .where(eq(kitchens.ownerId, data.kitchenUid));
  await database.db.delete(slotBookings).where(eq(slotBookings.kitchenId, data.kitchenUid));
  const length = SLOT_MINUTES * 60_000;
  const first = Math.ceil(Date.now() / length) * length;
  const rows = Array.from({ length: ((MAX_DAYS_AHEAD + 1) * 24 * 60) / SLOT_MINUTES / 3 }, (_, i) => ({
    kitchenId: data.kitchenUid,
    slotStart: new Date(first + i * 3 * length),
    taken: 1 + (i % CAP),
  }));
  await database.db.insert(slotBookings).values(rows);
  return rows.length;
}

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms, bytes: body.byteLength };
}

/**
 * `REQUESTS` reads of each route by `clients` clients, each alternating slots and menu (half of them starting with
 * the menu), so both see the same server at the same moments; each read's latency, client to last byte.
 */
async function interleaved(urls: { slots: string; menu: string }, clients: number) {
  const samples = { slots: [] as number[], menu: [] as number[] };
  const bytes = { slots: 0, menu: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const order = client % 2 === 0 ? (['slots', 'menu'] as const) : (['menu', 'slots'] as const);
      for (let i = 0; i < REQUESTS / clients; i++)
        for (const route of order) {
          const r = await timed(urls[route]);
          samples[route].push(r.ms);
          bytes[route] = r.bytes;
        }
    }),
  );
  return { samples, bytes, perSecond: (REQUESTS * 2) / ((performance.now() - started) / 1000) };
}

/** Slots against menu: one client at a time (each read's own cost), then `CONCURRENCY` at once. */
export async function slotsBench(
  app: Proc,
  data: BenchData,
  engine: string,
  record: (row: BenchRow) => void,
) {
  const urls = {
    slots: `${app.url}/api/kitchens/${data.kitchenUid}/slots`,
    menu: `${app.url}/api/kitchens/${data.kitchenUid}/menu`,
  };
  const first = (await (await fetch(urls.slots)).json()) as { slots: { available: boolean }[] };
  // Warm up both.
  for (let i = 0; i < 50; i++) for (const url of Object.values(urls)) await timed(url);
  for (const clients of [1, CONCURRENCY]) {
    const { samples, bytes, perSecond } = await interleaved(urls, clients);
    if (clients === 1)
      console.log(
        `    ${first.slots.length} slots (${first.slots.filter((s) => !s.available).length} full), ` +
          `${(bytes.slots / 1024).toFixed(1)} KiB; menu ${(bytes.menu / 1024).toFixed(1)} KiB`,
      );
    console.log(`    ${clients} client(s): ${perSecond.toFixed(0)} req/s in all`);
    const who = clients === 1 ? '1 client' : `${clients} clients`;
    for (const p of [50, 99])
      record({
        measure: `slots: GET slots p${p}, ${who} (vs menu)`,
        engine,
        value: percentile(samples.slots, p),
        unit: 'ms',
        baseline: percentile(samples.menu, p),
      });
  }
}
