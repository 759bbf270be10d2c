import { createKitchen } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';

test.describe('landing page', () => {
  test('shows the brand, navigation, about block, demo kitchens and footer', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Kitchen Register' })).toHaveAttribute('href', '/AdminSignIn');
    await expect(nav.getByRole('link', { name: 'Order' })).toHaveAttribute('href', '/CustomerOrderStatus');
    await expect(page.getByText(/connects people living away from home with home cooks/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Kitchens' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Casa Lupita/ })).toBeVisible();
    for (const column of ['Support', 'Hosting', 'HomeCooked']) {
      await expect(page.getByRole('contentinfo').getByRole('heading', { name: column })).toBeVisible();
    }
  });

  test('a kitchen created while the page is open appears first, live, in two browser contexts', async ({
    browser,
  }) => {
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    const newestBefore: string[] = [];
    for (const page of pages) {
      await page.goto('/');
      const first = page.getByTestId('kitchen-card').first();
      await expect(first).toBeVisible();
      newestBefore.push((await first.getAttribute('aria-label')) ?? '');
    }
    const name = `Live Kitchen ${Date.now()}`;
    const kitchen = await createKitchen(name);
    for (const [i, page] of pages.entries()) {
      // Other tests add kitchens at the same time: find ours by name, then check it comes before every kitchen
      // the page showed when it opened (newest first).
      const card = page.getByTestId('kitchen-card').filter({ hasText: name });
      await expect(card).toHaveAttribute('href', `/KitchenMenu/${kitchen.uid}`);
      const labels = await page
        .getByTestId('kitchen-card')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label') ?? ''));
      const ours = labels.findIndex((label) => label.startsWith(`${name},`));
      expect(ours).toBeGreaterThanOrEqual(0);
      expect(ours).toBeLessThan(labels.indexOf(newestBefore[i] ?? ''));
      // Its image link is broken: the fallback picture shows instead.
      await expect(card.getByRole('img')).toHaveAttribute('src', '/demo/fallback.svg');
    }
    await Promise.all(contexts.map((c) => c.close()));
  });

  test('a card click opens /KitchenMenu/{uid}', async ({ page }) => {
    await page.goto('/');
    const card = page.getByRole('link', { name: /Nonna Rosa/ });
    const href = await card.getAttribute('href');
    expect(href).toMatch(/^\/KitchenMenu\/[0-9a-f-]{36}$/);
    await card.click();
    await expect(page).toHaveURL(href ?? '');
  });

  test('one column on a phone, three on a wide screen', async ({ browser }) => {
    const columnsAt = async (width: number) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto('/');
      const cards = page.getByTestId('kitchen-card');
      await expect(cards.nth(2)).toBeVisible();
      // Read in one go: a kitchen another test adds meanwhile moves every card.
      const tops = await cards.evaluateAll((all) =>
        all.slice(0, 3).map((card) => card.getBoundingClientRect().top),
      );
      await context.close();
      return tops.filter((y) => y === tops[0]).length;
    };
    expect(await columnsAt(390)).toBe(1);
    expect(await columnsAt(800)).toBe(2);
    expect(await columnsAt(1280)).toBe(3);
  });

  test('every route of the spec loads on direct entry', async ({ page }) => {
    for (const path of [
      '/AdminSignIn',
      '/KitchenRegister',
      '/MenuDashboard',
      '/KitchenOrders',
      '/CustomerSignIn',
      '/ShoppingCart',
      '/CustomerOrderStatus',
      '/Chatroom',
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('link', { name: 'HomeCooked' })).toBeVisible();
    }
  });

  test('has no axe-core violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('kitchen-card').first()).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
  });
});
