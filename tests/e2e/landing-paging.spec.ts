import type { Page } from '@playwright/test';
import { backdateKitchens, createKitchen, createKitchens, renameKitchen } from './db.js';
import { expect, test } from './fixtures.js';

test.describe('landing page, a page at a time', () => {
  const added: string[] = [];
  // The worker's later tests look for the demo kitchens on the first page: these go to the end of the list.
  test.afterAll(() => backdateKitchens(added.splice(0)));

  test('60 kitchens: shows 24, more on demand to the third page, and back returns to the same place', async ({
    page,
  }) => {
    const stamp = Date.now();
    const names = Array.from({ length: 60 }, (_, i) => `Paged ${String(i).padStart(2, '0')} ${stamp}`);
    added.push(...(await createKitchens(names)).map((k) => k.uid));
    await page.goto('/');
    const cards = page.getByTestId('kitchen-card');
    await expect(cards.filter({ hasText: names[59]! })).toBeVisible();
    // The first view holds the first page only.
    await expect(cards).toHaveCount(24);
    await expect(cards.filter({ hasText: names[0]! })).toHaveCount(0);
    const more = page.getByRole('button', { name: 'Show more kitchens' });
    // Click (or scroll) until the oldest of ours, on the third page, is there.
    await expect(async () => {
      if (await more.isVisible()) await more.click();
      await expect(cards.filter({ hasText: names[0]! })).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(page).toHaveURL(/[?&]shown=(72|96)/);
    const uids = await cards.evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(new Set(uids).size).toBe(uids.length);
    await cards.filter({ hasText: names[0]! }).click();
    await expect(page).toHaveURL(/\/KitchenMenu\//);
    await page.goBack();
    await expect(page).toHaveURL(/[?&]shown=(72|96)/);
    await expect(cards.filter({ hasText: names[0]! })).toBeVisible();
    await expect(cards.filter({ hasText: names[59]! })).toBeVisible();
  });

  test('a kitchen on page three changing does not re-render page one; one on page one does', async ({
    page,
    context,
  }) => {
    const stamp = Date.now();
    const made = await createKitchens(
      Array.from({ length: 60 }, (_, i) => `Quiet ${String(i).padStart(2, '0')} ${stamp}`),
    );
    added.push(...made.map((k) => k.uid));
    const firstPageFrames = await countFirstPageFrames(page);
    await page.goto('/');
    const cards = page.getByTestId('kitchen-card');
    await expect(cards.filter({ hasText: made[59]!.name })).toBeVisible();
    // The stream is open (the page's own version of the first page is not sent again: it may send none).
    await expect.poll(() => firstPageFrames.ready).toBeGreaterThan(0);
    const before = firstPageFrames.count;
    // The oldest of ours is on the third page. Its own page (another tab) shows when its change went out.
    const far = made[0]!;
    const farPage = await context.newPage();
    await farPage.goto(`/KitchenMenu/${far.uid}`);
    await renameKitchen(far.uid, `${far.name} renamed`);
    await expect(farPage.getByRole('heading', { level: 1, name: `${far.name} renamed` })).toBeVisible();
    // A change on page one, after it: the landing page hears of that one, and of nothing before it.
    const near = made[58]!;
    await renameKitchen(near.uid, `${near.name} renamed`);
    await expect(cards.filter({ hasText: `${near.name} renamed` })).toBeVisible();
    expect(firstPageFrames.count).toBe(before + 1);
  });

  test('a new kitchen appears live on an open first page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('kitchen-card').first()).toBeVisible();
    const name = `Live paged ${Date.now()}`;
    await createKitchen(name);
    await expect(page.getByTestId('kitchen-card').first()).toContainText(name);
  });
});

/**
 * Counts the landing page's first-page snapshots and deltas arriving on the tab's live stream, and the stream's
 * `ready` events (DevTools' network events).
 */
async function countFirstPageFrames(page: Page) {
  const counter = { count: 0, ready: 0 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.eventSourceMessageReceived', (event) => {
    if (event.eventName === 'ready') counter.ready++;
    if (event.data.startsWith('{"topic":"/api/kitchens/first-page"')) counter.count++;
  });
  return counter;
}
