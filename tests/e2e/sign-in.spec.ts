import { expect, test } from './fixtures.js';
import { newPerson, signInWithPopup } from './sign-in.js';

test.describe('Google sign-in in a popup', () => {
  test('a customer signs in from /CustomerSignIn and lands on the cart with their name', async ({ page }) => {
    const ada = newPerson('Ada Customer');
    await page.goto('/CustomerSignIn');
    await expect(page.getByRole('heading', { name: 'Please Sign In to check out' })).toBeVisible();
    await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), ada);
    await expect(page).toHaveURL(/\/ShoppingCart$/);
    await expect(page.getByText(`Signed in as ${ada.name}`)).toBeVisible();
  });

  test('a kitchen owner signs in from /AdminSignIn and sees the registration screen with their name', async ({
    page,
  }) => {
    const cook = newPerson('Cook Owner');
    await page.goto('/AdminSignIn');
    await expect(page.getByText('Please Register Yourself')).toBeVisible();
    await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), cook);
    await expect(page.getByText(/Welcome/)).toContainText(cook.name);
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
  });

  test('when the popup is blocked, a full-page redirect signs in and returns to where the user was', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      window.open = () => null;
    });
    const bea = newPerson('Bea Blocked');
    await page.goto('/CustomerSignIn');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.getByLabel('Email').fill(bea.email);
    await page.getByLabel('Name').fill(bea.name);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/ShoppingCart$/);
    await expect(page.getByText(`Signed in as ${bea.name}`)).toBeVisible();
  });

  test('kitchen and customer are separate sessions: signing out of one keeps the other', async ({ page }) => {
    const both = newPerson('Both Roles');
    await page.goto('/CustomerSignIn');
    await signInWithPopup(page, page.getByRole('button', { name: 'Sign in with Google' }), both);
    await expect(page.getByText(`Signed in as ${both.name}`)).toBeVisible();

    await page.goto('/AdminSignIn');
    await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), both);
    await expect(page.getByRole('heading', { name: 'Register your kitchen' })).toBeVisible();
    await page
      .getByRole('link', { name: /SIGN OUT/ })
      .or(page.getByRole('button', { name: /SIGN OUT/ }))
      .click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/ShoppingCart');
    await expect(page.getByText(`Signed in as ${both.name}`)).toBeVisible();
    await page.goto('/AdminSignIn');
    await expect(page.getByText('Please Register Yourself')).toBeVisible();
  });
});
