import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { PushDevice } from '../../../shared/notifications.js';
import { pushSubscriptions } from '../../db/schema.js';
import { describeEachEngine, sessionCookie, signedIn, type TestContext } from '../../test/test-app.js';
import { MAX_PUSH_DEVICES, NOT_ITS_KEYS, TOO_MANY_DEVICES } from './push-routes.js';

const URL_ = '/api/notifications/push-subscriptions';
const CHROME_ON_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/** What a browser's `PushSubscription.toJSON()` holds: its push service's endpoint and its keys. */
function subscription(endpoint = `https://fcm.googleapis.com/fcm/send/${randomUUID()}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

const devicesOf = (ctx: TestContext, userId: string) =>
  ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describeEachEngine('push devices: /api/notifications/push-subscriptions', (get) => {
  const subscribe = (body: unknown, cookie?: string, query = '', headers: Record<string, string> = {}) =>
    get().app.inject({
      method: 'POST',
      url: `${URL_}${query}`,
      headers: { ...(cookie ? { cookie } : {}), ...headers },
      payload: body as object,
    });
  const remove = (id: string, cookie?: string, query = '') =>
    get().app.inject({ method: 'DELETE', url: `${URL_}/${id}${query}`, headers: cookie ? { cookie } : {} });

  it("the server's VAPID key is public", async () => {
    const res = await get().app.inject({ url: '/api/notifications/push-key' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ publicKey: string }>().publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it('subscribes a customer’s or a cook’s device, named after its browser, and saves its keys', async () => {
    const ctx = get();
    for (const role of ['customer', 'kitchen'] as const) {
      const { user, cookie } = await signedIn(ctx, role);
      const body = subscription();
      const res = await subscribe(body, cookie, '', { 'user-agent': CHROME_ON_ANDROID });
      expect(res.statusCode, res.body).toBe(201);
      const device = res.json<PushDevice>();
      expect(device).toMatchObject({ name: 'Chrome on Android' });
      expect(new Date(device.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(await devicesOf(ctx, user.id)).toMatchObject([
        { id: device.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth },
      ]);
    }
  });

  it('subscribing again is the same device (new keys kept); one that changes hands moves to its new person', async () => {
    const ctx = get();
    const ana = await signedIn(ctx, 'customer');
    const ben = await signedIn(ctx, 'customer');
    const first = subscription();
    const a = (await subscribe({ ...first, name: 'My phone' }, ana.cookie)).json<PushDevice>();
    const renewed = { ...subscription(first.endpoint) };
    const again = await subscribe({ ...renewed, name: 'My phone' }, ana.cookie);
    expect(again.statusCode).toBe(201);
    expect(again.json<PushDevice>()).toEqual(a);
    expect(await devicesOf(ctx, ana.user.id)).toMatchObject([{ id: a.id, p256dh: renewed.keys.p256dh }]);
    // Ben signs in on Ana's browser and turns notifications on: they are his now, not hers.
    const moved = await subscribe(renewed, ben.cookie);
    expect(moved.statusCode).toBe(201);
    expect(await devicesOf(ctx, ana.user.id)).toEqual([]);
    expect(await devicesOf(ctx, ben.user.id)).toMatchObject([{ endpoint: first.endpoint }]);
  });

  it("another person's device does not move with other keys than its own: 409 naming keys, and nothing changes", async () => {
    const ctx = get();
    const ana = await signedIn(ctx, 'customer');
    const mallory = await signedIn(ctx, 'kitchen');
    const anas = subscription();
    const device = (await subscribe({ ...anas, name: 'Ana’s phone' }, ana.cookie)).json<PushDevice>();
    // Mallory learnt the endpoint, not the keys: with keys of hers, or half of Ana's, it stays Ana's.
    const others = subscription(anas.endpoint).keys;
    for (const keys of [
      others,
      { ...anas.keys, auth: others.auth },
      { ...anas.keys, p256dh: others.p256dh },
    ]) {
      const res = await subscribe({ endpoint: anas.endpoint, keys, name: 'Mine now' }, mallory.cookie);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'CONFLICT', field: 'keys', message: NOT_ITS_KEYS });
    }
    expect(await devicesOf(ctx, mallory.user.id)).toEqual([]);
    expect(await devicesOf(ctx, ana.user.id)).toMatchObject([
      { id: device.id, name: 'Ana’s phone', p256dh: anas.keys.p256dh, auth: anas.keys.auth },
    ]);
    // Ana herself may renew her device's keys; and with them, it is anyone's who signs in on that browser.
    const renewed = subscription(anas.endpoint);
    expect((await subscribe(renewed, ana.cookie)).statusCode).toBe(201);
    expect((await subscribe(anas, mallory.cookie)).statusCode).toBe(409);
    expect((await subscribe(renewed, mallory.cookie)).statusCode).toBe(201);
    expect(await devicesOf(ctx, ana.user.id)).toEqual([]);
    expect(await devicesOf(ctx, mallory.user.id)).toMatchObject([
      { id: device.id, p256dh: renewed.keys.p256dh },
    ]);
  });

  it(`at most ${MAX_PUSH_DEVICES} devices each: 409 beyond, while one already there may subscribe again`, async () => {
    const ctx = get();
    const { user, cookie } = await signedIn(ctx, 'customer');
    const bodies = Array.from({ length: MAX_PUSH_DEVICES }, () => subscription());
    for (const body of bodies) expect((await subscribe(body, cookie)).statusCode).toBe(201);
    const beyond = await subscribe(subscription(), cookie);
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json()).toMatchObject({
      code: 'CONFLICT',
      message: TOO_MANY_DEVICES.replace('{max}', String(MAX_PUSH_DEVICES)),
    });
    expect((await subscribe(bodies[0], cookie)).statusCode).toBe(201);
    expect(await devicesOf(ctx, user.id)).toHaveLength(MAX_PUSH_DEVICES);
  });

  it('?as= picks the session when the browser holds a customer’s and a kitchen’s', async () => {
    const ctx = get();
    const customer = await signedIn(ctx, 'customer');
    const cook = await signedIn(ctx, 'kitchen');
    const both = `${customer.cookie}; ${cook.cookie}`;
    expect((await subscribe(subscription(), both, '?as=customer')).statusCode).toBe(201);
    expect((await subscribe(subscription(), both, '?as=kitchen')).statusCode).toBe(201);
    // Without it: the cook's (as 'Notifications' does).
    expect((await subscribe(subscription(), both)).statusCode).toBe(201);
    expect(await devicesOf(ctx, customer.user.id)).toHaveLength(1);
    expect(await devicesOf(ctx, cook.user.id)).toHaveLength(2);
    // Asked for a session the browser does not hold: 401.
    expect((await subscribe(subscription(), customer.cookie, '?as=kitchen')).statusCode).toBe(401);
    const wrong = await subscribe(subscription(), both, '?as=operator');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'as' });
  });

  it('deletes one’s own device (204), and no one else’s (404, as if there were none)', async () => {
    const ctx = get();
    const ana = await signedIn(ctx, 'customer');
    const cook = await signedIn(ctx, 'kitchen');
    const device = (await subscribe(subscription(), ana.cookie)).json<PushDevice>();
    // Another person, a cook, an operator, nobody: refused, and the device stays.
    const operator = await signedIn(ctx, 'operator');
    for (const cookie of [cook.cookie, (await signedIn(ctx, 'customer')).cookie]) {
      const res = await remove(device.id, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await remove(device.id, operator.cookie)).statusCode).toBe(401);
    expect((await remove(device.id)).statusCode).toBe(401);
    // Ana's own, through the other session's ?as=: not hers there.
    expect((await remove(device.id, `${ana.cookie}; ${cook.cookie}`, '?as=kitchen')).statusCode).toBe(404);
    expect(await devicesOf(ctx, ana.user.id)).toHaveLength(1);
    const res = await remove(device.id, ana.cookie);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await devicesOf(ctx, ana.user.id)).toEqual([]);
    expect((await remove(device.id, ana.cookie)).statusCode).toBe(404);
    // Not an id at all.
    const bad = await remove('not-a-uuid', ana.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'id' });
  });

  it('refuses bad subscriptions with 400, naming the field', async () => {
    const ctx = get();
    const { user, cookie } = await signedIn(ctx, 'kitchen');
    const good = subscription();
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: 'http://fcm.googleapis.com/fcm/send/x' }, 'endpoint'],
      [{ ...good, endpoint: 'not a link' }, 'endpoint'],
      [{ ...good, endpoint: `https://push.example/${'x'.repeat(2000)}` }, 'endpoint'],
      [{ keys: good.keys }, 'endpoint'],
      [{ endpoint: good.endpoint }, 'keys'],
      [{ ...good, keys: { auth: good.keys.auth } }, 'keys.p256dh'],
      [{ ...good, keys: { p256dh: good.keys.p256dh } }, 'keys.auth'],
      [{ ...good, keys: { ...good.keys, p256dh: '<script>' } }, 'keys.p256dh'],
      // Well formed, but no point of P-256 (a push could never be encrypted for it); a secret of 20 bytes.
      [{ ...good, keys: { ...good.keys, p256dh: `B${'A'.repeat(86)}` } }, 'keys.p256dh'],
      [{ ...good, keys: { ...good.keys, auth: randomBytes(20).toString('base64url') } }, 'keys.auth'],
      [{ ...good, name: 'n'.repeat(81) }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await subscribe(body, cookie);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
    }
    expect(await devicesOf(ctx, user.id)).toEqual([]);
  });

  it('refuses the signed out (401) and an operator (no party to any notice)', async () => {
    const ctx = get();
    const operator = await signedIn(ctx, 'operator');
    for (const cookie of [undefined, operator.cookie, 'customer_session=made-up']) {
      const res = await subscribe(subscription(), cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('a session signs in its own person only, whichever cookie it is presented as', async () => {
    const ctx = get();
    const ana = await signedIn(ctx, 'customer');
    const token = ana.cookie.slice(ana.cookie.indexOf('=') + 1);
    expect((await subscribe(subscription(), `kitchen_session=${token}`)).statusCode).toBe(401);
    expect(await devicesOf(ctx, ana.user.id)).toEqual([]);
    // Still hers under its own cookie.
    const cookie = await sessionCookie(ctx, ana.user, 'kitchen');
    expect((await subscribe(subscription(), cookie)).statusCode).toBe(201);
  });
});

describeEachEngine(
  'push devices in production: only push services on the internet',
  (get) => {
    it('refuses an endpoint on an address of the server’s own network', async () => {
      const ctx = get();
      // https: the session cookies are __Host- ones.
      const { cookie: plain } = await signedIn(ctx, 'customer');
      const cookie = `${ctx.config.sessionCookies.customer}${plain.slice(plain.indexOf('='))}`;
      for (const endpoint of [
        'https://127.0.0.1:8443/push/x',
        'https://10.0.0.5/push/x',
        'https://[::1]/push/x',
        'https://localhost/push/x',
        'https://metadata/push/x',
        'https://db.internal/push/x',
      ]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: URL_,
          headers: { cookie },
          payload: subscription(endpoint),
        });
        expect(res.statusCode, endpoint).toBe(400);
        expect(res.json()).toMatchObject({ field: 'endpoint' });
      }
      const res = await ctx.app.inject({
        method: 'POST',
        url: URL_,
        headers: { cookie },
        payload: subscription(),
      });
      expect(res.statusCode).toBe(201);
    });
  },
  {
    NODE_ENV: 'production',
    SESSION_SECRET: 'p'.repeat(32),
    GOOGLE_CLIENT_ID: 'client',
    GOOGLE_CLIENT_SECRET: 'secret',
    PUBLIC_URL: 'https://homecooked.example',
  },
);
