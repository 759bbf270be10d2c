import type { Page } from '@playwright/test';
import { createKitchen, createKitchenWithOwner, placeOrderAs } from './db.js';
import { expect, test } from './fixtures.js';
import { twoFramesLater } from './frames.js';

declare global {
  interface Window {
    /** Every snapshot and delta the page's live streams delivered, as its text. */
    __streamed?: string[];
  }
}

/** Records the snapshots and deltas each live stream delivers, before the app hears them. */
function recordStreams() {
  const streamed: string[] = [];
  window.__streamed = streamed;
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      // LIVE_EVENT.snapshot and .delta (an init script runs in the page: it can import nothing).
      for (const name of ['snapshot', 'delta'])
        this.addEventListener(name, (event: MessageEvent<string>) => streamed.push(event.data));
    }
  };
}

/** The page has received `text` on a live stream, and drawn two frames since: a change it made is on screen. */
async function received(page: Page, text: string) {
  await page.waitForFunction((wanted) => window.__streamed?.some((data) => data.includes(wanted)), text);
  await twoFramesLater(page);
}

/**
 * Presses the mouse down in the middle of what `locator` finds (and leaves it down). Other tests add kitchens
 * meanwhile: one arriving between measuring and pressing puts another card there, and the press is made again.
 */
async function pressOn(page: Page, locator: ReturnType<Page['locator']>) {
  for (let attempt = 0; attempt < 5; attempt++) {
    await locator.scrollIntoViewIfNeeded();
    const box = await locator.boundingBox();
    if (!box) throw new Error('nothing to press on');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    if (await locator.evaluate((element) => element.matches(':active'))) return;
    // Released off the page's content: the click goes to no card.
    await page.mouse.move(1, 1);
    await page.mouse.up();
  }
  throw new Error('the press kept landing elsewhere');
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(recordStreams);
});

test('a kitchen added while a card is pressed waits for the release: the pressed kitchen opens', async ({
  page,
}) => {
  const pressed = await createKitchen(`Pressed ${Date.now()}`);
  await page.goto('/');
  const card = page.getByTestId('kitchen-card').filter({ hasText: pressed.name });
  await expect(card).toBeVisible();
  await pressOn(page, card);

  const arriving = `Arriving ${Date.now()}`;
  await createKitchen(arriving);
  await received(page, arriving);
  // Newest first, it would have taken the pressed card's place.
  await expect(page.getByTestId('kitchen-card').filter({ hasText: arriving })).toHaveCount(0);

  await page.mouse.up();
  await expect(page).toHaveURL(`/KitchenMenu/${pressed.uid}`);
  await page.goBack();
  await expect(page.getByTestId('kitchen-card').filter({ hasText: arriving })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("an order placed while the cook presses another's 'Accept' waits for the release: the pressed order is the one accepted", async ({
    page,
  }) => {
    const { kitchen, items, cookie } = await createKitchenWithOwner(`Steady ${Date.now()}`, {
      dishes: [{ item: 'Dal' }, { item: 'Rice' }],
    });
    await page.context().addCookies([cookie]);
    await placeOrderAs(kitchen.uid, [items[0]!.id]);
    await page.goto('/KitchenOrders');
    const cards = page.getByTestId('order-card');
    await expect(cards).toHaveCount(1);
    const pressedBy = await cards
      .first()
      .getByText(/@e2e\.test$/)
      .textContent();
    await pressOn(page, cards.first().getByRole('button', { name: 'Accept' }));

    const arriving = await placeOrderAs(kitchen.uid, [items[1]!.id]);
    await received(page, arriving.order.id);
    // Newest first, it would have taken the pressed order's place.
    await expect(cards).toHaveCount(1);

    await page.mouse.up();
    await expect(page.getByRole('dialog', { name: 'Accept this order' })).toContainText(pressedBy ?? '?');
    await expect(cards).toHaveCount(2);
    await expect(cards.first()).toContainText('Rice');
  });
});
