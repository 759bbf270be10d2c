import { randomUUID } from 'node:crypto';
import { openAroundTheClock } from './hours.js';
import { axeViolations } from './axe.js';
import type { Page, Route } from '@playwright/test';
import { createKitchenWithOwner, customerSessionCookie, readOrder } from './db.js';
import { expect, test } from './fixtures.js';
import { addMenuItem, signInAsCook } from './cook.js';
import { newPerson } from './sign-in.js';

async function registerKitchen(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
  await page.getByLabel('Name of Kitchen').fill(name);
  await page.getByRole('combobox', { name: 'Category' }).fill('Filipino');
  await page.getByLabel('Address').fill('12 Mango Street');
  await page.getByLabel('Image of your kitchen link').fill('https://images.invalid/kitchen.png');
  await page.getByRole('button', { name: 'Next Step' }).click();
  await openAroundTheClock(page);
}

test.describe('kitchen owner', () => {
  test('registers a kitchen, publishes a menu and runs an order, all live', async ({ browser }) => {
    const cookContext = await browser.newContext();
    const visitorContext = await browser.newContext();
    const customerContext = await browser.newContext();
    const cook = await cookContext.newPage();
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.getByTestId('kitchen-card').first()).toBeVisible();
    const newestBefore = (await visitor.getByTestId('kitchen-card').first().getAttribute('aria-label')) ?? '';

    const person = newPerson('Mila Cook');
    const kitchenName = `Mila's Kusina ${Date.now()}`;
    await signInAsCook(cook, person);
    await registerKitchen(cook, kitchenName);

    // The new kitchen appears on the landing page of another browser, without reload, before every kitchen
    // that was there (other tests add kitchens at the same time, so it is found by name).
    const firstCard = visitor.getByTestId('kitchen-card').filter({ hasText: kitchenName });
    await expect(firstCard).toBeVisible();
    const labels = await visitor
      .getByTestId('kitchen-card')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label') ?? ''));
    expect(labels.findIndex((l) => l.startsWith(`${kitchenName},`))).toBeLessThan(
      labels.indexOf(newestBefore),
    );
    const href = (await firstCard.getAttribute('href')) ?? '';
    const uid = href.split('/').pop() ?? '';
    expect(href).toBe(`/KitchenMenu/${uid}`);
    await firstCard.click();
    await expect(visitor.getByRole('heading', { name: 'Full Menu' })).toBeVisible();
    const publicItems = visitor.getByTestId('menu-item');
    await expect(publicItems).toHaveCount(0);

    // The dashboard, open in a second tab, follows the menu live.
    const dashboard = await cookContext.newPage();
    await dashboard.goto('/MenuDashboard');
    const menuTable = dashboard.getByRole('table', { name: 'Menu of your kitchen' });
    await expect(menuTable).toContainText('Your menu is empty');

    await addMenuItem(cook, 'Chicken Adobo', '11.5', '30 min');
    await addMenuItem(cook, 'Ube Halaya', '4', '10 min');

    const adoboRow = menuTable.getByRole('row', { name: /Chicken Adobo/ });
    await expect(adoboRow).toContainText('$11.50');
    await expect(adoboRow).toContainText('30 min');
    await expect(menuTable.getByRole('row', { name: /Ube Halaya/ })).toContainText('$4.00');
    // ...and so does the public menu page in the other browser.
    await expect(publicItems).toHaveCount(2);
    await expect(publicItems.filter({ hasText: 'Chicken Adobo' })).toContainText('$11.50');
    await expect(publicItems.filter({ hasText: 'Ube Halaya' })).toContainText('$4.00');

    // The orders page is open when a customer places an order through the customer API.
    await dashboard
      .getByRole('navigation', { name: 'Kitchen admin' })
      .getByRole('link', { name: '3 Orders' })
      .click();
    const ordersTable = dashboard.getByRole('table', { name: 'Orders of your kitchen' });
    await expect(ordersTable).toContainText('No orders yet');

    const customerEmail = `customer-${randomUUID()}@e2e.test`;
    await customerContext.addCookies([await customerSessionCookie(customerEmail)]);
    const menu = (await (await customerContext.request.get(`/api/kitchens/${uid}/menu`)).json()) as {
      id: string;
    }[];
    const placed = await customerContext.request.post('/api/orders', {
      data: {
        kitchenUid: uid,
        itemIds: menu.map((m) => m.id),
        address: '77 Delivery Lane',
        idempotencyKey: randomUUID(),
      },
    });
    expect(placed.status()).toBe(201);
    const orderId = ((await placed.json()) as { id: string }).id;
    const customer = await customerContext.newPage();
    await customer.goto('/CustomerOrderStatus');
    await expect(customer.getByRole('heading', { name: `Order Status from ${kitchenName}` })).toBeVisible();
    await expect(customer.getByTestId('order-status')).toHaveText('recieved');

    // It appears at the top of the kitchen's orders, live, marked new and announced.
    const row = ordersTable.getByRole('row').nth(1);
    await expect(row).toContainText(customerEmail);
    await expect(dashboard.getByRole('alert').filter({ hasText: 'New order' })).toBeVisible();
    await expect(row).toContainText('77 Delivery Lane');
    await expect(row).toContainText('recieved');
    await expect(row).toContainText('Chicken Adobo, Ube Halaya');
    await expect(row).toContainText('New');

    // Update: a dialog asks for the status; a quick pick fills it in; the customer sees it without reload.
    await row.getByRole('button', { name: 'Update' }).click();
    const dialog = dashboard.getByRole('dialog', { name: 'Update order status' });
    const statusField = dialog.getByLabel('What is the status of the order?');
    await expect(statusField).toBeFocused();
    await dialog.getByRole('button', { name: 'Out for delivery' }).click();
    await expect(statusField).toHaveValue('Out for delivery');
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Out for delivery');
    await expect(row).not.toContainText('New');
    await expect(customer.getByTestId('order-status')).toHaveText('Out for delivery');

    // Delete asks first; the row then leaves the table; the order is kept, archived, and, deleted in progress,
    // cancelled: the customer's page says so and why, and offers to order again.
    await row.getByRole('button', { name: 'Delete' }).click();
    await dashboard
      .getByRole('dialog', { name: 'Delete this order?' })
      .getByRole('button', { name: 'Delete order' })
      .click();
    await expect(ordersTable.getByRole('row', { name: new RegExp(customerEmail) })).toHaveCount(0);
    await expect(ordersTable).toContainText('No orders yet');
    expect((await readOrder(orderId))?.archivedAt).toBeInstanceOf(Date);
    await expect(customer.getByText('This order was cancelled.')).toBeVisible();
    await expect(customer.getByText('Reason: The kitchen deleted this order')).toBeVisible();
    await expect(customer.getByRole('button', { name: 'Order again' })).toBeVisible();

    await Promise.all([cookContext.close(), visitorContext.close(), customerContext.close()]);
  });

  test('an empty Next Step shows "Please fill all fields" and says which field is missing', async ({
    page,
  }) => {
    await signInAsCook(page, newPerson('Empty Form'));
    await page.getByRole('button', { name: 'Next Step' }).click();
    await expect(page.getByText('Please fill all fields')).toBeVisible();
    await expect(page.getByText('Name of Kitchen is required')).toBeVisible();
    await expect(page.getByLabel('Name of Kitchen')).toHaveAttribute('aria-invalid', 'true');
    // A link that is not http(s) is refused by name, too.
    await page.getByLabel('Name of Kitchen').fill('Almost');
    await page.getByRole('combobox', { name: 'Category' }).fill('Mexican');
    await page.getByLabel('Address').fill('1 Road');
    await page.getByLabel('Image of your kitchen link').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Next Step' }).click();
    await expect(page.getByText('Image of your kitchen link must be an http(s) link')).toBeVisible();
    await expect(page.getByText('Please fill all fields')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
  });

  test('admin pages send visitors to sign in, kitchen-less cooks to step 1, and SIGN OUT goes home', async ({
    page,
  }) => {
    for (const path of ['/MenuDashboard', '/KitchenOrders', '/KitchenRegister']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/AdminSignIn$/);
      await expect(page.getByRole('heading', { name: 'Please Register Yourself' })).toBeVisible();
    }
    await signInAsCook(page, newPerson('No Kitchen'));
    await page.goto('/MenuDashboard');
    await expect(page).toHaveURL(/\/KitchenRegister$/);
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();

    await registerKitchen(page, `Step Nav ${Date.now()}`);
    const nav = page.getByRole('navigation', { name: 'Kitchen admin' });
    await nav.getByRole('link', { name: '1 MENU' }).click();
    await expect(page.getByRole('heading', { name: 'Menu of your kitchen' })).toBeVisible();
    await nav.getByRole('link', { name: '2 ADD TO MENU' }).click();
    // An owner with a kitchen lands on step 2 directly.
    await expect(page.getByRole('heading', { name: 'Add Menu' })).toBeVisible();
    await nav.getByRole('button', { name: '4 SIGN OUT' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/KitchenOrders');
    await expect(page).toHaveURL(/\/AdminSignIn$/);
  });

  // The admin pages, each checked on its own (a page a test, so that one slow machine's minute covers one page).
  const axe = async (page: Page) =>
    (await axeViolations(page)).map(
      (v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );

  test('the sign-in page and a refused first step have no axe-core violations', async ({ page }) => {
    await page.goto('/AdminSignIn');
    await expect(page.getByRole('heading', { name: 'Please Register Yourself' })).toBeVisible();
    expect(await axe(page)).toEqual([]);
    await signInAsCook(page, newPerson('Axe Cook'));
    await page.getByRole('button', { name: 'Next Step' }).click();
    await expect(page.getByText('Please fill all fields')).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });

  test("a cook with a kitchen lands on 'Add Menu', which has no axe-core violations", async ({
    context,
    page,
  }) => {
    const { cookie } = await createKitchenWithOwner(`Axe Kitchen ${randomUUID().slice(0, 8)}`, {
      dishes: [{ item: 'Pancit' }],
    });
    await context.addCookies([cookie]);
    await page.goto('/KitchenRegister');
    await expect(page.getByRole('heading', { name: 'Add Menu' })).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });

  test('the menu dashboard, its reviews on their way and in, and its edit dialog have no axe-core violations', async ({
    context,
    page,
  }) => {
    // Three whole-page axe scans of the cook's biggest screen: on a loaded 2-core machine, more than a minute.
    test.slow();
    const { cookie } = await createKitchenWithOwner(`Axe Kitchen ${randomUUID().slice(0, 8)}`, {
      dishes: [{ item: 'Pancit' }],
    });
    await context.addCookies([cookie]);
    // The reviews come after the menu: axe reads the page while they are still on their way, and once they are in.
    let heldReviews: Route[] | undefined = [];
    await page.route('**/api/kitchens/*/reviews', (route) =>
      heldReviews ? void heldReviews.push(route) : route.continue(),
    );
    await page.goto('/MenuDashboard');
    await expect(page.getByRole('row', { name: /Pancit/ })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading the reviews' })).toBeVisible();
    expect(await axe(page)).toEqual([]);
    const held = heldReviews;
    heldReviews = undefined;
    await Promise.all(held.map((route) => route.continue()));
    await expect(page.getByText('No reviews yet')).toBeVisible();
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Edit Pancit' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit menu item' })).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });

  test('the orders page has no axe-core violations', async ({ context, page }) => {
    const { cookie } = await createKitchenWithOwner(`Axe Orders ${randomUUID().slice(0, 8)}`);
    await context.addCookies([cookie]);
    await page.goto('/KitchenOrders');
    await expect(page.getByRole('table', { name: 'Orders of your kitchen' })).toContainText('No orders yet');
    expect(await axe(page)).toEqual([]);
  });
});
