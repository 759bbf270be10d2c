import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Axe's violations once the page is still: no finite animation or transition running (endless ones, spinners,
 * may run) and at most one toast, fully shown. A toast that has just arrived is mounted transparent and starts its
 * transition a moment later, and toasts stacked behind the newest are drawn faded under it; measured then, their
 * contrast fails at random. Toasts are left out of the scan itself: one may start fading out (closing by itself)
 * while axe reads the page, which takes a second or more on a loaded machine (seen in CI: a toast read at 1.2:1).
 * Every end-to-end test's axe scan goes through here.
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
      ) &&
      // An open dialog fully shown: mounted transparent, it starts its transition a moment later, and its text read
      // before then, or while it runs, fails its contrast (seen in CI: a dialog's title, text and buttons).
      [...document.querySelectorAll('[role="dialog"]')].every((dialog) => {
        if (!dialog.checkVisibility()) return true;
        for (let element: Element | null = dialog; element; element = element.parentElement)
          if (getComputedStyle(element).opacity !== '1') return false;
        return true;
      }),
  );
  return (await new AxeBuilder({ page }).exclude('.mantine-Notifications-root').analyze()).violations;
}

/** The same violations one line each (the rule, and where with axe's summary of what failed): a failing test says. */
export async function axeFindings(page: Page) {
  return (await axeViolations(page)).map(
    (v) =>
      `${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(', ')}`,
  );
}
