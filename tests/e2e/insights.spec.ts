import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { compileCatalogues } from '../../src/server/i18n/catalogues.js';
import { Translator } from '../../src/shared/i18n/translator.js';
import { axeFindings } from './axe.js';
import { addOrderHistory, countMealsInSantaBarbara, createKitchenWithOwner } from './db.js';
import { expect, test } from './fixtures.js';
import { signInWithPopup } from './sign-in.js';

/** OPERATOR_EMAILS of the end-to-end server (playwright.config.ts). */
const OPERATOR = { email: 'operator@e2e.test', name: 'Olga Operator' };

/** A cook with four weeks of orders behind them: Dal sells most, Soup never. */
async function cookWithHistory() {
  const owner = await createKitchenWithOwner(`Insight Kitchen ${randomUUID().slice(0, 6)}`, {
    dishes: [{ item: 'Dal' }, { item: 'Rice' }, { item: 'Soup' }],
  });
  expect(await addOrderHistory(owner.kitchen.uid, 28)).toBeGreaterThan(50);
  return owner;
}

/** Whether the page scrolls sideways (it must not, at any width). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

for (const width of [1280, 390]) {
  test(`a cook with weeks of history sees the charts and the tables behind them at ${width} px, axe clean`, async ({
    browser,
  }) => {
    test.slow();
    const { cookie } = await cookWithHistory();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([cookie]);
    const page = await context.newPage();
    await page.goto('/Earnings');
    await page.getByRole('link', { name: 'Insights' }).click();
    await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
    const sales = page.getByRole('region', { name: 'Sales per day' });
    await expect(sales.locator('.recharts-bar-rectangle path').first()).toBeVisible();
    await expect(page.getByText('Not sold in 30 days: Soup')).toBeVisible();
    await expect(page.getByText(/^Repeat rate: \d+%/)).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: /^Amira: \d+ orders, last / })).toBeVisible();
    expect(await overflows(page)).toBe(false);
    expect(await axeFindings(page)).toEqual([]);

    // Each chart's figures as a table.
    await sales.getByRole('button', { name: 'Show as table' }).click();
    await expect(sales.getByRole('button', { name: 'Show as table' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(sales.getByRole('table').getByRole('row')).toHaveCount(29);
    const dishes = page.getByRole('region', { name: 'Dishes that sell' });
    await dishes.getByRole('button', { name: 'Show as table' }).click();
    await expect(dishes.getByRole('row').nth(1)).toContainText('Dal');
    await expect(dishes.getByRole('cell', { name: 'Soup' })).toHaveCount(0);
    const hours = page.getByRole('region', { name: 'When orders come' });
    await hours.getByRole('button', { name: 'Show as table' }).click();
    await expect(hours.getByRole('cell', { name: '19:00' }).first()).toBeVisible();
    expect(await overflows(page)).toBe(false);
    expect(await axeFindings(page)).toEqual([]);

    // Another period: the last 12 months, in weeks.
    await page.getByText('Last 12 months').click();
    await expect(page.getByRole('region', { name: 'Sales per week' })).toBeVisible();
    await context.close();
  });
}

test('a cook where the rules cap meals sees each day and week against the cap, at 390 px, axe clean', async ({
  browser,
}) => {
  const { cookie, kitchen } = await cookWithHistory();
  // Busy days and quiet ones; the busiest, three days ago, sold all 30 of its meals.
  await countMealsInSantaBarbara(kitchen.uid, 28, (ago) => (ago === 3 ? 30 : (ago * 7) % 23));
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([cookie]);
  const page = await context.newPage();
  await page.goto('/Insights');
  const days = page.getByRole('region', { name: 'Meals per day against the cap' });
  await expect(days.getByText('The cap: 30 meals. The most counted: 30.')).toBeVisible();
  // The cap drawn as a line across the bars.
  await expect(days.locator('.recharts-reference-line line')).toHaveAttribute('stroke', /.+/);
  const weeks = page.getByRole('region', { name: 'Meals per week against the cap' });
  await expect(weeks.getByText(/^The cap: 60 meals\./)).toBeVisible();
  await weeks.getByRole('button', { name: 'Show as table' }).click();
  await expect(weeks.getByRole('row').nth(1)).toContainText(/Week of .*60$/);
  expect(await overflows(page)).toBe(false);
  expect(await axeFindings(page)).toEqual([]);
  await context.close();
});

test("the cook's Insights in English and Arabic, for docs/screenshots", async ({ browser }, testInfo) => {
  test.slow();
  const { cookie } = await cookWithHistory();
  const catalogues = compileCatalogues(join(import.meta.dirname, '..', '..', 'locales'));
  for (const locale of ['en', 'ar'] as const) {
    const w = new Translator({ locale, messages: catalogues[locale], currency: 'USD' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([cookie, { name: 'lang', value: locale, url: process.env.E2E_BASE_URL ?? '' }]);
    const page = await context.newPage();
    await page.goto('/Insights');
    await expect(page.getByRole('heading', { name: w.t('Insights'), level: 1 })).toBeVisible();
    await expect(page.locator('.recharts-bar-rectangle path').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const dir = process.env.UPDATE_SCREENSHOTS
      ? join(import.meta.dirname, '..', '..', 'docs', 'screenshots')
      : testInfo.outputPath();
    await page.screenshot({ path: join(dir, `${locale}-insights.png`), fullPage: true });
    await context.close();
  }
});

test("the operator's Overview: the marketplace per day, by hour, its top and slow kitchens, axe clean", async ({
  browser,
}) => {
  test.slow();
  const { kitchen } = await cookWithHistory();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto('/Operator');
  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), OPERATOR);
  await page.getByRole('tab', { name: 'Overview' }).click();
  const days = page.getByRole('region', { name: 'Gross order value per day' });
  await expect(days.locator('.recharts-bar-rectangle path').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Orders by hour' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(kitchen.name) }).first()).toBeVisible();
  expect(await axeFindings(page)).toEqual([]);
  await days.getByRole('button', { name: 'Show as table' }).click();
  await expect(days.getByRole('table').getByRole('row')).toHaveCount(29);
  expect(await axeFindings(page)).toEqual([]);
});
