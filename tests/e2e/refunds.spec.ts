import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext } from '@playwright/test';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import type { CustomerOrder } from '../../src/shared/orders.js';
import { expect, test } from './fixtures.js';
import { deliverOrder } from './kitchen-moves.js';
import { privateServer, type PrivateServer } from './private-server.js';
import { axeViolations } from './axe.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';
import { makePicture } from '../../src/server/test/test-images.js';

/**
 * A part of a delivered card order given back, through the `local` provider (PAYMENTS=local), on a server of this
 * file's own: the cook refunds a dish from the order's card, the customer reads what came back to their card, and the
 * cook's earnings show it.
 */
let server: PrivateServer;
/** The operator this file's server lists. */
const OPERATOR = 'operator-refunds@e2e.test';
test.beforeAll(async () => {
  // A server of its own, migrated and started on a busy machine: more than the default minute at times.
  test.setTimeout(180_000);
  server = await privateServer({ env: { PAYMENTS: 'local', OPERATOR_EMAILS: OPERATOR }, name: 'refunds' });
  await server.start();
});
test.afterAll(async () => server?.dispose());

const at = (path: string) => `${server.url}${path}`;

async function signIn(context: BrowserContext, role: 'customer' | 'kitchen') {
  await context.addCookies([await server.sessionCookie(role, `${role}-${randomUUID()}@e2e.test`)]);
}

/**
 * A kitchen with Lamb Biryani (11.75) and Raita (3.00), payouts on; a customer's card order of both, paid on the
 * payment page and taken by the kitchen all the way to `address`; the customer's page shows it paid.
 */
async function deliveredCardOrder(browser: Browser, address: string) {
  const cookContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const cook = await cookContext.newPage();
  await signIn(cookContext, 'kitchen');
  const name = `Refund Kitchen ${randomUUID().slice(0, 6)}`;
  const kitchen = await cookContext.request.post(at('/api/kitchen'), {
    data: {
      name,
      category: 'Home',
      address: '5 Refund Road',
      imageLink: 'https://images.invalid/k.png',
      hours: ALL_DAY_HOURS,
    },
  });
  expect(kitchen.status()).toBe(201);
  for (const [item, price] of [
    ['Lamb Biryani', '11.75'],
    ['Raita', '3.00'],
  ] as const) {
    const dish = await cookContext.request.post(at('/api/kitchen/menu'), {
      data: {
        item,
        price,
        wait: '20 min',
        imageLink: 'https://images.invalid/dish.png',
        allergenAnswers: answersWith(),
      },
    });
    expect(dish.status()).toBe(201);
  }
  await cook.goto(at('/MenuDashboard'));
  const getPaid = cook.getByRole('region', { name: 'Get paid' });
  await getPaid.getByRole('button', { name: 'Set up payouts' }).click();
  await cook.getByRole('button', { name: 'Activate payouts' }).click();
  await expect(getPaid.getByTestId('payout-state')).toHaveText('Payouts on');

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signIn(customerContext, 'customer');
  await customer.goto(at('/'));
  await customer.getByRole('link', { name: new RegExp(name) }).click();
  await customer.getByRole('button', { name: 'Add Lamb Biryani to cart' }).click();
  await customer.getByRole('button', { name: 'Add Raita to cart' }).click();
  await customer.getByRole('link', { name: 'Cart (2)' }).click();
  await customer.getByRole('combobox', { name: 'Delivery address' }).fill(address);
  await customer.getByRole('button', { name: 'Submit order' }).click();
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  const payPage = customer.url();
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry').fill('12/34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(customer.getByText('Your Order is sent')).toBeVisible();
  const order = (await (await customerContext.request.get(at('/api/orders/mine'))).json()) as CustomerOrder;

  // The kitchen takes it all the way to the door (its moves, as its buttons make them).
  await deliverOrder(cookContext.request, order.id, at);
  await customer.goto(at('/CustomerOrderStatus'));
  await expect(customer.getByTestId('order-payment')).toHaveText('Paid by card');

  return { cookContext, cook, customerContext, customer, order, payPage, name };
}

