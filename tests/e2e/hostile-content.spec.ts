import { randomUUID } from 'node:crypto';
import { openAroundTheClock } from './hours.js';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup, type Person } from './sign-in.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

declare global {
  interface Window {
    /** Set by the payloads below if any of them ever runs. */
    __xss?: unknown;
  }
}

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=1</script>';
const JS_LINK = 'javascript:alert(1)';

/** Fails the test on any dialog (alert, confirm, prompt) any page of `context` opens. */
function refuseDialogs(context: BrowserContext): string[] {
  const opened: string[] = [];
  const watch = (page: Page) =>
    page.on('dialog', (dialog) => {
      opened.push(`${dialog.type()} on ${page.url()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  return opened;
}

/**
 * Nothing on the page ran or became markup: no <img src=x>, no script carrying the payload, no javascript: or
 * data: link, and window.__xss unset once every image being fetched has loaded or failed (an onerror would have run
 * by then).
 */
async function expectNothingRan(page: Page, dialogs: string[]) {
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('script', { hasText: '__xss' })).toHaveCount(0);
  await expect(
    page.locator('[href^="javascript:" i], [src^="javascript:" i], [href^="data:" i]'),
  ).toHaveCount(0);
  const xss = await page.evaluate(async () => {
    await Promise.all(
      [...document.images].map((img) =>
        // A lazy picture below the fold is not fetched until scrolled to (with many kitchens, it never is).
        img.complete || img.loading === 'lazy'
          ? Promise.resolve()
          : new Promise((done) => {
              img.addEventListener('load', done, { once: true });
              img.addEventListener('error', done, { once: true });
            }),
      ),
    );
    return window.__xss;
  });
  expect(xss).toBeUndefined();
  expect(dialogs).toEqual([]);
}

async function signInAsCook(page: Page, person: Person) {
  await page.goto('/AdminSignIn');
  await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), person);
  await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
}

async function fillKitchen(page: Page, name: string, imageLink: string) {
  await page.getByLabel('Name of Kitchen').fill(name);
  await page.getByRole('combobox', { name: 'Category' }).fill('Fusion');
  await page.getByLabel('Address').fill('12 Script Street');
  await page.getByLabel('Image of your kitchen link').fill(imageLink);
  await page.getByRole('button', { name: 'Next Step' }).click();
}

async function fillMenuItem(page: Page, item: string, imageLink: string) {
  await page.getByRole('textbox', { name: 'Item', exact: true }).fill(item);
  await page.getByLabel('Image of your Item Link').fill(imageLink);
  await page.getByLabel('Price').fill('7.25');
  await page.getByLabel('Wait Time').fill('15 min');
  await page.getByRole('button', { name: 'Answer No to the ones left' }).click();
  await page.getByRole('button', { name: 'Add Menu' }).click();
}

test.describe('script-like content', () => {
  test('kitchen names, item names, statuses, addresses, names and chat messages show as text and run nothing', async ({
    browser,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const kitchenName = `${IMG} ${JS_LINK} ${tag}`;
    const itemName = `${SCRIPT}${JS_LINK} ${tag}`;
    const status = `${IMG}${JS_LINK}`;
    const address = `${IMG} 1 Road ${tag}`;
    const chatText = `${SCRIPT}${IMG} ${JS_LINK} ${tag}`;
    const customerPerson = { ...newPerson('Eve'), name: `Eve ${IMG}` };

    const cookContext = await browser.newContext();
    const customerContext = await browser.newContext();
    const dialogs = [cookContext, customerContext].map(refuseDialogs);
    const allDialogs = () => dialogs.flat();
    const cook = await cookContext.newPage();
    const customer = await customerContext.newPage();

    // The cook registers the kitchen and adds the dish through the screens.
    await signInAsCook(cook, newPerson('Mallory Cook'));
    await fillKitchen(cook, kitchenName, 'https://images.invalid/kitchen.png');
    await openAroundTheClock(cook);
    await expect(cook.getByRole('heading', { name: 'Add Menu' })).toBeVisible();
    await fillMenuItem(cook, itemName, 'https://images.invalid/dish.png');
    await expect(cook.getByRole('textbox', { name: 'Item', exact: true })).toHaveValue('');

    // Landing page: the kitchen's card shows its name as text.
    await customer.goto('/');
    const card = customer.getByTestId('kitchen-card').filter({ hasText: tag });
    await expect(card.getByRole('heading', { name: kitchenName, exact: true })).toBeVisible();
    await expectNothingRan(customer, allDialogs());

    // The kitchen's menu page: its name and the dish's name.
    await card.click();
    await expect(customer).toHaveURL(/\/KitchenMenu\/[0-9a-f-]{36}$/);
    await expect(customer.getByRole('heading', { level: 1, name: kitchenName, exact: true })).toBeVisible();
    const dish = customer.getByTestId('menu-item').filter({ hasText: tag });
    await expect(dish.getByRole('heading', { name: itemName, exact: true })).toBeVisible();
    await expectNothingRan(customer, allDialogs());

    // The customer orders it through the cart, signing in on the way, with a script-like address.
    await customer.getByRole('button', { name: `Add ${itemName} to cart` }).click();
    await customer.getByRole('link', { name: 'Cart (1)' }).click();
    await expect(customer).toHaveURL('/CustomerSignIn');
    await signInWithPopup(
      customer,
      customer.getByRole('button', { name: 'Sign in with Google' }),
      customerPerson,
    );
    await expect(customer).toHaveURL('/ShoppingCart');
    await expect(customer.getByText(`Signed in as ${customerPerson.name}`, { exact: true })).toBeVisible();
    await expect(
      customer.getByRole('list', { name: 'Items in your cart' }).getByText(itemName, { exact: true }),
    ).toBeVisible();
    await customer.getByRole('combobox', { name: 'Delivery address' }).fill(address);
    await customer.getByRole('button', { name: 'Submit order' }).click();
    await expect(customer.getByText('Your Order is sent')).toBeVisible();
    await expectNothingRan(customer, allDialogs());

    // The kitchen's orders: the address and dish as text; the status set through the dialog.
    await cook.goto('/KitchenOrders');
    const row = cook
      .getByRole('table', { name: 'Orders of your kitchen' })
      .getByRole('row')
      .filter({ hasText: address });
    await expect(row.getByRole('cell', { name: address, exact: true })).toBeVisible();
    // The order's details: its dishes, and under them how it is paid.
    await expect(row.getByRole('cell').getByText(itemName, { exact: true })).toBeVisible();
    await row.getByRole('button', { name: 'Update' }).click();
    const dialog = cook.getByRole('dialog', { name: 'Update order status' });
    await dialog.getByLabel('What is the status of the order?').fill(status);
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole('cell', { name: status, exact: true })).toBeVisible();
    await cook.reload();
    await expect(row.getByRole('cell', { name: status, exact: true })).toBeVisible();
    await expectNothingRan(cook, allDialogs());

    // The menu dashboard: the dish in the table, the kitchen's name in its details form.
    await cook.goto('/MenuDashboard');
    const menuTable = cook.getByRole('table', { name: 'Menu of your kitchen' });
    await expect(menuTable.getByRole('cell', { name: itemName, exact: true })).toBeVisible();
    await expect(cook.getByLabel('Name of Kitchen')).toHaveValue(kitchenName);
    await expectNothingRan(cook, allDialogs());

    // The customer's order status: kitchen name, status, dish and address, all as text.
    await customer.goto('/CustomerOrderStatus');
    await expect(
      customer.getByRole('heading', { name: `Order Status from ${kitchenName}`, exact: true }),
    ).toBeVisible();
    await expect(customer.getByTestId('order-status')).toHaveText(status);
    await expect(
      customer.getByRole('list', { name: 'Items of your order' }).getByText(itemName, { exact: true }),
    ).toBeVisible();
    await expect(customer.getByText(`Delivering to ${address}`, { exact: true })).toBeVisible();
    await expectNothingRan(customer, allDialogs());

    // The chat room: the customer's message and script-like name, seen by both.
    await customer.goto('/Chatroom');
    const input = customer.getByRole('textbox', { name: 'Message' });
    await input.fill(chatText);
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await cook.goto('/Chatroom');
    for (const page of [customer, cook]) {
      const message = page.getByTestId('chat-message').filter({ hasText: tag });
      await expect(message.getByText(chatText, { exact: true })).toBeVisible();
      await expect(message).toContainText(customerPerson.name);
      await expectNothingRan(page, allDialogs());
    }

    await Promise.all([cookContext.close(), customerContext.close()]);
  });

  test('javascript: and data: picture links are refused by the forms, with a message on the field', async ({
    page,
  }) => {
    const dialogs = refuseDialogs(page.context());
    const hostileLinks = [JS_LINK, 'data:text/html,<script>alert(1)</script>', ' JavaScript:alert(1)'];
    await signInAsCook(page, newPerson('Link Tester'));

    const kitchenLink = page.getByLabel('Image of your kitchen link');
    for (const link of hostileLinks) {
      await fillKitchen(page, `Links ${randomUUID().slice(0, 8)}`, link);
      await expect(kitchenLink).toHaveAttribute('aria-invalid', 'true');
      await expect(kitchenLink).toHaveAccessibleDescription(
        /Image of your kitchen link must be an http\(s\) link/,
      );
      await expect(page.getByText('Please fill all fields')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
    }
    await fillKitchen(page, `Links ${randomUUID().slice(0, 8)}`, 'https://images.invalid/kitchen.png');
    await expect(page.getByRole('heading', { name: 'Add Menu' })).toBeVisible();

    const itemLink = page.getByLabel('Image of your Item Link');
    for (const link of hostileLinks) {
      await fillMenuItem(page, 'Dal', link);
      await expect(itemLink).toHaveAttribute('aria-invalid', 'true');
      await expect(itemLink).toHaveAccessibleDescription(/Image of your Item Link must be an http\(s\) link/);
      await expect(page.getByRole('textbox', { name: 'Item', exact: true })).toHaveValue('Dal');
    }

    // Editing the kitchen's details refuses them too.
    await page.goto('/MenuDashboard');
    const detailsLink = page.getByLabel('Image of your kitchen link');
    await expect(detailsLink).toHaveValue('https://images.invalid/kitchen.png');
    for (const link of hostileLinks) {
      await detailsLink.fill(link);
      await page.getByRole('button', { name: 'Save details' }).click();
      await expect(detailsLink).toHaveAccessibleDescription(
        /Image of your kitchen link must be an http\(s\) link/,
      );
    }

    // The server refuses them as well when the form is bypassed, naming the field; nothing was saved.
    for (const link of hostileLinks) {
      const kitchen = await page.request.patch('/api/kitchen', { data: { imageLink: link } });
      expect(kitchen.status()).toBe(400);
      expect(await kitchen.json()).toMatchObject({ field: 'imageLink' });
      const item = await page.request.post('/api/kitchen/menu', {
        data: { item: 'Dal', imageLink: link, price: '1.00', wait: '5 min', allergenAnswers: answersWith() },
      });
      expect(item.status()).toBe(400);
      expect(await item.json()).toMatchObject({ field: 'imageLink' });
    }
    const own = (await (await page.request.get('/api/kitchen')).json()) as { uid: string; imageLink: string };
    expect(own.imageLink).toBe('https://images.invalid/kitchen.png');
    const menu = (await (await page.request.get(`/api/kitchens/${own.uid}/menu`)).json()) as unknown[];
    expect(menu).toEqual([]);
    await expectNothingRan(page, dialogs);
  });
});
