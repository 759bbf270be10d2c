import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Kitchen } from '../shared/kitchens.js';
import type { MenuItem } from '../shared/menu.js';
import { describeEachEngine } from './test/test-app.js';
import { seedDemo } from './seed-demo.js';
import { findOrdering } from './data/ordering-queries.js';

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
    expect(await seedDemo(ctx.database.db)).toBe(false);
  });
});
