import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { KitchenSearchHit } from '../../shared/search.js';
import type { MenuItem } from '../../shared/menu.js';
import { buildKitchen } from '../test/builders.js';
import { describeEachEngine } from '../test/test-app.js';
import { answersWith } from '../../shared/allergen-declaration.js';

const uniqueWord = () => Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');

describeEachEngine('a dish’s second name (issue 34)', (get) => {
  const send = (method: 'POST' | 'PATCH', url: string, cookie: string, body: object) =>
    get().app.inject({ method, url, headers: { cookie }, payload: body });
  const menuOf = async (uid: string) =>
    (await get().app.inject({ url: `/api/kitchens/${uid}/menu` })).json<MenuItem[]>();
  const search = async (q: string) => {
    const res = await get().app.inject({
      url: `/api/kitchens/search?${new URLSearchParams({ q }).toString()}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<KitchenSearchHit[]>();
  };

  it('is kept beside the name, shown on the menu, and search finds the dish by either', async () => {
    const word = uniqueWord();
    const { kitchen, cookie } = await buildKitchen(get(), { name: `${word} Tiffin` });
    const added = await send('POST', '/api/kitchen/menu', cookie, {
      item: 'Masala dosa',
      secondName: '  मसाला डोसा ',
      imageLink: 'https://img.example/dosa.png',
      price: '7.5',
      wait: '15 min',
      allergenAnswers: answersWith(),
    });
    expect(added.statusCode, added.body).toBe(201);
    const [dish] = await menuOf(kitchen.uid);
    expect(dish).toMatchObject({ item: 'Masala dosa', secondName: 'मसाला डोसा' });

    for (const q of ['मसाला डोसा', 'डोसा', 'masala dosa', 'masla dosa']) {
      const hit = (await search(q)).find((h) => h.uid === kitchen.uid);
      expect(hit?.matchingDishes, q).toEqual(['Masala dosa · मसाला डोसा']);
    }
    expect((await search(`${word} डोसा`)).map((h) => h.uid)).toContain(kitchen.uid);

    // Emptied: none (and search no longer finds it by that name).
    const emptied = await send('PATCH', `/api/kitchen/menu/${dish?.id ?? ''}`, cookie, { secondName: '' });
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect((await menuOf(kitchen.uid))[0]?.secondName).toBeNull();
    expect((await search('मसाला डोसा')).find((h) => h.uid === kitchen.uid)).toBeUndefined();
    // Left out of an edit: unchanged.
    await send('PATCH', `/api/kitchen/menu/${dish?.id ?? ''}`, cookie, { secondName: 'ಮಸಾಲೆ ದೋಸೆ' });
    await send('PATCH', `/api/kitchen/menu/${dish?.id ?? ''}`, cookie, { wait: '20 min' });
    expect((await menuOf(kitchen.uid))[0]?.secondName).toBe('ಮಸಾಲೆ ದೋಸೆ');
  });

  it.each([['x'.repeat(81)], ['मसाला\u0000'], ['two\nlines'], ['\u202Eevil'], [42]])(
    'refuses %j, naming secondName, and changes nothing',
    async (secondName) => {
      const { kitchen, cookie } = await buildKitchen(get());
      const res = await send('POST', '/api/kitchen/menu', cookie, {
        item: 'Dal',
        secondName,
        imageLink: 'https://img.example/dal.png',
        price: '4',
        wait: '10 min',
        allergenAnswers: answersWith(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ field: string }>().field).toBe('secondName');
      expect(await menuOf(kitchen.uid)).toEqual([]);
    },
  );
});
