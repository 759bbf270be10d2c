import type { Page } from '@playwright/test';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { expect } from './fixtures.js';

/**
 * Sets the signed-in cook's new kitchen open around the clock, so that an order later in the test is accepted at
 * whatever hour the test runs (a kitchen registered without hours keeps the spec's 10:00–20:15; the hours
 * themselves are tested in availability.spec.ts).
 */
export async function openAroundTheClock(page: Page, addMenuHeading = 'Add Menu'): Promise<void> {
  await expect(page.getByRole('heading', { name: addMenuHeading })).toBeVisible();
  const answer = await page.request.patch('/api/kitchen', { data: { hours: ALL_DAY_HOURS } });
  expect(answer.ok(), await answer.text()).toBe(true);
}
