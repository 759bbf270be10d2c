import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Axe's violations once the page is still: no finite animation or transition running (endless ones, spinners,
 * may run) and at most one toast, fully shown. A toast that has just arrived is mounted transparent and starts its
 * transition a moment later, and toasts stacked behind the newest are drawn faded under it; measured then, their
 * contrast fails at random. Toasts are left out of the scan itself: one may start fading out (closing by itself)
 * while axe reads the page, which takes a second or more on a loaded machine (seen in CI: a toast read at 1.2:1).
 */
export async function axeViolations(page: Page) {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ) &&
      [...document.querySelectorAll('.mantine-Notification-root')].every(
        (toast, index) => index === 0 && getComputedStyle(toast).opacity === '1',
      ),
  );
  return (await new AxeBuilder({ page }).exclude('.mantine-Notifications-root').analyze()).violations;
}
