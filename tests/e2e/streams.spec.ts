import { createKitchenWithOwner, placeOrderAs } from './db.js';
import { expect, test } from './fixtures.js';
import { twoFramesLater } from './frames.js';

/**
 * A browser keeps at most six connections to a site over HTTP/1.1, live streams included, and any request beyond
 * them waits for one to close: a tab opens one stream per topic, however many of its components follow it, so a
 * customer's menu page and the cook's orders page open side by side still leave room for the cook's clicks.
 */
test("a tab opens each topic's stream once, and the cook's click reaches the server beside an open menu page", async ({
  context,
  page: cook,
}) => {
  const { kitchen, cookie } = await createKitchenWithOwner(`Streams ${Date.now()}`, {
    dishes: [{ item: 'Dal' }],
  });
  await context.addCookies([cookie]);
  const streams: string[] = [];
  context.on('request', (request) => {
    if (request.headers()['accept'] === 'text/event-stream') streams.push(new URL(request.url()).pathname);
  });

  const customer = await context.newPage();
  await customer.goto(`/KitchenMenu/${kitchen.uid}`);
  await expect(customer.getByTestId('kitchen-hours').getByRole('status')).toHaveText('Open now');
  // The page is live once its reviews (asked for when the kitchen's stream says what they are at) have loaded.
  await expect(customer.getByText('No reviews yet')).toBeVisible();
  await cook.goto('/KitchenOrders');
  const pause = cook.getByRole('switch', { name: 'Pause new orders' });
  await expect(pause).not.toBeChecked();
  await expect.poll(() => streams.length).toBeGreaterThanOrEqual(5);
  expect(streams.filter((path) => path === `/api/kitchens/${kitchen.uid}`)).toHaveLength(2); // one per tab
  expect(new Set(streams).size).toBe(4);

  await pause.click();
  await expect(pause).toBeChecked();
  await expect(customer.getByTestId('kitchen-hours').getByRole('status')).toHaveText('Closed');
  await customer.close();
});

test.describe('on the cook’s phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('an order placed while the cook moves another stays on screen (a refetch never puts an older list back)', async ({
    page,
  }) => {
    const { kitchen, items, cookie } = await createKitchenWithOwner(`Racing ${Date.now()}`, {
      dishes: [{ item: 'Dal' }, { item: 'Rice' }],
    });
    await page.context().addCookies([cookie]);
    // Plain reads of the kitchen's orders, while holding: the server answers at once, the page gets the answer
    // only when released (a slow network). Their streams pass.
    const held: Promise<() => Promise<void>>[] = [];
    let holding = false;
    await page.route('**/api/kitchen/orders**', async (route) => {
      const request = route.request();
      if (!holding || request.method() !== 'GET' || request.headers()['accept'] === 'text/event-stream')
        return route.fallback();
      held.push(route.fetch().then((response) => () => route.fulfill({ response })));
    });
    await page.goto('/KitchenOrders');
    await placeOrderAs(kitchen.uid, [items[0]!.id]);
    const card = page.getByTestId('order-card').first();
    await expect(card).toContainText('Dal');
    holding = true;
    await card.getByRole('button', { name: 'Accept' }).click();
    const accept = page.getByRole('dialog', { name: 'Accept this order' });
    await accept.getByText('30 min').click();
    await accept.getByRole('button', { name: 'Accept' }).click();
    await expect(card).toContainText('accepted');
    // The server has answered every read the move asked for (none, when the stream is trusted)...
    await Promise.all(held);
    // ...and a second customer orders while those answers are still on their way to the page.
    await placeOrderAs(kitchen.uid, [items[1]!.id]);
    await expect(page.getByTestId('order-card')).toHaveCount(2);
    holding = false;
    await Promise.all((await Promise.all(held)).map((deliver) => deliver()));
    // Whatever the held reads said has reached the screen two frames later: it must still show both orders.
    await twoFramesLater(page);
    expect(await page.getByTestId('order-card').count()).toBe(2);
  });
});
