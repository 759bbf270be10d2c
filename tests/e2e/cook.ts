import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { signInWithPopup, type Person } from './sign-in.js';

/** Signs a new cook in from /AdminSignIn; they land on step 1 of the registration screen. */
export async function signInAsCook(page: Page, person: Person): Promise<void> {
  await page.goto('/AdminSignIn');
  await expect(page.getByRole('heading', { name: 'Please Register Yourself' })).toBeVisible();
  await signInWithPopup(page, page.getByRole('button', { name: 'Register with google' }), person);
  await expect(page.getByRole('heading', { name: `Welcome ${person.name}` })).toBeVisible();
}

/** Adds a dish on the registration's step 2 ('Add Menu'), answering No for every allergen; waits for the form to clear. */
export async function addMenuItem(page: Page, item: string, price: string, wait: string): Promise<void> {
  const itemField = page.getByRole('textbox', { name: 'Item', exact: true });
  await itemField.fill(item);
  await page.getByLabel('Image of your Item Link').fill('https://images.invalid/dish.png');
  await page.getByLabel('Price').fill(price);
  await page.getByLabel('Wait Time').fill(wait);
  await page.getByRole('button', { name: 'Answer No to the ones left' }).click();
  await page.getByRole('button', { name: 'Add Menu' }).click();
  // Added: the form clears and step 2 stays.
  await expect(itemField).toHaveValue('');
  await expect(page.getByLabel('Price')).toHaveValue('');
  await expect(page.getByRole('heading', { name: 'Add Menu' })).toBeVisible();
}
