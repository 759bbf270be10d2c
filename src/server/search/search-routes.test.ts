import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KitchenInput } from '../../shared/kitchens.js';
import type { KitchenSearchHit } from '../../shared/search.js';
import { openEventStream } from '../test/event-stream.js';
import { startFakeProvider } from '../test/fake-geocoder.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { describeEachEngine, type TestContext } from '../test/test-app.js';

// Kitchens' addresses are placed by a local stand-in for Photon: these names answer these points (central London).
const fake = await startFakeProvider();
fake.places.set('Baker Street', { lat: 51.5226, lon: -0.1571 });
fake.places.set('Oxford Circus', { lat: 51.5152, lon: -0.1418 });
fake.places.set('Greenwich', { lat: 51.4769, lon: -0.0005 });
afterAll(() => fake.close());

const BAKER_STREET = '51.522,-0.157';

/** A random word of 10 letters, so each test can find its own kitchens (other tests' words are unlike it). */
const uniqueWord = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

describeEachEngine(
  'GET /api/kitchens/search',
  (get) => {
    let ctx: TestContext;
    beforeAll(() => {
      ctx = get();
    });

    const search = async (query: Record<string, string>) => {
      const res = await ctx.app.inject({
        url: `/api/kitchens/search?${new URLSearchParams(query).toString()}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<KitchenSearchHit[]>();
    };
    const ids = (hits: KitchenSearchHit[]) => hits.map((h) => h.uid);

    async function kitchenWith(
      input: Partial<KitchenInput>,
      dishes: Parameters<typeof buildMenuItem>[2][] = [],
    ) {
      const { kitchen } = await buildKitchen(ctx, input);
      for (const dish of dishes) await buildMenuItem(ctx, kitchen, dish);
      return kitchen;
    }

    it('finds a kitchen by a dish name with a typo, and names the matching dish on the hit', async () => {
      const word = uniqueWord();
      const k = await kitchenWith({ name: `${word} Kitchen` }, [
        { item: 'Hyderabadi Chicken Biryani' },
        { item: 'Dal' },
      ]);
      const hits = await search({ q: 'biryni' });
      const hit = hits.find((h) => h.uid === k.uid);
      expect(hit?.matchingDishes).toEqual(['Hyderabadi Chicken Biryani']);
      expect(ids(await search({ q: `${word} hyderbadi` }))).toContain(k.uid);
    });

    it('matches without accents both ways, and by kitchen name and category', async () => {
      const word = uniqueWord();
      const k = await kitchenWith({ name: `Pâtisserie ${word}`, category: 'Français' }, [
        { item: 'Crème brûlée' },
      ]);
      expect((await search({ q: 'creme brulee' })).find((h) => h.uid === k.uid)?.matchingDishes).toEqual([
        'Crème brûlée',
      ]);
      expect(ids(await search({ q: `patisserie ${word}` }))).toContain(k.uid);
      expect(ids(await search({ q: 'FRANCAIS' }))).toContain(k.uid);
      expect(ids(await search({ q: 'Crème' }))).toContain(k.uid);
    });

    it('does not find what is not there', async () => {
      expect(await search({ q: 'qqqwwwzzz' })).toEqual([]);
    });

    it('combines words, cuisine and dietary filters; a dish must carry every tag asked', async () => {
      const word = uniqueWord();
      const halalVegan = await kitchenWith({ name: `${word} One`, category: 'Levantine' }, [
        { item: `${word} falafel wrap`, dietary: ['halal', 'vegan'] },
      ]);
      const halalOnly = await kitchenWith({ name: `${word} Two`, category: 'levantine' }, [
        { item: `${word} shawarma`, dietary: ['halal'] },
      ]);
      const otherCuisine = await kitchenWith({ name: `${word} Three`, category: 'Turkish' }, [
        { item: `${word} kebab`, dietary: ['halal', 'vegan'] },
      ]);
      expect(ids(await search({ q: word, diet: 'halal' })).sort()).toEqual(
        [halalVegan.uid, halalOnly.uid, otherCuisine.uid].sort(),
      );
      expect(ids(await search({ q: word, diet: 'halal,vegan' })).sort()).toEqual(
        [halalVegan.uid, otherCuisine.uid].sort(),
      );
      expect(ids(await search({ q: word, diet: 'vegan', cuisine: 'LEVANTINE' }))).toEqual([halalVegan.uid]);
      expect(ids(await search({ q: word, cuisine: 'Levantine' })).sort()).toEqual(
        [halalVegan.uid, halalOnly.uid].sort(),
      );
      // Without words, a filter alone narrows every kitchen, newest first.
      const levantine = ids(await search({ cuisine: 'levantine', diet: 'halal' }));
      expect(levantine.indexOf(halalOnly.uid)).toBeLessThan(levantine.indexOf(halalVegan.uid));
      expect(levantine).not.toContain(otherCuisine.uid);
    });

    it('places addresses when saved, sorts nearest first with distances, and keeps unplaced kitchens last', async () => {
      const word = uniqueWord();
      const far = await kitchenWith({ name: `${word} Far`, address: '1 Greenwich Park' });
      const near = await kitchenWith({ name: `${word} Near`, address: '221B Baker Street' });
      const mid = await kitchenWith({ name: `${word} Mid`, address: 'Oxford Circus, London' });
      const nowhere = await kitchenWith({ name: `${word} Nowhere`, address: '1 Unknown Lane' });
      expect(near.location).toEqual({ lat: 51.5226, lon: -0.1571 });
      expect(nowhere.location).toBeNull();
      const mine = new Set([far.uid, near.uid, mid.uid, nowhere.uid]);
      const hits = (await search({ q: word, near: BAKER_STREET })).filter((h) => mine.has(h.uid));
      expect(ids(hits)).toEqual([near.uid, mid.uid, far.uid, nowhere.uid]);
      expect(hits.map((h) => h.distanceKm)).toEqual([0.1, 1.3, 11.9, null]);
      expect(hits[0]).toMatchObject({ deliveryRadiusKm: 5, location: { lat: 51.5226, lon: -0.1571 } });
      // Without a place, no distances, and the best match first.
      expect((await search({ q: word })).every((h) => h.distanceKm === null)).toBe(true);
    });

    it('re-places a kitchen whose address is edited', async () => {
      const { kitchen, cookie } = await buildKitchen(ctx, { address: '1 Unknown Lane' });
      expect(kitchen.location).toBeNull();
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/kitchen',
        headers: { cookie },
        payload: { address: 'Oxford Circus', deliveryRadiusKm: 3 },
      });
      expect(res.json()).toMatchObject({ location: { lat: 51.5152, lon: -0.1418 }, deliveryRadiusKm: 3 });
    });

    it.each([
      ['q', 'x'.repeat(101)],
      ['diet', 'halal,pescatarian'],
      ['near', '91,0'],
      ['near', 'here'],
      ['cuisine', 'x'.repeat(41)],
    ])('refuses a bad %s (%j) with a 400 naming it', async (field, value) => {
      const res = await ctx.app.inject({
        url: `/api/kitchens/search?${new URLSearchParams({ [field]: value }).toString()}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
    });

    it('announces every kitchen and dish change on /api/kitchens/search/changes, for open searches to ask again', async () => {
      const baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const stream = await openEventStream(`${baseUrl}/api/kitchens/search/changes`);
      try {
        const first = (await stream.waitFor((d) => typeof d === 'object' && d !== null)) as {
          changedAt: string;
        };
        const { kitchen } = await buildKitchen(ctx);
        const second = (await stream.waitFor(
          (d) => (d as { changedAt: string }).changedAt !== first.changedAt,
        )) as { changedAt: string };
        await buildMenuItem(ctx, kitchen, { item: 'Pho bo' });
        await stream.waitFor((d) => (d as { changedAt: string }).changedAt !== second.changedAt);
      } finally {
        stream.close();
      }
    });

    it('answers a repeated search from memory only until the catalogue changes: edits and removals show at once', async () => {
      const word = uniqueWord();
      expect(await search({ q: word })).toEqual([]);
      const { kitchen, cookie } = await buildKitchen(ctx, { name: `Plain ${uniqueWord()}` });
      const dish = await buildMenuItem(ctx, kitchen, { item: `${word} stew` });
      // Asked twice: the second answer comes from the cache, and is the same.
      expect((await search({ q: word })).map((h) => h.matchingDishes)).toEqual([[`${word} stew`]]);
      expect((await search({ q: word.toUpperCase() })).map((h) => h.matchingDishes)).toEqual([
        [`${word} stew`],
      ]);
      const owner = { cookie, origin: ctx.config.publicUrl };
      const renamed = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/kitchen/menu/${dish.id}`,
        headers: owner,
        payload: { item: `${word} soup` },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await search({ q: word })).map((h) => h.matchingDishes)).toEqual([[`${word} soup`]]);
      const removed = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/kitchen/menu/${dish.id}`,
        headers: owner,
      });
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      expect(await search({ q: word })).toEqual([]);
    });

    it('treats SQL and pattern characters as plain text', async () => {
      for (const q of ["'; drop table kitchens; --", '%_\\', '%%%']) expect(await search({ q })).toEqual([]);
    });
  },
  { GEOCODER: 'photon', GEOCODER_URL: `${fake.base}/places/api` },
);
