import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Axe's violations once the page is still: no finite animation or transition running (endless ones, spinners,
 * may run) and at most one toast, fully shown. A toast that has just arrived is mounted transparent and starts its
 * transition a moment later, and toasts stacked behind the newest are drawn faded under it; measured then, their
 * contrast fails at random.
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
  return (await new AxeBuilder({ page }).analyze()).violations;
}
