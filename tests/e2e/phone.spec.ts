import { randomUUID } from 'node:crypto';
import { axeViolations } from './axe.js';
import type { Page } from '@playwright/test';
import { createKitchenWithOwner, customerSessionCookie, newKitchenOwnerCookie, placeOrderAs } from './db.js';
import { expect, test } from './fixtures.js';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/**
 * No sideways scrolling; every visible button and link-button lies across the screen's width and is at least
 * 44 × 44 CSS px.
 */
async function fitsTheScreen(page: Page) {
  const { scrollWidth, width } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scrollWidth).toBe(width);
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a.mantine-Button-root')]
      // Notifications slide in from the side and leave by themselves: not part of the page's width.
      .filter((el) => el.offsetParent !== null && !el.closest('.mantine-Notifications-root'))
      .map((el) => ({ name: el.getAttribute('aria-label') ?? el.className, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.left < 0 || box.right > window.innerWidth)
      .map(({ name, box }) => `${name} at ${Math.round(box.left)}..${Math.round(box.right)}`),
  );
  expect(outside).toEqual([]);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a.mantine-Button-root')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({
        name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '',
        box: el.getBoundingClientRect(),
      }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ name, box }) => `${name} (${Math.round(box.width)}×${Math.round(box.height)})`),
  );
  expect(small).toEqual([]);
}

/**
 * Every visible button, tab and link of the kitchen's admin navigation, with its size as laid out (boundingBox): what
 * a cook taps on the orders page.
 */
async function touchTargets(page: Page) {
  const targets = page
    .getByRole('button')
    .or(page.getByRole('tab'))
    .or(page.getByRole('navigation', { name: 'Kitchen admin' }).getByRole('link'))
    .or(page.getByRole('navigation', { name: 'Kitchen money' }).getByRole('link'));
  const measured: { name: string; width: number; height: number }[] = [];
  for (const target of await targets.all()) {
    const box = await target.boundingBox();
    if (!box || !(await target.isVisible())) continue;
    const name = (await target.getAttribute('aria-label')) ?? (await target.innerText()).trim();
    measured.push({ name, width: box.width, height: box.height });
  }
  return measured;
}

/** Those of `measured` smaller than 44 × 44 CSS px, named with their size. */
const smallOnes = (measured: { name: string; width: number; height: number }[]) =>
  measured
    .filter(({ width, height }) => width < 44 || height < 44)
    .map(({ name, width, height }) => `${name} (${width.toFixed(1)} × ${height.toFixed(1)})`);