test('the cook refunds a missing dish of a delivered order; the customer sees it back on their card', async ({
  browser,
}) => {
  // Two people, a payment page and four moves: longer than one minute on a busy machine.
  test.setTimeout(180_000);
  const { cookContext, cook, customerContext, customer } = await deliveredCardOrder(
    browser,
    '9 Missing Dish Lane',
  );

  await cook.goto(at('/KitchenOrders'));
  await cook.getByRole('tab', { name: 'Past' }).click();
  const card = cook.getByTestId('order-card').filter({ hasText: '9 Missing Dish Lane' });
  await card.getByRole('button', { name: 'Refund dishes' }).click();
  const dialog = cook.getByRole('dialog', { name: 'Refund part of this order' });
  await dialog.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' }).check();
  await dialog.getByLabel('Reason').fill('Missing from the bag');
  expect(await axeViolations(cook)).toEqual([]);
  await dialog.getByRole('button', { name: 'Refund $11.75' }).click();
  await expect(dialog).toBeHidden();

  // The customer's open page hears of it.
  await expect(customer.getByText('Refunded $11.75 to your card')).toBeVisible();
  expect(await axeViolations(customer)).toEqual([]);

  await cook.getByRole('link', { name: 'Earnings' }).click();
  await expect(cook.getByRole('heading', { name: 'Earnings', level: 1 })).toBeVisible();
  await expect(cook.getByRole('list', { name: 'Paid orders' })).toContainText('refunded $11.75');
  await cookContext.close();
  await customerContext.close();
});

test('a customer reports a missing dish with a photo; the cook refunds that dish; both see the refund', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { cookContext, cook, customerContext, customer } = await deliveredCardOrder(
    browser,
    '7 Photo Proof Lane',
  );

  // The customer reports it, with a photo of what came.
  await customer.getByRole('button', { name: 'Report a problem' }).click();
  const report = customer.getByRole('dialog', { name: 'Report a problem' });
  await report.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' }).check();
  await report.getByRole('radio', { name: 'Missing' }).check();
  await report.getByLabel('Tell the kitchen what happened').fill('The biryani was not in the bag');
  const chooser = customer.waitForEvent('filechooser');
  await report.getByRole('button', { name: 'Add a photo' }).click();
  await (
    await chooser
  ).setFiles({ name: 'bag.jpg', mimeType: 'image/jpeg', buffer: await makePicture('jpeg', 640, 480) });
  await expect(report.getByRole('img', { name: 'Photo 1 of the problem' })).toBeVisible();
  expect(await axeViolations(customer)).toEqual([]);
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();
  const reported = customer.getByRole('alert').filter({ hasText: 'You reported a problem' });
  await expect(reported).toContainText('Missing: Lamb Biryani');

  // The cook sees it on the order, with the photo, and refunds the dish it names (chosen already).
  await cook.goto(at('/KitchenOrders'));
  await cook.getByRole('tab', { name: 'Past' }).click();
  const card = cook.getByTestId('order-card').filter({ hasText: '7 Photo Proof Lane' });
  const problem = card.getByRole('group', { name: 'Problem reported' });
  await expect(problem).toContainText('Missing: Lamb Biryani');
  await expect(problem).toContainText('The biryani was not in the bag');
  await expect(problem.getByRole('img', { name: 'Photo 1 of the problem' })).toHaveJSProperty(
    'complete',
    true,
  );
  await expect
    .poll(() =>
      problem
        .getByRole('img', { name: 'Photo 1 of the problem' })
        .evaluate((el: HTMLImageElement) => el.naturalWidth),
    )
    .toBeGreaterThan(0);
  expect(await axeViolations(cook)).toEqual([]);
  await card.getByRole('button', { name: 'Refund dishes' }).click();
  const dialog = cook.getByRole('dialog', { name: 'Refund part of this order' });
  await expect(dialog.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Raita · $3.00' })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Refund $11.75' }).click();
  await expect(dialog).toBeHidden();
  await expect(problem).toBeHidden();

  // The customer's open page hears of it: the money back, the report answered.
  await expect(customer.getByText('Refunded $11.75 to your card')).toBeVisible();
  await expect(reported).toBeHidden();
  expect(await axeViolations(customer)).toEqual([]);

  await cook.getByRole('link', { name: 'Earnings' }).click();
  await expect(cook.getByRole('heading', { name: 'Earnings', level: 1 })).toBeVisible();
  await expect(cook.getByRole('list', { name: 'Paid orders' })).toContainText('refunded $11.75');
  await cookContext.close();
  await customerContext.close();
});

