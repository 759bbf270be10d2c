import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

// The server is made to fail (503) for one API address at the browser's edge: what the screens must do then is
// say so and offer to try again, never spin forever. The failing address is expected in the console.
const UNAVAILABLE = {
  status: 503,
  contentType: 'application/json',
  body: '{"code":"UNAVAILABLE","message":"The service is briefly unavailable, please retry"}',
};

/** Makes `url` answer 503 until the returned function is called. */
async function failUntilHealed(page: Page, url: string): Promise<() => void> {
  let failing = true;
  await page.route(url, (route) => (failing ? route.fulfill(UNAVAILABLE) : route.fallback()));
  return () => {
    failing = false;
  };
}

test.describe('when a load fails, the screen says so and can try again', () => {
  test.use({ expectedErrorUrls: [/\/api\/(kitchens\/first-page|kitchen\/check)$/] });

  test('the landing page, when the kitchens cannot be loaded', async ({ page }) => {
    const heal = await failUntilHealed(page, '**/api/kitchens/first-page');
    // '/' arrives rendered with its kitchens; the browser loads them itself when it goes there from another page.
    await page.goto('/ShoppingCart');
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the kitchens' });
    await expect(alert).toContainText('The service is briefly unavailable, please retry');
    heal();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
  });

  test("the kitchen registration, when the check for the cook's kitchen fails (no 'Loading...' forever)", async ({
    page,
  }) => {
    const heal = await failUntilHealed(page, '**/api/kitchen/check');
    const cook = newPerson('Check Fails');
    await page.goto('/AdminSignIn');
    await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), cook);
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'We could not check whether you have a kitchen' });
    await expect(alert).toBeVisible();
    await expect(page.getByText('Loading...')).toBeHidden();
    heal();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
  });
});
