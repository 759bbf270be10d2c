import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

// The server is made to fail (503) for one API address at the browser's edge: what the screens must do then is
// say so and offer to try again, never spin forever. The failing address is expected in the console.
test.describe('when a load fails, the screen says so and can try again', () => {
  test.use({ expectedErrorUrls: [/\/api\/(kitchens|kitchen\/check)$/] });

  test('the landing page, when the kitchens cannot be loaded', async ({ page }) => {
    let failing = true;
    await page.route('**/api/kitchens', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"code":"UNAVAILABLE","message":"The service is briefly unavailable, please retry"}',
          })
        : route.fallback(),
    );
    await page.goto('/');
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the kitchens' });
    await expect(alert).toContainText('The service is briefly unavailable, please retry');
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
  });

  test("the kitchen registration, when the check for the cook's kitchen fails (no 'Loading...' forever)", async ({
    page,
  }) => {
    let failing = true;
    await page.route('**/api/kitchen/check', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"code":"UNAVAILABLE","message":"The service is briefly unavailable, please retry"}',
          })
        : route.fallback(),
    );
    const cook = newPerson('Check Fails');
    await page.goto('/AdminSignIn');
    await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), cook);
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'We could not check whether you have a kitchen' });
    await expect(alert).toBeVisible();
    await expect(page.getByText('Loading...')).toBeHidden();
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
  });
});
