import { randomUUID } from 'node:crypto';
import { createKitchenWithOwner, customerSessionCookie } from './db.js';
import { expect, test } from './fixtures.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

test.describe('told with the tab closed', () => {
  test("a new order reaches the cook's mailbox and 'accepted' the customer's, neither page open", async ({
    browser,
    page: mailbox,
  }) => {
    const name = `Mailbox ${randomUUID().slice(0, 8)}`;
    const { kitchen, cookie, ownerEmail } = await createKitchenWithOwner(name);
    const email = `told-${randomUUID()}@e2e.test`;
    // The customer orders, then closes their tab; the cook has no page open at all.
    const customer = await browser.newContext();
    await customer.addCookies([await customerSessionCookie(email)]);
    const cook = await browser.newContext();
    await cook.addCookies([cookie]);
    const dish = await cook.request.post('/api/kitchen/menu', {
      data: {
        item: 'Khichdi',
        price: '8.00',
        wait: '20 min',
        imageLink: 'https://images.invalid/k.png',
        allergenAnswers: answersWith(),
      },
    });
    const { id: dishId } = (await dish.json()) as { id: string };
    const placed = await customer.request.post('/api/orders', {
      data: {
        kitchenUid: kitchen.uid,
        itemIds: [dishId, dishId],
        address: '3 Quiet Street',
        idempotencyKey: randomUUID(),
      },
    });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()) as { id: string };
    await customer.close();

    // The development mailbox (what would have gone over SMTP) has the cook's mail: the dish, a link to the orders.
    await mailbox.goto('/dev-mail');
    await expect(mailbox.getByRole('heading', { name: 'Development mailbox' })).toBeVisible();
    const newOrder = mailbox.getByRole('row').filter({ hasText: ownerEmail });
    await expect(async () => {
      await mailbox.reload();
      await expect(newOrder).toContainText('New order: Khichdi × 2', { timeout: 1000 });
    }).toPass();
    await newOrder.getByRole('link').click();
    await expect(mailbox.getByText('/KitchenOrders').first()).toBeVisible();

    // The cook accepts from wherever; the customer, whose tab is closed, is told by mail.
    const accepted = await cook.request.post(`/api/kitchen/orders/${order.id}/moves`, {
      data: { move: 'accept', readyInMinutes: 30 },
    });
    expect(accepted.status()).toBe(200);
    await cook.close();
    await mailbox.goto('/dev-mail');
    const told = mailbox.getByRole('row').filter({ hasText: email });
    await expect(async () => {
      await mailbox.reload();
      await expect(told).toContainText(name, { timeout: 1000 });
    }).toPass();
  });
});
