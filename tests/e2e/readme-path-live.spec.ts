import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { expect, watchedTest } from './fixtures.js';
import { openAroundTheClock } from './hours.js';
import { startReadmeServer, type ReadmeServer } from './readme-server.js';
import { newPerson, signInWithPopup, type Person } from './sign-in.js';

/**
 * Live updates on the server as the README starts it (`npm start`: the embedded database in a new data directory,
 * the development sign-in, local payments, the demo kitchens), through the screens only: every other end-to-end test
 * runs on PostgreSQL, and none of them saw every live screen stop updating on `npm start` under Node 24.22 (a
 * stream's first bytes written before its status line; fixed in src/server/live/hub.ts). Each change is made on
 * one screen and must show on another, already open in another browser context, without a reload, within
 * LIVE_BOUND_MS; the times measured are printed (`live on npm start: …`).
 */
const test = watchedTest.extend<object, { readmeServer: ReadmeServer }>({
  readmeServer: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other
    async ({}, use) => {
      const server = await startReadmeServer();
      try {
        // The README's path: the embedded database, new, so the demo kitchens were added.
        expect(server.output()).toContain('(database: pglite)');
        expect(server.output()).toContain('demo kitchens added');
        await use(server);
      } finally {
        await server.dispose();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ readmeServer }, use) => use(readmeServer.url),
});

/** The issue asks for under a second; this bound is generous for a loaded machine, and far below any reload. */
const LIVE_BOUND_MS = 5000;

/**
 * Does `act` and measures, for each of `shown` (on pages other than the one acted on), the time until it is visible:
 * polled every 20 ms, it must be within LIVE_BOUND_MS of the start of `act`, with no page reloaded meanwhile. `write`,
 * the API call `act` makes (its method and path), splits each time in two for the log: the write itself, answered
 * on the acting page, and the time from its answer to the other screen.
 */
async function arrives(
  what: string,
  act: () => Promise<unknown>,
  shown: Record<string, Locator>,
  write: { page: Page; method: string; path: RegExp },
) {
  const targets = Object.entries(shown);
  const pages = [...new Set(targets.map(([, locator]) => locator.page()))];
  let reloads = 0;
  const onLoad = () => reloads++;
  pages.forEach((page) => page.on('load', onLoad));
  const answered = write.page
    .waitForResponse(
      (response) =>
        response.request().method() === write.method && write.path.test(new URL(response.url()).pathname),
      { timeout: LIVE_BOUND_MS },
    )
    .then(
      () => Date.now(),
      () => undefined,
    );
  const start = Date.now();
  try {
    await act();
    return await Promise.all(
      targets.map(async ([where, locator]) => {
        const name = `${what} → ${where}`;
        await expect
          .poll(() => locator.isVisible(), {
            message: `${name}: shown within ${LIVE_BOUND_MS} ms, without a reload`,
            timeout: Math.max(1, start + LIVE_BOUND_MS - Date.now()),
            intervals: [20],
          })
          .toBe(true);
        const ms = Date.now() - start;
        const at = await answered;
        const write = at === undefined ? 'not seen' : `answered at ${at - start} ms`;
        console.log(`live on npm start: ${name}: ${ms} ms (its write ${write})`);
        expect(ms, name).toBeLessThanOrEqual(LIVE_BOUND_MS);
        return ms;
      }),
    );
  } finally {
    pages.forEach((page) => page.off('load', onLoad));
    expect(reloads, `pages reloaded while waiting for ${what}`).toBe(0);
  }
}

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

