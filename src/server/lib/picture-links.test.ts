import { expect, it } from 'vitest';
import { kitchens, menuItems } from '../db/schema.js';
import { buildKitchen, kitchenInput } from '../test/builders.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { answersWith } from '../../shared/allergen-declaration.js';

describeEachEngine(
  'picture links to our own site',
  (get) => {
    it('are refused for kitchens and dishes (400 naming the field), on any scheme or port of our host', async () => {
      const ctx = get();
      const own = new URL(ctx.config.publicUrl);
      const links = [
        `${own.origin}/auth/customer/start?returnTo=/`,
        `https://${own.hostname}/api/kitchens`,
        `http://${own.hostname}:8080/x.png`,
      ];
      const { cookie } = await signedIn(ctx, 'kitchen');
      const owner = await buildKitchen(ctx);
      const before = {
        kitchens: await ctx.database.db.select().from(kitchens),
        items: await ctx.database.db.select().from(menuItems),
      };
      for (const imageLink of links) {
        const calls = [
          { method: 'POST' as const, url: '/api/kitchen', cookie, payload: kitchenInput({ imageLink }) },
          { method: 'PATCH' as const, url: '/api/kitchen', cookie: owner.cookie, payload: { imageLink } },
          {
            method: 'POST' as const,
            url: '/api/kitchen/menu',
            cookie: owner.cookie,
            payload: { item: 'Dal', imageLink, price: '9', wait: '20 min', allergenAnswers: answersWith() },
          },
        ];
        for (const { method, url, cookie: c, payload } of calls) {
          const res = await ctx.app.inject({ method, url, headers: { cookie: c }, payload });
          expect(res.statusCode, `${method} ${url} ${imageLink}`).toBe(400);
          expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'imageLink' });
        }
      }
      expect(await ctx.database.db.select().from(kitchens)).toEqual(before.kitchens);
      expect(await ctx.database.db.select().from(menuItems)).toEqual(before.items);
    });
  },
  { PUBLIC_URL: 'http://homecooked.example', DEV_SIGN_IN: 'unsafe-anyone-can-sign-in' },
);
