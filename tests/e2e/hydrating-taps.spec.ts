import type { Page } from '@playwright/test';
import { createKitchen, createKitchenWithOwner } from './db.js';
import { expect, test } from './fixtures.js';
import { twoFramesLater } from './frames.js';

/**
 * A tap made while the app hydrates a server-rendered page (src/web/ssr/early-input.ts) is held, and made again once
 * it has: React's own handling of a tap on a page it has not finished hydrating lost taps under load (a card tap that
 * opened nothing, a '+' that added nothing).
 */

declare global {
  interface Window {
    /** Set once React has hydrated the page; early input is still holding taps until `__endHydration()`. */
    __hydrated?: boolean;
    /** Ends the hold: the held taps are made again; resolves once they all have been. */
    __endHydration?: () => Promise<void>;
    /** Whether early input was holding taps when the last click came. */
    __clickHeld?: boolean;
    /** Set on the document the test loaded: still there after a navigation, that navigation stayed in the page. */
    __sameDocument?: boolean;
  }
}

/**
 * Keeps early input holding taps after React has hydrated, until the test ends the hold: the window between the
 * app's take-over and the end of its hydration, made as long as the test needs. React, hydrated, would act on any
 * tap that reached it, so one heard now and again on replay shows as twice.
 */
function holdAfterHydration() {
  let early: Window['earlyInput'];
  Object.defineProperty(window, 'earlyInput', {
    configurable: true,
    get: () => early,
    set(value: NonNullable<Window['earlyInput']>) {
      const held: NonNullable<Window['earlyInput']> = Object.create(value);
      held.takeOver = (root) => {
        const replay = value.takeOver(root);
        return () =>
          new Promise<void>((done) => {
            window.__endHydration = () => replay().then(done);
            window.__hydrated = true;
          });
      };
      early = held;
    },
  });
}

/** Notes whether the visitor's last click came while early input was holding taps (not its replay's click). */
function noteHeldClicks() {
  window.addEventListener(
    'click',
    (event) => {
      if (event.isTrusted) window.__clickHeld = window.earlyInput?.holding ?? false;
    },
    true,
  );
}

async function endHydration(page: Page) {
  await page.evaluate(() => window.__endHydration?.());
  await twoFramesLater(page);
}

test.describe('taps while the app hydrates, held until it has', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(holdAfterHydration);
  });

  test("two taps on a dish's '+' add it twice, once hydrated, and not before", async ({ page }) => {
    const { kitchen } = await createKitchenWithOwner(`Held Taps ${Date.now()}`, {
      dishes: [{ item: 'Dosa' }],
    });
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await page.waitForFunction(() => window.__hydrated);
    const add = page.getByRole('button', { name: 'Add Dosa to cart' });
    await add.click();
    await add.click();
    // Heard by React now, each would have counted at once (and again on replay).
    await expect(page.getByRole('link', { name: 'Cart (0)' })).toBeVisible();
    await endHydration(page);
    await expect(page.getByRole('link', { name: 'Cart (2)' })).toBeVisible();
  });

  test('a tap on a kitchen card opens its menu once hydrated, in the same page', async ({ page }) => {
    const kitchen = await createKitchen(`Held Card ${Date.now()}`);
    await page.goto('/');
    await page.waitForFunction(() => window.__hydrated);
    await page.evaluate(() => (window.__sameDocument = true));
    const card = page.getByTestId('kitchen-card').filter({ hasText: kitchen.name });
    await card.click();
    // Neither the browser (a page load) nor the router (a history entry) has followed it yet.
    await twoFramesLater(page);
    await expect(page).toHaveURL('/');
    await endHydration(page);
    await expect(page).toHaveURL(`/KitchenMenu/${kitchen.uid}`);
    await expect(page.getByRole('heading', { level: 1, name: kitchen.name })).toBeVisible();
    expect(await page.evaluate(() => window.__sameDocument)).toBe(true);
  });

  test('a search typed meanwhile is made once hydrated', async ({ page }) => {
    const word = `held${Date.now()}`;
    await createKitchen(`Held Search ${word}`, { dishes: [{ item: `${word} dal` }] });
    await page.goto('/');
    await page.waitForFunction(() => window.__hydrated);
    await page.getByLabel('Search kitchens and dishes').fill(word);
    await twoFramesLater(page);
    await expect(page).toHaveURL('/');
    await endHydration(page);
    await expect(page).toHaveURL(`/?q=${word}`);
    await expect(page.getByTestId('kitchen-card')).toHaveText([new RegExp(`Held Search ${word}`)]);
  });
});

test.describe('on a slow phone (the CPU twenty times slower, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  /**
   * Loads `path` on a slow phone and taps what `target` finds while early input holds taps (kept holding after
   * hydration by `holdAfterHydration`, so the tap lands in the window whatever the machine's pace, not by luck);
   * then ends the hold, and `opened` checks the tap did its work, once.
   */
  async function tapWhileHolding(
    page: Page,
    path: string,
    target: (page: Page) => ReturnType<Page['locator']>,
    opened: () => Promise<void>,
  ) {
    await page.goto(path);
    await page.waitForFunction(() => window.__hydrated);
    await target(page).tap();
    expect(await page.evaluate(() => window.__clickHeld)).toBe(true);
    await endHydration(page);
    await opened();
  }

  test("a card tap and a '+' made while the page hydrates are not lost", async ({ page }) => {
    const { kitchen } = await createKitchenWithOwner(`Slow Phone ${Date.now()}`, {
      dishes: [{ item: 'Appam' }],
    });
    await page.addInitScript(holdAfterHydration);
    await page.addInitScript(noteHeldClicks);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });

    await tapWhileHolding(
      page,
      '/',
      (p) => p.getByTestId('kitchen-card').filter({ hasText: kitchen.name }),
      () => expect(page).toHaveURL(`/KitchenMenu/${kitchen.uid}`),
    );
    await tapWhileHolding(
      page,
      `/KitchenMenu/${kitchen.uid}`,
      (p) => p.getByRole('button', { name: 'Add Appam to cart' }),
      () => expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible(),
    );
  });
});
