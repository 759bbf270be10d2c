import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.js';

test('the API reference page shows every route from our own files, under our CSP, with no console error', async ({
  page,
  baseURL,
}) => {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL ?? '')) elsewhere.push(request.url());
  });
  await page.goto('/api/docs');
  // Swagger UI lays out the whole description (some 120 routes) before its first heading: on a loaded 2-core
  // machine that has taken over 10 s (a red CI run whose snapshot showed the heading just after).
  await expect(page.getByRole('heading', { name: /HomeCooked API/ })).toBeVisible({ timeout: 30_000 });
  // Swagger UI draws the operations as they are scrolled to (some 140 routes): the page is read downwards until each
  // is there, the kitchens' menu first (its tag comes before the orders').
  const drawn = async (operation: Locator) => {
    await expect
      .poll(async () => {
        if ((await operation.count()) > 0) return true;
        await page.evaluate(() => window.scrollBy(0, window.innerHeight));
        return false;
      })
      .toBe(true);
    return operation.first();
  };
  await expect(
    await drawn(page.getByRole('button', { name: /GET \/api\/kitchens\/\{uid\}\/menu/ })),
  ).toBeVisible();
  await (await drawn(page.getByRole('button', { name: /POST \/api\/orders Place an order/ }))).click();
  await expect(page.getByText('Idempotency key reused: { code, message, field }')).toBeVisible();
  expect(elsewhere).toEqual([]);
});
