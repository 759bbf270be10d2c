import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { answersWith } from '../../src/shared/allergen-declaration.js';
import type { CustomerPlan } from '../../src/shared/plans.js';
import { axeFindings } from './axe.js';
import { createKitchenWithOwner, customerSessionCookie, placePlansAt, sessionCookieAs } from './db.js';
import { expect, test } from './fixtures.js';

test.describe('weekly plans', () => {
  test('a customer repeats a pre-order every week, skips the first week, and the next reaches the cook at its cut-off', async ({
    context,
    page: customer,
  }) => {
    // A customer and a cook over two weeks, at 1280 and 390 px with axe on each screen: 27 s alone in CI at stop 59.
    test.slow();
    const name = `Weekly ${randomUUID().slice(0, 8)}`;
    const { kitchen, cookie } = await createKitchenWithOwner(name);
    await context.addCookies([cookie, await customerSessionCookie(`plans-${randomUUID()}@e2e.test`)]);
    const dish = await context.request.post('/api/kitchen/menu', {
      data: {
        item: 'Biryani',
        price: '12.00',
        wait: '1 hour',
        imageLink: 'https://images.invalid/b.png',
        allergenAnswers: answersWith(),
      },
    });
    expect(dish.status()).toBe(201);
    const ordering = await context.request.put('/api/kitchen/ordering', {
      data: {
        offersDelivery: true,
        offersPickup: true,
        pickupAddress: 'Flat 4B, 12 Elm Street',
        pickupInstructions: 'Ring twice',
        takesAsap: true,
        slotMinutes: 60,
        priorNoticeMinutes: 60,
        daysAhead: 3,
        sameDayCutoff: null,
        ordersPerSlot: 10,
        minimumOrderCents: 0,
      },
    });
    expect(ordering.status()).toBe(200);

    // The cook offers weekly plans, with a cut-off 48 hours before each slot.
    const cook = await context.newPage();
    await cook.goto('/MenuDashboard');
    const plans = cook.getByRole('region', { name: 'Plans' });
    await plans.getByRole('checkbox', { name: 'Offer weekly plans' }).check();
    await plans.getByRole('textbox', { name: 'Cut-off (hours before the slot)' }).fill('48');
    await plans.getByRole('button', { name: 'Save plan settings' }).click();
    await expect(cook.getByText('Saved')).toBeVisible();
    await expect(plans.getByText('No planned meals in the next four weeks.')).toBeVisible();

    // The customer's pre-order for tomorrow's first slot, for pickup; then 'Every week'.
    await customer.goto(`/KitchenMenu/${kitchen.uid}`);
    await customer.getByRole('button', { name: 'Add Biryani to cart' }).click();
    await customer.getByRole('link', { name: 'Cart (1)' }).click();
    await customer.getByRole('button', { name: 'One more Biryani' }).click();
    await customer.getByRole('radio', { name: 'Pickup' }).check();
    await customer.getByRole('radio', { name: 'Schedule for later' }).check();
    await customer.getByRole('combobox', { name: 'Day' }).selectOption({ label: 'Tomorrow' });
    const time = customer.getByRole('combobox', { name: 'Time' });
    await time.selectOption({ label: (await time.getByRole('option').first().textContent())?.trim() ?? '' });
    await customer.getByRole('button', { name: 'Submit order' }).click();
    await expect(customer.getByText('Your Order is sent')).toBeVisible();
    const everyWeek = customer.getByRole('region', { name: 'Every week' });
    await everyWeek.getByRole('button', { name: 'Every week' }).click();
    await expect(everyWeek.getByRole('status')).toContainText(/Your weekly plan is set: Every \w+day at /);
    expect(await axeFindings(customer)).toEqual([]);

    // That first order stays open: a pre-order does not stop the plan's weeks, nor an order for now (ADR 31).

    // 'Your plans': the next order, its cut-off; the customer skips it.
    await customer.goto('/CustomerOrders');
    const yourPlans = customer.getByRole('region', { name: 'Your plans' });
    await expect(yourPlans.getByText(/^Change by \w{3} \d{1,2}:\d{2} [AP]M$/)).toBeVisible();
    await expect(yourPlans.getByText('Biryani × 2')).toBeVisible();
    await yourPlans.getByRole('button', { name: 'Skip this week' }).click();
    await expect(yourPlans.getByText('Skipped')).toBeVisible();
    expect(await axeFindings(customer)).toEqual([]);

    // The placement at each week's cut-off (the job, run at that time): the skipped week is not placed, the next is.
    const [plan] = (await (await context.request.get('/api/plans')).json()) as CustomerPlan[];
    const [skipped, next] = plan!.weeks;
    expect(skipped!.state).toBe('skipped');
    expect(await placePlansAt(new Date(Date.parse(skipped!.cutoff) + 60_000))).toEqual([]);
    expect(await placePlansAt(new Date(Date.parse(next!.cutoff) + 60_000))).toMatchObject([
      { planId: plan!.id, week: next!.week, outcome: 'placed' },
    ]);

    // The cook sees the planned order among the orders to answer (beside the first pre-order), and the planned
    // meals of that week.
    await cook.goto('/KitchenOrders');
    await expect(cook.getByRole('button', { name: 'Accept' })).toHaveCount(2);
    await expect(cook.getByText('Biryani × 2').first()).toBeVisible();
    await cook.goto('/MenuDashboard');
    const planned = cook.getByRole('table', { name: 'Planned meals, next four weeks' });
    await expect(planned.getByRole('row').filter({ hasText: '1 (1 placed)' })).toContainText('Biryani × 2');
    expect(await axeFindings(cook)).toEqual([]);

    // The week after, the cook has paused new orders: the week fails, and says why to the customer and to the
    // operator.
    const pause = await context.request.post('/api/kitchen/pause', { data: { paused: true } });
    expect(pause.status()).toBe(200);
    const third = plan!.weeks[2]!;
    expect(await placePlansAt(new Date(Date.parse(third.cutoff) + 60_000))).toMatchObject([
      { week: third.week, outcome: 'failed' },
    ]);
    await customer.goto('/CustomerOrders');
    await expect(
      yourPlans.getByText(new RegExp(`^Not placed for .*: ${name} is not taking orders right now\\.$`)),
    ).toBeVisible();
    await context.addCookies([await sessionCookieAs('operator@e2e.test', 'operator')]);
    const operator = await context.newPage();
    await operator.goto('/Operator');
    await operator.getByRole('tab', { name: 'Plans' }).click();
    const failed = operator.getByRole('table', { name: 'Weeks not placed, newest first' });
    await expect(failed.getByRole('row').filter({ hasText: name })).toContainText(
      `${name} is not taking orders right now.`,
    );
    expect(await axeFindings(operator)).toEqual([]);

    // On a phone (390 px): 'Your plans' and the cook's 'Plans' fit the screen, axe clean.
    for (const page of [customer, cook]) await page.setViewportSize({ width: 390, height: 844 });
    await customer.reload();
    await expect(yourPlans.getByText(/^Not placed for /)).toBeVisible();
    expect(await overflows(customer)).toBe(false);
    expect(await axeFindings(customer)).toEqual([]);
    await cook.reload();
    await expect(planned.getByRole('row').filter({ hasText: 'Biryani × 2' }).first()).toBeVisible();
    expect(await overflows(cook)).toBe(false);
    expect(await axeFindings(cook)).toEqual([]);
  });
});

/** Whether the page scrolls sideways (it must not, at any width). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
