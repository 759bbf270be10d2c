import { randomUUID } from 'node:crypto';
import type { Browser } from '@playwright/test';
import type { KitchenSlots } from '../../src/shared/ordering.js';
import { slotLabel } from '../../src/shared/slots.js';
import { axeViolations } from './axe.js';
import { createKitchenWithOwner, customerSessionCookie } from './db.js';
import { expect, test } from './fixtures.js';

/** A new customer's order, placed through the API from a browser context of their own (one open order each). */
async function orderAs(
  browser: Browser,
  order: { kitchenUid: string; itemIds: string[]; slotStart?: string; note?: string } & (
    { fulfilment: 'pickup' } | { fulfilment: 'delivery'; address: string }
  ),
) {
  const context = await browser.newContext();
  await context.addCookies([await customerSessionCookie(`slots-${randomUUID()}@e2e.test`)]);
  const res = await context.request.post('/api/orders', { data: { ...order, idempotencyKey: randomUUID() } });
  expect(res.status(), await res.text()).toBe(201);
  await context.close();
}

test.describe('how a kitchen takes orders', () => {
  test('the cook offers pickup at an address and orders for later; after a reload they are kept, and the menu page says so', async ({
    context,
    page,
  }) => {
    const { kitchen, cookie } = await createKitchenWithOwner(`Ordering ${randomUUID().slice(0, 8)}`);
    await context.addCookies([cookie]);
    await page.goto('/MenuDashboard');
    const section = page.getByRole('region', { name: 'How you take orders' });
    const delivery = section.getByRole('checkbox', { name: 'Delivery', exact: true });
    const pickup = section.getByRole('checkbox', { name: 'Pickup', exact: true });
    const asap = section.getByRole('checkbox', { name: 'As soon as possible (while open)' });
    const later = section.getByRole('checkbox', { name: 'Orders for later' });
    // A new kitchen delivers, as soon as possible.
    await expect(delivery).toBeChecked();
    await expect(pickup).not.toBeChecked();
    await expect(asap).toBeChecked();
    await expect(later).not.toBeChecked();
    await expect(section.getByLabel('Pickup address')).toBeHidden();
    await expect(section.getByLabel('Slot length')).toBeHidden();

    // Pickup needs its address: refused by name until there is one.
    await pickup.check();
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByText('Pickup address is required for pickup')).toBeVisible();
    await expect(section.getByLabel('Pickup address')).toHaveAttribute('aria-invalid', 'true');
    await expect(
      section.getByText('Shown to a customer only once their order is accepted').first(),
    ).toBeVisible();
    await section.getByLabel('Pickup address').fill('5 Pickup Yard\nBack gate');
    await section.getByLabel('Pickup instructions').fill('Ring twice');

    await later.check();
    await section.getByLabel('Slot length').selectOption({ label: '45 minutes' });
    await section.getByLabel('Prior notice').selectOption({ label: '1 hour' });
    await section.getByLabel('Days ahead').selectOption({ label: '3 days' });
    await section.getByLabel('Same-day cut-off').fill('14:00');
    await section.getByLabel('Orders per slot').fill('8');
    await section.getByLabel('Minimum order').fill('15');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Ordering options saved' })).toBeVisible();

    await page.reload();
    await expect(pickup).toBeChecked();
    await expect(delivery).toBeChecked();
    await expect(asap).toBeChecked();
    await expect(later).toBeChecked();
    await expect(section.getByLabel('Pickup address')).toHaveValue('5 Pickup Yard\nBack gate');
    await expect(section.getByLabel('Pickup instructions')).toHaveValue('Ring twice');
    await expect(section.getByLabel('Slot length')).toHaveValue('45');
    await expect(section.getByLabel('Prior notice')).toHaveValue('60');
    await expect(section.getByLabel('Days ahead')).toHaveValue('3');
    await expect(section.getByLabel('Same-day cut-off')).toHaveValue('14:00');
    await expect(section.getByLabel('Orders per slot')).toHaveValue('8');
    await expect(section.getByLabel('Minimum order')).toHaveValue('15.00');
    expect(await axeViolations(page)).toEqual([]);

    // The public menu page says how the kitchen takes orders.
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await expect(page.getByTestId('kitchen-ordering')).toHaveText(
      'Delivery · Pickup · Orders up to 3 days ahead · Minimum order $15.00',
    );
  });

  test("the orders page shows orders for later under their slots with what to cook, and 'Accept' asks no ready time", async ({
    browser,
    context,
    page,
  }) => {
    const { kitchen, items, cookie } = await createKitchenWithOwner(`Slots ${randomUUID().slice(0, 8)}`, {
      dishes: [{ item: 'Biryani' }, { item: 'Raita' }],
    });
    const [biryani, raita] = items.map((item) => item.id) as [string, string];
    await context.addCookies([cookie]);
    const saved = await context.request.put('/api/kitchen/ordering', {
      data: {
        offersDelivery: true,
        offersPickup: true,
        pickupAddress: '5 Pickup Yard',
        pickupInstructions: '',
        takesAsap: true,
        slotMinutes: 30,
        priorNoticeMinutes: 0,
        daysAhead: 2,
        sameDayCutoff: null,
        ordersPerSlot: null,
        minimumOrderCents: 0,
      },
    });
    expect(saved.status()).toBe(200);
    const { slots, timeZone } = (await (
      await context.request.get(`/api/kitchens/${kitchen.uid}/slots`)
    ).json()) as KitchenSlots;
    const label = (slot: { start: string; end: string }) => slotLabel(slot, timeZone, new Date());
    const [first, second] = slots.filter((slot) => label(slot).startsWith('Tomorrow'));
    if (!first || !second) throw new Error('no slots tomorrow');

    const kitchenUid = kitchen.uid;
    await orderAs(browser, {
      kitchenUid,
      itemIds: [biryani, biryani, raita],
      fulfilment: 'pickup',
      slotStart: first.start,
      note: 'No peanuts, please',
    });
    await orderAs(browser, {
      kitchenUid,
      itemIds: [biryani],
      fulfilment: 'delivery',
      address: '9 Slot Street',
      slotStart: first.start,
    });
    await orderAs(browser, { kitchenUid, itemIds: [raita], fulfilment: 'delivery', address: '1 Now Lane' });
    await orderAs(browser, {
      kitchenUid,
      itemIds: [raita],
      fulfilment: 'pickup',
      slotStart: second.start,
    });

    await page.goto('/KitchenOrders');
    const table = page.getByRole('table', { name: 'Orders of your kitchen' });
    await expect(table.getByRole('heading')).toHaveText(['As soon as possible', label(first), label(second)]);
    await expect(
      page.getByRole('list', { name: `To cook for ${label(first)}` }).getByRole('listitem'),
    ).toHaveText(['Biryani × 3', 'Raita × 1']);
    await expect(page.getByRole('list', { name: `To cook for ${label(second)}` })).toHaveText('Raita × 1');
    const pickupRow = table.getByRole('row').filter({ hasText: 'No peanuts' });
    await expect(pickupRow.getByRole('cell').first()).toHaveText('Pickup');
    await expect(pickupRow.getByText('Note: No peanuts, please')).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: '9 Slot Street' })).toContainText('Delivery');
    expect(await axeViolations(page)).toEqual([]);

    await pickupRow.getByRole('button', { name: 'Accept' }).click();
    const dialog = page.getByRole('dialog', { name: 'Accept this order' });
    await expect(dialog).toContainText(`Ready for its slot: ${label(first)}`);
    await expect(dialog.getByText('Ready in (minutes)')).toBeHidden();
    await dialog.getByRole('button', { name: 'Accept order' }).click();
    await expect(dialog).toBeHidden();
    await expect(pickupRow).toContainText('accepted');
  });
});
