import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { KitchenSearchHit } from '../../shared/search.js';
import { buildKitchen } from '../test/builders.js';
import { describeEachEngine, type TestContext } from '../test/test-app.js';
import { answersWith } from '../../shared/allergen-declaration.js';

/** A cuisine of 10 random letters: a search by it finds this test's kitchens alone. */
const uniqueCuisine = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

/**
 * A kitchen's dietary tags together (kitchens.dish_dietary, migration 0021), which a search by tags alone reads
 * instead of every dish: kept by the database on every write to a dish, however it is made.
 */
describeEachEngine('a kitchen’s dietary tags, kept with its dishes', (get) => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = get();
  });

  const found = async (cuisine: string, diet: string) => {
    const res = await ctx.app.inject({
      url: `/api/kitchens/search?${new URLSearchParams({ cuisine, diet }).toString()}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<KitchenSearchHit[]>().map((h) => h.uid);
  };
  const tagsOf = async (uid: string) =>
    (
      (await ctx.database.db.execute(
        sql`select dish_dietary from kitchens where owner_id = ${uid}`,
      )) as unknown as { rows: { dish_dietary: string[] }[] }
    ).rows[0]?.dish_dietary;

  it('follows the dishes a cook adds, edits and deletes through the API', async () => {
    const cuisine = uniqueCuisine();
    const { kitchen, cookie } = await buildKitchen(ctx, { category: cuisine });
    const headers = { cookie };
    expect(await tagsOf(kitchen.uid)).toEqual([]);
    expect(await found(cuisine, 'vegan')).toEqual([]);

    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen/menu',
      headers,
      payload: {
        item: 'Chana masala',
        price: '8.00',
        wait: '20 min',
        imageLink: 'https://img.example/c.png',
        dietary: ['vegan', 'vegetarian'],
        allergenAnswers: answersWith(),
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const dish = added.json<{ id: string }>();
    expect(await tagsOf(kitchen.uid)).toEqual(['vegan', 'vegetarian']);
    expect(await found(cuisine, 'vegan')).toEqual([kitchen.uid]);

    const edited = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/kitchen/menu/${dish.id}`,
      headers,
      payload: { dietary: ['halal'] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await tagsOf(kitchen.uid)).toEqual(['halal']);
    expect(await found(cuisine, 'vegan')).toEqual([]);
    expect(await found(cuisine, 'halal')).toEqual([kitchen.uid]);

    // An edit of anything else leaves the tags as they are.
    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/kitchen/menu/${dish.id}`,
      headers,
      payload: { item: 'Chicken masala' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await tagsOf(kitchen.uid)).toEqual(['halal']);

    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/kitchen/menu/${dish.id}`, headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await tagsOf(kitchen.uid)).toEqual([]);
    expect(await found(cuisine, 'halal')).toEqual([]);
  });

  it('asks one dish to carry every tag asked, not the kitchen’s dishes between them', async () => {
    const cuisine = uniqueCuisine();
    const { kitchen } = await buildKitchen(ctx, { category: cuisine });
    const both = (await buildKitchen(ctx, { category: cuisine })).kitchen;
    const { db } = ctx.database;
    // Straight into the table, several at once: the database keeps the tags whoever writes the dishes.
    await db.execute(sql`insert into menu_items (kitchen_id, item, image_link, price_cents, wait, dietary)
      values (${kitchen.uid}, 'Shawarma', 'https://img.example/s.png', 900, '20 min', '{halal}'),
             (${kitchen.uid}, 'Falafel', 'https://img.example/f.png', 700, '20 min', '{vegan}'),
             (${both.uid}, 'Falafel', 'https://img.example/f.png', 700, '20 min', '{halal,vegan}')`);
    expect(await tagsOf(kitchen.uid)).toEqual(['halal', 'vegan']);
    expect(await tagsOf(both.uid)).toEqual(['halal', 'vegan']);
    expect((await found(cuisine, 'vegan')).sort()).toEqual([kitchen.uid, both.uid].sort());
    expect(await found(cuisine, 'halal,vegan')).toEqual([both.uid]);
  });

  it('keeps both tags when two transactions add dishes to one kitchen at once', async (test) => {
    // One connection on PGlite: its transactions never overlap.
    if (ctx.engine !== 'postgres') return test.skip();
    const { kitchen } = await buildKitchen(ctx, { category: uniqueCuisine() });
    const { db } = ctx.database;
    const dish = (item: string, tag: string) =>
      sql`insert into menu_items (kitchen_id, item, image_link, price_cents, wait, dietary)
          values (${kitchen.uid}, ${item}, 'https://img.example/x.png', 500, '20 min', array[${tag}]::text[])`;
    let second: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(dish('Tofu stew', 'vegan'));
      // The second writer, on another connection, while this one holds the kitchen: it waits for the row...
      second = db.transaction((other) => other.execute(dish('Lamb stew', 'halal')));
      await expect
        .poll(
          async () =>
            (
              (await db.execute(sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`)) as unknown as {
                rows: { n: number }[];
              }
            ).rows[0]?.n,
          { timeout: 10_000 },
        )
        .toBe(1);
    });
    // ...and, once this one committed, reads the tags again: neither overwrites the other's.
    await second;
    expect(await tagsOf(kitchen.uid)).toEqual(['halal', 'vegan']);
  });
});
