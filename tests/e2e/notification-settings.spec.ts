import { randomUUID } from 'node:crypto';
import { axeViolations } from './axe.js';
import { pushSubscriptions } from '../../src/server/db/schema.js';
import { createKitchenWithOwner, customerSessionCookie, e2eDatabase } from './db.js';
import { expect, test } from './fixtures.js';

const LOCKED = 'Stays on while your kitchen takes orders and you have no device with push notifications';

test.describe("'Notifications'", () => {
  test("a cook's new-order email stays on without a device; new-review emails turned off stay off after a reload", async ({
    context,
    page,
  }) => {
    const { cookie } = await createKitchenWithOwner(`Notices ${randomUUID().slice(0, 8)}`);
    await context.addCookies([cookie]);
    await page.goto('/MenuDashboard');
    const section = page.getByRole('region', { name: 'Notifications' });
    await expect(section).toBeVisible();
    const newOrder = section.getByRole('switch', { name: 'A new order by email', exact: true });
    const newReview = section.getByRole('switch', { name: 'A new review by email', exact: true });

    // The kitchen takes orders and no device of the cook's gets pushes: new orders are emailed, whatever.
    await expect(newOrder).toBeChecked();
    await expect(newOrder).toBeDisabled();
    await expect(newOrder).toHaveAccessibleDescription(LOCKED);
    await expect(section.getByText('No device of yours gets push notifications yet.')).toBeVisible();
    for (const name of [
      'An order nobody accepted in time by email',
      'An order cancelled by its customer by email',
      'Reports about your kitchen by email',
    ])
      await expect(section.getByRole('switch', { name, exact: true })).toBeChecked();

    await expect(newReview).toBeChecked();
    await expect(newReview).toBeEnabled();
    await newReview.click();
    // Shown off once the server has it.
    await expect(newReview).not.toBeChecked();
    await expect(newReview).toBeEnabled();

    await page.reload();
    await expect(newReview).not.toBeChecked();
    await expect(newOrder).toBeChecked();
    await expect(newOrder).toBeDisabled();
    expect(await axeViolations(page)).toEqual([]);
  });

  test("a customer turns 'Your order on its way' emails off on 'Your orders'", async ({ context, page }) => {
    await context.addCookies([await customerSessionCookie(`notices-${randomUUID()}@e2e.test`)]);
    await page.goto('/CustomerOrders');
    const section = page.getByRole('region', { name: 'Notifications' });
    await expect(section).toBeVisible();
    const onItsWay = section.getByRole('switch', { name: 'Your order on its way by email', exact: true });
    await expect(onItsWay).toBeChecked();
    // A customer has only the customer's kinds, none locked.
    await expect(section.getByRole('switch', { name: 'A new order by email' })).toHaveCount(0);
    await expect(section.getByText(LOCKED)).toHaveCount(0);

    await onItsWay.click();
    await expect(onItsWay).not.toBeChecked();
    await expect(onItsWay).toBeEnabled();
    await page.reload();
    await expect(onItsWay).not.toBeChecked();
    await expect(
      section.getByRole('switch', { name: 'Your order delivered by email', exact: true }),
    ).toBeChecked();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('with a device that gets pushes, a cook may turn new-order emails off; removing the device locks them on again', async ({
    context,
    page,
  }) => {
    const { kitchen, cookie } = await createKitchenWithOwner(`Devices ${randomUUID().slice(0, 8)}`);
    // A device the cook subscribed (as the push routes store one).
    const { db } = await e2eDatabase();
    await db.insert(pushSubscriptions).values({
      userId: kitchen.uid,
      endpoint: `https://push.example.test/${randomUUID()}`,
      p256dh: 'B'.repeat(87),
      auth: 'a'.repeat(22),
      name: 'Firefox on Android',
    });
    await context.addCookies([cookie]);
    await page.goto('/MenuDashboard');
    const section = page.getByRole('region', { name: 'Notifications' });
    const newOrder = section.getByRole('switch', { name: 'A new order by email', exact: true });
    const devices = section.getByRole('list', { name: 'Your devices' });
    await expect(devices.getByRole('listitem')).toHaveText([/Firefox on Android/]);
    await expect(newOrder).toBeEnabled();
    await newOrder.click();
    await expect(newOrder).not.toBeChecked();

    await devices.getByRole('button', { name: 'Remove Firefox on Android' }).click();
    await expect(section.getByText('No device of yours gets push notifications yet.')).toBeVisible();
    await expect(newOrder).toBeChecked();
    await expect(newOrder).toBeDisabled();
    await expect(newOrder).toHaveAccessibleDescription(LOCKED);
  });
});
