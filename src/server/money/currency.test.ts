import { expect, it } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { localProvider, money, paidKitchen, placeOrder, sessionOf } from '../test/payments-world.js';
import { describeEachEngine, signedIn } from '../test/test-app.js';
import { answersWith } from '../../shared/allergen-declaration.js';

// Yen have no minor unit: a price typed "500" is 500 yen, stored as 500, and charged as 500 (ISO 4217, Stripe).
describeEachEngine(
  'a marketplace in yen (CURRENCY=JPY)',
  (get) => {
    it('keeps a dish priced 500 as 500, refuses decimals, and charges an order of it 500 plus the fees', async () => {
      const ctx = get();
      const { cook, dal: first } = await paidKitchen(ctx, { price: '1200' });
      expect(first.priceCents).toBe(1200);
      const add = (price: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/kitchen/menu',
          headers: { cookie: cook.cookie },
          payload: {
            item: 'Onigiri',
            imageLink: 'https://img.example/o.png',
            price,
            wait: '10 min',
            allergenAnswers: answersWith(),
          },
        });
      const added = await add('500');
      expect(added.statusCode, added.body).toBe(201);
      const onigiri = added.json<MenuItem>();
      expect(onigiri.priceCents).toBe(500);
      const menu = await ctx.app.inject(`/api/kitchens/${cook.kitchen.uid}/menu`);
      expect(menu.json<MenuItem[]>().find((i) => i.id === onigiri.id)?.priceCents).toBe(500);

      const decimals = await add('5.50');
      expect(decimals.statusCode).toBe(400);
      expect(decimals.json()).toMatchObject({ code: 'VALIDATION', field: 'price' });
      expect(decimals.json<{ message: string }>().message).toBe(
        'Price must be a whole amount like 500 (0 or more, no decimals)',
      );

      const customer = await signedIn(ctx, 'customer');
      const placed = await placeOrder(ctx, customer.cookie, cook.kitchen.uid, [onigiri], { payment: 'card' });
      expect(placed.statusCode, placed.body).toBe(201);
      const order = placed.json<CustomerOrder>();
      expect(order).toMatchObject({ itemsCents: 500, totalCents: 500 + 299 + 746 });
      const session = localProvider(ctx).objects.get(sessionOf(order));
      expect(session).toMatchObject({ amount_total: 500 + 299 + 746, currency: 'jpy' });
      expect((await money(ctx, order.id)).row).toMatchObject({ totalCents: 1545 });
    });
  },
  { PAYMENTS: 'local', CURRENCY: 'JPY' },
);
