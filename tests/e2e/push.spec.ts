import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../src/server/db/schema.js';
import { startLocalPushService, type LocalPushService } from '../../src/server/test/local-push-service.js';
import type { PushPayload } from '../../src/shared/notifications.js';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { createKitchenWithOwner, customerSessionCookie, e2eDatabase } from './db.js';
import { expect, test } from './fixtures.js';
import { privateServer, type PrivateServer } from './private-server.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';

/*
 * Web Push in the browser. Chromium here has no push service (its pushManager.subscribe fails in a Playwright
 * context: "Registration failed - permission denied", and hangs without Google's servers in a persistent one), so
 * a real browser subscription cannot be made. What is tested instead: the app is installable; its service worker
 * registers; a push delivered to it (through the DevTools protocol, as a push service would) shows the
 * notification with its page; the button subscribes and unsubscribes the device (with the browser's subscribe
 * standing in); and a real order's notices leave the server, through `web-push`, to a local push service that
 * decrypts them, and from there reach the service worker with the page closed.
 */

/** A kitchen with a dish, and a signed-in customer with an order there in progress, in `context`. */
async function customerWithOrder(context: BrowserContext) {
  const { kitchen, cookie } = await createKitchenWithOwner(`Push ${randomUUID().slice(0, 8)}`, {
    dishes: [{ item: 'Dal' }],
  });
  await context.addCookies([await customerSessionCookie(`push-${randomUUID()}@e2e.test`)]);
  const menu = (await (await context.request.get(`/api/kitchens/${kitchen.uid}/menu`)).json()) as {
    id: string;
  }[];
  const order = await context.request.post('/api/orders', {
    data: {
      kitchenUid: kitchen.uid,
      itemIds: [menu[0]?.id],
      address: '3 Push Lane',
      idempotencyKey: randomUUID(),
    },
  });
  expect(order.status(), await order.text()).toBe(201);
  return { kitchen, cookCookie: cookie };
}

/** The notifications the app's service worker shows, as a page of the app reads them. */
const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
  });

/**
 * Delivers `data` to the service worker registered for `origin`, as its push service would, until `arrived` holds.
 * A push service delivers again what the browser did not take, and so does this: a push handed over while the browser
 * is still starting the worker is now and then lost (CI, a busy machine). A notification shown again with the same
 * tag replaces the first, so delivering twice shows it once.
 */
async function deliverPush(
  context: BrowserContext,
  page: Page,
  origin: string,
  data: string,
  arrived: () => Promise<boolean>,
) {
  // `ready` resolves with a worker still activating; a push is for an activated one.
  if (page.url().startsWith(origin))
    await page.evaluate(async () => {
      const worker = (await navigator.serviceWorker.ready).active;
      if (!worker || worker.state === 'activated') return;
      await new Promise<void>((resolve) =>
        worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
      );
    });
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.some((r) => r.scopeURL === `${origin}/` && !r.isDeleted)).toBe(true);
  await expect(async () => {
    const registration = registrations.findLast((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: registration?.registrationId ?? '',
      data,
    });
    await expect.poll(arrived, { timeout: 3000 }).toBe(true);
  }).toPass({ timeout: 30_000 });
  await cdp.detach();
}

