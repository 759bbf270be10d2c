import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { AllergenAnswers } from '../../shared/allergen-declaration.js';
import { ALLERGENS } from '../../shared/allergen-set.js';
import type { MenuItem } from '../../shared/menu.js';
import type { Clock } from '../lib/clock.js';
import { buildKitchen, undeclareDish } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { readPdf } from '../test/read-pdf.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';

/** Thursday 26 November 2026, 12:00 UTC. */
const fake = new FakeClock();
const clock: Clock = {
  now: () => Date.parse('2026-11-26T12:00:00Z'),
  sleep: (ms) => fake.sleep(ms),
  timeout: (ms) => fake.timeout(ms),
};

const answers = (some: Partial<AllergenAnswers>): AllergenAnswers =>
  ({ ...Object.fromEntries(ALLERGENS.map((a) => [a, 'no'])), ...some }) as AllergenAnswers;

let addressCounter = 0;

describeEachEngine(
  "a kitchen's labels, packing lists and prep sheets",
  (get) => {
    const call = (
      cookie: string | undefined,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
    ) =>
      get().app.inject({
        method,
        url,
        headers: cookie ? { cookie } : {},
        ...(payload ? { payload } : {}),
        remoteAddress: `2001:db8::52:${(++addressCounter).toString(16)}`,
      });

    /** A cook whose customer (sesame allergy) ordered two dishes, as soon as possible. */
    async function world() {
      const ctx = get();
      const cook = await buildKitchen(ctx, { name: `Amal ${randomUUID().slice(0, 6)}`, timeZone: 'UTC' });
      const add = async (payload: object) =>
        (await call(cook.cookie, 'POST', '/api/kitchen/menu', payload)).json<MenuItem>();
      const noodles = await add({
        item: 'Sesame noodles',
        imageLink: 'https://img.example/n.png',
        price: '8.00',
        wait: '15 min',
        ingredients: 'Wheat noodles, sesame paste, soy sauce',
        allergenAnswers: answers({
          sesame: 'contains',
          wheat: 'contains',
          soya: 'contains',
          peanuts: 'may contain',
        }),
        keepsDays: 3,
        reheating: 'Serve cold',
      });
      const dal = await add({
        item: 'Dal',
        imageLink: 'https://img.example/d.png',
        price: '5',
        wait: '10 min',
        allergenAnswers: answers({}),
      });
      // A dish of before declarations: its label says so.
      await undeclareDish(ctx, dal.id);
      const customer = await signedIn(ctx, 'customer', { displayName: 'Sam Lee' });
      await call(customer.cookie, 'PUT', '/api/account/allergies', {
        allergens: ['sesame'],
        mayContainMatters: false,
      });
      const placed = await call(customer.cookie, 'POST', '/api/orders', {
        idempotencyKey: `key-${randomUUID()}`,
        kitchenUid: cook.kitchen.uid,
        itemIds: [noodles.id, noodles.id, dal.id],
        address: '5 Test Street',
        allergensAcknowledged: ['sesame'],
      });
      expect(placed.statusCode, placed.body).toBe(201);
      return { cook, customer, orderId: placed.json<{ id: string }>().id };
    }

    it('labels once accepted: one per dish, with the allergens, in every size', async () => {
      const { cook, orderId } = await world();
      const url = `/api/kitchen/orders/${orderId}/labels`;
      const early = await call(cook.cookie, 'GET', url);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'NOT_ACCEPTED' });
      const move = await call(cook.cookie, 'POST', `/api/kitchen/orders/${orderId}/moves`, {
        move: 'accept',
        readyInMinutes: 30,
      });
      expect(move.statusCode, move.body).toBe(200);
      for (const [size, pages] of [
        ['62mm', 3],
        ['4x6', 3],
        ['a4', 1],
      ] as const) {
        const res = await call(cook.cookie, 'GET', `${url}?size=${size}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        const pdf = await readPdf(res.rawPayload);
        expect(pdf.pages, size).toBe(pages);
        expect(pdf.text).toContain('Sesame noodles');
        expect(pdf.text).toContain('For Sam Lee');
        expect(pdf.text).toContain('Use by November 29, 2026');
        expect(pdf.text).toContain('Allergens not declared'); // the dal
        expect(pdf.items.some((i) => i.text === 'sesame' && /Bold/.test(i.font))).toBe(true);
      }
    });

    it("the packing list names the customer's allergies; the prep sheet counts the slot's dishes", async () => {
      const { cook, orderId } = await world();
      const packing = await call(cook.cookie, 'GET', `/api/kitchen/orders/${orderId}/packing-list`);
      expect(packing.statusCode, packing.body).toBe(200);
      const list = await readPdf(packing.rawPayload);
      expect(list.text).toContain('Customer allergies: sesame');
      expect(list.text).toContain('Sesame noodles × 2');
      const prep = await call(cook.cookie, 'GET', '/api/kitchen/prep-sheet?slot=asap');
      expect(prep.statusCode, prep.body).toBe(200);
      const sheet = await readPdf(prep.rawPayload);
      expect(sheet.text).toContain('As soon as possible');
      expect(sheet.text).toContain('Sesame noodles × 2');
      expect(sheet.text).toContain('Dal × 1');
    });

    it('refuses bad input naming the field, and anyone but the kitchen of the order', async () => {
      const { cook, customer, orderId } = await world();
      const bad = [
        [`/api/kitchen/orders/${orderId}/labels?size=letter`, 'size'],
        ['/api/kitchen/orders/nope/labels', 'id'],
        ['/api/kitchen/prep-sheet?slot=tomorrow', 'slot'],
        ['/api/kitchen/prep-sheet', 'slot'],
      ] as const;
      for (const [url, field] of bad) {
        const res = await call(cook.cookie, 'GET', url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toMatchObject({ field });
      }
      const other = await buildKitchen(get());
      for (const url of [
        `/api/kitchen/orders/${orderId}/packing-list`,
        `/api/kitchen/orders/${orderId}/labels`,
      ]) {
        expect((await call(undefined, 'GET', url)).statusCode).toBe(401);
        expect((await call(customer.cookie, 'GET', url)).statusCode).toBe(401);
        expect((await call(other.cookie, 'GET', url)).statusCode).toBe(404);
      }
      // Another kitchen's prep sheet holds none of this kitchen's orders.
      const theirs = await readPdf(
        (await call(other.cookie, 'GET', '/api/kitchen/prep-sheet?slot=asap')).rawPayload,
      );
      expect(theirs.text).not.toContain('Sesame noodles');
    });
  },
  {},
  { clock },
);
