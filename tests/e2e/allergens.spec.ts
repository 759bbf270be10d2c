import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { answersWith } from '../../src/shared/allergen-declaration.js';
import { axeFindings } from './axe.js';
import { createKitchenWithOwner, customerSessionCookie, undeclareDish } from './db.js';
import { expect, test } from './fixtures.js';

/** A kitchen with a dish holding sesame and one holding none, its cook's session in `context`. */
async function kitchenWithSesame(context: BrowserContext) {
  const { kitchen, cookie } = await createKitchenWithOwner(`Allergens ${randomUUID().slice(0, 8)}`);
  await context.addCookies([cookie]);
  for (const [item, allergenAnswers, ingredients] of [
    ['Sesame noodles', answersWith({ sesame: 'contains', wheat: 'contains' }), 'Wheat noodles, sesame paste'],
    ['Plain rice', answersWith({}), 'Rice, water'],
  ] as const) {
    const res = await context.request.post('/api/kitchen/menu', {
      data: {
        item,
        price: '8.00',
        wait: '15 min',
        imageLink: 'https://images.invalid/dish.png',
        ingredients,
        allergenAnswers,
      },
    });
    expect(res.status()).toBe(201);
  }
  return kitchen;
}

/** The landing page searched for the sesame dish: this kitchen's card, found by it. */
async function searchSesameNoodles(page: Page, kitchen: { name: string }) {
  await page.goto(`/?q=${encodeURIComponent('Sesame noodles')}`);
  return page.getByRole('link', { name: new RegExp(`^${kitchen.name},`) });
}

