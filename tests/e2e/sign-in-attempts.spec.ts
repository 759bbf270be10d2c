import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

const FAILED = 'Sign-in did not complete';

/**
 * Counts every toast saying `text` that `page` ever shows, including ones that have closed by themselves since:
 * "it said so once" and "it never said so" need the whole history, not what happens to be on screen.
 */
async function countToasts(page: Page, text: string): Promise<() => Promise<number>> {
  await page.addInitScript((wanted) => {
    const seen = new WeakSet<Element>();
    const record = window as unknown as { toastsSeen: number };
    record.toastsSeen = 0;
    new MutationObserver(() => {
      for (const alert of document.querySelectorAll('[role="alert"]')) {
        if (seen.has(alert) || !alert.textContent?.includes(wanted)) continue;
        seen.add(alert);
        record.toastsSeen++;
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, text);
  return () => page.evaluate(() => (window as unknown as { toastsSeen: number }).toastsSeen);
}

test.describe('each sign-in completes in the tab that started it, once', () => {
  test('signing in from one of two open tabs moves only that tab on; the other just shows who is signed in', async ({
    page,
    context,
  }) => {
    const ada = newPerson('Ada Two Tabs');
    const other = await context.newPage();
    await other.goto('/CustomerSignIn');
    await page.goto('/CustomerSignIn');
    await expect(other.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();

    await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), ada);
    await expect(page).toHaveURL(/\/ShoppingCart$/);
    await expect(page.getByText(`Signed in as ${ada.name}`)).toBeVisible();

    await expect(other.getByText(`Signed in as ${ada.name}`)).toBeVisible();
    await expect(other).toHaveURL(/\/CustomerSignIn$/);
    await expect(other.getByRole('link', { name: 'Go to your cart' })).toBeVisible();
  });

  test('a sign-in that fails says so once', async ({ page, context }) => {
    const toastsSeen = await countToasts(page, FAILED);
    // The provider's answer comes back refused (and with a state that does not match): the callback fails this
    // very attempt, which its flow cookie names.
    const providerLogin = /\/dev-idp\/interaction\/[^/]+\/login$/;
    await context.route(providerLogin, (route) =>
      route.fulfill({
        status: 303,
        headers: {
          location: `/auth/callback?error=access_denied&state=customer.${'x'.repeat(43)}`,
          // As the provider's own answers do: another opener policy would cut the popup off from this tab.
          'cross-origin-opener-policy': 'same-origin-allow-popups',
        },
      }),
    );
    await page.goto('/CustomerSignIn');
    const button = page.getByRole('button', { name: 'Sign in with Google' });
    await signInWithPopup(page, button, newPerson('Failing Once'));
    await expect(page.getByText(FAILED)).toBeVisible();

    // Trying again succeeds; by the time it has, a second answer to the first attempt would long have shown.
    await context.unroute(providerLogin);
    await signInWithPopup(page, button, newPerson('Second Try'));
    await expect(page).toHaveURL(/\/ShoppingCart$/);
    expect(await toastsSeen()).toBe(1);
  });

  test('a crafted /auth/done page opened by another window triggers nothing in an open tab', async ({
    page,
    context,
    baseURL,
  }) => {
    const toastsSeen = await countToasts(page, FAILED);
    await page.goto('/CustomerSignIn');
    // This tab has a sign-in under way: the provider's page is open in its popup.
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    const popup = await popupOpened;
    await expect(popup.getByLabel('Email')).toBeVisible();

    // Another site opens our done page, as the end of a sign-in that never happened, in windows of its own.
    const attacker = await context.newPage();
    const crafted = ['status=failed', 'status=ok', `status=failed&attempt=${'A'.repeat(22)}`];
    for (const query of crafted) {
      const opened = attacker.waitForEvent('popup');
      await attacker.evaluate(
        (url) => void window.open(url, '_blank', 'popup=yes,width=400,height=400'),
        `${baseURL}/auth/done?role=customer&${query}`,
      );
      // Like the genuine one, it tells our tabs and closes itself.
      const craftedWindow = await opened;
      if (!craftedWindow.isClosed()) await craftedWindow.waitForEvent('close');
    }
    await expect(page).toHaveURL(/\/CustomerSignIn$/);

    // The genuine attempt still completes, and the tab never said it had failed.
    const bea = newPerson('Bea Genuine');
    await popup.getByLabel('Email').fill(bea.email);
    await popup.getByLabel('Name').fill(bea.name);
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await closed;
    await expect(page).toHaveURL(/\/ShoppingCart$/);
    await expect(page.getByText(`Signed in as ${bea.name}`)).toBeVisible();
    expect(await toastsSeen()).toBe(0);
  });
});

test.describe('the page a sign-in ends on', () => {
  // A return path with a control character in it is refused as any such parameter is (400, naming it).
  test.use({ expectedErrorUrls: [/\/auth\/done\?.*returnTo=%2F%0[9A]/] });

  test('keeps its Continue link on our origin, whatever return path it is given', async ({
    page,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    const hostile = [
      '/\\evil.example',
      '/.//evil.example',
      '/..//evil.example',
      '/%2e//evil.example',
      '/a/..//evil.example',
      '//evil.example',
      '\\\\evil.example',
      '/\\/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      ' //evil.example',
    ];
    for (const returnTo of hostile) {
      await page.goto(`/auth/done?role=customer&status=ok&returnTo=${encodeURIComponent(returnTo)}`);
      const continueLink = page.getByRole('link', { name: 'Continue to HomeCooked' });
      const href = new URL(await continueLink.evaluate((a) => (a as HTMLAnchorElement).href));
      expect(href.origin, returnTo).toBe(origin);
      expect(href.pathname, returnTo).not.toMatch(/^\/\//);
    }
    for (const returnTo of ['/\t/evil.example', '/\n/evil.example']) {
      const refused = await page.goto(
        `/auth/done?role=customer&status=ok&returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect(refused?.status(), JSON.stringify(returnTo)).toBe(400);
      await expect(page.getByText('returnTo must be text without control characters')).toBeVisible();
      for (const link of await page.getByRole('link').all())
        expect(new URL(await link.evaluate((a) => (a as HTMLAnchorElement).href)).origin).toBe(origin);
    }
    await page.goto(`/auth/done?role=customer&status=ok&returnTo=${encodeURIComponent('/ShoppingCart?x=1')}`);
    const href = await page
      .getByRole('link', { name: 'Continue to HomeCooked' })
      .evaluate((a) => (a as HTMLAnchorElement).href);
    expect(href).toBe(`${origin}/ShoppingCart?x=1`);
  });
});
