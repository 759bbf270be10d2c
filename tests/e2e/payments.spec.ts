import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { expect, test } from './fixtures.js';
import { privateServer, type PrivateServer } from './private-server.js';
import { axeViolations } from './axe.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

/**
 * Money, through the `local` provider (PAYMENTS=local: our own server speaking Stripe's API, its /dev-pay pages and
 * its signed events), on a server of this file's own with the demo kitchens (payouts on; every other one takes cash).
 */
test.describe.configure({ mode: 'serial' });

let server: PrivateServer;
test.beforeAll(async () => {
  server = await privateServer({
    env: { PAYMENTS: 'local', SEED_DEMO: 'true', OPERATOR_EMAILS: 'operator@e2e.test' },
    name: 'payments',
  });
  await server.start();
});
test.afterAll(async () => server?.dispose());

const at = (path: string) => `${server.url}${path}`;

async function signIn(context: BrowserContext, role: 'customer' | 'kitchen') {
  const email = `${role}-${randomUUID()}@e2e.test`;
  await context.addCookies([await server.sessionCookie(role, email)]);
  return email;
}

/** A customer with one dish of a demo kitchen in the cart, at checkout with an address. */
async function atCheckout(page: Page, kitchen: RegExp, dish: string) {
  await signIn(page.context(), 'customer');
  await page.goto(at('/'));
  await page.getByRole('link', { name: kitchen }).click();
  await expect(page.getByText('Pay by card or cash on delivery')).toBeVisible();
  await page.getByRole('button', { name: `Add ${dish} to cart` }).click();
  await page.getByRole('link', { name: 'Cart (1)' }).click();
  await page.getByRole('combobox', { name: 'Delivery address' }).fill('12 Payment Street');
}

async function payWith(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
}

test('pays by card on the payment page; a declined card leaves the cart as it was', async ({ page }) => {
  await atCheckout(page, /Asha's Tiffin/, 'Paneer Butter Masala');
  await expect(page.getByRole('radio', { name: 'Pay by card' })).toBeChecked();
  await page.getByRole('button', { name: 'Submit order' }).click();
  await expect(page).toHaveURL(/\/dev-pay\/checkout\/cs_/);
  await expect(page.getByRole('button', { name: 'Pay $22.45' })).toBeVisible();

  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toHaveText('Your card was declined');
  await page.getByRole('link', { name: 'Back to the shop' }).click();
  await expect(page).toHaveURL(at('/ShoppingCart'));
  await expect(page.getByRole('alert')).toContainText('Your payment was not completed');
  await expect(page.getByRole('list', { name: 'Items in your cart' }).getByRole('listitem')).toHaveCount(1);

  await page.getByRole('combobox', { name: 'Delivery address' }).fill('12 Payment Street');
  await page.getByRole('button', { name: 'Submit order' }).click();
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByText('Your Order is sent')).toBeVisible();
  await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('recieved');
  await expect(page.getByTestId('order-payment')).toHaveText(
    'Card payment authorised: charged when the kitchen accepts',
  );
  expect(await axeViolations(page)).toEqual([]);
});

