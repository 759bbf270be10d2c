import { randomUUID } from 'node:crypto';
import { createKitchenWithOwner, customerSessionCookie } from './db.js';
import { expect, test } from './fixtures.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

// The customer's browser is in New York; the kitchen keeps UTC: its times are shown, and the customer's beside them.
test.use({ timezoneId: 'America/New_York' });

test.describe('ordering for later', () => {
  test('a pickup pre-order for tomorrow: quantities and a note in the cart, the slot and its prep list on the kitchen, the pickup address once accepted', async ({
    context,
    page: customer,
  }) => {
    const name = `Batch ${randomUUID().slice(0, 8)}`;
    const { kitchen, cookie } = await createKitchenWithOwner(name);
    const email = `preorder-${randomUUID()}@e2e.test`;
    await context.addCookies([cookie, await customerSessionCookie(email)]);
    // The cook's dish and how the kitchen takes orders, through the cook's own routes.
    const dish = await context.request.post('/api/kitchen/menu', {
      data: {
        item: 'Biryani',
        price: '12.00',
        wait: '1 hour',
        imageLink: 'https://images.invalid/b.png',
        allergenAnswers: answersWith(),
      },
    });
    expect(dish.status()).toBe(201);
    const ordering = await context.request.put('/api/kitchen/ordering', {
      data: {
        offersDelivery: true,
        offersPickup: true,
        pickupAddress: 'Flat 4B, 12 Elm Street',
        pickupInstructions: 'Ring twice, the blue door',
        takesAsap: true,
        slotMinutes: 30,
        priorNoticeMinutes: 120,
        daysAhead: 2,
        sameDayCutoff: null,
        ordersPerSlot: 10,
        minimumOrderCents: 2000,
      },
    });
    expect(ordering.status()).toBe(200);

    // The cart: one row per dish with a stepper, the kitchen's minimum, a note.
    await customer.goto(`/KitchenMenu/${kitchen.uid}`);
    await customer.getByRole('button', { name: 'Add Biryani to cart' }).click();
    await customer.getByRole('link', { name: 'Cart (1)' }).click();
    await expect(customer).toHaveURL('/ShoppingCart');
    await expect(customer.getByText('Add $8.00 more to order from this kitchen')).toBeVisible();
    await customer.getByRole('button', { name: 'One more Biryani' }).click();
    await customer.getByRole('button', { name: 'One more Biryani' }).click();
    await expect(customer.getByRole('group', { name: 'Quantity of Biryani' })).toContainText('3');
    await customer.getByRole('button', { name: 'One fewer Biryani' }).click();
    await expect(customer.getByRole('group', { name: 'Quantity of Biryani' })).toContainText('2');
    await expect(
      customer.getByRole('list', { name: 'Items in your cart' }).getByRole('listitem'),
    ).toHaveCount(1);
    await expect(customer.getByText('more to order from this kitchen')).toBeHidden();

    // Pickup: no address, no delivery fee.
    await customer.getByRole('radio', { name: 'Pickup' }).check();
    await expect(customer.getByRole('combobox', { name: 'Delivery address' })).toBeHidden();
    await expect(customer.getByText('Delivery fee')).toBeHidden();
    await expect(customer.getByTestId('cart-total')).toHaveText('$31.46'); // 24.00 + 7.46

    // Tomorrow's first slot, in the kitchen's time and in the customer's.
    await customer.getByRole('radio', { name: 'Schedule for later' }).check();
    await customer.getByRole('combobox', { name: 'Day' }).selectOption({ label: 'Tomorrow' });
    const time = customer.getByRole('combobox', { name: 'Time' });
    const slotTime = (await time.getByRole('option').first().textContent())?.trim() ?? '';
    await time.selectOption({ label: slotTime });
    await expect(customer.getByText(/your time/)).toBeVisible();
    await customer.getByRole('textbox', { name: 'A note for the cook' }).fill('No peanuts, please');
    await customer.getByRole('button', { name: 'Submit order' }).click();
    await expect(customer.getByText('Your Order is sent')).toBeVisible();

    // The kitchen: the order under its slot, the prep list, the note; accepted without a ready time.
    const cook = await context.newPage();
    await cook.goto('/KitchenOrders');
    await expect(cook.getByRole('heading', { name: `Tomorrow ${slotTime}` })).toBeVisible();
    await expect(cook.getByText('Biryani × 2').first()).toBeVisible();
    await expect(cook.getByText('No peanuts, please').filter({ visible: true })).toBeVisible();
    await cook.getByRole('button', { name: 'Accept' }).first().click();
    const dialog = cook.getByRole('dialog');
    await expect(dialog).toContainText(`Ready for its slot: Tomorrow ${slotTime}`);
    await dialog.getByRole('button', { name: 'Accept order' }).click();
    await expect(dialog).toBeHidden();

    // The customer sees where to collect it, live.
    await customer.goto('/CustomerOrderStatus');
    await expect(customer.getByTestId('order-status')).toHaveText('accepted');
    const place = customer.getByRole('region', { name: 'Where to pick up' });
    await expect(place).toContainText('Flat 4B, 12 Elm Street');
    await expect(place).toContainText('Ring twice, the blue door');
    await expect(customer.getByText('Your note: No peanuts, please')).toBeVisible();
  });
});
