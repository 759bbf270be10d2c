import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  createKitchen,
  createKitchenWithOwner,
  customerSessionCookie,
  markSoldOut,
  placeOrderAs,
  postChatAs,
  setOpenOrderStatus,
} from './db.js';
import { expect, test } from './fixtures.js';
import { twoFramesLater } from './frames.js';

/**
 * A browser keeps at most six connections to a site over HTTP/1.1, live streams included, and any request beyond
 * them waits for one to close: a tab holds one live connection (`/api/live`) carrying every topic it watches, so a
 * customer's menu page and the cook's orders page open side by side still leave room for the cook's clicks.
 */

/** Counts, in the page, the live connections (EventSources) open now. */
async function countStreams(page: Page) {
  await page.addInitScript(() => {
    const opened: EventSource[] = [];
    (window as unknown as { openStreams: () => number }).openStreams = () =>
      opened.filter((s) => s.readyState !== EventSource.CLOSED).length;
    window.EventSource = class extends EventSource {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        opened.push(this);
      }
    };
  });
  return () => page.evaluate(() => (window as unknown as { openStreams: () => number }).openStreams());
}

test('a tab holds one live stream whatever it shows, each change arrives on it, and a drop loses nothing', async ({
  context,
  page,
}) => {
  const tag = randomUUID().slice(0, 8);
  const { kitchen, items } = await createKitchenWithOwner(`One Stream ${tag}`, {
    dishes: [{ item: 'Dal' }, { item: 'Rice' }],
  });
  await context.addCookies([await customerSessionCookie(`one-stream-${tag}@e2e.test`)]);
  const open = await countStreams(page);

  // The landing page: a kitchen registered now appears.
  await page.goto('/');
  const card = page.getByTestId('kitchen-card').filter({ hasText: kitchen.name });
  await expect(card).toBeVisible();
  await expect.poll(open).toBe(1);
  const later = `Later Kitchen ${tag}`;
  await createKitchen(later);
  await expect(page.getByTestId('kitchen-card').filter({ hasText: later })).toBeVisible();

  // Its menu, reached in the same document: a dish sold out now says so; still one stream.
  await card.click();
  await expect(page.getByRole('heading', { level: 1, name: kitchen.name })).toBeVisible();
  await markSoldOut(kitchen.uid, items[0]!.id);
  await expect(page.getByRole('button', { name: 'Dal is sold out' })).toBeDisabled();
  await expect.poll(open).toBe(1);

  // The customer's order, from the top bar: its status set now shows.
  const placed = await context.request.post('/api/orders', {
    data: {
      kitchenUid: kitchen.uid,
      itemIds: [items[1]!.id],
      address: '1 One Stream Road',
      idempotencyKey: tag,
    },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(placed.status()).toBe(201);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Order' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('recieved');
  await setOpenOrderStatus(`one-stream-${tag}@e2e.test`, 'Rolling the rotis');
  await expect(page.getByTestId('order-status')).toHaveText('Rolling the rotis');
  await expect.poll(open).toBe(1);

  // The chat: a message sent from elsewhere arrives.
  await page.goto('/Chatroom');
  await expect(page.getByRole('textbox', { name: /message/i })).toBeVisible();
  const text = `Hello from elsewhere ${tag}`;
  const said = await context.request.post('/api/chat', {
    data: { text },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(said.status()).toBe(201);
  await expect(page.getByText(text)).toBeVisible();
  await expect.poll(open).toBe(1);

  // The connection drops (the network goes away); what changed meanwhile arrives once it is back.
  await context.setOffline(true);
  await expect.poll(open).toBe(0);
  const meanwhile = `Said while you were away ${tag}`;
  await postChatAs(`away-${tag}@e2e.test`, meanwhile);
  await context.setOffline(false);
  await expect(page.getByText(meanwhile)).toBeVisible();
  await expect.poll(open).toBe(1);
});

test('the cook’s click reaches the server beside an open menu page in the same browser', async ({
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
  await expect(customer.getByText('No reviews yet')).toBeVisible();
  await cook.goto('/KitchenOrders');
  const pause = cook.getByRole('switch', { name: 'Pause new orders' });
  await expect(pause).not.toBeChecked();
  // Every stream either tab opened is its one live connection.
  await expect.poll(() => streams.length).toBeGreaterThanOrEqual(2);
  expect(new Set(streams)).toEqual(new Set(['/api/live']));

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
