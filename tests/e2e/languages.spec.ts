import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { compileCatalogues } from '../../src/server/i18n/catalogues.js';
import { LOCALES, type Locale } from '../../src/shared/i18n/locales.js';
import { Translator } from '../../src/shared/i18n/translator.js';
import { createKitchenWithOwner, customerSessionCookie, newKitchenOwnerCookie } from './db.js';
import { expect, test } from './fixtures.js';
import { openAroundTheClock } from './hours.js';

/** The words of each language as the product shows them (the same PO files, compiled the same way). */
const catalogues = compileCatalogues(join(import.meta.dirname, '..', '..', 'locales'));
const words = (locale: Locale) => new Translator({ locale, messages: catalogues[locale], currency: 'USD' });

const setLanguage = (context: BrowserContext, locale: Locale) =>
  context.addCookies([{ name: 'lang', value: locale, url: process.env.E2E_BASE_URL ?? '' }]);

/** The text the page's app shows, whitespace folded. */
const rootText = (page: Page) =>
  page.locator('#root').evaluate((root) => (root as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

/** The lines of text the page's app shows. */
const lines = (page: Page) =>
  page.locator('#root').evaluate((root) =>
    (root as HTMLElement).innerText
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter(Boolean),
  );

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The top bar's cart link ('Cart (2)' in English), whatever it holds. */
function cartLink(page: Page, w: Translator) {
  const [before = '', after = ''] = w.t('Cart ({count})', { count: '§' }).split(/\u2068?§\u2069?/);
  return page.getByRole('link', { name: new RegExp(`^${escapeRegExp(before)}.*${escapeRegExp(after)}$`) });
}

async function firstKitchen(page: Page) {
  const kitchens = (await (await page.request.get('/api/kitchens')).json()) as {
    uid: string;
    name: string;
  }[];
  const kitchen = kitchens.find((k) => k.name === "Lola's Kusina") ?? kitchens[0];
  if (!kitchen) throw new Error('no demo kitchen');
  return kitchen;
}

test.describe('languages', () => {
  test("the browser's language first, then the one picked in the top bar, remembered", async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    const fr = words('fr');
    await expect(page.getByRole('link', { name: fr.t('Kitchen Register') })).toBeVisible();
    await page.getByRole('combobox', { name: fr.t('Language') }).selectOption('ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    const ar = words('ar');
    await expect(page.getByRole('link', { name: ar.t('Kitchen Register') })).toBeVisible();
    // Another tab of the same browser, later: still Arabic.
    const later = await context.newPage();
    await later.goto('/CustomerSignIn');
    await expect(later.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(later.getByRole('heading', { name: ar.t('Please Sign In to check out') })).toBeVisible();
    await context.close();
  });

  for (const locale of LOCALES) {
    test(`${locale}: the server-rendered pages and the hydrated ones say the same`, async ({ browser }) => {
      const w = words(locale);
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      const context = await browser.newContext();
      await setLanguage(noScript, locale);
      await setLanguage(context, locale);
      const page = await context.newPage();
      const html = await noScript.newPage();
      const kitchen = await firstKitchen(page);
      for (const path of ['/', `/KitchenMenu/${kitchen.uid}`]) {
        await html.goto(path);
        await page.goto(path, { waitUntil: 'networkidle' });
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        // Every line the server rendered is there, in the same words, once hydrated (the app may add lines of its
        // own: what it loads once running, such as how the kitchen takes orders).
        const hydrated = await rootText(page);
        for (const line of await lines(html)) expect(hydrated, `${path}: ${line}`).toContain(line);
      }
      // Hydrated: a tap is the app's (the cart counts it).
      await expect(page.getByRole('heading', { name: w.t('Full Menu') })).toBeVisible();
      const cart = cartLink(page, w);
      const before = (await cart.textContent()) ?? '';
      await page.getByRole('button', { name: w.t('Add {dish} to cart', { dish: 'Chicken Adobo' }) }).click();
      await expect(cart).not.toHaveText(before);
      await noScript.close();
      await context.close();
    });
  }

  test('Arabic, right to left: a cook registers, a customer orders, the kitchen sees it', async ({
    browser,
  }) => {
    const ar = words('ar');
    const cookContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await setLanguage(cookContext, 'ar');
    await cookContext.addCookies([await newKitchenOwnerCookie()]);
    const cook = await cookContext.newPage();
    await cook.goto('/KitchenRegister');
    await expect(cook.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(cook.getByRole('heading', { name: ar.t('Register your kitchen') })).toBeVisible();
    const kitchenName = `مطبخ سلمى ${Date.now()}`;
    await cook.getByLabel(ar.t('Name of Kitchen')).fill(kitchenName);
    await cook.getByRole('combobox', { name: ar.t('Category') }).fill('Syrian');
    await cook.getByLabel(ar.t('Address')).fill('12 Rue de la République, Lyon');
    await cook.getByLabel(ar.t('Image of your kitchen link')).fill('https://images.invalid/kitchen.png');
    await cook.getByRole('button', { name: ar.t('Next Step') }).click();
    // Ordered from later at whatever hour the test runs: registered without hours, the kitchen closes at 20:15.
    await openAroundTheClock(cook, ar.t('Add Menu'));
    await cook.getByRole('textbox', { name: ar.t('Item'), exact: true }).fill('Fattoush');
    await cook.getByLabel(ar.t('Image of your Item Link')).fill('https://images.invalid/dish.png');
    await cook.getByLabel(ar.t('Price')).fill('8.5');
    await cook.getByLabel(ar.t('Wait Time')).fill('20 min');
    await cook.getByRole('button', { name: ar.t('Answer No to the ones left') }).click();
    await cook.getByRole('button', { name: ar.t('Add Menu') }).click();
    await expect(cook.getByLabel(ar.t('Price'))).toHaveValue('');

    const customerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await setLanguage(customerContext, 'ar');
    await customerContext.addCookies([await customerSessionCookie(`ar-${Date.now()}@e2e.test`)]);
    const customer = await customerContext.newPage();
    await customer.goto('/');
    await customer
      .getByRole('link', { name: new RegExp(kitchenName) })
      .first()
      .click();
    await expect(customer.getByRole('heading', { name: ar.t('Full Menu') })).toBeVisible();
    await expect(customer.getByTestId('menu-item').filter({ hasText: 'Fattoush' })).toContainText(
      ar.money(850),
    );
    await customer.getByRole('button', { name: ar.t('Add {dish} to cart', { dish: 'Fattoush' }) }).click();
    await cartLink(customer, ar).click();
    await expect(customer.getByRole('heading', { name: ar.t('Shopping Cart') })).toBeVisible();
    await customer.getByRole('combobox', { name: ar.t('Delivery address') }).fill('3 Place Bellecour, Lyon');
    await customer.getByRole('button', { name: ar.t('Submit order') }).click();
    await expect(customer.getByRole('status').filter({ hasText: ar.t('Your Order is sent') })).toBeVisible();
    await customer.getByRole('link', { name: ar.t('View Your order Status on this link') }).click();
    await expect(customer.getByTestId('order-status')).toHaveText(ar.t('recieved'));

    // At a phone's width the kitchen's orders are a list of cards.
    await cook.goto('/KitchenOrders');
    const order = cook
      .getByRole('list', { name: ar.t('Orders of your kitchen') })
      .getByRole('listitem')
      .first();
    await expect(order).toContainText('Fattoush');
    await expect(order).toContainText(ar.t('recieved'));
    await order.getByRole('button', { name: ar.t('Accept') }).click();
    const accept = cook.getByRole('dialog', { name: ar.t('Accept this order') });
    await accept.getByRole('button', { name: ar.t('Accept order'), exact: true }).click();
    await expect(accept).toBeHidden();
    await expect(order).toContainText(ar.t('accepted'));
    await expect(customer.getByTestId('order-status')).toHaveText(ar.t('accepted'));
    await cookContext.close();
    await customerContext.close();
  });

  // UPDATE_SCREENSHOTS=1 keeps them in docs/screenshots (checked by eye there); otherwise in the test's output.
  test('screenshots at 390 px in Arabic and Hindi (docs/screenshots)', async ({ browser }, testInfo) => {
    const { kitchen } = await createKitchenWithOwner("Meena's Dosa Corner", {
      category: 'Indian',
      dishes: [
        { item: 'Masala dosa', secondName: 'मसाला डोसा' },
        { item: 'Sambar', secondName: 'साम्भर' },
      ],
    });
    for (const locale of ['ar', 'hi'] as const) {
      const w = words(locale);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await setLanguage(context, locale);
      await context.addCookies([await customerSessionCookie(`${locale}-${Date.now()}@e2e.test`)]);
      const page = await context.newPage();
      const dir = process.env.UPDATE_SCREENSHOTS
        ? join(import.meta.dirname, '..', '..', 'docs', 'screenshots')
        : testInfo.outputPath();
      await page.goto('/', { waitUntil: 'networkidle' });
      await page.screenshot({ path: join(dir, `${locale}-landing.png`) });
      await page.goto(`/KitchenMenu/${kitchen.uid}`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: w.t('Add {dish} to cart', { dish: 'Masala dosa' }) }).click();
      await page.screenshot({ path: join(dir, `${locale}-menu.png`) });
      await cartLink(page, w).click();
      await expect(page.getByRole('heading', { name: w.t('Shopping Cart') })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(dir, `${locale}-cart.png`) });
      await context.close();
    }
  });
});