test.describe('push notifications', () => {
  test('the app is installable, on every page', async ({ page, request }) => {
    await page.goto('/');
    const head = page.locator('head');
    await expect(head.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    await expect(head.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#e8590c');
    const touchIcon = await head.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest).toMatchObject({ short_name: 'HomeCooked', start_url: '/', display: 'standalone' });
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
      expect(icon, size).toBeDefined();
      const answer = await request.get(icon?.src ?? '');
      expect(answer.headers()['content-type']).toBe('image/png');
    }
    expect((await request.get(touchIcon ?? '')).status()).toBe(200);
    // The service worker: JavaScript at the root (its scope is the whole app), never cached for long.
    const worker = await request.get('/sw.js');
    expect(worker.status()).toBe(200);
    expect(worker.headers()['content-type']).toMatch(/javascript/);
    expect(worker.headers()['cache-control']).not.toMatch(/immutable/);
  });

  test("the service worker shows a push, with the page it opens; the order's page offers notifications", async ({
    context,
    page,
    baseURL,
  }) => {
    await context.grantPermissions(['notifications']);
    await customerWithOrder(context);
    await page.goto('/CustomerOrderStatus');
    await expect(page.getByText('Get told when your order moves, even with this page closed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Allow notifications on this device' })).toBeVisible();
    // The button registered the app's service worker, for the whole app.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${baseURL}/`);

    const origin = new URL(baseURL ?? '').origin;
    const payload: PushPayload = {
      title: 'Your order was accepted',
      body: 'Dal from Push Kitchen, ready around 19:30',
      url: '/CustomerOrderStatus',
      tag: `order-accepted:${randomUUID()}`,
    };
    await deliverPush(context, page, origin, JSON.stringify(payload), async () =>
      (await shownNotifications(page)).some((n) => n.tag === payload.tag),
    );
    await expect
      .poll(() => shownNotifications(page))
      .toEqual([
        {
          title: payload.title,
          body: payload.body,
          tag: payload.tag,
          data: { url: `${origin}/CustomerOrderStatus` },
        },
      ]);
    // A push naming another site opens this app's home instead.
    const elsewhere = { ...payload, url: 'https://evil.example/x', tag: 'elsewhere' };
    await deliverPush(context, page, origin, JSON.stringify(elsewhere), async () =>
      (await shownNotifications(page)).some((n) => n.tag === 'elsewhere'),
    );
    await expect
      .poll(async () => (await shownNotifications(page)).find((n) => n.tag === 'elsewhere')?.data)
      .toEqual({ url: `${origin}/` });
  });

  test('‘Allow notifications on this device’ subscribes it, ‘Turn off on this device’ takes it off', async ({
    context,
    page,
  }) => {
    await context.grantPermissions(['notifications']);
    await customerWithOrder(context);
    // The browser's subscription, as a push service would give it (this Chromium has none): its own keys.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const endpoint = `https://push.e2e.test/${randomUUID()}`;
    await page.addInitScript(
      ({ endpoint, p256dh, auth }) => {
        let current: PushSubscription | null = null;
        PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
          const subscription = {
            endpoint,
            expirationTime: null,
            options: { userVisibleOnly: true, applicationServerKey: options?.applicationServerKey ?? null },
            toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
            unsubscribe: async () => {
              current = null;
              return true;
            },
          };
          current = subscription as unknown as PushSubscription;
          return current;
        };
        PushManager.prototype.getSubscription = async () => current;
      },
      {
        endpoint,
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
      },
    );
    const devices = async () =>
      (await e2eDatabase()).db
        .select({ name: pushSubscriptions.name })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, endpoint));

    await page.goto('/CustomerOrderStatus');
    await page.getByRole('button', { name: 'Allow notifications on this device' }).click();
    await expect(page.getByText('Notifications are on for this device')).toBeVisible();
    expect(await devices()).toEqual([{ name: 'Chrome on Linux' }]);
    await page.getByRole('button', { name: 'Turn off on this device' }).click();
    await expect(page.getByRole('button', { name: 'Allow notifications on this device' })).toBeVisible();
    expect(await devices()).toEqual([]);
  });

  test.describe('from the server, with the page closed', () => {
    let service: LocalPushService;
    let server: PrivateServer;
    test.beforeAll(async () => {
      service = await startLocalPushService();
      // The server trusts the local push service's certificate, as it trusts a real one's, and may push to it on
      // loopback (production never may).
      const certFile = join(tmpdir(), `push-service-${randomUUID()}.pem`);
      writeFileSync(certFile, service.cert);
      server = await privateServer({
        env: { NODE_EXTRA_CA_CERTS: certFile, NOTIFY_POLL_SECONDS: '1', PUSH_PRIVATE_ADDRESSES: 'allow' },
        name: 'push',
      });
      await server.start();
    });
    test.afterAll(async () => {
      await server?.dispose();
      await service?.close();
    });

    test("a new order reaches the cook's device, and its acceptance the customer's", async ({ browser }) => {
      // One browser for the cook and one for the customer, each with the app's service worker and no page open.
      const devices = { cook: await browser.newContext(), customer: await browser.newContext() };
      for (const [role, context] of Object.entries(devices)) {
        await context.grantPermissions(['notifications'], { origin: server.url });
        await context.addCookies([
          await server.sessionCookie(
            role === 'cook' ? 'kitchen' : 'customer',
            `${role}-${randomUUID()}@e2e.test`,
          ),
        ]);
      }
      const call = async <T>(context: BrowserContext, method: string, path: string, data?: object) => {
        const answer = await context.request.fetch(`${server.url}${path}`, {
          method,
          data,
          headers: { origin: server.publicUrl },
        });
        expect(answer.ok(), `${method} ${path}: ${answer.status()} ${await answer.text()}`).toBe(true);
        return (answer.status() === 204 ? undefined : await answer.json()) as T;
      };
      // Each device subscribed at the local push service (what pushManager.subscribe does with a real one).
      const endpoints = { cook: service.subscribe(), customer: service.subscribe() };
      for (const role of ['cook', 'customer'] as const) {
        const target = endpoints[role];
        await call(devices[role], 'POST', '/api/notifications/push-subscriptions', {
          endpoint: target.endpoint,
          keys: { p256dh: target.p256dh, auth: target.auth },
        });
      }
      const kitchen = await call<{ uid: string; name: string }>(devices.cook, 'POST', '/api/kitchen', {
        name: `Pushing Kitchen ${randomUUID().slice(0, 6)}`,
        category: 'Indian',
        address: '12 Mango Street',
        imageLink: 'https://images.invalid/kitchen.png',
        hours: ALL_DAY_HOURS,
      });
      const dish = await call<{ id: string }>(devices.cook, 'POST', '/api/kitchen/menu', {
        item: 'Dal',
        imageLink: 'https://images.invalid/dish.png',
        price: '9.50',
        wait: '20 min',
        allergenAnswers: answersWith(),
      });
      // The service workers are registered, and their pages closed.
      const pages = { cook: await devices.cook.newPage(), customer: await devices.customer.newPage() };
      for (const page of Object.values(pages)) {
        await page.goto(`${server.url}/`);
        await page.evaluate(async () => {
          await navigator.serviceWorker.register('/sw.js', { scope: '/' });
          await navigator.serviceWorker.ready;
        });
        await page.goto('about:blank');
      }

      const order = await call<{ id: string }>(devices.customer, 'POST', '/api/orders', {
        kitchenUid: kitchen.uid,
        itemIds: [dish.id],
        address: '77 Delivery Lane',
        idempotencyKey: randomUUID(),
      });
      const pushTo = async (role: 'cook' | 'customer', expected: Partial<PushPayload>) => {
        // The server's push, decrypted by the push service with the device's keys: the message, and its page.
        await expect
          .poll(() => service.received.filter((p) => p.endpoint === endpoints[role].endpoint).length, {
            timeout: 30_000,
          })
          .toBeGreaterThan(0);
        const push = service.received.filter((p) => p.endpoint === endpoints[role].endpoint).at(-1);
        const payload = JSON.parse(push?.plaintext ?? '') as PushPayload;
        expect(payload).toMatchObject(expected);
        // The push service hands it to the device: its service worker shows it, no page of the app open.
        // Each look opens a page of the app and closes it: none is open when the push arrives.
        const shownNow = async () => {
          const look = await devices[role].newPage();
          await look.goto(`${server.url}/`);
          const shown = await shownNotifications(look);
          await look.close();
          return shown.some((n) => n.tag === payload.tag);
        };
        await deliverPush(devices[role], pages[role], server.url, push?.plaintext ?? '', shownNow);
        const reader = await devices[role].newPage();
        await reader.goto(`${server.url}/`);
        await expect
          .poll(async () => (await shownNotifications(reader)).map((n) => [n.title, n.data]))
          .toContainEqual([payload.title, { url: `${server.url}${payload.url}` }]);
        await reader.close();
        service.received.length = 0;
        return payload;
      };
      const news = await pushTo('cook', { url: '/KitchenOrders' });
      expect(news.body).toContain('Dal');
      await call(devices.cook, 'POST', `/api/kitchen/orders/${order.id}/moves`, {
        move: 'accept',
        readyInMinutes: 30,
      });
      const accepted = await pushTo('customer', {});
      expect(accepted.title).toMatch(/accepted/i);
      expect(accepted.title + accepted.body).toContain(kitchen.name);
      for (const context of Object.values(devices)) await context.close();
    });
  });
});