test("'Made me ill' reaches the operators, who refund the dishes at the platform's cost", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { cookContext, customerContext, customer } = await deliveredCardOrder(browser, '3 Queasy Street');
  await customer.getByRole('button', { name: 'Report a problem' }).click();
  const report = customer.getByRole('dialog', { name: 'Report a problem' });
  await report.getByRole('checkbox', { name: 'Raita · $3.00' }).check();
  await report.getByRole('radio', { name: 'Made me ill' }).check();
  await expect(report.getByText('We also pass this on to our food safety team')).toBeVisible();
  await report.getByLabel('Tell the kitchen what happened').fill('Sick all night after the raita');
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();

  const operatorContext = await browser.newContext();
  await operatorContext.addCookies([await server.sessionCookie('operator', OPERATOR)]);
  const operator = await operatorContext.newPage();
  await operator.goto(at('/Operator'));
  // The food-safety complaint is an open report of the kitchen.
  await expect(operator.getByRole('region', { name: 'Open reports' })).toContainText(
    'Sick all night after the raita',
  );
  await operator.getByRole('tab', { name: 'Problems' }).click();
  const problem = operator.getByRole('listitem').filter({ hasText: 'Sick all night after the raita' });
  await expect(problem).toContainText('Made me ill: Raita');
  await problem.getByRole('button', { name: 'Decide' }).click();
  const dialog = operator.getByRole('dialog', { name: 'Refund the reported dishes' });
  await dialog.getByRole('radio', { name: 'The platform (the kitchen keeps its payout)' }).check();
  expect(await axeViolations(operator)).toEqual([]);
  await dialog.getByRole('button', { name: 'Refund $3.00' }).click();
  await expect(dialog).toBeHidden();
  await expect(operator.getByText('No open problem reports.')).toBeVisible();

  await expect(customer.getByText('Refunded $3.00 to your card')).toBeVisible();
  await operatorContext.close();
  await cookContext.close();
  await customerContext.close();
});

test("the cardholder disputes the payment on /dev-pay; both sides see the dispute and the bank's decision", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { cookContext, cook, customerContext, customer, payPage, name } = await deliveredCardOrder(
    browser,
    '11 Chargeback Close',
  );
  expect(payPage).toContain('/dev-pay/checkout/cs_');
  const bank = await customerContext.newPage();
  await bank.goto(payPage);
  await expect(bank.getByRole('heading', { name: 'This order is paid' })).toBeVisible();
  await bank.getByRole('button', { name: 'Dispute this payment' }).click();
  await expect(bank.getByRole('heading', { name: /^Disputed: \$\d+\.\d{2}$/ })).toBeVisible();
  await expect(bank.getByText('needs response', { exact: true })).toBeVisible();
  expect(await axeViolations(bank)).toEqual([]);

  // The customer's order page and the cook's order hear of it, the cook with the deadline for evidence.
  await expect(
    customer.getByText(/^You disputed \$\d+\.\d{2} of this payment with your bank$/),
  ).toBeVisible();
  await cook.goto(at('/KitchenOrders'));
  await cook.getByRole('tab', { name: 'Past' }).click();
  const card = cook.getByTestId('order-card').filter({ hasText: '11 Chargeback Close' });
  await expect(card.getByRole('note')).toHaveText(
    /^Payment disputed by the customer’s bank: \$\d+\.\d{2}, evidence due by .+$/,
  );
  expect(await axeViolations(cook)).toEqual([]);

  // An operator sends the evidence assembled from the order, from the Money tab.
  const operatorContext = await browser.newContext();
  await operatorContext.addCookies([await server.sessionCookie('operator', OPERATOR)]);
  const operator = await operatorContext.newPage();
  await operator.goto(at('/Operator'));
  await operator.getByRole('tab', { name: 'Money' }).click();
  const disputes = operator.getByRole('table', { name: 'Disputes' });
  const row = disputes.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(/Evidence due by/);
  expect(await axeViolations(operator)).toEqual([]);
  await row.getByRole('button', { name: 'Submit evidence' }).click();
  await expect(row).toContainText('Evidence submitted: the bank decides');
  await operatorContext.close();

  await bank.reload();
  await expect(bank.getByText('under review', { exact: true })).toBeVisible();
  await bank.getByRole('button', { name: 'The bank sides with the cardholder' }).click();
  await expect(bank.getByText('lost', { exact: true })).toBeVisible();
  await expect(card.getByRole('note')).toHaveText(
    /^The customer’s bank decided the dispute of \$\d+\.\d{2} for the customer$/,
  );
  await cookContext.close();
  await customerContext.close();
});

