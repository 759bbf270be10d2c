import { randomUUID } from 'node:crypto';
import { createKitchenWithOwner, customerSessionCookie, markSoldOut, placeOrderAs } from './db.js';
import { expect, test } from './fixtures.js';

const uniqueName = (what: string) => `${what} ${randomUUID().slice(0, 8)}`;

test.describe('kitchen availability', () => {
  test('the cook pauses new orders and an open menu page shows it closed, without a reload', async ({
    context,
    page: cook,
  }) => {
    const { kitchen, cookie } = await createKitchenWithOwner(uniqueName('Pausing'), {
      dishes: [{ item: 'Dal' }],
    });
    await context.addCookies([cookie]);
    const customer = await context.newPage();
    await customer.goto(`/KitchenMenu/${kitchen.uid}`);
    const hours = customer.getByTestId('kitchen-hours');
    await expect(hours).toContainText('Open 24 hours');
    await expect(hours.getByRole('status')).toHaveText('Open now');

    await cook.goto('/KitchenOrders');
    const pause = cook.getByRole('switch', { name: 'Pause new orders' });
    await expect(pause).not.toBeChecked();
    // The switch follows the live kitchen: it turns on once the server has the pause.
    await pause.click();
    await expect(pause).toBeChecked();
    await expect(cook.getByText('Not taking orders until you resume')).toBeVisible();

    await expect(hours.getByRole('status')).toHaveText('Closed');
    await expect(hours).toContainText('Not taking orders right now');

    await pause.click();
    await expect(pause).not.toBeChecked();
    await expect(hours.getByRole('status')).toHaveText('Open now');
    await customer.close();
  });

  test('a kitchen that never set hours shows the spec’s: 10:00 AM - 8:15 PM, open or closed by the clock', async ({
    page,
  }) => {
    const { kitchen } = await createKitchenWithOwner(uniqueName('Standard hours'), { hours: null });
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    const hours = page.getByTestId('kitchen-hours');
    await expect(hours).toContainText('10:00 AM - 8:15 PM');
    await expect(hours.getByRole('status')).toHaveText(
      /^(Open now|Closed · opens (Mon|Tue|Wed|Thu|Fri|Sat|Sun) 10:00 AM)$/,
    );
  });

  test('a dish of 2 portions a day sells out after two orders, live on an open menu page', async ({
    page,
  }) => {
    const { kitchen, items } = await createKitchenWithOwner(uniqueName('Portions'), {
      dishes: [{ item: 'Kerala Fish Curry', portionsPerDay: 2 }],
    });
    const dish = items[0]!;
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    const card = page.getByTestId('menu-item').filter({ hasText: 'Kerala Fish Curry' });
    await expect(card).toContainText('Only 2 left');
    await placeOrderAs(kitchen.uid, [dish.id]);
    await expect(card).toContainText('Only 1 left');
    await placeOrderAs(kitchen.uid, [dish.id]);
    await expect(card).toContainText('Sold out');
    await expect(card.getByRole('button', { name: 'Kerala Fish Curry is sold out' })).toBeDisabled();
  });

  test.describe('a refused order', () => {
    // The browser logs the refused order's answer (409) as a failed resource: that refusal is the point here.
    test.use({ expectedErrorUrls: [/\/api\/orders$/] });
    test('the cart says a dish sold out before the order, and the order is refused with the message', async ({
      page,
    }) => {
      const { kitchen, items } = await createKitchenWithOwner(uniqueName('Selling out'), {
        dishes: [{ item: 'Pozole Rojo' }, { item: 'Churros' }],
      });
      await page.context().addCookies([await customerSessionCookie(`${randomUUID()}@e2e.test`)]);
      await page.goto(`/KitchenMenu/${kitchen.uid}`);
      await page.getByRole('button', { name: 'Add Pozole Rojo to cart' }).click();
      await page.getByRole('button', { name: 'Add Churros to cart' }).click();
      await page.getByRole('link', { name: 'Cart (2)' }).click();
      await expect(page.getByTestId('cart-availability')).toBeHidden();

      // The cook ticks 'Sold out' while the customer looks at the cart.
      await markSoldOut(kitchen.uid, items[0]!.id);
      await expect(page.getByTestId('cart-availability')).toContainText('Pozole Rojo is sold out.');

      await page.getByRole('combobox', { name: 'Delivery address' }).fill('Flat 2, 5 Test Road');
      await page.getByRole('button', { name: 'Submit order' }).click();
      await expect(
        page.getByRole('alert').filter({ hasText: 'Your order was not sent' }).first(),
      ).toContainText('Pozole Rojo is sold out. Please change your cart and order again.');
      await expect(page.getByText('Your Order is sent')).toBeHidden();
    });
  });
});
