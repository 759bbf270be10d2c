import { randomUUID } from 'node:crypto';
import { axeViolations } from './axe.js';
import { createKitchenWithOwner, customerSessionCookie } from './db.js';
import { expect, test } from './fixtures.js';

test.describe("an order's conversation", () => {
  test('the customer writes on the status page, the cook answers from the orders page, each seen live', async ({
    browser,
    baseURL,
    context,
    page: customer,
  }) => {
    const { kitchen, items, cookie } = await createKitchenWithOwner(`Messages ${randomUUID().slice(0, 8)}`, {
      dishes: [{ item: 'Satay' }],
    });
    const email = `messages-${randomUUID()}@e2e.test`;
    await context.addCookies([await customerSessionCookie(email)]);
    const placed = await context.request.post('/api/orders', {
      data: {
        kitchenUid: kitchen.uid,
        itemIds: [items[0]!.id],
        address: '3 Conversation Court',
        idempotencyKey: randomUUID(),
      },
    });
    expect(placed.status()).toBe(201);

    // The customer's status page: the conversation is below the timeline, empty, open.
    await customer.goto('/CustomerOrderStatus');
    const conversation = customer.getByRole('region', { name: 'Messages' });
    await expect(conversation.getByText('No messages yet.')).toBeVisible();
    await conversation.getByLabel('Message', { exact: true }).fill('No peanuts please');
    await conversation.getByRole('button', { name: 'Send' }).click();
    const asked = conversation.getByRole('listitem').filter({ hasText: 'No peanuts please' });
    await expect(asked).toContainText('You');
    await expect(conversation.getByLabel('Message', { exact: true })).toHaveValue('');

    // The cook, in a browser of their own, opens the order's messages from the orders page.
    const cookContext = await browser.newContext({ baseURL });
    await cookContext.addCookies([cookie]);
    const cook = await cookContext.newPage();
    await cook.goto('/KitchenOrders');
    const row = cook.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: 'Messages' }).click();
    const dialog = cook.getByRole('dialog', { name: 'Messages' });
    const heard = dialog.getByRole('listitem').filter({ hasText: 'No peanuts please' });
    await expect(heard).toContainText('Customer');
    await dialog.getByLabel('Message', { exact: true }).fill('Sure, noted');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('listitem').filter({ hasText: 'Sure, noted' })).toContainText('You');
    expect(await axeViolations(cook)).toEqual([]);

    // The customer's page hears the answer without reloading.
    const answer = conversation.getByRole('listitem').filter({ hasText: 'Sure, noted' });
    await expect(answer).toContainText('Kitchen');
    await expect(conversation.getByRole('listitem')).toHaveCount(2);
    expect(await axeViolations(customer)).toEqual([]);
    await cookContext.close();
  });
});
