import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { KitchenPage, KitchenSearchHit } from '../../shared/search.js';
import { describeEachEngine, type TestContext } from '../test/test-app.js';
import { MAX_CANDIDATES } from './search-queries.js';

/**
 * A random word of 10 different letters, so each test finds only its own kitchens. Different letters, and none of
 * those the tests' typos put in (q, r, x, z): a letter repeated could make a typo share more trigrams with the word
 * than another (CI once drew such a word, and the weaker match came first).
 */
const uniqueWord = () => {
  const letters = [...'abcdefghijklmnopstuvwy'];
  return Array.from(randomBytes(10), (b) => letters.splice(b % letters.length, 1)[0]).join('');
};

/** A kitchen to insert: its cuisine, its one dish, and how many seconds old it is. */
interface Seeded {
  category: string;
  dish: string;
  age: number;
}

describeEachEngine('search candidates (the cap on what a search scores)', (get) => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = get();
  });

  /** Inserts the kitchens in this order (each with its dish), straight into the tables: hundreds at once. */
  async function seed(tag: string, kitchens: Seeded[]): Promise<string[]> {
    const rows = JSON.stringify(kitchens.map((k, n) => ({ ...k, n })));
    const { db } = ctx.database;
    await db.execute(sql`insert into users (issuer, subject, email, display_name)
      select 'urn:candidates', ${tag} || '-' || r.n, ${tag} || r.n || '@candidates.test', 'Cook'
      from jsonb_to_recordset(${rows}::jsonb) as r(n int)`);
    const inserted = (await db.execute(sql`insert into kitchens
        (owner_id, name, category, address, image_link, owner_name, owner_email, created_at)
      select u.id, 'Cook ' || r.n, r.category, r.n || ' Test Street', 'https://img.example/k.png', 'Cook', u.email,
             now() - r.age * interval '1 second'
      from jsonb_to_recordset(${rows}::jsonb) as r(n int, category text, age int)
      join users u on u.issuer = 'urn:candidates' and u.subject = ${tag} || '-' || r.n
      order by r.n
      returning owner_id`)) as unknown as { rows: { owner_id: string }[] };
    await db.execute(sql`insert into menu_items (kitchen_id, item, image_link, price_cents, wait)
      select u.id, r.dish, 'https://img.example/d.png', 500, '20 min'
      from jsonb_to_recordset(${rows}::jsonb) as r(n int, dish text)
      join users u on u.issuer = 'urn:candidates' and u.subject = ${tag} || '-' || r.n
      order by r.n`);
    return inserted.rows.map((r) => r.owner_id);
  }

  async function ask<T>(path: string, query: Record<string, string>): Promise<T> {
    const res = await ctx.app.inject({ url: `${path}?${new URLSearchParams(query).toString()}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  }

  it('keeps the exact matches first and the most alike of the rest, however many weaker ones there are', async () => {
    const word = uniqueWord();
    // Beyond the cap: weak matches (two letters put in), the newest kitchens, read before the close one...
    const weak = Array.from({ length: MAX_CANDIDATES + 20 }, (_, i) => ({
      category: 'Weak',
      dish: `${word.slice(0, 5)}zx${word.slice(5)} stew`,
      age: 10 + i,
    }));
    const [, , ...rest] = await seed(word, [
      { category: 'Exact', dish: `${word} curry`, age: 5000 },
      { category: 'Exact', dish: `Spicy ${word}`, age: 5001 },
      ...weak,
      // ... and a typo of the last letter, the oldest kitchen and the last row written.
      { category: 'Close', dish: `${word.slice(0, 9)}${word[9] === 'q' ? 'r' : 'q'} pie`, age: 6000 },
    ]);
    const close = rest.at(-1);
    const hits = await ask<KitchenSearchHit[]>('/api/kitchens/search', { q: word });
    expect(hits).toHaveLength(60);
    expect(hits.slice(0, 3).map((h) => h.category)).toEqual(['Exact', 'Exact', 'Close']);
    expect(hits[2]?.uid).toBe(close);
    expect(hits.slice(3).every((h) => h.category === 'Weak')).toBe(true);
    const page = await ask<KitchenPage>('/api/kitchens/page', { q: word, limit: '3' });
    expect(page.kitchens.map((k) => k.category)).toEqual(['Exact', 'Exact', 'Close']);
    // The count is of the candidates: at most MAX_CANDIDATES dishes' kitchens.
    expect(page.total).toBe(MAX_CANDIDATES);
    // Said to be a lower bound: more kitchens hold the word than were counted.
    expect(page.totalAtLeast).toBe(true);
  });

  it('narrows the candidates by cuisine before capping them', async () => {
    const word = uniqueWord();
    const kitchens = await seed(word, [
      ...Array.from({ length: MAX_CANDIDATES + 20 }, (_, i) => ({
        category: 'Alpha',
        dish: `${word} stew`,
        age: i,
      })),
      // Written last: a cap before the cuisine would have left them out.
      { category: 'Beta', dish: `${word} stew`, age: 1000 },
      { category: 'Beta', dish: `Grilled ${word}`, age: 1001 },
    ]);
    const hits = await ask<KitchenSearchHit[]>('/api/kitchens/search', { q: word, cuisine: 'beta' });
    expect(hits.map((h) => h.uid)).toEqual(kitchens.slice(-2));
    const page = await ask<KitchenPage>('/api/kitchens/page', { q: word, cuisine: 'Beta' });
    expect(page.total).toBe(2);
    expect(page.totalAtLeast).toBeUndefined();
  });
});