test('asks for a confirmation step first with 4000 0025 0000 3155', async ({ page }) => {
  await atCheckout(page, /Asha's Tiffin/, 'Paneer Butter Masala');
  await page.getByRole('button', { name: 'Submit order' }).click();
  await payWith(page, '4000 0025 0000 3155');
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Your Order is sent')).toBeVisible();
});

test('cash on delivery goes straight to the kitchen', async ({ page }) => {
  // The first demo kitchen takes cash too.
  await atCheckout(page, /Asha's Tiffin/, 'Paneer Butter Masala');
  await page.getByRole('radio', { name: 'Cash on delivery' }).check();
  await page.getByRole('button', { name: 'Submit order' }).click();
  await expect(page.getByText('Your Order is sent')).toBeVisible();
  await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
  await expect(page.getByTestId('order-payment')).toHaveText(
    'Cash on delivery: pay the cook when it arrives',
  );
});

test('a cook sets up payouts, accepts a card order (captured) and cancels it (refunded, both sides see it)', async ({
  browser,
}) => {
  const cookContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const cook = await cookContext.newPage();
  await signIn(cookContext, 'kitchen');
  const name = `Payout Kitchen ${randomUUID().slice(0, 6)}`;
  const registered = await cookContext.request.post(at('/api/kitchen'), {
    data: {
      name,
      category: 'Home',
      address: '5 Payout Road',
      imageLink: 'https://images.invalid/k.png',
      hours: ALL_DAY_HOURS,
    },
  });
  expect(registered.status()).toBe(201);
  const dish = await cookContext.request.post(at('/api/kitchen/menu'), {
    data: {
      item: 'Dal',
      price: '9.50',
      wait: '20 min',
      imageLink: 'https://images.invalid/dal.png',
      allergenAnswers: answersWith(),
    },
  });
  expect(dish.status()).toBe(201);

  await cook.goto(at('/MenuDashboard'));
  const getPaid = cook.getByRole('region', { name: 'Get paid' });
  // What selling costs the cook is said before they set payouts up (and at sign-up): the deployment's share.
  await expect(getPaid.getByTestId('fees-note')).toHaveText(
    /on a card order the platform keeps \d+(\.\d+)? % of your dishes' price, and the delivery fee comes to you whole/,
  );
  await expect(getPaid.getByTestId('payout-state')).toHaveText('Set up payouts');
  await getPaid.getByRole('button', { name: 'Set up payouts' }).click();
  await cook.getByRole('button', { name: 'Activate payouts' }).click();
  await expect(cook).toHaveURL(at('/MenuDashboard'));
  await expect(getPaid.getByTestId('payout-state')).toHaveText('Payouts on');
  // Saved on the server first: the switch shows what the server holds.
  await getPaid.getByRole('switch', { name: 'Accept cash on delivery' }).click();
  await expect(getPaid.getByRole('switch', { name: 'Accept cash on delivery' })).toBeChecked();
  await cook.screenshot({ path: test.info().outputPath('get-paid-390.png'), fullPage: true });

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signIn(customerContext, 'customer');
  await customer.goto(at('/'));
  await customer.getByRole('link', { name: new RegExp(name) }).click();
  await customer.getByRole('button', { name: 'Add Dal to cart' }).click();
  await customer.getByRole('link', { name: 'Cart (1)' }).click();
  await customer.getByRole('combobox', { name: 'Delivery address' }).fill('7 Refund Road');
  await customer.getByRole('button', { name: 'Submit order' }).click();
  await payWith(customer, '4242424242424242');
  await expect(customer.getByText('Your Order is sent')).toBeVisible();
  await customer.goto(at('/CustomerOrderStatus'));

  await cook.goto(at('/KitchenOrders'));
  const order = cook.getByRole('listitem').filter({ hasText: '7 Refund Road' });
  await expect(order).toContainText('Card payment authorised');
  await order.getByRole('button', { name: 'Accept' }).click();
  const accept = cook.getByRole('dialog', { name: 'Accept this order' });
  await accept.getByText('30 min').click();
  await accept.getByRole('button', { name: 'Accept order', exact: true }).click();
  await expect(order).toContainText('Paid by card');
  await expect(customer.getByTestId('order-payment')).toHaveText('Paid by card');

  await order.getByRole('button', { name: 'Cancel', exact: true }).click();
  const cancel = cook.getByRole('dialog', { name: 'Cancel this order' });
  await cancel.getByLabel('Reason').fill('The oven broke');
  await cancel.getByRole('button', { name: 'Cancel order', exact: true }).click();
  await expect(customer.getByTestId('order-payment')).toHaveText('Refunded to your card');
  await expect(customer.getByText('Reason: The oven broke')).toBeVisible();
  await cook.getByRole('tab', { name: 'Past' }).click();
  await expect(cook.getByTestId('order-card').filter({ hasText: '7 Refund Road' })).toContainText(
    'Refunded to the customer',
  );
  // The cook's earnings show the paid order with its refund: $19.95 taken and given back, nothing earned.
  await cook.getByRole('link', { name: 'Earnings' }).click();
  await expect(cook.getByRole('heading', { name: 'Earnings', level: 1 })).toBeVisible();
  await expect(cook.getByText('1 paid order: you earned $0.00.', { exact: false })).toBeVisible();
  await expect(cook.getByRole('list', { name: 'Paid orders' })).toContainText('refunded $19.95');
  expect(await axeViolations(cook)).toEqual([]);
  await cookContext.close();
  await customerContext.close();
});

test("the operator's Money tab shows the refund and no difference with the provider", async ({ page }) => {
  await page.context().addCookies([await server.sessionCookie('operator', 'operator@e2e.test')]);
  await page.goto(at('/Operator'));
  await page.getByRole('tab', { name: 'Money' }).click();
  await expect(page.getByText('No differences found')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Latest refunds' })).toContainText('$19.95');
  expect(await axeViolations(page)).toEqual([]);
});

test("a promotion code in the cart: 'Apply' shows what it takes off, and the card is charged the rest", async ({
  page,
  browser,
}) => {
  // The operator makes a platform code ($5.00 off, the platform pays).
  const operator = await browser.newContext();
  await operator.addCookies([await server.sessionCookie('operator', 'operator@e2e.test')]);
  const code = `CART${randomUUID().slice(0, 6).toUpperCase()}`;
  const made = await operator.request.post(at('/api/operator/codes'), {
    data: { code, amountOffCents: 500 },
  });
  expect(made.status()).toBe(201);
  await operator.close();

  await atCheckout(page, /Asha's Tiffin/, 'Paneer Butter Masala');
  const field = page.getByRole('textbox', { name: 'Promotion code' });
  await field.fill(` ${code.toLowerCase()} `);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('cart-code')).toHaveText(`Code ${code}: −$5.00`);
  await expect(page.getByTestId('cart-total')).toHaveText('$17.45');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Submit order' }).click();
  await expect(page.getByRole('button', { name: 'Pay $17.45' })).toBeVisible();
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByText('Your Order is sent')).toBeVisible();
  await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
  await expect(page.getByTestId('order-code')).toHaveText(`Code ${code}: −$5.00`);
});
