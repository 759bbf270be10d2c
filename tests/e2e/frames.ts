import type { Page } from '@playwright/test';

/** Waits until the page has drawn two frames: whatever a change it received asked React for is on screen by then. */
export async function twoFramesLater(page: Page) {
  for (let frame = 0; frame < 2; frame++)
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}