test.describe('on a phone (390 × 844)', () => {
  test('a customer fills the cart from a menu and the cart bar takes them to it', async ({
    page,
  }, testInfo) => {
    const { kitchen } = await createKitchenWithOwner(`Phone ${randomUUID().slice(0, 8)}`, {
      dishes: [{ item: 'Dal' }, { item: 'Rice' }],
    });
    await page.context().addCookies([await customerSessionCookie(`${randomUUID()}@e2e.test`)]);
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await expect(page.getByTestId('cart-bar')).toBeHidden();
    // Compact dishes: each a row with a thumbnail, several to a screen.
    const dishHeights = await page
      .getByTestId('menu-item')
      .evaluateAll((dishes) => dishes.map((d) => d.getBoundingClientRect().height));
    for (const height of dishHeights) expect(height).toBeLessThan(200);
    await page.getByRole('button', { name: 'Add Dal to cart' }).click();
    await page.getByRole('button', { name: 'Add Rice to cart' }).click();
    const bar = page.getByTestId('cart-bar');
    await expect(bar).toBeVisible();
    await expect(bar).toContainText('2 dishes · $18.00');
    // Fixed at the bottom of the screen, whatever the scroll.
    await page.mouse.wheel(0, 2000);
    const box = await bar.boundingBox();
    expect(box && Math.round(box.y + box.height)).toBe(844);
    await fitsTheScreen(page);
    expect(await axeViolations(page)).toEqual([]);
    await testInfo.attach('menu with the cart bar, 390 px', {
      body: await page.screenshot(),
      contentType: 'image/png',
    });

    await bar.getByRole('link', { name: 'View cart: 2 dishes · $18.00' }).click();
    await expect(page).toHaveURL('/ShoppingCart');
    await expect(page.getByRole('button', { name: 'Submit order' })).toBeVisible();
    await fitsTheScreen(page);
    await testInfo.attach('cart, 390 px', { body: await page.screenshot(), contentType: 'image/png' });

    // Checkout with the phone's keyboard for an address, then the order's status.
    const address = page.getByRole('combobox', { name: 'Delivery address' });
    await expect(address).toHaveAttribute('autocomplete', 'street-address');
    await address.fill('Flat 1, 2 Phone Street');
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page.getByText('Your Order is sent')).toBeVisible();
    await page.getByRole('link', { name: 'View Your order Status on this link' }).click();
    await expect(page.getByTestId('order-status')).toHaveText('recieved');
    await fitsTheScreen(page);
    expect(await axeViolations(page)).toEqual([]);
    await testInfo.attach('order status, 390 px', {
      body: await page.screenshot(),
      contentType: 'image/png',
    });
  });

  test('a new cook registers a kitchen and adds a dish, which the dashboard shows as a card', async ({
    page,
  }, testInfo) => {
    await page.context().addCookies([await newKitchenOwnerCookie()]);
    await page.goto('/KitchenRegister');
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
    await fitsTheScreen(page);
    await testInfo.attach('registration, 390 px', {
      body: await page.screenshot(),
      contentType: 'image/png',
    });
    const name = `Phone Kitchen ${randomUUID().slice(0, 8)}`;
    await page.getByLabel('Name of Kitchen').fill(name);
    await page.getByRole('combobox', { name: 'Category' }).fill('Filipino');
    await page.getByLabel('Address').fill('12 Mango Street');
    await page.getByLabel('Image of your kitchen link').fill('https://images.invalid/kitchen.png');
    await expect(page.getByLabel('Image of your kitchen link')).toHaveAttribute('type', 'url');
    await page.getByRole('button', { name: 'Next Step' }).click();
    await expect(page.getByRole('heading', { name: 'Add Menu' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Item', exact: true }).fill('Pancit');
    await page.getByLabel('Image of your Item Link').fill('https://images.invalid/dish.png');
    const price = page.getByLabel('Price');
    await expect(price).toHaveAttribute('inputmode', 'decimal');
    await price.fill('9.75');
    await page.getByLabel('Wait Time').fill('25 min');
    await page.getByRole('button', { name: 'Answer No to the ones left' }).click();
    await page.getByRole('button', { name: 'Add Menu' }).click();
    await expect(page.getByRole('textbox', { name: 'Item', exact: true })).toHaveValue('');
    await fitsTheScreen(page);
    await testInfo.attach('add a dish, 390 px', { body: await page.screenshot(), contentType: 'image/png' });

    await page.getByRole('link', { name: '1 MENU' }).click();
    const card = page.getByTestId('menu-card').filter({ hasText: 'Pancit' });
    await expect(card).toContainText('$9.75');
    await expect(card.getByRole('button', { name: 'Edit Pancit' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Remove Pancit' })).toBeVisible();
    await fitsTheScreen(page);
    expect(await axeViolations(page)).toEqual([]);
    await testInfo.attach('menu dashboard, 390 px', {
      body: await page.screenshot(),
      contentType: 'image/png',
    });
  });

  test('the cook runs an order from a card: accept, prepare, dispatch, deliver; and Update and Delete another', async ({
    page,
  }, testInfo) => {
    const { kitchen, items, cookie } = await createKitchenWithOwner(
      `Phone cook ${randomUUID().slice(0, 8)}`,
      {
        dishes: [{ item: 'Dal' }, { item: 'Rice' }],
      },
    );
    await page.context().addCookies([cookie]);
    await page.goto('/KitchenOrders');
    await expect(
      page.getByText('No orders yet. New orders appear here as they arrive.').filter({ visible: true }),
    ).toBeVisible();
    // The spec's table is for wide screens; here each order is a card.
    await expect(page.getByRole('table', { name: 'Orders of your kitchen' })).toBeHidden();
    await placeOrderAs(kitchen.uid, [items[0]!.id, items[0]!.id, items[1]!.id]);
    const card = page.getByTestId('order-card').first();
    await expect(card).toContainText('Dal × 2, Rice');
    await expect(card).toContainText('recieved');
    await expect(card).toContainText('just now');
    await fitsTheScreen(page);
    await testInfo.attach('an order card, 390 px', {
      body: await page.screenshot(),
      contentType: 'image/png',
    });

    await card.getByRole('button', { name: 'Accept' }).click();
    const accept = page.getByRole('dialog', { name: 'Accept this order' });
    await accept.getByText('30 min').click();
    await accept.getByRole('button', { name: 'Accept' }).click();
    await expect(card).toContainText('accepted');
    for (const [button, state] of [
      ['Preparing', 'preparing'],
      ['Out for delivery', 'out for delivery'],
    ] as const) {
      await card.getByRole('button', { name: button, exact: true }).click();
      await expect(card).toContainText(state);
      await fitsTheScreen(page);
    }
    await card.getByRole('button', { name: 'Delivered' }).click();
    await expect(
      page.getByText('No orders yet. New orders appear here as they arrive.').filter({ visible: true }),
    ).toBeVisible();

    await placeOrderAs(kitchen.uid, [items[1]!.id]);
    await expect(card).toContainText('Rice');
    await card.getByRole('button', { name: 'Update' }).click();
    const update = page.getByRole('dialog', { name: 'Update order status' });
    await update.getByRole('textbox').fill('Cooking now');
    await update
      .getByRole('button', { name: /Update|Save/ })
      .last()
      .click();
    await expect(card).toContainText('Cooking now');
    await card.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this order?' })
      .getByRole('button', { name: 'Delete order' })
      .click();
    // Gone once its closing transition ends (axe would measure it half faded).
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(
      page.getByText('No orders yet. New orders appear here as they arrive.').filter({ visible: true }),
    ).toBeVisible();
    // The 'Order deleted' notice fades in: axe is asked again until it has (a real violation stays).
    await expect.poll(() => axeViolations(page), { timeout: 15_000 }).toEqual([]);
  });

  test('every button of the kitchen’s orders page is at least 44 × 44, whether the phone reports a touch or a fine pointer', async ({
    browser,
  }) => {
    const { kitchen, items, cookie } = await createKitchenWithOwner(
      `Phone targets ${randomUUID().slice(0, 8)}`,
      {
        dishes: [{ item: 'Dal' }],
      },
    );
    // A touch screen (`pointer: coarse`), and one whose browser reports a mouse or a stylus: the same 390 px.
    for (const touch of [true, false]) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: touch,
        hasTouch: touch,
      });
      await context.addCookies([cookie]);
      const page = await context.newPage();
      await page.goto('/KitchenOrders');
      await placeOrderAs(kitchen.uid, [items[0]!.id]);
      const card = page.getByTestId('order-card').first();
      await expect(card.getByRole('button', { name: 'Update' })).toBeVisible();
      const pointer = touch ? 'touch' : 'fine pointer';
      const measured = await touchTargets(page);
      expect(measured.map((target) => target.name)).toEqual(
        expect.arrayContaining(['Accept', 'Decline', 'Update', 'Delete', 'Active', 'Past', 'Earnings']),
      );
      expect(smallOnes(measured), `new order, ${pointer}`).toEqual([]);
      // The accept dialog's buttons and chips, then the moves of an accepted order.
      await card.getByRole('button', { name: 'Accept' }).click();
      const accept = page.getByRole('dialog', { name: 'Accept this order' });
      await accept.getByText('30 min').click();
      expect(smallOnes(await touchTargets(page)), `accept dialog, ${pointer}`).toEqual([]);
      await accept.getByRole('button', { name: 'Accept order' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(card.getByRole('button', { name: 'Preparing' })).toBeVisible();
      expect(smallOnes(await touchTargets(page)), `accepted order, ${pointer}`).toEqual([]);
      // Ended, so that the next round's new order is the only one.
      await card.getByRole('button', { name: 'Cancel', exact: true }).click();
      const cancel = page.getByRole('dialog', { name: 'Cancel this order' });
      await cancel.getByLabel('Reason').fill('Out of lentils');
      await cancel.getByRole('button', { name: 'Cancel order' }).click();
      await expect(
        page.getByText('No orders yet. New orders appear here as they arrive.').filter({ visible: true }),
      ).toBeVisible();
      await context.close();
    }
  });

  test('the kitchen admin steps fit one line, and the kitchen installs as its own app', async ({
    page,
  }, testInfo) => {
    const { cookie } = await createKitchenWithOwner(`Phone admin ${randomUUID().slice(0, 8)}`);
    await page.context().addCookies([cookie]);
    await page.goto('/KitchenOrders');
    const nav = page.getByRole('navigation', { name: 'Kitchen admin' });
    const steps = nav.getByRole('link').or(nav.getByRole('button'));
    await expect(steps).toHaveCount(4);
    const boxes = await Promise.all((await steps.all()).map((step) => step.boundingBox()));
    expect(new Set(boxes.map((b) => Math.round(b?.y ?? -1))).size).toBe(1);
    for (const b of boxes) expect(b?.height).toBeGreaterThanOrEqual(44);
    await fitsTheScreen(page);
    await testInfo.attach('orders, 390 px', { body: await page.screenshot(), contentType: 'image/png' });

    const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(manifestUrl).toBe('/manifest-kitchen.webmanifest');
    const manifest = (await (await page.request.get(manifestUrl ?? '')).json()) as {
      start_url: string;
      icons: { src: string; purpose?: string }[];
    };
    expect(manifest.start_url).toBe('/KitchenOrders');
    for (const icon of manifest.icons) {
      const answer = await page.request.get(icon.src);
      expect(answer.status(), icon.src).toBe(200);
    }
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
  });

  test('the landing page’s first screen shows a kitchen; its filters wait behind Filters, which counts those chosen', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Homemade food, from a home near you' })).toBeVisible();
    // The first kitchen's card, its picture and name, on the first screen (without scrolling).
    await expect(page.getByTestId('kitchen-card').first()).toBeInViewport({ ratio: 0.5 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const filters = page.getByRole('button', { name: 'Filters' });
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('group', { name: 'Dietary needs' })).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);

    await filters.tap();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    const diets = page.getByRole('group', { name: 'Dietary needs' });
    await diets.getByText('Vegetarian', { exact: true }).tap();
    await expect(page).toHaveURL(/[?&]diet=vegetarian/);
    // The chip, before the cards' own 'Open now'.
    await page.getByText('Open now', { exact: true }).first().tap();
    await expect(page).toHaveURL(/[?&]open=1/);
    // The number chosen, beside the word, whether the filters are shown or not.
    await expect(page.getByRole('button', { name: 'Filters 2' })).toBeVisible();
    await fitsTheScreen(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Filters 2' }).tap();
    await expect(diets).toBeHidden();
    await expect(page.getByRole('button', { name: 'Filters 2' })).toHaveAttribute('aria-expanded', 'false');

    // From a tablet's width up the page is as it was: no button, the filters shown.
    await page.setViewportSize({ width: 1024, height: 844 });
    await expect(diets).toBeVisible();
    await expect(page.getByRole('group', { name: 'Cuisine' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();
  });

  test('a kitchen tapped low on the landing page opens its menu at the top; back returns to where one was', async ({
    page,
  }) => {
    await page.goto('/');
    const cards = page.getByTestId('kitchen-card');
    await expect(cards.first()).toBeVisible();
    // The last card of the first page (scrolling to it may bring the next page: the list keeps it in the address).
    const href = await cards.last().getAttribute('href');
    const tapped = page.locator(`a[href="${href}"]`).first();
    await tapped.scrollIntoViewIfNeeded();
    const scrollY = () => page.evaluate(() => window.scrollY);
    await expect.poll(scrollY).toBeGreaterThan(844);
    const where = await scrollY();
    await tapped.tap();
    await expect(page).toHaveURL(/\/KitchenMenu\//);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(scrollY).toBe(0);
    await page.goBack();
    // The landing page, with as many pages of the list as it showed (`?shown=`: it may have loaded one more).
    await expect(page).toHaveURL(/\/(\?shown=\d+)?$/);
    await expect.poll(async () => Math.abs((await scrollY()) - where)).toBeLessThanOrEqual(2);
    await expect(tapped).toBeInViewport();
  });

  test('every other screen fits the phone too', async ({ page }, testInfo) => {
    await page.context().addCookies([await customerSessionCookie(`${randomUUID()}@e2e.test`)]);
    for (const [path, heading] of [
      ['/', 'Homemade food, from a home near you'],
      ['/AdminSignIn', 'Please Register Yourself'],
      ['/CustomerOrders', 'Your orders'],
      ['/Chatroom', 'Chat room'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
      await fitsTheScreen(page);
      await testInfo.attach(`${path}, 390 px`, { body: await page.screenshot(), contentType: 'image/png' });
    }
  });

  test.describe('offline', () => {
    // The live list's stream fails while offline (and is reopened afterwards): that failure is expected.
    test.use({ expectedErrorUrls: [/\/api\/live\?/] });
    test('the customer’s app starts at the landing page; going offline says so', async ({ page }) => {
      // The app is there once it streams the live list (a rendered page paints before the app is fetched).
      const live = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/live');
      await page.goto('/');
      await live;
      const answer = await page.request.get('/manifest.webmanifest');
      expect(answer.headers()['content-type']).toMatch(/manifest\+json|application\/json/);
      expect(await answer.json()).toMatchObject({
        name: 'HomeCooked — homemade food from home cooks',
        start_url: '/',
        display: 'standalone',
        theme_color: '#e8590c',
      });
      await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
      await fitsTheScreen(page);
      await page.context().setOffline(true);
      await expect(page.getByText('You are offline.')).toBeVisible();
      await page.context().setOffline(false);
      await expect(page.getByText('You are offline.')).toBeHidden();
    });
  });
});
