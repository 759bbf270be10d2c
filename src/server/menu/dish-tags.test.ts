import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { answersWith } from '../../shared/allergen-declaration.js';
import type { MenuItem } from '../../shared/menu.js';
import { menuItems } from '../db/schema.js';
import { buildKitchen } from '../test/builders.js';
import { describeEachEngine } from '../test/test-app.js';

const dish = {
  item: 'Baklava',
  imageLink: 'https://img.example/b.png',
  price: '4.50',
  wait: '10 min',
  allergenAnswers: answersWith(),
};

describeEachEngine('dietary tags and allergens of a dish', (get) => {
  it('stores them in a canonical order, shows them on the public menu, and edits them', async () => {
    const { kitchen, cookie } = await buildKitchen(get());
    const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      get().app.inject({ method, url, headers: { cookie }, payload });
    const res = await send('POST', '/api/kitchen/menu', {
      ...dish,
      dietary: ['vegan', 'vegetarian', 'vegan'],
      allergenAnswers: answersWith({ 'tree nuts': 'contains', 'cereals containing gluten': 'contains' }),
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<MenuItem>();
    expect(created).toMatchObject({
      dietary: ['vegetarian', 'vegan'],
      allergens: ['cereals containing gluten', 'tree nuts'],
    });
    const menu = (await get().app.inject(`/api/kitchens/${kitchen.uid}/menu`)).json<MenuItem[]>();
    expect(menu[0]).toMatchObject({ dietary: ['vegetarian', 'vegan'] });
    const edited = await send('PATCH', `/api/kitchen/menu/${created.id}`, { allergenAnswers: answersWith() });
    expect(edited.json()).toMatchObject({ dietary: ['vegetarian', 'vegan'], allergens: [] });
  });

  it("a dish without tags, answered 'no' for every allergen, has none", async () => {
    const { cookie } = await buildKitchen(get());
    const res = await get().app.inject({
      method: 'POST',
      url: '/api/kitchen/menu',
      headers: { cookie },
      payload: dish,
    });
    expect(res.json()).toMatchObject({ dietary: [], allergens: [] });
  });

  it.each([
    ['dietary', ['pescatarian']],
    ['dietary', 'vegan'],
    ['allergens', ['nuts']],
    ['allergens', [42]],
  ])('refuses a bad %s (%j) with a 400 naming it, writing nothing', async (field, value) => {
    const { kitchen, cookie } = await buildKitchen(get());
    const res = await get().app.inject({
      method: 'POST',
      url: '/api/kitchen/menu',
      headers: { cookie },
      payload: { ...dish, [field]: value },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION',
      field: expect.stringMatching(new RegExp(`^${field}`)),
    });
    expect(
      await get().database.db.select().from(menuItems).where(eq(menuItems.kitchenId, kitchen.uid)),
    ).toEqual([]);
  });
});
