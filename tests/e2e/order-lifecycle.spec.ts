import { randomUUID } from 'node:crypto';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { createKitchenWithOwner, customerSessionCookie } from './db.js';
import { expect, test } from './fixtures.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

interface Dish {
  id: string;
  item: string;
}

/**
 * A kitchen with two dishes and a signed-in customer, both in this browser context (kitchen and customer are
 * separate sessions, so one browser can hold both): the cook's page and the customer's page side by side.
 */
async function setUp(context: BrowserContext) {
  const name = `Lifecycle ${randomUUID().slice(0, 8)}`;
  const { kitchen, cookie } = await createKitchenWithOwner(name);
  const email = `lifecycle-${randomUUID()}@e2e.test`;
  await context.addCookies([cookie, await customerSessionCookie(email)]);
  const addDish = async (item: string, price: string) =>
    (await context.request
      .post('/api/kitchen/menu', {
        data: {
          item,
          price,
          wait: '20 min',
          imageLink: 'https://images.invalid/dish.png',
          allergenAnswers: answersWith(),
        },
      })
      .then((r) => r.json())) as Dish;
  const dishes = [await addDish('Dal', '9.50'), await addDish('Rice', '3.00')];
  return { kitchen, email, dishes };
}

const placeOrder = async (request: APIRequestContext, kitchenUid: string, dishes: Dish[]) => {
  const res = await request.post('/api/orders', {
    data: {
      kitchenUid,
      itemIds: dishes.map((d) => d.id),
      address: '8 Lifecycle Lane',
      idempotencyKey: randomUUID(),
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string };
};

/** Records the system notifications the page shows (the real ones still show). */
async function watchSystemNotifications(page: Page) {
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title}: ${options?.body ?? ''}`);
      }
    } as typeof Notification;
  });
  return () =>
    page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications);
}

test.describe('the order lifecycle', () => {
  test('runs from recieved to delivered with both pages open, each change seen live by the other side', async ({
    context,
    page: cook,
  }) => {
    await context.grantPermissions(['notifications']);
    const { kitchen, email, dishes } = await setUp(context);
    const notificationsShown = await watchSystemNotifications(cook);
    await cook.goto('/KitchenOrders');
    const active = cook.getByRole('table', { name: 'Orders of your kitchen' });
    await expect(active).toContainText('No orders yet');
    await expect(cook.getByText('Notifications on')).toBeVisible();
    await expect(cook).toHaveTitle('Orders of your kitchen');

    // A new order: the row appears live, the title counts it, a system notification tells of it.
    await placeOrder(context.request, kitchen.uid, [dishes[0]!, dishes[0]!, dishes[1]!]);
    const row = active.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Dal × 2, Rice');
    await expect(cook).toHaveTitle('(1) Orders of your kitchen');
    await expect.poll(notificationsShown).toEqual([`New order: ${email}: Dal × 2, Rice`]);
    await expect(cook.getByText('Today: 1 order · $32.45 taken')).toBeVisible();

    const customer = await context.newPage();
    await customer.goto('/CustomerOrderStatus');
    await expect(customer.getByRole('heading', { name: `Order Status from ${kitchen.name}` })).toBeVisible();
    await expect(customer.getByText('Thank you for ordering from our kitchen.')).toBeVisible();
    const status = customer.getByTestId('order-status');
    await expect(status).toHaveText('recieved');
    await expect(customer.getByRole('button', { name: 'Cancel order' })).toBeVisible();

    // A destructive confirmation names its action: 'Decline order', not a bare 'Decline' or 'Cancel'.
    await row.getByRole('button', { name: 'Decline', exact: true }).click();
    const decline = cook.getByRole('dialog', { name: 'Decline this order' });
    await expect(decline.getByRole('button', { name: 'Decline order', exact: true })).toBeVisible();
    await expect(decline.getByRole('button', { name: /^(Decline|Cancel)$/ })).toHaveCount(0);
    await cook.keyboard.press('Escape');
    await expect(decline).toBeHidden();

    // 'Accept' asks for a ready time; the customer sees the new state and the expected time.
    await row.getByRole('button', { name: 'Accept' }).click();
    const accept = cook.getByRole('dialog', { name: 'Accept this order' });
    await accept.getByText('45 min').click();
    await accept.getByRole('button', { name: 'Accept order', exact: true }).click();
    await expect(accept).toBeHidden();
    await expect(status).toHaveText('accepted');
    await row.getByRole('button', { name: 'Cancel', exact: true }).click();
    const cancel = cook.getByRole('dialog', { name: 'Cancel this order' });
    await expect(cancel.getByRole('button', { name: 'Cancel order', exact: true })).toBeVisible();
    await expect(cancel.getByRole('button', { name: /^Cancel$/ })).toHaveCount(0);
    await cook.keyboard.press('Escape');
    await expect(cancel).toBeHidden();
    await expect(customer.getByText(/^Expected around \d{1,2}:\d{2} (AM|PM)$/)).toBeVisible();
    await expect(customer.getByRole('button', { name: 'Cancel order' })).toBeHidden();
    await expect(cook).toHaveTitle('Orders of your kitchen');

    for (const [button, state] of [
      ['Preparing', 'preparing'],
      ['Out for delivery', 'out for delivery'],
    ]) {
      await row.getByRole('button', { name: button, exact: true }).click();
      await expect(status).toHaveText(state!);
      await expect(row).toContainText(state!);
    }
    await row.getByRole('button', { name: 'Delivered' }).click();
    await expect(status).toHaveText('delivered');
    await expect(customer.getByText('This order has ended')).toBeVisible();
    await expect(customer.getByText('Your order was delivered. Enjoy your meal!')).toBeVisible();
    await expect(customer.getByRole('button', { name: 'Order again' })).toBeVisible();
    const timeline = customer.getByLabel('Order timeline');
    for (const state of ['recieved', 'accepted', 'preparing', 'out for delivery', 'delivered'])
      await expect(timeline.getByText(state, { exact: true })).toBeVisible();

    // Delivered: off the Active list, on the Past one; today's takings stay.
    await expect(active).toContainText('No orders yet');
    await cook.getByRole('tab', { name: 'Past' }).click();
    await expect(cook.getByRole('table', { name: 'Past orders of your kitchen' })).toContainText(email);
    await expect(cook.getByText('Today: 1 order · $32.45 taken')).toBeVisible();
  });

  test('the customer cancels before the kitchen accepts; the kitchen sees it leave, live', async ({
    context,
    page: cook,
  }) => {
    const { kitchen, email, dishes } = await setUp(context);
    await cook.goto('/KitchenOrders');
    const active = cook.getByRole('table', { name: 'Orders of your kitchen' });
    await placeOrder(context.request, kitchen.uid, [dishes[0]!]);
    await expect(active).toContainText(email);

    const customer = await context.newPage();
    await customer.goto('/CustomerOrderStatus');
    await customer.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = customer.getByRole('dialog', { name: 'Cancel this order?' });
    await dialog.getByLabel('Reason (optional)').fill('Ordered by mistake');
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect(customer.getByText('This order was cancelled.')).toBeVisible();
    await expect(customer.getByText('Reason: Ordered by mistake')).toBeVisible();
    await expect(active).toContainText('No orders yet');
    await cook.getByRole('tab', { name: 'Past' }).click();
    await expect(cook.getByRole('table', { name: 'Past orders of your kitchen' })).toContainText(
      'cancelled: Ordered by mistake',
    );
  });

  test("'Your orders' lists past orders; 'Order again' fills the cart and names a dish gone since", async ({
    context,
    page,
  }) => {
    const { kitchen, dishes } = await setUp(context);
    const { id } = await placeOrder(context.request, kitchen.uid, [dishes[0]!, dishes[0]!, dishes[1]!]);
    const decline = await context.request.post(`/api/kitchen/orders/${id}/moves`, {
      data: { move: 'decline', reason: 'Closed for a wedding' },
    });
    expect(decline.status()).toBe(200);
    expect((await context.request.delete(`/api/kitchen/menu/${dishes[1]!.id}`)).status()).toBe(204);

    await page.goto('/CustomerOrderStatus');
    await expect(page.getByText('The kitchen declined this order.')).toBeVisible();
    await page.getByRole('link', { name: 'Your orders' }).click();
    await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible();
    const entry = page.getByRole('list', { name: 'Your orders' }).getByRole('listitem').first();
    await expect(entry).toContainText(kitchen.name);
    await expect(entry).toContainText('Dal × 2, Rice');
    await expect(entry).toContainText('$32.45');
    await expect(entry).toContainText('declined');
    await entry.getByRole('button', { name: 'Order again' }).click();
    await expect(page).toHaveURL('/ShoppingCart');
    await expect(page.getByRole('alert').filter({ hasText: 'No longer on the menu: Rice' })).toBeVisible();
    const cart = page.getByRole('list', { name: 'Items in your cart' });
    await expect(cart.getByRole('listitem')).toHaveCount(1);
    await expect(cart).toContainText('Dal');
    await expect(page.getByRole('group', { name: 'Quantity of Dal' })).toContainText('2');
    await expect(cart).not.toContainText('Rice');
  });
});
