import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createKitchenWithOwner, customerSessionCookie, placeOrderAs, readOrder } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';

// A refused deletion answers 409, which the browser logs; a deleted person's live streams (reopened once before
// the page goes home) are refused with 401, and their kitchen's menu, once gone, with 404.
// (One pattern: Playwright reads a two-element array here as a value and its options.)
test.use({
  expectedErrorUrls: [/\/api\/(account\/(customer|kitchen)|orders|chat|kitchen\/orders|kitchens\/)/],
});

test.describe("'Your data'", () => {
  test('a customer downloads their data, holding their order, then deletes their account and ends signed out', async ({
    page,
  }) => {
    const kitchenName = `Data Kitchen ${randomUUID().slice(0, 8)}`;
    const { kitchen, items } = await createKitchenWithOwner(kitchenName, {
      dishes: [{ item: 'Lentil Soup' }],
    });
    const email = `customer-${randomUUID()}@e2e.test`;
    await page.context().addCookies([await customerSessionCookie(email)]);
    const placed = await page.request.post('/api/orders', {
      data: {
        kitchenUid: kitchen.uid,
        itemIds: items.map((i) => i.id),
        address: '12 Export Lane',
        idempotencyKey: randomUUID(),
      },
    });
    expect(placed.status()).toBe(201);
    const orderId = ((await placed.json()) as { id: string }).id;

    await page.goto('/CustomerOrders');
    const yourData = page.getByRole('region', { name: 'Your data' });
    await expect(yourData).toBeVisible();
    await expect(page.getByRole('list', { name: 'Your orders' })).toContainText(kitchenName);
    expect(await axeFindings(page)).toEqual([]);

    // While the order is in progress, deleting is refused, and the page says why.
    await yourData.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toContainText('Deleted customer');
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      `Your order from ${kitchenName} is still in progress`,
    );
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // The customer cancels it (before the kitchen accepts): it has ended.
    expect((await page.request.post(`/api/orders/${orderId}/cancel`, { data: {} })).status()).toBe(200);

    const downloading = page.waitForEvent('download');
    await yourData.getByRole('button', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^homecooked-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as {
      profile: { email: string };
      orders: {
        id: string;
        kitchenName: string;
        address: string;
        items: { item: string }[];
        state: string;
      }[];
    };
    expect(data.profile.email).toBe(email);
    expect(data.orders).toEqual([
      expect.objectContaining({
        id: orderId,
        kitchenName,
        address: '12 Export Lane',
        items: [expect.objectContaining({ item: 'Lentil Soup' })],
        state: 'cancelled',
      }),
    ]);

    await yourData.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByText('Your account has been deleted')).toBeVisible();
    const session = (await (await page.request.get('/api/session')).json()) as { customer: unknown };
    expect(session.customer).toBeNull();
    await page.goto('/CustomerOrders');
    await expect(page).toHaveURL('/CustomerSignIn');
    // The kitchen keeps the order, without the customer's email and address.
    expect(await readOrder(orderId)).toMatchObject({ customerEmail: 'Deleted customer', address: 'Removed' });
  });

  test('a cook with an order in progress is refused, with the reason on screen, and can delete once it is off the list', async ({
    page,
  }) => {
    const kitchenName = `Busy Kitchen ${randomUUID().slice(0, 8)}`;
    const { kitchen, items, cookie } = await createKitchenWithOwner(kitchenName, {
      dishes: [{ item: 'Paneer Tikka' }],
    });
    const order = await placeOrderAs(
      kitchen.uid,
      items.map((i) => i.id),
    );
    await page.context().addCookies([cookie]);
    await page.goto('/MenuDashboard');
    // The admin steps stay as the spec has them.
    const nav = page.getByRole('navigation', { name: 'Kitchen admin' });
    await expect(nav.getByRole('link')).toHaveText(['1 MENU', '2 ADD TO MENU', '3 Orders']);
    await expect(nav.getByRole('button')).toHaveText(['4 SIGN OUT']);

    const yourData = page.getByRole('region', { name: 'Your data' });
    await yourData.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toContainText('your kitchen, if you have one');
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Your kitchen has 1 order in progress');
    await expect(dialog.getByRole('alert')).toContainText('once it has ended');
    expect((await page.request.get('/api/kitchen')).status()).toBe(200);

    // Taken off the kitchen's list (the spec's Delete), it no longer holds the deletion back.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await page.request.delete(`/api/kitchen/orders/${order.order.id}`)).status()).toBe(204);
    await yourData.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByText('Your account has been deleted')).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(kitchenName) })).toHaveCount(0);
    expect(await readOrder(order.order.id)).toMatchObject({ kitchenId: null, kitchenName });
  });

  test("a customer's open 'Your orders' shows, live, that a kitchen has left: 'Order again' is off", async ({
    page,
    request,
  }) => {
    const kitchenName = `Leaving Kitchen ${randomUUID().slice(0, 8)}`;
    const { kitchen, items, cookie } = await createKitchenWithOwner(kitchenName, {
      dishes: [{ item: 'Dosa' }],
    });
    await page.context().addCookies([await customerSessionCookie(`customer-${randomUUID()}@e2e.test`)]);
    const placed = await page.request.post('/api/orders', {
      data: {
        kitchenUid: kitchen.uid,
        itemIds: items.map((i) => i.id),
        address: '4 Gone Street',
        idempotencyKey: randomUUID(),
      },
    });
    const orderId = ((await placed.json()) as { id: string }).id;
    expect((await page.request.post(`/api/orders/${orderId}/cancel`, { data: {} })).status()).toBe(200);

    await page.goto('/CustomerOrders');
    const card = page
      .getByRole('list', { name: 'Your orders' })
      .getByRole('listitem')
      .filter({ hasText: kitchenName });
    await expect(card.getByRole('button', { name: 'Order again' })).toBeEnabled();

    // The cook deletes their account elsewhere.
    const deleted = await request.delete('/api/account/kitchen', {
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(deleted.status()).toBe(204);
    await expect(card.getByRole('button', { name: 'Order again' })).toBeDisabled();
    await expect(card).toContainText('This kitchen has left HomeCooked');
    await expect(card).toContainText(kitchenName);
  });
});
