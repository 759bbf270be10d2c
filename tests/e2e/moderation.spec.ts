import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { createKitchenWithOwner } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

/** OPERATOR_EMAILS of the end-to-end server (playwright.config.ts). */
const OPERATOR = { email: 'operator@e2e.test', name: 'Olga Operator' };

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function openChat(browser: Browser, name: string) {
  const page = await newPage(browser);
  await page.goto('/Chatroom');
  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), newPerson(name));
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  return page;
}

async function openOperatorPage(browser: Browser) {
  const page = await newPage(browser);
  await page.goto('/Operator');
  await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), OPERATOR);
  await expect(page.getByRole('heading', { name: 'Moderation' })).toBeVisible();
  return page;
}

/** Reports something through the 'Report' button inside `scope`, with `reason`. */
async function report(page: Page, scope: ReturnType<Page['locator']>, reason: string) {
  await scope.getByRole('button', { name: 'Report', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('An operator will look at your report.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

test.describe('moderation', () => {
  test('a reported chat message hidden on /Operator leaves open chat pages without a reload', async ({
    browser,
  }) => {
    const author = await openChat(browser, `Rude Ray ${randomUUID().slice(0, 6)}`);
    const reader = await openChat(browser, `Reporting Rita ${randomUUID().slice(0, 6)}`);
    const text = `Buy cheap pills ${randomUUID()}`;
    await author.getByRole('textbox', { name: 'Message' }).fill(text);
    await author.getByRole('textbox', { name: 'Message' }).press('Enter');
    const onReader = reader.getByTestId('chat-message').filter({ hasText: text });
    await expect(onReader).toBeVisible();
    // One's own message has no 'Report'.
    await expect(
      author.getByTestId('chat-message').filter({ hasText: text }).getByRole('button', { name: 'Report' }),
    ).toHaveCount(0);

    const reason = `Spam ${randomUUID().slice(0, 8)}`;
    await onReader.getByRole('button', { name: 'Report', exact: true }).click();
    await expect(reader.getByRole('dialog')).toBeVisible();
    expect(await axeFindings(reader)).toEqual([]);
    await reader.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await report(reader, onReader, reason);

    const operator = await openOperatorPage(browser);
    const item = operator.getByRole('listitem').filter({ hasText: reason });
    await expect(item).toContainText(text);
    await expect(item).toContainText('Reported by Reporting Rita');
    expect(await axeFindings(operator)).toEqual([]);
    await item.getByRole('button', { name: 'Hide message' }).click();
    await expect(operator.getByRole('listitem').filter({ hasText: reason })).toHaveCount(0);
    await expect(operator.getByRole('table', { name: 'Recent actions' })).toContainText(
      `${OPERATOR.email}hid a chat message`,
    );

    // Both open chat pages lose it, with no reload.
    await expect(onReader).toHaveCount(0);
    await expect(author.getByTestId('chat-message').filter({ hasText: text })).toHaveCount(0);
    await Promise.all([author, reader, operator].map((p) => p.context().close()));
  });

  test('a suspended kitchen vanishes from an open landing page, its page says it is unavailable; lifting brings it back', async ({
    browser,
  }) => {
    const name = `Shady Kitchen ${randomUUID().slice(0, 8)}`;
    const { kitchen, cookie } = await createKitchenWithOwner(name, { dishes: [{ item: 'Mystery Stew' }] });
    const landing = await newPage(browser);
    await landing.goto('/');
    const card = landing.getByTestId('kitchen-card').filter({ hasText: name });
    await expect(card).toBeVisible();

    // A customer reports it from its menu page.
    const customer = await newPage(browser);
    await customer.goto('/CustomerSignIn');
    await signInWithPopup(
      customer,
      customer.getByRole('button', { name: 'Sign in with Google' }),
      newPerson('Careful Carla'),
    );
    await customer.goto(`/KitchenMenu/${kitchen.uid}`);
    await expect(customer.getByRole('heading', { name })).toBeVisible();
    await customer.getByRole('button', { name: 'Add Mystery Stew to cart' }).click();
    const reason = `Not a real kitchen ${randomUUID().slice(0, 8)}`;
    await report(customer, customer.locator('main'), reason);

    const operator = await openOperatorPage(browser);
    const item = operator.getByRole('listitem').filter({ hasText: reason });
    await expect(item.getByRole('link', { name })).toHaveAttribute('href', `/KitchenMenu/${kitchen.uid}`);
    await item.getByRole('button', { name: 'Suspend kitchen' }).click();

    await expect(card).toHaveCount(0);
    await expect(customer.getByText('This kitchen is unavailable right now.')).toBeVisible();
    await expect(customer.getByRole('heading', { name })).toHaveCount(0);
    // Its dish in the cart: the cart says why it cannot be ordered (its menu is served to no one but its cook).
    await customer.goto('/ShoppingCart');
    await expect(customer.getByTestId('cart-availability')).toContainText(
      `${name} is unavailable right now.`,
    );
    await customer.goto(`/KitchenMenu/${kitchen.uid}`);
    await expect(customer.getByText('This kitchen is unavailable right now.')).toBeVisible();
    // The cook still runs their dashboard, and is told.
    const cookContext = await browser.newContext();
    await cookContext.addCookies([cookie]);
    const cook = await cookContext.newPage();
    await cook.goto('/MenuDashboard');
    await expect(cook.getByRole('alert').filter({ hasText: 'Your kitchen is suspended' })).toBeVisible();
    await expect(cook.getByRole('link', { name: '1 MENU' })).toBeVisible();
    await expect(cook.getByRole('cell', { name: 'Mystery Stew', exact: true })).toBeVisible();

    const suspended = operator.getByRole('listitem').filter({ hasText: name });
    await suspended.getByRole('button', { name: 'Lift suspension' }).click();
    await expect(card).toBeVisible();
    await expect(customer.getByRole('heading', { name })).toBeVisible();
    // The cook's open dashboard hears it too.
    await expect(cook.getByRole('alert').filter({ hasText: 'Your kitchen is suspended' })).toHaveCount(0);
    await cookContext.close();
    await expect(operator.getByRole('table', { name: 'Recent actions' })).toContainText(
      `${OPERATOR.email}lifted a kitchen's suspension`,
    );
    await Promise.all([landing, customer, operator].map((p) => p.context().close()));
  });

  test('an email not in OPERATOR_EMAILS cannot sign in at /Operator', async ({ page }) => {
    await page.goto('/Operator');
    await signInWithPopup(
      page,
      page.getByRole('button', { name: 'Sign in with Google' }),
      newPerson('Mallory Meddler'),
    );
    await expect(page.getByText('Only the operators this site lists can sign in here.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Moderation' })).toHaveCount(0);
  });
});
