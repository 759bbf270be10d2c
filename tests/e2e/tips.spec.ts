import { randomUUID } from 'node:crypto';
import type { BrowserContext } from '@playwright/test';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import type { CustomerOrder } from '../../src/shared/orders.js';
import { expect, test } from './fixtures.js';
import { deliverOrder } from './kitchen-moves.js';
import { privateServer, type PrivateServer } from './private-server.js';
import { axeViolations } from './axe.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

/**
 * Tips for the cook through the `local` provider (PAYMENTS=local), on a server of this file's own: one chosen at
 * checkout, paid with the order, and one after delivery, a card payment of its own; the cook's Earnings shows both
 * whole (no platform fee on them).
 */
let server: PrivateServer;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await privateServer({ env: { PAYMENTS: 'local' }, name: 'tips' });
  await server.start();
});
test.afterAll(async () => server?.dispose());

const at = (path: string) => `${server.url}${path}`;

async function signIn(context: BrowserContext, role: 'customer' | 'kitchen') {
  await context.addCookies([await server.sessionCookie(role, `${role}-${randomUUID()}@e2e.test`)]);
}

test('a tip at checkout and one after delivery reach the cook’s Earnings whole; a report closed without a refund', async ({
  browser,
}) => {
  // Two people, two payment pages and four moves: longer than one minute on a busy machine.
  test.setTimeout(180_000);
  const cookContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const cook = await cookContext.newPage();
  await signIn(cookContext, 'kitchen');
  const name = `Tip Kitchen ${randomUUID().slice(0, 6)}`;
  const kitchen = await cookContext.request.post(at('/api/kitchen'), {
    data: {
      name,
      category: 'Home',
      address: '5 Tip Road',
      imageLink: 'https://images.invalid/k.png',
      hours: ALL_DAY_HOURS,
    },
  });
  expect(kitchen.status()).toBe(201);
  const dish = await cookContext.request.post(at('/api/kitchen/menu'), {
    data: {
      item: 'Lamb Biryani',
      price: '11.75',
      wait: '20 min',
      imageLink: 'https://images.invalid/dish.png',
      allergenAnswers: answersWith(),
    },
  });
  expect(dish.status()).toBe(201);
  await cook.goto(at('/MenuDashboard'));
  const getPaid = cook.getByRole('region', { name: 'Get paid' });
  await getPaid.getByRole('button', { name: 'Set up payouts' }).click();
  await cook.getByRole('button', { name: 'Activate payouts' }).click();
  await expect(getPaid.getByTestId('payout-state')).toHaveText('Payouts on');
  // Tips are on unless the cook turns them off.
  await expect(getPaid.getByRole('switch', { name: 'Accept tips' })).toBeChecked();

  const customerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const customer = await customerContext.newPage();
  await signIn(customerContext, 'customer');
  await customer.goto(at('/'));
  await customer.getByRole('link', { name: new RegExp(name) }).click();
  await customer.getByRole('button', { name: 'Add Lamb Biryani to cart' }).click();
  await customer.getByRole('link', { name: 'Cart (1)' }).click();
  await customer.getByRole('combobox', { name: 'Delivery address' }).fill('3 Grateful Lane');
  // 'Tip for the cook': another amount, 2.00, added to the total (11.75 + 2.99 + 7.46 + 2.00).
  const tips = customer.getByRole('radiogroup', { name: 'Tip for the cook' });
  await tips.getByRole('radio', { name: 'Other amount' }).check();
  await customer.getByLabel('Tip amount').fill('2.00');
  await expect(customer.getByTestId('cart-total')).toHaveText('$24.20');
  expect(await axeViolations(customer)).toEqual([]);
  await customer.getByRole('button', { name: 'Submit order' }).click();
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry').fill('12/34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByRole('button', { name: 'Pay $24.20' }).click();
  await expect(customer.getByText('Your Order is sent')).toBeVisible();
  const order = (await (await customerContext.request.get(at('/api/orders/mine'))).json()) as CustomerOrder;
  expect(order.tipCents).toBe(200);

  await deliverOrder(cookContext.request, order.id, at);

  // After delivery: 'Tip the cook', $5.00, a payment of its own.
  await customer.goto(at('/CustomerOrderStatus'));
  const tipCard = customer.getByRole('region', { name: 'Tip the cook' });
  await expect(tipCard.getByText('You tipped $2.00 with your order.')).toBeVisible();
  await tipCard.getByRole('button', { name: 'Tip the cook' }).click();
  await tipCard.getByRole('radio', { name: '$5.00' }).check();
  expect(await axeViolations(customer)).toEqual([]);
  await tipCard.getByRole('button', { name: 'Pay $5.00 tip' }).click();
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry').fill('12/34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByRole('button', { name: 'Pay $5.00' }).click();
  await customer.waitForURL(/\/CustomerOrders/);
  await expect(customer.getByText('You tipped $5.00. Thank you!')).toBeVisible();

  // The cook's Earnings: both tips, whole, on the order's line.
  await cook.goto(at('/Earnings'));
  await expect(cook.getByRole('heading', { name: 'Earnings', level: 1 })).toBeVisible();
  await expect(cook.getByRole('list', { name: 'Paid orders' })).toContainText('Tip $7.00, yours whole');
  expect(await axeViolations(cook)).toEqual([]);

  // A problem the cook closes without a refund, saying why: the customer reads it.
  await customer.goto(at('/CustomerOrderStatus'));
  await customer.getByRole('button', { name: 'Report a problem' }).click();
  const report = customer.getByRole('dialog', { name: 'Report a problem' });
  await report.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' }).check();
  await report.getByRole('radio', { name: 'Arrived cold or spilled' }).check();
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();
  await cook.goto(at('/KitchenOrders'));
  await cook.getByRole('tab', { name: 'Past' }).click();
  const card = cook.getByTestId('order-card').filter({ hasText: '3 Grateful Lane' });
  await card.getByRole('button', { name: 'Close without refund' }).click();
  const closing = cook.getByRole('dialog', { name: 'Close this report without a refund' });
  await closing.getByLabel('Why (the customer reads this)').fill('It left here hot; the rider was quick');
  expect(await axeViolations(cook)).toEqual([]);
  await closing.getByRole('button', { name: 'Close the report' }).click();
  await expect(closing).toBeHidden();
  await expect(customer.getByText('The kitchen says: It left here hot; the rider was quick')).toBeVisible();
  expect(await axeViolations(customer)).toEqual([]);
  await cookContext.close();
  await customerContext.close();
});
