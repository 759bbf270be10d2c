import { createKitchen } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';

/** A word of random letters, so that this run's kitchens are the only ones matching it. */
const randomWord = () =>
  Array.from({ length: 9 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

test.describe('finding food on the landing page', () => {
  test('a search with a typo finds a kitchen by its dish, naming the dish; an empty result offers to clear', async ({
    page,
  }) => {
    const word = randomWord();
    const name = `Kitchen ${word}`;
    await createKitchen(name, { category: 'Indian', dishes: [{ item: `Hyderabadi ${word} Biryani` }] });
    await page.goto('/');
    const field = page.getByLabel('Search kitchens and dishes');
    // One letter dropped from "Biryani".
    await field.fill('biryni');
    const card = page.getByTestId('kitchen-card').filter({ hasText: name });
    await expect(card).toBeVisible();
    await expect(card).toContainText(`Matches: Hyderabadi ${word} Biryani`);
    await expect(page).toHaveURL(/\?q=/);
    expect(await axeFindings(page)).toEqual([]);

    await field.fill('qqqzzzxxxwww');
    await expect(page.getByText('No kitchens match your search.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(field).toHaveValue('');
    await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
  });

  test('a dietary filter narrows the grid, a shared URL restores the same results, and back undoes it', async ({
    page,
    browser,
  }) => {
    const word = randomWord();
    await createKitchen(`Halal ${word}`, { dishes: [{ item: `${word} shawarma`, dietary: ['halal'] }] });
    await createKitchen(`Plain ${word}`, { dishes: [{ item: `${word} pork buns` }] });
    await page.goto('/');
    await page.getByLabel('Search kitchens and dishes').fill(word);
    await expect(page).toHaveURL(`/?q=${word}`);
    const cards = page.getByTestId('kitchen-card');
    await expect(cards.filter({ hasText: `Plain ${word}` })).toBeVisible();
    await expect(cards.filter({ hasText: `Halal ${word}` })).toBeVisible();
    await page.getByRole('group', { name: 'Dietary needs' }).getByText('Halal', { exact: true }).click();
    await expect(page).toHaveURL(/diet=halal/);
    await expect(cards.filter({ hasText: `Plain ${word}` })).toHaveCount(0);
    await expect(cards.filter({ hasText: `Halal ${word}` })).toBeVisible();

    const shared = page.url();
    const other = await browser.newPage();
    await other.goto(shared);
    await expect(other.getByLabel('Search kitchens and dishes')).toHaveValue(word);
    await expect(other.getByRole('checkbox', { name: 'Halal' })).toBeChecked();
    await expect(other.getByTestId('kitchen-card')).toHaveText([new RegExp(`Halal ${word}`)]);
    await other.close();

    await page.goBack();
    await expect(page.getByRole('checkbox', { name: 'Halal' })).not.toBeChecked();
    await expect(cards.filter({ hasText: `Plain ${word}` })).toBeVisible();
  });

  test('a new kitchen matching the open search appears live, also when only its dish matches', async ({
    page,
  }) => {
    const word = randomWord();
    await page.goto(`/?q=${word}`);
    await expect(page.getByText('No kitchens match your search.')).toBeVisible();
    await createKitchen(`Nasi ${word} Lemak`, { category: 'Malaysian' });
    await expect(page.getByTestId('kitchen-card').filter({ hasText: `Nasi ${word} Lemak` })).toBeVisible();
    // The kitchen is written first and its dish afterwards: the dish's own change brings it in.
    await createKitchen('Warung Sari', { dishes: [{ item: `Rendang ${word}` }] });
    await expect(page.getByTestId('kitchen-card').filter({ hasText: 'Warung Sari' })).toContainText(
      `Matches: Rendang ${word}`,
    );
  });

  test("'Use my location' asks the browser only on the click, then shows distances", async ({ browser }) => {
    const context = await browser.newContext({
      permissions: ['geolocation'],
      geolocation: { latitude: 51.5226, longitude: -0.1571 },
    });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const calls: number[] = [];
      (window as unknown as { geoCalls: number[] }).geoCalls = calls;
      const original = navigator.geolocation.getCurrentPosition.bind(navigator.geolocation);
      navigator.geolocation.getCurrentPosition = (...args) => {
        calls.push(Date.now());
        original(...args);
      };
    });
    await page.goto('/');
    await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { geoCalls: number[] }).geoCalls.length)).toBe(0);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await expect(page).toHaveURL(/near=51\.523,-0\.157/);
    await expect(page.getByText('Showing the nearest kitchens first.')).toBeVisible();
    await context.close();
  });

  test('a visitor picks an address from the suggestions: distances show, nearest first, and the place is in the URL', async ({
    page,
  }) => {
    const word = randomWord();
    // Downing Street is about 3 km from 221B Baker Street; Greenwich about 12 km.
    await createKitchen(`Far ${word}`, { location: { lat: 51.4769, lon: -0.0005 } });
    await createKitchen(`Near ${word}`, { location: { lat: 51.5034, lon: -0.1276 } });
    await page.goto(`/?q=${word}`);
    const cards = page.getByTestId('kitchen-card');
    await expect(cards).toHaveCount(2);
    const picker = page.getByRole('combobox', { name: 'Or pick an address' });
    await picker.fill('221B Baker');
    await page.getByRole('option', { name: /221B Baker Street/ }).click();
    await expect(page).toHaveURL(/near=51\.52\d,-0\.1[56]\d/);
    await expect(page.getByText('Showing the nearest kitchens first.')).toBeVisible();
    await expect(cards).toHaveText([
      // In American English, in miles: about 2 mi, a radius of 5 km is 3.1 mi; Greenwich about 7 mi.
      new RegExp(`Near ${word}.*[12](\\.\\d)? mi · Delivers within 3\\.1 mi`),
      new RegExp(`Far ${word}.*\\d(\\.\\d)? mi · Outside delivery area`),
    ]);
    // A shared link (no sign-in) shows the same order.
    await page.reload();
    await expect(cards.first()).toContainText(`Near ${word}`);
    await page.getByRole('button', { name: 'Forget my location' }).click();
    await expect(page).not.toHaveURL(/near=/);
  });
});
