import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it, vi } from 'vitest';
import { answersWith } from '../../shared/allergen-declaration.js';
import type { KitchenPage, KitchenSearchHit } from '../../shared/search.js';
import { buildKitchen, buildMenuItem, undeclareDish } from '../test/builders.js';
import { describeEachEngine, type TestContext } from '../test/test-app.js';

/** A random word of 10 letters, so each test finds its own kitchens. */
const uniqueWord = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

describeEachEngine("search: 'Hide dishes with my allergens' (avoid=…)", (get) => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = get();
  });

  const call = (url: string, query: Record<string, string>) =>
    ctx.app.inject({ url: `${url}?${new URLSearchParams(query).toString()}` });
  const page = async (query: Record<string, string>) => {
    const res = await call('/api/kitchens/page', query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<KitchenPage>();
  };
  const found = async (query: Record<string, string>) =>
    Object.fromEntries((await page(query)).kitchens.map((k) => [k.name, k.matchingDishes]));

  /** Three kitchens of one cuisine of their own: one dish each holding sesame, maybe sesame, and none. */
  async function world() {
    const word = uniqueWord();
    // A cuisine of their own, unlike the word (a kitchen is found by its cuisine's name too).
    const cuisine = `C${uniqueWord()}`;
    const kitchen = async (name: string, dishes: Parameters<typeof buildMenuItem>[2][]) => {
      const { kitchen: k, cookie } = await buildKitchen(ctx, { name, category: cuisine });
      const items = [];
      for (const dish of dishes) items.push(await buildMenuItem(ctx, k, dish));
      return { kitchen: k, cookie, items };
    };
    const sesame = await kitchen('Amal’s', [
      {
        item: `Sesame ${word} noodles`,
        allergenAnswers: answersWith({ sesame: 'contains', wheat: 'contains' }),
      },
      { item: 'Plain rice' },
    ]);
    const maybe = await kitchen('Bilal’s', [
      { item: `Cold ${word} noodles`, allergenAnswers: answersWith({ sesame: 'may contain' }) },
    ]);
    const none = await kitchen('Chen’s', [{ item: `Rice ${word} noodles` }]);
    return { word, cuisine, sesame, maybe, none };
  }

  it('leaves out dishes holding the allergens, and kitchens left with none; may contain counts unless mayContain=0', async () => {
    const { word, cuisine } = await world();
    expect(await found({ q: word })).toEqual({
      'Amal’s': [`Sesame ${word} noodles`],
      'Bilal’s': [`Cold ${word} noodles`],
      'Chen’s': [`Rice ${word} noodles`],
    });
    expect(await found({ q: word, avoid: 'sesame' })).toEqual({ 'Chen’s': [`Rice ${word} noodles`] });
    expect(await found({ q: word, avoid: 'sesame', mayContain: '0' })).toEqual({
      'Bilal’s': [`Cold ${word} noodles`],
      'Chen’s': [`Rice ${word} noodles`],
    });
    // Without words: a kitchen with a dish free of them stays (Amal's rice), one without any does not.
    const byCuisine = await page({ cuisine, avoid: 'sesame' });
    expect(byCuisine.kitchens.map((k) => k.name).sort()).toEqual(['Amal’s', 'Chen’s']);
    expect(byCuisine.total).toBe(2);
    expect((await page({ cuisine, avoid: 'sesame,wheat', mayContain: '0' })).kitchens).toHaveLength(3);
    // The unpaged search filters alike.
    const unpaged = await call('/api/kitchens/search', { q: word, avoid: 'sesame' });
    expect(unpaged.json<KitchenSearchHit[]>().map((k) => k.name)).toEqual(['Chen’s']);
  });

  it('follows a change of what a dish declares (kept answers are dropped with the catalogue)', async () => {
    const { word, none } = await world();
    expect(Object.keys(await found({ q: word, avoid: 'milk' })).sort()).toEqual([
      'Amal’s',
      'Bilal’s',
      'Chen’s',
    ]);
    const edit = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/kitchen/menu/${none.items[0]!.id}`,
      headers: { cookie: none.cookie },
      payload: { allergenAnswers: answersWith({ milk: 'contains' }) },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await vi.waitFor(async () =>
      expect(Object.keys(await found({ q: word, avoid: 'milk' })).sort()).toEqual(['Amal’s', 'Bilal’s']),
    );
  });

  it('leaves out a dish of before declarations (it may hold anything)', async () => {
    const { word, none } = await world();
    await undeclareDish(ctx, none.items[0]!.id);
    expect(Object.keys(await found({ q: word, avoid: 'milk' })).sort()).toEqual(['Amal’s', 'Bilal’s']);
    expect(Object.keys(await found({ q: word })).sort()).toEqual(['Amal’s', 'Bilal’s', 'Chen’s']);
  });

  it.each([
    ['/api/kitchens/page', { avoid: 'gluten' }, 'avoid'],
    ['/api/kitchens/page', { avoid: 'sesame,nuts' }, 'avoid'],
    ['/api/kitchens/search', { avoid: 'x'.repeat(401) }, 'avoid'],
    ['/api/kitchens/page', { avoid: 'sesame', mayContain: 'maybe' }, 'mayContain'],
    ['/api/kitchens/search', { q: 'dal', mayContain: '2' }, 'mayContain'],
  ])('%s refuses %j with a 400 naming the parameter', async (url, query, field) => {
    const res = await call(url, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
  });
});
