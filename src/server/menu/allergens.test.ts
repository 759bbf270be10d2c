import { randomUUID } from 'node:crypto';
import { ALLERGEN_DESCRIPTIONS } from '../../shared/allergen-descriptions.js';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { DataExport } from '../../shared/account.js';
import type { AllergenAnswers } from '../../shared/allergen-declaration.js';
import { ALLERGEN_SET, ALLERGENS, allergenName } from '../../shared/allergen-set.js';
import { LOCALES } from '../../shared/i18n/locales.js';
import type { MenuItem } from '../../shared/menu.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { allergyProfiles, menuItems, orderItems, orders } from '../db/schema.js';
import { declarationHistory } from '../data/menu-queries.js';
import type { Clock } from '../lib/clock.js';
import { buildKitchen, undeclareDish } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

/** Thursday 26 November 2026, 12:00 UTC: the kitchens below are open then. */
const fake = new FakeClock();
const clock: Clock = {
  now: () => Date.parse('2026-11-26T12:00:00Z'),
  sleep: (ms) => fake.sleep(ms),
  timeout: (ms) => fake.timeout(ms),
};

/** 'no' for every allergen but those given. */
const answers = (some: Partial<AllergenAnswers> = {}): AllergenAnswers =>
  ({ ...Object.fromEntries(ALLERGENS.map((a) => [a, 'no'])), ...some }) as AllergenAnswers;

const dish = {
  item: 'Sesame noodles',
  imageLink: 'https://img.example/n.png',
  price: '8.00',
  wait: '15 min',
};

let addressCounter = 0;

