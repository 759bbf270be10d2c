import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { createServer } from 'node:http';
import type { BrowserContext, Page } from '@playwright/test';
import { createKitchen } from './db.js';
import { expect, test } from './fixtures.js';
import { freePort, privateServer, type PrivateServer } from './private-server.js';
import { stallingProxy } from './stalling-proxy.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

// The browser reports each refused or failed stream attempt in the console: the tab's one stream, which carries the
// orders pages' topics (the orders, and the kitchen itself: its pause switch follows it live).
const ORDER_STREAMS = /^http:\/\/localhost:\d+\/api\/live\?/;

/** A kitchen with one dish and a customer's order there, made through the API of `server`; both roles signed in. */
async function orderInProgress(server: PrivateServer, context: BrowserContext) {
  await context.addCookies([
    await server.sessionCookie('kitchen', `cook-${randomUUID()}@e2e.test`),
    await server.sessionCookie('customer', `customer-${randomUUID()}@e2e.test`),
  ]);
  const call = async <T>(method: string, path: string, data?: object) => {
    const answer = await context.request.fetch(`${server.url}${path}`, {
      method,
      data,
      headers: { origin: server.publicUrl },
    });
    expect(answer.ok(), `${method} ${path}: ${answer.status()} ${await answer.text()}`).toBe(true);
    return (answer.status() === 204 ? undefined : await answer.json()) as T;
  };
  const kitchen = await call<{ uid: string }>('POST', '/api/kitchen', {
    name: 'Reconnecting Kitchen',
    category: 'Filipino',
    address: '12 Mango Street',
    imageLink: 'https://images.invalid/kitchen.png',
    hours: ALL_DAY_HOURS, // ordering below must not depend on the hour the test runs
  });
  const dish = await call<{ id: string }>('POST', '/api/kitchen/menu', {
    item: 'Pancit',
    imageLink: 'https://images.invalid/dish.png',
    price: '9.50',
    wait: '20 min',
    allergenAnswers: answersWith(),
  });
  const order = await call<{ id: string }>('POST', '/api/orders', {
    kitchenUid: kitchen.uid,
    itemIds: [dish.id],
    address: '77 Delivery Lane',
    idempotencyKey: randomUUID(),
  });
  return {
    setStatus: (status: string) => call('PATCH', `/api/kitchen/orders/${order.id}`, { status }),
  };
}

/** The cook's orders page and the customer's order page, both showing the new order as received. */
async function openOrderPages(server: PrivateServer, kitchenPage: Page) {
  const customerPage = await kitchenPage.context().newPage();
  await kitchenPage.goto(`${server.publicUrl}/KitchenOrders`);
  await customerPage.goto(`${server.publicUrl}/CustomerOrderStatus`);
  const kitchenStatus = kitchenPage
    .getByRole('table', { name: 'Orders of your kitchen' })
    .getByRole('row', { name: /77 Delivery Lane/ });
  const customerStatus = customerPage.getByRole('status');
  await expect(kitchenStatus).toContainText('recieved');
  await expect(customerStatus).toContainText('recieved');
  return { kitchenStatus, customerStatus };
}

/**
 * Stands in for the server on its port while it is away, as a load balancer with no healthy instance does:
 * every request is answered 502. Resolves with a function that stops it.
 */
async function badGateway(port: number, streams: RegExp[]) {
  const refused = new Set<RegExp>();
  const gateway = createServer((request, response) => {
    const stream = streams.find((s) => s.test(decodeURIComponent(request.url ?? '')));
    if (stream && (request.headers.accept ?? '').includes('text/event-stream')) refused.add(stream);
    response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway');
  });
  await new Promise<void>((resolve) => gateway.listen(port, '127.0.0.1', resolve));
  return {
    /** Every stream in `streams` has been refused at least once. */
    refusedAll: () => refused.size === streams.length,
    close: () =>
      new Promise<void>((resolve) => {
        gateway.closeAllConnections();
        gateway.close(() => resolve());
      }),
  };
}

test.describe('live order streams survive the server going away', () => {
  test.use({
    expectedErrorUrls: [ORDER_STREAMS],
    // The status page registers the service worker (for pushes) as it opens: when its script is asked for just as
    // the server goes away, Chromium says so in the console; the page looks again a few seconds later.
    expectedErrorTexts: [/^An unknown error occurred when fetching the script\.$/],
  });
  // Each test starts (and one restarts) a server of its own.
  test.slow();

  test('a restart behind a gateway that answers 502 meanwhile: a later status shows on both pages', async ({
    page,
  }) => {
    // A server of its own, started twice, behind a gateway: 56 s of the default 60 in a CI run on a loaded machine.
    test.slow();
    const server = await privateServer();
    try {
      await server.start();
      const order = await orderInProgress(server, page.context());
      const { kitchenStatus, customerStatus } = await openOrderPages(server, page);

      await server.stop();
      // Each page's one stream (the cook's carries its orders, the customer's their order).
      const gateway = await badGateway(Number(new URL(server.url).port), [
        /^\/api\/live\?.*t=\/api\/kitchen\/orders(&|#|$)/,
        /^\/api\/live\?.*t=\/api\/orders\/mine(&|#|$)/,
      ]);
      await expect.poll(gateway.refusedAll, { timeout: 15_000 }).toBe(true);
      await gateway.close();
      await server.start();

      // The pages' next attempt comes within the longest backoff (20 s) of the server's return.
      await order.setStatus('Out for delivery');
      await expect(kitchenStatus).toContainText('Out for delivery', { timeout: 25_000 });
      await expect(customerStatus).toContainText('Out for delivery', { timeout: 25_000 });
    } finally {
      await server.dispose();
    }
  });

  test('a stream that goes silent without closing is reopened: a later status shows on both pages', async ({
    page,
  }) => {
    const port = await freePort();
    const proxy = await stallingProxy({ port });
    const server = await privateServer({
      port,
      publicUrl: `http://localhost:${proxy.port}`,
      env: { LIVE_HEARTBEAT_MS: '1000' },
    });
    try {
      await server.start();
      const order = await orderInProgress(server, page.context());
      const { kitchenStatus, customerStatus } = await openOrderPages(server, page);

      // Once each page's one stream has heard a heartbeat, each page knows the interval; then the line goes quiet.
      await expect
        .poll(() => proxy.streams() >= 2 && proxy.streamsWithHeartbeat() === proxy.streams())
        .toBe(true);
      expect(proxy.stallStreams()).toBeGreaterThanOrEqual(2);

      await order.setStatus('Preparing');
      await expect(kitchenStatus).toContainText('Preparing');
      await expect(customerStatus).toContainText('Preparing');
    } finally {
      await server.dispose();
      await proxy.close();
    }
  });
});

test.describe('a stream refused once', () => {
  test.use({ expectedErrorUrls: [/\/api\/live\?/] });

  test('the landing page still receives a kitchen added after its stream was first answered 503', async ({
    page,
  }) => {
    let refused = false;
    await page.route('**/api/live?*', (route) => {
      if (refused || !(route.request().headers().accept ?? '').includes('text/event-stream'))
        return route.fallback();
      refused = true;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"code":"UNAVAILABLE","message":"The service is briefly unavailable, please retry"}',
      });
    });
    await page.goto('/');
    await expect(page.getByRole('link', { name: /Asha's Tiffin/ })).toBeVisible();
    await expect.poll(() => refused).toBe(true);

    const name = `After a 503 ${Date.now()}`;
    await createKitchen(name);
    await expect(page.getByRole('link', { name: new RegExp(`^${name},`) })).toBeVisible();
  });
});
