import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  ALL_DAY_HOURS,
  DEFAULT_HOURS,
  isOpenAt,
  WEEKDAYS,
  type WeeklyHours,
} from '../../shared/opening-hours.js';
import type { KitchenPage } from '../../shared/search.js';
import { buildKitchen } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, type TestContext } from '../test/test-app.js';

/** Wednesday 2026-03-11 12:00 UTC: 12:00 in London, 08:00 in New York (after its change to summer time), 17:30 in Kolkata. */
const NOON = Date.parse('2026-03-11T12:00:00Z');
const clock = new FakeClock();
clock.advance(NOON);

const every = (ranges: [string, string][]): WeeklyHours =>
  Object.fromEntries(WEEKDAYS.map((day) => [day, ranges])) as WeeklyHours;

/** Hours of every shape the rule knows: ranges, ranges across midnight, to the day's end, closed days. */
const HOURS: (WeeklyHours | null)[] = [
  null,
  ALL_DAY_HOURS,
  every([['09:00', '12:00']]),
  every([
    ['07:30', '09:15'],
    ['11:00', '14:00'],
    ['18:00', '01:30'],
  ]),
  every([['22:00', '03:00']]),
  every([['17:00', '24:00']]),
  { ...every([]), fri: [['20:00', '02:00']], sat: [['00:00', '24:00']] },
  { ...DEFAULT_HOURS, sun: [], wed: [['12:00', '12:01']] },
];
const ZONES = [
  'UTC',
  'Europe/London',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
];

/** A random word of 10 letters: a cuisine of this test's kitchens alone. */
const uniqueWord = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

describeEachEngine(
  "'Open now' on the server",
  (get) => {
    let ctx: TestContext;
    beforeAll(() => {
      ctx = get();
    });

    it('decides as the browser does (isOpenAt) for every shape of hours, zone and instant, clock changes included', async () => {
      // Every 73 minutes over the weeks of both of 2026's clock changes in Europe and America, and a random spread.
      const instants: number[] = [];
      for (const start of ['2026-03-07T00:00:00Z', '2026-10-24T00:00:00Z'])
        for (let t = Date.parse(start); t < Date.parse(start) + 10 * 86_400_000; t += 73 * 60_000)
          instants.push(t);
      for (let i = 0; i < 150; i++) instants.push(Date.parse('2026-01-01T00:00:00Z') + Math.random() * 3e10);
      const cases = HOURS.flatMap((hours, h) =>
        ZONES.flatMap((zone) => instants.map((at) => ({ h, hours, zone, at }))),
      );
      const mismatches: string[] = [];
      // In batches: one statement per few thousand cases.
      for (let i = 0; i < cases.length; i += 4000) {
        const batch = cases.slice(i, i + 4000);
        const { rows } = (await ctx.app.db.execute(sql`
          select hc_open_at(h.hours, h.zone, h.at) as open
          from unnest(${sql`array[${sql.join(
            batch.map((c) => sql`${c.hours === null ? null : JSON.stringify(c.hours)}::jsonb`),
            sql`, `,
          )}]`}, ${sql`array[${sql.join(
            batch.map((c) => sql`${c.zone}`),
            sql`, `,
          )}]::text[]`}, ${sql`array[${sql.join(
            batch.map((c) => sql`${new Date(c.at).toISOString()}`),
            sql`, `,
          )}]::timestamptz[]`}) with ordinality as h(hours, zone, at, n)
          order by h.n`)) as unknown as { rows: { open: boolean }[] };
        batch.forEach((c, j) => {
          const expected = isOpenAt(c.hours ?? DEFAULT_HOURS, c.zone, new Date(c.at));
          if (rows[j]?.open !== expected)
            mismatches.push(`hours #${c.h} in ${c.zone} at ${new Date(c.at).toISOString()}: ${!expected}`);
        });
      }
      expect(mismatches.slice(0, 10)).toEqual([]);
      expect(cases.length).toBeGreaterThan(20_000);
    });

    it('pages only the kitchens open now (by their own zone, not paused) and counts them', async () => {
      const cuisine = uniqueWord();
      const made = async (name: string, hours: WeeklyHours, timeZone: string) =>
        (await buildKitchen(ctx, { name, category: cuisine, hours, timeZone })).kitchen;
      const lunch = every([['11:00', '14:00']]);
      // Noon in London; 08:00 in New York; 17:30 in Kolkata.
      const london = await made('London lunch', lunch, 'Europe/London');
      await made('New York lunch', lunch, 'America/New_York');
      const kolkata = await made('Kolkata evening', every([['17:00', '01:00']]), 'Asia/Kolkata');
      const paused = await made('Paused', ALL_DAY_HOURS, 'UTC');
      const pausedUntil = await made('Paused until eleven', ALL_DAY_HOURS, 'UTC');
      const overnight = await made('Night owl', { ...every([]), tue: [['20:00', '13:00']] }, 'UTC');
      await ctx.app.db.execute(
        sql`update kitchens set paused_at = ${new Date(NOON - 3_600_000).toISOString()}::timestamptz,
              paused_until = case owner_id when ${pausedUntil.uid} then ${new Date(NOON - 60_000).toISOString()}::timestamptz end
            where owner_id in (${paused.uid}, ${pausedUntil.uid})`,
      );
      const ask = async (query: string) => {
        const res = await ctx.app.inject({ url: `/api/kitchens/page?cuisine=${cuisine}&${query}` });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<KitchenPage>();
      };
      const first = await ask('open=1&limit=2');
      expect(first.total).toBe(4);
      const second = await ask(`open=1&limit=2&cursor=${first.next}`);
      expect(second.next).toBeNull();
      expect(new Set([...first.kitchens, ...second.kitchens].map((k) => k.name))).toEqual(
        new Set([london.name, kolkata.name, pausedUntil.name, overnight.name]),
      );
      expect((await ask('open=0')).total).toBe(6);
      expect((await ask('')).total).toBe(6);
    });

    it("answers 400 naming 'open' for a value it does not know", async () => {
      const res = await ctx.app.inject({ url: '/api/kitchens/page?open=yes' });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('open');
    });
  },
  {},
  { clock },
);