test.describe('safe to eat for people with allergies', () => {
  // Each walks through several pages (menu, cart, the cook's orders) on a shared, busy machine.
  test.slow();
  // The first submit is refused in the browser; nothing reaches the server, so no error is logged.
  test("with a sesame profile: the dish is marked, hidden by the filter, and 'Submit order' waits for the acknowledgement; the cook sees the allergy", async ({
    context,
    page,
  }) => {
    const kitchen = await kitchenWithSesame(context);
    const email = `allergic-${randomUUID()}@e2e.test`;
    await context.addCookies([await customerSessionCookie(email)]);
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    const noodles = page.getByTestId('menu-item').filter({ hasText: 'Sesame noodles' });
    const rice = page.getByTestId('menu-item').filter({ hasText: 'Plain rice' });
    await expect(noodles).toContainText('Ingredients: Wheat noodles, sesame paste');
    await expect(noodles).toContainText('Contains: sesame, wheat');
    await expect(noodles).not.toContainText('Contains sesame');

    await page.getByRole('button', { name: 'Your allergies' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your allergies' });
    await dialog.getByRole('checkbox', { name: 'sesame' }).check();
    await dialog.getByRole('button', { name: 'Save my allergies' }).click();
    await expect(dialog).toBeHidden();
    // Marked in words beside a sign, not by colour alone; the other dish is not.
    await expect(noodles.getByRole('note', { name: 'Your allergies' })).toHaveText(/Contains sesame/);
    await expect(rice.getByRole('note')).toHaveCount(0);
    expect(await axeFindings(page)).toEqual([]);

    await page.getByRole('switch', { name: 'Hide dishes with my allergens' }).check();
    await expect(noodles).toBeHidden();
    await expect(rice).toBeVisible();
    await expect(page.getByText('1 dish hidden')).toBeVisible();
    await page.getByRole('switch', { name: 'Hide dishes with my allergens' }).uncheck();

    // The search leaves the dish out too: the kitchen is found by it, and not once the switch is on.
    const card = await searchSesameNoodles(page, kitchen);
    await expect(card).toContainText('Matches: Sesame noodles');
    await page.getByRole('switch', { name: 'Hide dishes with my allergens' }).check();
    await expect(card).toHaveCount(0);
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('switch', { name: 'Hide dishes with my allergens' }).uncheck();
    await expect(card).toBeVisible();

    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await page.getByRole('button', { name: 'Add Sesame noodles to cart' }).click();
    await page.getByRole('link', { name: 'Cart (1)' }).click();
    await page.getByRole('combobox', { name: 'Delivery address' }).fill('Flat 2, 5 Test Road');
    const understand = page.getByRole('checkbox', { name: 'I understand this order contains sesame' });
    await expect(understand).not.toBeChecked();
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page.getByText('Tick this to send an order holding your allergens')).toBeVisible();
    await expect(page.getByText('Your Order is sent')).toBeHidden();
    expect(await axeFindings(page)).toEqual([]);
    await understand.check();
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect(page.getByText('Your Order is sent')).toBeVisible();

    const cook = await context.newPage();
    await cook.goto('/KitchenOrders');
    const row = cook
      .getByRole('table', { name: 'Orders of your kitchen' })
      .getByRole('row')
      .filter({ hasText: email });
    await expect(row).toContainText('Customer allergies: sesame');
    await expect(row.getByRole('link', { name: 'Packing list (PDF)' })).toBeVisible();
  });

  test("a visitor's allergies stay in the browser and mark the menu after a reload", async ({
    context,
    page,
  }) => {
    const kitchen = await kitchenWithSesame(context);
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await page.getByRole('button', { name: 'Your allergies' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your allergies' });
    await expect(dialog.getByText('Kept in this browser.', { exact: false })).toBeVisible();
    await dialog.getByRole('checkbox', { name: 'wheat' }).check();
    await dialog.getByRole('button', { name: 'Save my allergies' }).click();
    await page.reload();
    const noodles = page.getByTestId('menu-item').filter({ hasText: 'Sesame noodles' });
    await expect(noodles.getByRole('note', { name: 'Your allergies' })).toHaveText(/Contains wheat/);

    // The same filter on the search, for the visit: kept in the browser across a reload.
    const card = await searchSesameNoodles(page, kitchen);
    await expect(card).toBeVisible();
    const hide = page.getByRole('switch', { name: 'Hide dishes with my allergens' });
    await hide.check();
    await expect(card).toHaveCount(0);
    await page.reload();
    await expect(hide).toBeChecked();
    // The search answered ('… kitchens match', or none), without this kitchen.
    await expect(page.getByText(/kitchens? match/)).toBeVisible();
    await expect(card).toHaveCount(0);
    await hide.uncheck();
    await expect(card).toBeVisible();
    await expect(page.getByText('Marking: wheat')).toBeVisible();
  });

  test("the cook's form asks about every allergen before a new dish is added", async ({ context, page }) => {
    const kitchen = await kitchenWithSesame(context);
    // The API publishes no dish without its answers, naming the field.
    const dish = { item: 'Old tahini', price: '3', wait: '5 min', imageLink: 'https://images.invalid/t.png' };
    const unanswered = await context.request.post('/api/kitchen/menu', { data: dish });
    expect(unanswered.status()).toBe(400);
    expect(await unanswered.json()).toMatchObject({ field: 'allergenAnswers' });
    // A dish of before declarations (tags only): listed for the cook, 'Allergens not declared' to customers.
    const tagged = await context.request.post('/api/kitchen/menu', {
      data: { ...dish, allergenAnswers: answersWith({}) },
    });
    expect(tagged.status()).toBe(201);
    await undeclareDish(kitchen.uid, ((await tagged.json()) as { id: string }).id, ['sesame']);
    await page.goto('/MenuDashboard');
    await expect(page.getByText('These dishes need their allergen answers')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Answer for Old tahini' })).toBeVisible();
    const visitor = await context.browser()!.newPage();
    await visitor.goto(`${new URL(page.url()).origin}/KitchenMenu/${kitchen.uid}`);
    await expect(visitor.getByTestId('menu-item').filter({ hasText: 'Old tahini' })).toContainText(
      'Allergens not declared',
    );
    await visitor.close();

    await page.goto('/KitchenRegister');
    await page.getByRole('textbox', { name: 'Item', exact: true }).fill('Halva');
    await page.getByLabel('Image of your Item Link').fill('https://images.invalid/h.png');
    await page.getByLabel('Price').fill('4.00');
    await page.getByLabel('Wait Time').fill('5 min');
    await page
      .getByRole('radiogroup', { name: 'Does this dish contain sesame?' })
      .getByRole('radio', { name: 'Contains' })
      .check();
    await page.getByRole('button', { name: 'Add Menu' }).click();
    await expect(
      page.getByText('Answer whether this dish contains milk: contains, may contain or no'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Answer No to the ones left' }).click();
    await page.getByRole('button', { name: 'Add Menu' }).click();
    await expect(page.getByText('Added to your menu')).toBeVisible();
  });
});
