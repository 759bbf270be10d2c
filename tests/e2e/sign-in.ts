import type { Locator, Page } from '@playwright/test';

export interface Person {
  email: string;
  name: string;
}

let counter = 0;
/** A new person with a unique email, so tests never share users. */
export function newPerson(name: string): Person {
  counter++;
  return {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}.${counter}.${process.pid}@e2e.test`,
  };
}

/**
 * Signs in as a person would: clicks the Google button (`trigger`), fills the development provider's page in the
 * popup (fields Email and Name, button Sign in), and waits for the popup to close itself.
 */
export async function signInWithPopup(page: Page, trigger: Locator, person: Person): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await trigger.click();
  const popup = await popupOpened;
  await popup.getByLabel('Email').fill(person.email);
  await popup.getByLabel('Name').fill(person.name);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await closed;
}
