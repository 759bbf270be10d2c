import { randomUUID } from 'node:crypto';
import { addReviews, createKitchenWithOwner, customerSessionCookie } from './db.js';
import { axeFindings } from './axe.js';
import { expect, test } from './fixtures.js';
import { deliverOrder } from './kitchen-moves.js';

test.describe('reviews and the cook’s story', () => {
  test("a delivered order is rated with 'Rate your order'; the landing card, the menu page and the cook's dashboard show it live", async ({
    context,
    page: landing,
  }) => {
    // Three screens, an order's whole life and whole-page axe scans of the cook's dashboard: on a loaded 2-core
    // machine, more than a minute (a red CI run timed out inside the last scan).
    test.slow();
    const name = `Reviewed ${randomUUID().slice(0, 8)}`;
    const { kitchen, items, cookie } = await createKitchenWithOwner(name, { dishes: [{ item: 'Dal' }] });
    await context.addCookies([cookie, await customerSessionCookie(`reviews-${randomUUID()}@e2e.test`)]);

    // The customer orders; the cook takes it all the way to the door (as the orders page's buttons do).
    const placed = await context.request.post('/api/orders', {
      data: {
        kitchenUid: kitchen.uid,
        itemIds: [items[0]!.id],
        address: '3 Review Road',
        idempotencyKey: randomUUID(),
      },
    });
    expect(placed.status()).toBe(201);
    const { id } = (await placed.json()) as { id: string };

    // The landing page is open before the order is rated: its card has no rating yet.
    await landing.goto('/');
    const card = landing.getByRole('link', { name: `${name}, Fusion kitchen` });
    await expect(card).toBeVisible();
    await expect(card).not.toContainText('★');

    const customer = await context.newPage();
    await customer.goto('/CustomerOrderStatus');
    await expect(customer.getByTestId('order-status')).toHaveText('recieved');
    // Not delivered yet: nothing to rate.
    await expect(customer.getByRole('heading', { name: 'Rate your order' })).toBeHidden();
    await deliverOrder(context.request, id);
    await expect(customer.getByTestId('order-status')).toHaveText('delivered');

    const rate = customer.getByRole('form', { name: 'Rate your order' });
    await expect(rate).toBeVisible();
    // Sending without stars says what is missing.
    await rate.getByRole('button', { name: 'Send rating' }).click();
    await expect(rate.getByRole('alert')).toHaveText('Choose from 1 to 5 stars');
    expect(await axeFindings(customer)).toEqual([]);
    // The stars are radio buttons: chosen with the keyboard here.
    await rate.getByRole('radio', { name: '5 stars' }).focus();
    await customer.keyboard.press('Space');
    await rate.getByLabel('Tell others about it (optional)').fill('Best dal in town.\nWill order again');
    await rate.getByRole('button', { name: 'Send rating' }).click();
    const given = customer.getByTestId('your-rating');
    await expect(given).toContainText('Your rating');
    await expect(given.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(customer.getByRole('heading', { name: 'Rate your order' })).toBeHidden();

    // The landing card shows it without a reload.
    await expect(card).toContainText('★ 5.0 (1)');
    await expect(card).toHaveAccessibleName(`${name}, Fusion kitchen, rated 5.0 out of 5 by 1 review`);

    // 'Your orders' shows the rating given, and no second form.
    await customer.getByRole('link', { name: 'Your orders' }).click();
    const entry = customer.getByRole('list', { name: 'Your orders' }).getByRole('listitem').first();
    await expect(entry.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(entry.getByRole('button', { name: 'Send rating' })).toBeHidden();

    // The kitchen's menu page: rating, the review, and the cook's story.
    await customer.goto(`/KitchenMenu/${kitchen.uid}`);
    await expect(customer.getByText('★ 5.0 (1)')).toBeVisible();
    const reviews = customer.getByRole('list', { name: 'Reviews' });
    const review = reviews.getByRole('listitem').first();
    await expect(review).toContainText('Best dal in town.');
    await expect(review).toContainText('E2E'); // the reviewer's first name, never the email
    await expect(review.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(customer.getByRole('heading', { name: 'About the cook' })).toBeVisible();
    await expect(customer.getByText(/^Cooking here since [A-Z][a-z]+ \d{4}$/)).toBeVisible();
    await expect(customer.getByText('1 order delivered')).toBeVisible();
    expect(await axeFindings(customer)).toEqual([]);

    // The cook tells their story and answers the review from the dashboard; the open menu page shows both.
    await landing.goto('/MenuDashboard');
    await landing.getByLabel('About the cook').fill('I cook my grandmother’s recipes.');
    await landing.getByRole('button', { name: 'Save details' }).click();
    await expect(customer.getByText('I cook my grandmother’s recipes.')).toBeVisible();
    const dashboardReviews = landing.getByRole('list', { name: 'Reviews' });
    await expect(dashboardReviews).toContainText('Best dal in town.');
    expect(await axeFindings(landing)).toEqual([]);
    await dashboardReviews.getByLabel('Reply to E2E').fill('Thank you, see you soon!');
    await dashboardReviews.getByRole('button', { name: 'Publish reply' }).click();
    await expect(dashboardReviews).toContainText('The cook replied');
    await expect(dashboardReviews.getByRole('button', { name: 'Publish reply' })).toBeHidden();
    await expect(review).toContainText('The cook replied');
    await expect(review).toContainText('Thank you, see you soon!');
  });

  test("a kitchen's page lists its latest 50 reviews; 'Show older reviews' brings the rest", async ({
    page,
  }) => {
    const name = `Well reviewed ${randomUUID().slice(0, 8)}`;
    const { kitchen } = await createKitchenWithOwner(name);
    await addReviews(kitchen, 56);
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    const reviews = page.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
    await expect(reviews).toHaveCount(50);
    await expect(reviews.first()).toContainText('Review 56');
    await expect(reviews.last()).toContainText('Review 7');
    await page.getByRole('button', { name: 'Show older reviews' }).click();
    await expect(reviews).toHaveCount(56);
    await expect(reviews.last()).toContainText('Review 1');
    await expect(page.getByRole('button', { name: 'Show older reviews' })).toBeHidden();
  });

  test("a kitchen without reviews says 'No reviews yet' on its menu page", async ({ page }) => {
    const name = `Unreviewed ${randomUUID().slice(0, 8)}`;
    const { kitchen } = await createKitchenWithOwner(name);
    await page.goto(`/KitchenMenu/${kitchen.uid}`);
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Reviews' })).toContainText('No reviews yet');
    await expect(page.getByText('★')).toHaveCount(0);
    await expect(page.getByText('0 orders delivered')).toBeVisible();
  });
});