/** A random word of letters: this run's kitchen is the only one a search for it finds. */
const randomWord = () =>
  Array.from({ length: 9 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** A new cook signs in at /AdminSignIn (the development sign-in's popup) and fills step 1, not yet sent. */
async function startRegistering(page: Page, person: Person, kitchenName: string) {
  await page.goto('/AdminSignIn');
  await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), person);
  await expect(page.getByRole('heading', { name: `Welcome ${person.name}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
  await page.getByLabel('Name of Kitchen').fill(kitchenName);
  await page.getByRole('combobox', { name: 'Category' }).fill('Filipino');
  await page.getByLabel('Address').fill('12 Mango Street');
  await page.getByLabel('Image of your kitchen link').fill('https://images.invalid/kitchen.png');
}

/** Step 2, 'Add Menu': fills a dish in; `add` sends it. */
async function fillDish(page: Page, item: string, price: string) {
  await page.getByRole('textbox', { name: 'Item', exact: true }).fill(item);
  await page.getByLabel('Image of your Item Link').fill('https://images.invalid/dish.png');
  await page.getByLabel('Price').fill(price);
  await page.getByLabel('Wait Time').fill('20 min');
  await page.getByRole('button', { name: 'Answer No to the ones left' }).click();
  return () => page.getByRole('button', { name: 'Add Menu' }).click();
}

/** A new cook registers `kitchenName`, open around the clock, with one dish added on 'Add Menu'. */
async function kitchenWithDish(
  browser: Browser,
  cookName: string,
  kitchenName: string,
  dish: string,
  price: string,
) {
  const cook = await newPage(browser);
  await startRegistering(cook.page, newPerson(cookName), kitchenName);
  await cook.page.getByRole('button', { name: 'Next Step' }).click();
  await openAroundTheClock(cook.page);
  await (
    await fillDish(cook.page, dish, price)
  )();
  await expect(cook.page.getByRole('textbox', { name: 'Item', exact: true })).toHaveValue('');
  return cook;
}

/**
 * A new cook's kitchen with one dish (`kitchenWithDish`) whose payouts are set up through the stand-in's onboarding
 * page, as a cook would with Stripe's; the cook is left on their (empty) orders page.
 */
async function cookTakingCards(
  browser: Browser,
  cookName: string,
  kitchenName: string,
  dish: string,
  price: string,
) {
  const cook = await kitchenWithDish(browser, cookName, kitchenName, dish, price);
  const nav = cook.page.getByRole('navigation', { name: 'Kitchen admin' });
  await nav.getByRole('link', { name: '1 MENU' }).click();
  const getPaid = cook.page.getByRole('region', { name: 'Get paid' });
  await getPaid.getByRole('button', { name: 'Set up payouts' }).click();
  await cook.page.getByRole('button', { name: 'Activate payouts' }).click();
  await expect(getPaid.getByTestId('payout-state')).toHaveText('Payouts on');
  await nav.getByRole('link', { name: '3 Orders' }).click();
  const orders = cook.page.getByRole('table', { name: 'Orders of your kitchen' });
  await expect(orders).toContainText('No orders yet');
  return { cook, orders };
}

/** A new customer puts `dish` of `kitchenName` in the cart from the landing page and signs in on the cart. */
async function customerAtCart(browser: Browser, name: string, kitchenName: string, dish: string) {
  const customer = await newPage(browser);
  const person = newPerson(name);
  const page = customer.page;
  await page.goto('/');
  await page.getByRole('link', { name: new RegExp(kitchenName) }).click();
  await page.getByRole('button', { name: `Add ${dish} to cart` }).click();
  await page.getByRole('link', { name: 'Cart (1)' }).click();
  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), person);
  await expect(page).toHaveURL('/ShoppingCart');
  return { customer, person, page };
}

test.describe('live on the server as `npm start` runs it (embedded database)', () => {
  test('a chat message reaches the other person’s open chat page, both ways', async ({ browser }) => {
    const chatters = [];
    for (const label of ['Ann', 'Bob']) {
      const { context, page } = await newPage(browser);
      const person = newPerson(`${label} ${randomUUID().slice(0, 6)}`);
      await page.goto('/Chatroom');
      await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), person);
      await expect(page.getByText(`Signed in as ${person.name}`)).toBeVisible();
      chatters.push({ context, page });
    }
    const [ann, bob] = chatters as [(typeof chatters)[0], (typeof chatters)[0]];
    for (const [from, to, name] of [
      [ann, bob, 'Ann'],
      [bob, ann, 'Bob'],
    ] as const) {
      const text = `Hello from ${name} ${randomUUID()}`;
      const input = from.page.getByRole('textbox', { name: 'Message' });
      await input.fill(text);
      await arrives(
        `chat message from ${name}`,
        () => input.press('Enter'),
        { 'the other’s chat page': to.page.getByText(text) },
        { page: from.page, method: 'POST', path: /^\/api\/chat$/ },
      );
    }
    await Promise.all([ann.context.close(), bob.context.close()]);
  });

  test('a new kitchen reaches the open landing page and search, its new dish its open menu page, and its pausing all three', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const word = randomWord();
    const kitchenName = `Kusina ${word}`;
    const visitor = await newPage(browser);
    const landing = visitor.page;
    await landing.goto('/');
    await expect(landing.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
    const search = await visitor.context.newPage();
    await search.goto('/');
    await search.getByLabel('Search kitchens and dishes').fill(word);
    await expect(search.getByText('No kitchens match your search.')).toBeVisible();

    const cook = await newPage(browser);
    await startRegistering(cook.page, newPerson('Mila Cook'), kitchenName);
    const ours = (page: Page) => page.getByRole('link', { name: new RegExp(kitchenName) });
    await arrives(
      'a kitchen registered',
      () => cook.page.getByRole('button', { name: 'Next Step' }).click(),
      { 'the landing page': ours(landing), 'a search for it': ours(search) },
      { page: cook.page, method: 'POST', path: /^\/api\/kitchen$/ },
    );
    await openAroundTheClock(cook.page);

    const menu = await visitor.context.newPage();
    await menu.goto((await ours(landing).getAttribute('href')) ?? '');
    await expect(menu.getByRole('heading', { level: 1, name: kitchenName })).toBeVisible();
    await expect(menu.getByRole('heading', { name: 'Full Menu' })).toBeVisible();
    const add = await fillDish(cook.page, 'Chicken Adobo', '11.50');
    await arrives(
      'a dish added',
      add,
      { 'the kitchen’s menu page': menu.getByRole('button', { name: 'Add Chicken Adobo to cart' }) },
      { page: cook.page, method: 'POST', path: /^\/api\/kitchen\/menu$/ },
    );
    await expect(menu.getByText('$11.50')).toBeVisible();

    // The kitchen changes: its cook stops taking orders for now; every open page of it says it is closed.
    await cook.page
      .getByRole('navigation', { name: 'Kitchen admin' })
      .getByRole('link', { name: '3 Orders' })
      .click();
    const pause = cook.page.getByRole('switch', { name: 'Pause new orders' });
    await expect(pause).not.toBeChecked();
    for (const page of [landing, search]) await expect(ours(page)).toContainText('Open now');
    const closed = (page: Page) => ours(page).filter({ hasText: 'Closed' });
    await arrives(
      'the kitchen pausing new orders',
      () => pause.click(),
      {
        'the landing page': closed(landing),
        'a search for it': closed(search),
        'the kitchen’s menu page': menu
          .getByTestId('kitchen-hours')
          .getByRole('status')
          .filter({ hasText: 'Closed' }),
      },
      { page: cook.page, method: 'POST', path: /^\/api\/kitchen\/pause$/ },
    );
    await Promise.all([visitor.context.close(), cook.context.close()]);
  });

  test('an order reaches the kitchen’s open orders page, and each of the kitchen’s moves the customer’s order page', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const kitchenName = `Order Kusina ${randomWord()}`;
    const cook = await kitchenWithDish(browser, 'Lola Cook', kitchenName, 'Pancit', '9.75');
    // A new kitchen takes no payments until its cook says how: cash on delivery, from the dashboard.
    const nav = cook.page.getByRole('navigation', { name: 'Kitchen admin' });
    await nav.getByRole('link', { name: '1 MENU' }).click();
    const cash = cook.page
      .getByRole('region', { name: 'Get paid' })
      .getByRole('switch', { name: 'Accept cash on delivery' });
    await cash.click();
    await expect(cash).toBeChecked();
    await nav.getByRole('link', { name: '3 Orders' }).click();
    const orders = cook.page.getByRole('table', { name: 'Orders of your kitchen' });
    await expect(orders).toContainText('No orders yet');

    const customer = await newPage(browser);
    const person = newPerson('Kai Customer');
    const page = customer.page;
    await page.goto('/');
    await page.getByRole('link', { name: new RegExp(kitchenName) }).click();
    await page.getByRole('button', { name: 'Add Pancit to cart' }).click();
    await page.getByRole('link', { name: 'Cart (1)' }).click();
    await expect(page).toHaveURL('/CustomerSignIn');
    await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), person);
    await expect(page).toHaveURL('/ShoppingCart');
    await page.getByRole('combobox', { name: 'Delivery address' }).fill('8 Live Lane');
    await expect(page.getByText('Cash on delivery: pay the cook when your order arrives.')).toBeVisible();
    const row = orders.getByRole('row').filter({ hasText: person.email });
    await arrives(
      'an order placed',
      () => page.getByRole('button', { name: 'Submit order' }).click(),
      { 'the kitchen’s orders page': row.filter({ hasText: 'Pancit' }) },
      { page, method: 'POST', path: /^\/api\/orders$/ },
    );
    await expect(page.getByText('Your Order is sent')).toBeVisible();
    await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
    await expect(page.getByRole('heading', { name: `Order Status from ${kitchenName}` })).toBeVisible();
    const status = page.getByTestId('order-status');
    await expect(status).toHaveText('recieved');

    const move = { page: cook.page, method: 'POST', path: /^\/api\/kitchen\/orders\/[^/]+\/moves$/ };
    await row.getByRole('button', { name: 'Accept' }).click();
    const accept = cook.page.getByRole('dialog', { name: 'Accept this order' });
    await accept.getByText('30 min').click();
    await arrives(
      'the kitchen accepting',
      () => accept.getByRole('button', { name: 'Accept order', exact: true }).click(),
      { 'the customer’s order page': status.filter({ hasText: /^accepted$/ }) },
      move,
    );
    for (const [button, state] of [
      ['Preparing', 'preparing'],
      ['Out for delivery', 'out for delivery'],
      ['Delivered', 'delivered'],
    ] as const)
      await arrives(
        `the kitchen’s '${button}'`,
        () => row.getByRole('button', { name: button, exact: true }).click(),
        { 'the customer’s order page': status.filter({ hasText: new RegExp(`^${state}$`) }) },
        move,
      );
    await expect(page.getByText('Your order was delivered. Enjoy your meal!')).toBeVisible();
    await Promise.all([cook.context.close(), customer.context.close()]);
  });
  test('card money on npm start: a cook sets up payouts, a card order is paid on the payment page, captured on accept and refunded on cancel, each live on the other screen', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const kitchenName = `Card Kusina ${randomWord()}`;
    const { cook, orders } = await cookTakingCards(browser, 'Rosa Cook', kitchenName, 'Adobo', '12.50');
    const { customer, person, page } = await customerAtCart(browser, 'Card Customer', kitchenName, 'Adobo');
    await page.getByRole('combobox', { name: 'Delivery address' }).fill('9 Card Lane');
    await page.getByRole('button', { name: 'Submit order' }).click();
    // The payment page: its session has no payment until the card is tried (as Stripe's), a decline first.
    await expect(page).toHaveURL(/\/dev-pay\/checkout\/cs_/);
    const pay = async (card: string) => {
      await page.getByLabel('Card number').fill(card);
      await page.getByLabel('Expiry').fill('12/34');
      await page.getByLabel('CVC').fill('123');
      await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
    };
    await pay('4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toHaveText('Your card was declined');
    await expect(orders).toContainText('No orders yet');
    const row = orders.getByRole('row').filter({ hasText: person.email });
    await arrives(
      'a card order paid',
      () => pay('4242 4242 4242 4242'),
      { 'the kitchen’s orders page': row.filter({ hasText: 'Card payment authorised' }) },
      { page, method: 'POST', path: /^\/dev-pay\/checkout\/cs_[0-9a-f]+$/ },
    );
    await expect(page.getByText('Your Order is sent')).toBeVisible();
    await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
    const payment = page.getByTestId('order-payment');
    await expect(payment).toHaveText('Card payment authorised: charged when the kitchen accepts');

    const move = { page: cook.page, method: 'POST', path: /^\/api\/kitchen\/orders\/[^/]+\/moves$/ };
    await row.getByRole('button', { name: 'Accept' }).click();
    const accept = cook.page.getByRole('dialog', { name: 'Accept this order' });
    await accept.getByText('30 min').click();
    await arrives(
      'the kitchen accepting a card order (captured)',
      () => accept.getByRole('button', { name: 'Accept order', exact: true }).click(),
      { 'the customer’s order page': payment.filter({ hasText: /^Paid by card$/ }) },
      move,
    );
    await expect(row).toContainText('Paid by card');
    await row.getByRole('button', { name: 'Cancel', exact: true }).click();
    const cancel = cook.page.getByRole('dialog', { name: 'Cancel this order' });
    await cancel.getByLabel('Reason').fill('The oven broke');
    await arrives(
      'the kitchen cancelling a paid order (refunded)',
      () => cancel.getByRole('button', { name: 'Cancel order', exact: true }).click(),
      { 'the customer’s order page': payment.filter({ hasText: /^Refunded to your card$/ }) },
      move,
    );
    await Promise.all([customer.context.close(), cook.context.close()]);
  });

  test('after-sale on npm start: a customer reports a missing dish of a delivered card order, the cook refunds it, and the customer’s open order page shows the refund live', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const kitchenName = `Refund Kusina ${randomWord()}`;
    const { cook, orders } = await cookTakingCards(
      browser,
      'Mila Cook',
      kitchenName,
      'Lamb Biryani',
      '11.75',
    );
    // The customer orders by card and keeps the order's page open.
    const { customer, person, page } = await customerAtCart(
      browser,
      'Refund Customer',
      kitchenName,
      'Lamb Biryani',
    );
    await page.getByRole('combobox', { name: 'Delivery address' }).fill('11 Missing Dish Lane');
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page).toHaveURL(/\/dev-pay\/checkout\/cs_/);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
    await expect(page.getByText('Your Order is sent')).toBeVisible();
    await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
    const status = page.getByTestId('order-status');
    await expect(status).toHaveText('recieved');

    // The kitchen takes it to the door, from its orders page.
    const row = orders.getByRole('row').filter({ hasText: person.email });
    await expect(row).toContainText('Card payment authorised');
    await row.getByRole('button', { name: 'Accept' }).click();
    const accept = cook.page.getByRole('dialog', { name: 'Accept this order' });
    await accept.getByText('30 min').click();
    await accept.getByRole('button', { name: 'Accept order', exact: true }).click();
    for (const button of ['Preparing', 'Out for delivery', 'Delivered'])
      await row.getByRole('button', { name: button, exact: true }).click();
    await expect(status).toHaveText('delivered');
    await expect(page.getByTestId('order-payment')).toHaveText('Paid by card');

    // The customer reports the biryani missing.
    await page.getByRole('button', { name: 'Report a problem' }).click();
    const report = page.getByRole('dialog', { name: 'Report a problem' });
    await report.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' }).check();
    await report.getByRole('radio', { name: 'Missing' }).check();
    await report.getByLabel('Tell the kitchen what happened').fill('The biryani was not in the bag');
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect(report).toBeHidden();
    const reported = page.getByRole('alert').filter({ hasText: 'You reported a problem' });
    await expect(reported).toContainText('Missing: Lamb Biryani');

    // The cook sees the report on the order and refunds that dish (chosen already); the customer's page, open all
    // along, shows the money back without a reload.
    await cook.page.goto('/KitchenOrders');
    await cook.page.getByRole('tab', { name: 'Past' }).click();
    const card = cook.page
      .getByRole('table', { name: 'Past orders of your kitchen' })
      .getByRole('row')
      .filter({ hasText: '11 Missing Dish Lane' });
    await expect(card.getByRole('group', { name: 'Problem reported' })).toContainText(
      'Missing: Lamb Biryani',
    );
    await card.getByRole('button', { name: 'Refund dishes' }).click();
    const dialog = cook.page.getByRole('dialog', { name: 'Refund part of this order' });
    await expect(dialog.getByRole('checkbox', { name: 'Lamb Biryani · $11.75' })).toBeChecked();
    await arrives(
      'the cook refunding a missing dish',
      () => dialog.getByRole('button', { name: 'Refund $11.75' }).click(),
      { 'the customer’s order page': page.getByText('Refunded $11.75 to your card') },
      { page: cook.page, method: 'POST', path: /^\/api\/kitchen\/orders\/[^/]+\/refunds$/ },
    );
    await expect(reported).toBeHidden();
    await Promise.all([customer.context.close(), cook.context.close()]);
  });
});