test('a customer takes store credit instead of a refund, and spends it on their next order', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { cookContext, cook, customerContext, customer, name } = await deliveredCardOrder(
    browser,
    '3 Credit Close',
  );

  await customer.getByRole('button', { name: 'Report a problem' }).click();
  const report = customer.getByRole('dialog', { name: 'Report a problem' });
  await report.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' }).check();
  await report.getByRole('radio', { name: 'Missing' }).check();
  await report.getByRole('radio', { name: "As store credit, for any kitchen's order" }).check();
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();

  await cook.goto(at('/KitchenOrders'));
  await cook.getByRole('tab', { name: 'Past' }).click();
  const card = cook.getByTestId('order-card').filter({ hasText: '3 Credit Close' });
  await expect(card.getByRole('group', { name: 'Problem reported' })).toContainText(
    'Asks for store credit rather than money back to the card',
  );
  await card.getByRole('button', { name: 'Refund dishes' }).click();
  const dialog = cook.getByRole('dialog', { name: 'Refund part of this order' });
  await dialog.getByRole('button', { name: 'Refund $11.75' }).click();
  await expect(dialog).toBeHidden();

  // Nothing goes back to the card: the credit is the customer's at once.
  await expect(customer.getByText('Added $11.75 to your store credit')).toBeVisible();
  await customer.goto(at('/CustomerOrders'));
  await expect(customer.getByTestId('credit-balance')).toHaveText('Your balance: $11.75');
  expect(await axeViolations(customer)).toEqual([]);

  // The next order: Raita, 3.00 + 2.99 + 7.46 = 13.45, of which the credit pays 11.75 and the card 1.70.
  await customer.goto(at('/'));
  await customer.getByRole('link', { name: new RegExp(name) }).click();
  await customer.getByRole('button', { name: 'Add Raita to cart' }).click();
  await customer.getByRole('link', { name: 'Cart (1)' }).click();
  await expect(customer.getByRole('checkbox', { name: 'Use my store credit ($11.75)' })).toBeChecked();
  await expect(customer.getByText('Store credit: −$11.75')).toBeVisible();
  await customer.getByRole('combobox', { name: 'Delivery address' }).fill('3 Credit Close');
  await customer.getByRole('button', { name: 'Submit order' }).click();
  await customer.waitForURL(/\/dev-pay\/checkout\/cs_/);
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry').fill('12/34');
  await customer.getByLabel('CVC').fill('123');
  await customer.getByRole('button', { name: 'Pay $1.70' }).click();
  await expect(customer.getByText('Your Order is sent')).toBeVisible();
  await customer.goto(at('/CustomerOrders'));
  await expect(customer.getByTestId('credit-balance')).toHaveText('Your balance: $0.00');
  await cookContext.close();
  await customerContext.close();
});