describeEachEngine(
  'allergens: the set, declarations, their history, orders and profiles',
  (get) => {
    const send = (
      cookie: string | undefined,
      method: 'GET' | 'POST' | 'PATCH' | 'PUT',
      url: string,
      payload?: object,
    ) =>
      get().app.inject({
        method,
        url,
        headers: cookie ? { cookie } : {},
        ...(payload ? { payload } : {}),
        remoteAddress: `2001:db8::51:${(++addressCounter).toString(16)}`,
      });

    async function cookWithDish(ctx: TestContext, extra: object = {}) {
      const cook = await buildKitchen(ctx, { timeZone: 'UTC' });
      const res = await send(cook.cookie, 'POST', '/api/kitchen/menu', {
        ...dish,
        ingredients: 'Wheat noodles, sesame paste, soy sauce, spring onion',
        allergenAnswers: answers({
          sesame: 'contains',
          wheat: 'contains',
          soya: 'contains',
          peanuts: 'may contain',
        }),
        keepsDays: 2,
        reheating: 'Serve cold',
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(201);
      return { cook, dish: res.json<MenuItem>() };
    }

    it("the set covers the EU's 14 and the US's 9 as one, each named and described in every language", async () => {
      expect(ALLERGENS).toHaveLength(15);
      expect(
        ALLERGENS.filter((a) => (ALLERGEN_SET[a].sources as readonly string[]).includes('eu')),
      ).toHaveLength(14);
      expect(
        ALLERGENS.filter((a) => (ALLERGEN_SET[a].sources as readonly string[]).includes('us')),
      ).toHaveLength(9);
      for (const a of ALLERGENS)
        for (const locale of LOCALES) {
          expect(ALLERGEN_SET[a].name[locale].length, `${a} ${locale}`).toBeGreaterThan(1);
          expect(ALLERGEN_DESCRIPTIONS[a][locale].length, `${a} ${locale}`).toBeGreaterThan(20);
        }
      expect(allergenName('sesame', 'ar')).toBe('سمسم');
      // The database holds only allergens of the set, and never one both contained and possibly contained.
      const { cook, dish: item } = await cookWithDish(get());
      const db = get().database.db;
      await expect(
        db
          .update(menuItems)
          .set({ allergens: ['nuts'] })
          .where(eq(menuItems.id, item.id)),
      ).rejects.toThrow();
      await expect(
        db
          .update(menuItems)
          .set({ mayContain: ['sesame'] })
          .where(eq(menuItems.id, item.id)),
      ).rejects.toThrow();
      await expect(
        db
          .insert(allergyProfiles)
          .values({ userId: cook.user.id, allergens: ['gluten'], mayContainMatters: true }),
      ).rejects.toThrow();
    });

    it('a declared dish shows what it contains and may contain; an edit is kept in its history with the time', async () => {
      const { cook, dish: item } = await cookWithDish(get());
      expect(item).toMatchObject({
        allergens: ['sesame', 'soya', 'wheat'],
        mayContain: ['peanuts'],
        allergensDeclared: true,
        ingredients: 'Wheat noodles, sesame paste, soy sauce, spring onion',
        keepsDays: 2,
        reheating: 'Serve cold',
      });
      const menu = (await send(undefined, 'GET', `/api/kitchens/${cook.kitchen.uid}/menu`)).json<
        MenuItem[]
      >();
      expect(menu[0]).toMatchObject({ allergens: ['sesame', 'soya', 'wheat'], allergensDeclared: true });

      const edited = await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${item.id}`, {
        allergenAnswers: answers({
          sesame: 'contains',
          wheat: 'contains',
          soya: 'contains',
          milk: 'may contain',
        }),
      });
      expect(edited.statusCode, edited.body).toBe(200);
      // A change of price is no change of declaration: no history row.
      await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${item.id}`, { price: '9.00' });
      await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${item.id}`, { ingredients: 'Noodles, tahini' });
      const history = await declarationHistory(get().database.db, item.id);
      expect(history.map((h) => [h.mayContain, h.ingredients])).toEqual([
        [['peanuts'], 'Wheat noodles, sesame paste, soy sauce, spring onion'],
        [['milk'], 'Wheat noodles, sesame paste, soy sauce, spring onion'],
        [['milk'], 'Noodles, tahini'],
      ]);
      expect(history.every((h) => h.declared && h.at instanceof Date)).toBe(true);
    });

    it('refuses answers missing an allergen, or a wrong answer, naming it (400), writing nothing', async () => {
      const cook = await buildKitchen(get());
      const partial: Partial<AllergenAnswers> = answers();
      delete partial.sesame;
      for (const [allergenAnswers, field] of [
        [partial, 'allergenAnswers.sesame'],
        [answers({ milk: 'maybe' as never }), 'allergenAnswers.milk'],
        ['none', 'allergenAnswers'],
      ] as const) {
        const res = await send(cook.cookie, 'POST', '/api/kitchen/menu', { ...dish, allergenAnswers });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      }
      const res = await send(cook.cookie, 'POST', '/api/kitchen/menu', {
        ...dish,
        allergenAnswers: answers(),
        keepsDays: 31,
      });
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'keepsDays' });
      expect(
        await get().database.db.select().from(menuItems).where(eq(menuItems.kitchenId, cook.kitchen.uid)),
      ).toEqual([]);
    });

    it("a new dish is published only with every allergen answered; one of before shows 'not declared' until answered", async () => {
      const ctx = get();
      const cook = await buildKitchen(ctx);
      // No answers, or the bare tags of older clients: refused naming the field, nothing written.
      for (const [payload, field] of [
        [dish, 'allergenAnswers'],
        [{ ...dish, allergens: ['sesame'] }, 'allergens'],
        [{ ...dish, allergens: ['sesame'], allergenAnswers: answers() }, 'allergens'],
      ] as const) {
        const res = await send(cook.cookie, 'POST', '/api/kitchen/menu', payload);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      }
      expect(
        await ctx.database.db.select().from(menuItems).where(eq(menuItems.kitchenId, cook.kitchen.uid)),
      ).toEqual([]);

      // A dish of before declarations (tags only) shows 'not declared' with what it contains.
      const added = await send(cook.cookie, 'POST', '/api/kitchen/menu', {
        ...dish,
        allergenAnswers: answers(),
      });
      const old = added.json<MenuItem>();
      await undeclareDish(ctx, old.id, ['sesame']);
      const menu = async () =>
        (await send(undefined, 'GET', `/api/kitchens/${cook.kitchen.uid}/menu`)).json<MenuItem[]>();
      // Its cook may still edit it; a bare list of allergens neither declares nor undeclares it.
      const priced = await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${old.id}`, { price: '9.00' });
      expect(priced.json()).toMatchObject({ allergens: ['sesame'], allergensDeclared: false });
      expect(await menu()).toMatchObject([{ id: old.id, allergensDeclared: false, allergens: ['sesame'] }]);
      const tags = await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${old.id}`, { allergens: [] });
      expect(tags.statusCode).toBe(400);
      expect(tags.json()).toMatchObject({ code: 'VALIDATION', field: 'allergens' });
      const answered = await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${old.id}`, {
        allergenAnswers: answers({ sesame: 'contains' }),
      });
      expect(answered.json()).toMatchObject({ allergens: ['sesame'], allergensDeclared: true });
      expect(await menu()).toMatchObject([{ id: old.id, allergensDeclared: true }]);
    });

    it('an order keeps what was declared when placed, asks to acknowledge the allergies it holds, and shows them to the cook', async () => {
      const ctx = get();
      const { cook, dish: item } = await cookWithDish(ctx);
      const customer = await signedIn(ctx, 'customer');
      const profile = await send(customer.cookie, 'PUT', '/api/account/allergies', {
        allergens: ['peanuts', 'sesame'],
        mayContainMatters: true,
      });
      expect(profile.statusCode, profile.body).toBe(200);
      expect(profile.json()).toMatchObject({ allergens: ['peanuts', 'sesame'], mayContainMatters: true });
      const order = (acknowledged?: string[]) =>
        send(customer.cookie, 'POST', '/api/orders', {
          idempotencyKey: `key-${randomUUID()}`,
          kitchenUid: cook.kitchen.uid,
          itemIds: [item.id],
          address: '5 Test Street',
          ...(acknowledged ? { allergensAcknowledged: acknowledged } : {}),
        });
      const refused = await order();
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'ALLERGENS_NOT_ACKNOWLEDGED',
        field: 'allergensAcknowledged',
      });
      expect(refused.json<{ message: string }>().message).toContain('peanuts, sesame');
      // Half an acknowledgement is none.
      expect((await order(['sesame'])).statusCode).toBe(409);
      expect(
        await ctx.database.db.select().from(orders).where(eq(orders.customerId, customer.user.id)),
      ).toEqual([]);
      const placed = await order(['sesame', 'peanuts']);
      expect(placed.statusCode, placed.body).toBe(201);
      const orderId = placed.json<{ id: string }>().id;

      // The cook changes the dish afterwards: the order keeps what it was placed with.
      await send(cook.cookie, 'PATCH', `/api/kitchen/menu/${item.id}`, {
        allergenAnswers: answers({ milk: 'contains' }),
        ingredients: 'Rice noodles, milk',
      });
      const [line] = await ctx.database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
      expect(line).toMatchObject({
        contains: ['sesame', 'soya', 'wheat'],
        mayContain: ['peanuts'],
        allergensDeclared: true,
        ingredients: 'Wheat noodles, sesame paste, soy sauce, spring onion',
        keepsDays: 2,
        reheating: 'Serve cold',
      });
      const kitchenView = (await send(cook.cookie, 'GET', '/api/kitchen/orders')).json<KitchenOrder[]>();
      expect(kitchenView[0]).toMatchObject({
        id: orderId,
        customerAllergies: ['peanuts', 'sesame'],
        allergensAcknowledged: ['peanuts', 'sesame'],
      });
    });

    it("'Your allergies' are the customer's own: exported with 'Your data', deleted with the account", async () => {
      const ctx = get();
      const customer = await signedIn(ctx, 'customer');
      expect((await send(undefined, 'GET', '/api/account/allergies')).statusCode).toBe(401);
      const cook = await signedIn(ctx, 'kitchen');
      expect((await send(cook.cookie, 'GET', '/api/account/allergies')).statusCode).toBe(401);
      expect((await send(customer.cookie, 'GET', '/api/account/allergies')).json()).toEqual({
        allergens: [],
        mayContainMatters: true,
        updatedAt: null,
      });
      const bad = await send(customer.cookie, 'PUT', '/api/account/allergies', {
        allergens: ['gluten'],
        mayContainMatters: false,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'allergens.0' });
      await send(customer.cookie, 'PUT', '/api/account/allergies', {
        allergens: ['sesame', 'milk'],
        mayContainMatters: false,
      });
      const saved = (await send(customer.cookie, 'GET', '/api/account/allergies')).json();
      expect(saved).toMatchObject({ allergens: ['milk', 'sesame'], mayContainMatters: false });

      const exported = DataExport.parse(
        (await send(customer.cookie, 'GET', '/api/account/customer/export')).json(),
      );
      expect(exported.allergies).toMatchObject({ allergens: ['milk', 'sesame'], mayContainMatters: false });

      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: '/api/account/customer',
        headers: { cookie: customer.cookie },
      });
      expect(deleted.statusCode).toBe(204);
      expect(
        await ctx.database.db
          .select()
          .from(allergyProfiles)
          .where(eq(allergyProfiles.userId, customer.user.id)),
      ).toEqual([]);
    });
  },
  {},
  { clock },
);
