import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Kitchen } from '../shared/kitchens.js';
import type { MenuItem } from '../shared/menu.js';
import { describeEachEngine } from './test/test-app.js';
import { seedDemo } from './seed-demo.js';
import { findOrdering } from './data/ordering-queries.js';
import { dishDeclarations } from './db/schema.js';

describeEachEngine('demo kitchens', (get) => {
  it('are seeded with their shipped drawings stored as WebP pictures', async () => {
    const ctx = get();
    expect(await seedDemo(ctx.database.db)).toBe(true);
    const kitchens = (await ctx.app.inject({ url: '/api/kitchens' })).json<Kitchen[]>();
    expect(kitchens).toHaveLength(6);
    for (const kitchen of kitchens) {
      expect(kitchen.imageLink).toBeNull();
      expect(kitchen.image?.widths).toEqual([320, 640, 800]);
      const menu = (await ctx.app.inject({ url: `/api/kitchens/${kitchen.uid}/menu` })).json<MenuItem[]>();
      expect(menu.every((item) => item.image !== null && item.imageLink === null)).toBe(true);
      // Every demo dish answered for its allergens, as a published dish must (ADR 20), with its ingredients.
      expect(menu.every((item) => item.allergensDeclared && item.ingredients.length > 0)).toBe(true);
    }
    // Two of them take pickup and orders for later, with a minimum order; the others deliver as soon as possible.
    const ordering = await Promise.all(kitchens.map((k) => findOrdering(ctx.database.db, k.uid)));
    expect(
      ordering.filter((o) => o?.offersPickup && o.slotMinutes === 30 && o.minimumOrderCents > 0),
    ).toHaveLength(2);
    expect(ordering.filter((o) => o?.offersDelivery && o.takesAsap)).toHaveLength(6);
    const first = kitchens[0]?.image;
    const served = await ctx.app.inject({ url: `/images/${first?.id}-640.webp` });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 640 });
    const allDishes = (
      await Promise.all(
        kitchens.map(async (k) =>
          (await ctx.app.inject({ url: `/api/kitchens/${k.uid}/menu` })).json<MenuItem[]>(),
        ),
      )
    ).flat();
    expect(allDishes.find((d) => d.item === 'Japchae')).toMatchObject({
      allergens: expect.arrayContaining(['sesame', 'soya']),
    });
    // Their declarations are in the dishes' history, as a cook's would be.
    const history = await ctx.database.db.select().from(dishDeclarations);
    expect(history).toHaveLength(allDishes.length);
    expect(await seedDemo(ctx.database.db)).toBe(false);
  });
});
