import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { axeFindings } from './axe.js';
import { createKitchenWithOwner } from './db.js';
import { expect, test } from './fixtures.js';
import { signInWithPopup } from './sign-in.js';

/** OPERATOR_EMAILS of the end-to-end server (playwright.config.ts). */
const OPERATOR = { email: 'operator@e2e.test', name: 'Olga Operator' };

/** Whether the page scrolls sideways (it must not, at any width). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe("a cook's codes", () => {
  // Making a code that exists already is refused (409) on purpose, and shown under the field.
  test.use({ expectedErrorTexts: [/the server responded with a status of 409/] });
  for (const width of [1280, 390]) {
    test(`a cook makes a code for their kitchen, sees its uses and turns it off, at ${width} px, axe clean`, async ({
      browser,
    }) => {
      const { cookie } = await createKitchenWithOwner(`Code Kitchen ${randomUUID().slice(0, 6)}`);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addCookies([cookie]);
      const page = await context.newPage();
      await page.goto('/Earnings');
      const codes = page.getByRole('region', { name: 'Promotion codes' });
      await expect(codes.getByText('No codes yet')).toBeVisible();
      const name = `ASHA${randomUUID().slice(0, 6).toUpperCase()}`;
      await codes.getByLabel('Code', { exact: true }).fill(name.toLowerCase());
      await codes.getByText('Percent off').first().click();
      // A percentage left empty is named under its field.
      await codes.getByRole('button', { name: 'Create code' }).click();
      await expect(codes.getByText('Enter the percentage off')).toBeVisible();
      await codes.getByRole('textbox', { name: 'Percent off' }).fill('10');
      await codes.getByLabel('At most (optional)').fill('3.00');
      await codes.getByLabel('Uses per customer (optional)').fill('1');
      await codes.getByRole('button', { name: 'Create code' }).click();
      const card = codes.getByTestId('promo-code').filter({ hasText: name });
      await expect(card).toContainText('10 % off, at most $3.00');
      await expect(card).toContainText('0 uses · once per customer');
      await expect(card).toContainText('The kitchen pays');
      expect(await overflows(page)).toBe(false);
      expect(await axeFindings(page)).toEqual([]);
      await card.getByRole('button', { name: `Turn off ${name}` }).click();
      await expect(card.getByText('Off', { exact: true })).toBeVisible();
      // The same code again is refused, named under the field.
      await codes.getByLabel('Code', { exact: true }).fill(name);
      await codes.getByText('Amount off').first().click();
      await codes.getByRole('textbox', { name: 'Amount off' }).fill('2');
      await codes.getByRole('button', { name: 'Create code' }).click();
      await expect(codes.getByText(`The code ${name} exists already.`)).toBeVisible();
      expect(await axeFindings(page)).toEqual([]);
      await context.close();
    });
  }
});

test.describe("the operator's codes", () => {
  // A kitchen that does not exist is refused (400) on purpose, and shown under its field.
  test.use({ expectedErrorTexts: [/the server responded with a status of 400/] });
  test("the operator generates a platform code on the 'Codes' tab, at 390 px, axe clean", async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/Operator');
    await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), OPERATOR);
    await page.getByRole('tab', { name: 'Codes' }).click();
    await page.getByRole('textbox', { name: 'Amount off' }).fill('5');
    await page.getByLabel('Uses in all (optional)').fill('100');
    await page.getByRole('button', { name: 'Create code' }).click();
    // Left empty: an unguessable code of the alphabet without look-alikes.
    const card = page.getByTestId('promo-code').filter({ hasText: '0 of 100 uses' }).first();
    await expect(card).toContainText('The platform pays');
    await expect(card).toContainText('$5.00 off');
    await expect(card.locator('p').first()).toHaveText(/^[ACDEFGHJKMNPQRTUVWXY34679]{10}$/);
    expect(await overflows(page)).toBe(false);
    expect(await axeFindings(page)).toEqual([]);
    // A platform code for one kitchen only: a kitchen that does not exist is named under the field, then a real one.
    const kitchenName = `Only Here ${randomUUID().slice(0, 6)}`;
    const { kitchen } = await createKitchenWithOwner(kitchenName);
    const code = `ONLY${randomUUID().slice(0, 6).toUpperCase()}`;
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByRole('textbox', { name: 'Amount off' }).fill('2');
    const onlyKitchen = page.getByRole('textbox', { name: 'One kitchen only (optional)' });
    await onlyKitchen.fill(randomUUID());
    await page.getByRole('button', { name: 'Create code' }).click();
    await expect(onlyKitchen).toHaveAccessibleDescription(/There is no such kitchen/);
    await onlyKitchen.fill(kitchen.uid);
    await page.getByRole('button', { name: 'Create code' }).click();
    const only = page.getByTestId('promo-code').filter({ hasText: code });
    await expect(only).toContainText(`at ${kitchenName} only`);
    expect(await overflows(page)).toBe(false);
    await context.close();
  });
});
