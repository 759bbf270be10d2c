import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kitchen, KitchenFirstPage, KitchenInput } from '../../shared/kitchens.js';
import type { KitchenPage } from '../../shared/search.js';
import { startFakeProvider } from '../test/fake-geocoder.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { describeEachEngine, type TestContext } from '../test/test-app.js';

const fake = await startFakeProvider();
fake.places.set('Baker Street', { lat: 51.5226, lon: -0.1571 });
fake.places.set('Oxford Circus', { lat: 51.5152, lon: -0.1418 });
afterAll(() => fake.close());

const BAKER_STREET = '51.522,-0.157';

/** A random word of 10 letters: a cuisine of this test's kitchens alone. */
const uniqueWord = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

describeEachEngine(
  'GET /api/kitchens/page',
  (get) => {
    let ctx: TestContext;
    beforeAll(() => {
      ctx = get();
    });

    const page = async (query: Record<string, string>) => {
      const res = await ctx.app.inject({
        url: `/api/kitchens/page?${new URLSearchParams(query).toString()}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<KitchenPage>();
    };

    /** Every page of a list, `limit` at a time, and each page's size. */
    async function walk(query: Record<string, string>, between?: (pageNumber: number) => Promise<void>) {
      const seen: string[] = [];
      const sizes: number[] = [];
      let first: KitchenPage | undefined;
      let cursor: string | null | undefined;
      for (let n = 0; n < 100; n++) {
        const p = await page(cursor ? { ...query, cursor } : query);
        first ??= p;
        seen.push(...p.kitchens.map((k) => k.uid));
        sizes.push(p.kitchens.length);
        cursor = p.next;
        if (!cursor) break;
        await between?.(n);
      }
      return { seen, sizes, total: first?.total };
    }

    async function kitchens(n: number, input: Partial<KitchenInput>) {
      const made: Kitchen[] = [];
      for (let i = 0; i < n; i++)
        made.push((await buildKitchen(ctx, { name: `Kitchen ${i}`, ...input })).kitchen);
      return made;
    }

    /** Gives these kitchens one creation time, to the microsecond. */
    const sameTime = (made: Kitchen[], at = '2030-01-01 12:00:00.123456+00') =>
      ctx.app.db.execute(
        sql`update kitchens set created_at = ${at}::timestamptz where owner_id in (${sql.join(
          made.map((k) => sql`${k.uid}`),
          sql`, `,
        )})`,
      );

    it('pages kitchens with one creation time newest first: none twice, none skipped, a count on the first', async () => {
      const cuisine = uniqueWord();
      const made = await kitchens(7, { category: cuisine });
      await sameTime(made);
      const { seen, sizes, total } = await walk({ cuisine, limit: '3' });
      expect(sizes).toEqual([3, 3, 1]);
      expect(total).toBe(7);
      // Ties broken by the owner's id, descending.
      expect(seen).toEqual(
        made
          .map((k) => k.uid)
          .sort()
          .reverse(),
      );
    });

    it('tells apart creation times equal to the millisecond', async () => {
      const cuisine = uniqueWord();
      const [a, b, c] = await kitchens(3, { category: cuisine });
      await sameTime([a!], '2030-01-01 12:00:00.123001+00');
      await sameTime([b!], '2030-01-01 12:00:00.123002+00');
      await sameTime([c!], '2030-01-01 12:00:00.123000+00');
      const { seen } = await walk({ cuisine, limit: '1' });
      expect(seen).toEqual([b!.uid, a!.uid, c!.uid]);
    });

    it('shows a kitchen added between pages on none of the pages already passed, and repeats none', async () => {
      const cuisine = uniqueWord();
      const made = await kitchens(5, { category: cuisine });
      let added: Kitchen | undefined;
      const { seen } = await walk({ cuisine, limit: '2' }, async (n) => {
        if (n === 0) added = (await buildKitchen(ctx, { category: cuisine })).kitchen;
      });
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual(made.map((k) => k.uid).sort());
      // Newest first: it sorts before the pages already read, and is on the first page asked again (once the
      // catalogue's change has emptied the kept answers).
      await expect.poll(async () => (await page({ cuisine, limit: '2' })).kitchens[0]?.uid).toBe(added?.uid);
    });

    it('pages every kitchen as the unpaged list has them', async () => {
      await kitchens(3, {});
      const all = (await ctx.app.inject({ url: '/api/kitchens' })).json<Kitchen[]>().map((k) => k.uid);
      const { seen, total } = await walk({ limit: '4' });
      expect(seen).toEqual(all);
      expect(total).toBe(all.length);
    });

    it('pages nearest first, equal distances by the owner, kitchens without a place last', async () => {
      const cuisine = uniqueWord();
      const here = await kitchens(3, { category: cuisine, address: '221B Baker Street' });
      const there = await kitchens(2, { category: cuisine, address: 'Oxford Circus' });
      const nowhere = await kitchens(2, { category: cuisine, address: '1 Unknown Lane' });
      const byOwner = (ks: Kitchen[]) =>
        ks
          .map((k) => k.uid)
          .sort()
          .reverse();
      await sameTime([...here, ...there, ...nowhere]);
      const { seen, sizes, total } = await walk({ cuisine, near: BAKER_STREET, limit: '2' });
      expect(sizes).toEqual([2, 2, 2, 1]);
      expect(total).toBe(7);
      expect(seen).toEqual([...byOwner(here), ...byOwner(there), ...byOwner(nowhere)]);
      const first = await page({ cuisine, near: BAKER_STREET, limit: '2' });
      expect(first.kitchens.map((k) => k.distanceKm)).toEqual([0.1, 0.1]);
    });

    it('pages a search by words and a dietary filter, and counts its matches', async () => {
      const word = uniqueWord();
      const made = await kitchens(5, { name: `${word} Kitchen` });
      for (const k of made.slice(0, 4))
        await buildMenuItem(ctx, k, { item: `${word} stew`, dietary: ['vegan'] });
      const { seen, total } = await walk({ q: word, diet: 'vegan', limit: '3' });
      expect(total).toBe(4);
      expect(seen.sort()).toEqual(
        made
          .slice(0, 4)
          .map((k) => k.uid)
          .sort(),
      );
      const near = await walk({ q: word, near: BAKER_STREET, limit: '2' });
      expect(near.total).toBe(5);
      expect(new Set(near.seen).size).toBe(5);
    });

    it.each([
      ['cursor', 'garbage'],
      ['cursor', '!!!'],
      ['cursor', Buffer.from('[1,2]').toString('base64url')],
      ['cursor', Buffer.from('["newest","x","y"]').toString('base64url')],
      ['cursor', Buffer.from('["nearest","1","2","3"]').toString('base64url')],
      ['cursor', Buffer.from('["newest","99999999999999999","a"]').toString('base64url')],
      ['limit', '0'],
      ['limit', '101'],
      ['limit', 'ten'],
      ['limit', '2.5'],
    ])('refuses a bad %s (%j) with a 400 naming it', async (field, value) => {
      const res = await ctx.app.inject({
        url: `/api/kitchens/page?${new URLSearchParams({ [field]: value }).toString()}`,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ field });
    });

    const NO_ONE = '00000000-0000-0000-0000-000000000000';
    const cursorOf = (...key: string[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
    it.each([
      ['a distance beyond a double', { near: BAKER_STREET }, cursorOf('nearest', '1e999', '1', NO_ONE)],
      [
        'a distance too small for a double',
        { near: BAKER_STREET },
        cursorOf('nearest', '1e-999', '1', NO_ONE),
      ],
      ['a score beyond a real', { q: 'pho' }, cursorOf('best', '1e39', '1', NO_ONE)],
      ['a score too small for a real', { q: 'pho' }, cursorOf('best', '1e-50', '1', NO_ONE)],
      ['a score of Infinity', { q: 'pho' }, cursorOf('best', 'Infinity', '1', NO_ONE)],
    ])('refuses a cursor holding %s with a 400 naming it', async (_, query, cursor) => {
      const res = await ctx.app.inject({
        url: `/api/kitchens/page?${new URLSearchParams({ ...query, cursor }).toString()}`,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ field: 'cursor' });
    });

    it('refuses a cursor of another order (newest first) for a nearest-first list', async () => {
      const { next } = await page({ limit: '1' });
      expect(next).not.toBeNull();
      const res = await ctx.app.inject({
        url: `/api/kitchens/page?limit=1&near=${BAKER_STREET}&cursor=${next}`,
      });
      expect(res.statusCode).toBe(400);
    });

    it('serves the live first page: the newest 24, the next cursor and the count; a new kitchen lands on it', async () => {
      await kitchens(2, {});
      const firstPage = async () =>
        (await ctx.app.inject({ url: '/api/kitchens/first-page' })).json<KitchenFirstPage>();
      // Both follow the change notices of the kitchens just added: once they have, they agree.
      const summary = (p: KitchenPage | KitchenFirstPage) => [p.kitchens.map((k) => k.uid), p.next, p.total];
      await expect
        .poll(async () => {
          const [live, paged] = [await firstPage(), await page({ limit: '24' })];
          return (
            JSON.stringify(summary(live)) === JSON.stringify(summary(paged)) && live.kitchens.length === 24
          );
        })
        .toBe(true);
      const first = await firstPage();
      const { kitchen } = await buildKitchen(ctx, {});
      await expect
        .poll(async () =>
          (await ctx.app.inject({ url: '/api/kitchens/first-page' })).json<KitchenFirstPage>(),
        )
        .toMatchObject({
          total: first.total + 1,
          kitchens: expect.arrayContaining([expect.objectContaining({ uid: kitchen.uid })]),
        });
    });
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
