import { expect, it } from 'vitest';
import { DATA_EXPORT_FORMAT, DataExport } from '../../shared/account.js';
import { hashToken } from '../identity/sessions.js';
import { describeEachEngine, sessionCookie, signedIn } from '../test/test-app.js';
import { buildAccountWorld, call, tokenOf } from '../test/account-world.js';

describeEachEngine("'Download my data'", (get) => {
  it('gives a customer everything held about them, as a JSON file, and nothing of anyone else', async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const res = await call(ctx, w.customer.cookie, 'GET', '/api/account/customer/export');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="homecooked-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = DataExport.parse(res.json());
    expect(data.format).toBe(DATA_EXPORT_FORMAT);
    expect(data.profile).toMatchObject({ id: w.customer.user.id, email: w.customer.user.email });
    expect(data.profile.name).toBe(w.customer.user.displayName);
    expect(data.sessions).toEqual([expect.objectContaining({ role: 'customer', current: true })]);
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({
      id: w.order.id,
      kitchenUid: w.cook.kitchen.uid,
      kitchenName: w.cook.kitchen.name,
      address: `1 C Street ${w.tag}`,
      email: w.customer.user.email,
      items: [{ item: `Dal ${w.tag}`, priceCents: 950 }],
      totalCents: w.order.totalCents,
      state: 'delivered',
    });
    expect(data.orders[0]?.events.map((e) => e.state)).toEqual([
      'recieved',
      'accepted',
      'preparing',
      'out for delivery',
      'delivered',
    ]);
    expect(data.chatMessages.map((m) => [m.text, m.hidden])).toEqual([
      [`C says hi ${w.tag}`, false],
      [`C hidden ${w.tag}`, true],
    ]);
    expect(data.reviews).toEqual([
      expect.objectContaining({
        orderId: w.order.id,
        kitchenUid: w.cook.kitchen.uid,
        stars: 5,
        text: `Lovely ${w.tag}`,
        reply: `Thank you ${w.tag}`,
      }),
    ]);
    expect(data.reports).toEqual([expect.objectContaining({ reason: `C reports ${w.tag}`, closedAt: null })]);
    expect(data.pictures).toEqual([]);
    expect(data.storeCredit).toBeNull();
    expect(data.kitchen).toBeNull();

    // Nothing of D, nothing of the cook's own, no session token or its hash.
    for (const secret of [
      w.other.user.email,
      `D says hi ${w.tag}`,
      `D reports ${w.tag}`,
      w.otherOrder.id,
      `2 D Street ${w.tag}`,
      w.cook.user.email,
      tokenOf(w.customer.cookie),
      hashToken(tokenOf(w.customer.cookie)),
      hashToken(tokenOf(w.cook.cookie)),
    ])
      expect(res.body).not.toContain(secret);
    expect(res.body).not.toMatch(/token/i);
  });

  it("gives a cook their kitchen, menu, orders received, reviews and pictures, but not their customers' own data", async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const res = await call(ctx, w.cook.cookie, 'GET', '/api/account/kitchen/export');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="homecooked-data-/);
    const data = DataExport.parse(res.json());
    expect(data.profile.email).toBe(w.cook.user.email);
    expect(data.sessions).toEqual([expect.objectContaining({ role: 'kitchen', current: true })]);
    expect(data.orders).toEqual([]);
    expect(data.chatMessages).toEqual([]);
    expect(data.pictures).toEqual([
      expect.objectContaining({
        id: w.photo.id,
        urls: w.photo.widths.map((width) => `/images/${w.photo.id}-${width}.webp`),
      }),
    ]);
    const kitchen = data.kitchen;
    expect(kitchen).toMatchObject({
      uid: w.cook.kitchen.uid,
      name: w.cook.kitchen.name,
      category: 'Indian',
      address: '1 Main St',
      about: `Cooking since 1990 ${w.tag}`,
      imageId: w.photo.id,
      imageLink: null,
      ownerEmail: w.cook.user.email,
      timeZone: 'UTC',
    });
    expect(kitchen?.hours).toEqual(w.cook.kitchen.hours);
    expect(kitchen?.menu).toEqual([
      expect.objectContaining({ id: w.dish.id, item: `Dal ${w.tag}`, priceCents: 950 }),
    ]);
    // The orders it received carry the customers' emails and addresses, as the dashboard shows them.
    expect(kitchen?.ordersReceived.map((o) => [o.id, o.customerEmail, o.address, o.items.length])).toEqual([
      [w.otherOrder.id, w.other.user.email, `2 D Street ${w.tag}`, 1],
      [w.order.id, w.customer.user.email, `1 C Street ${w.tag}`, 1],
    ]);
    expect(kitchen?.reviews).toEqual([
      expect.objectContaining({ orderId: w.order.id, text: `Lovely ${w.tag}`, reply: `Thank you ${w.tag}` }),
    ]);
    // Not the customers' chat, reports, sessions or ids.
    for (const secret of [
      `C says hi ${w.tag}`,
      `C hidden ${w.tag}`,
      `C reports ${w.tag}`,
      `D says hi ${w.tag}`,
      w.customer.user.id,
      w.other.user.id,
      hashToken(tokenOf(w.customer.cookie)),
      hashToken(tokenOf(w.cook.cookie)),
    ])
      expect(res.body).not.toContain(secret);
  });

  it('lists every session of the person, in both roles, marking the one asking', async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    const asCook = await sessionCookie(ctx, w.customer.user, 'kitchen');
    const res = await call(ctx, asCook, 'GET', '/api/account/kitchen/export');
    expect(res.statusCode).toBe(200);
    const data = DataExport.parse(res.json());
    expect(data.sessions.map((s) => [s.role, s.current]).sort()).toEqual([
      ['customer', false],
      ['kitchen', true],
    ]);
    expect(data.orders.map((o) => o.id)).toEqual([w.order.id]);
    expect(data.kitchen).toBeNull();
  });

  it('refuses without the named role’s session, and names a bad role', async () => {
    const ctx = get();
    const w = await buildAccountWorld(ctx);
    expect((await call(ctx, undefined, 'GET', '/api/account/customer/export')).statusCode).toBe(401);
    expect((await call(ctx, undefined, 'GET', '/api/account/kitchen/export')).statusCode).toBe(401);
    // A customer's cookie is no kitchen session, and the other way round.
    expect((await call(ctx, w.customer.cookie, 'GET', '/api/account/kitchen/export')).statusCode).toBe(401);
    expect((await call(ctx, w.cook.cookie, 'GET', '/api/account/customer/export')).statusCode).toBe(401);
    for (const role of ['operator', 'admin', '%00', 'customer%20', "'%20or%201=1"]) {
      const res = await call(ctx, w.customer.cookie, 'GET', `/api/account/${role}/export`);
      expect(res.statusCode, role).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.any(String), field: 'role' });
    }
  });

  it('allows 10 downloads a minute per session, then answers 429 with Retry-After', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'customer');
    for (let i = 0; i < 10; i++)
      expect((await call(ctx, cookie, 'GET', '/api/account/customer/export')).statusCode).toBe(200);
    const limited = await call(ctx, cookie, 'GET', '/api/account/customer/export');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another person is not held back by it.
    const other = await signedIn(ctx, 'customer');
    expect((await call(ctx, other.cookie, 'GET', '/api/account/customer/export')).statusCode).toBe(200);
  });
});
