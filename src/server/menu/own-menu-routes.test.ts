import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import { menuItems } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { hostileLineTexts, hostilePictureLinks } from '../test/hostile-values.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { answersWith } from '../../shared/allergen-declaration.js';

const itemInput = (overrides: Record<string, unknown> = {}) => ({
  item: 'Paneer Tikka',
  imageLink: 'https://img.example/paneer.png',
  price: '12.5',
  wait: '25 min',
  allergenAnswers: answersWith(),
  ...overrides,
});

const badItemFields: [field: string, value: unknown][] = [
  ['item', ''],
  ['item', '  '],
  ['item', 'x'.repeat(81)],
  ['item', 'Dal\u0000'],
  ['imageLink', ''],
  ['imageLink', 'javascript:alert(1)'],
  ['imageLink', 'data:text/html,hi'],
  ['imageLink', 'ftp://img.example/x.png'],
  ['price', ''],
  ['price', '-1'],
  ['price', '1.234'],
  ['price', 'abc'],
  ['price', '1e3'],
  ['price', 12.5],
  ['wait', ''],
  ['wait', 'x'.repeat(41)],
  ...hostilePictureLinks.map((link): [string, string] => ['imageLink', link]),
  ...hostileLineTexts.map((text): [string, string] => ['item', text]),
];

const menuRows = (ctx: TestContext, kitchenUid: string) =>
  ctx.database.db.select().from(menuItems).where(eq(menuItems.kitchenId, kitchenUid));

describeEachEngine('the owner’s menu: /api/kitchen/menu', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, cookie?: string, body?: unknown) =>
    get().app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });

  it('POST adds an item, price in cents, and the live menu shows it', async () => {
    const { kitchen, cookie } = await buildKitchen(get());
    const stream = await openEventStream(`${baseUrl}/api/kitchens/${kitchen.uid}/menu`);
    try {
      await stream.waitFor((d) => Array.isArray(d) && d.length === 0);
      const res = await send('POST', '/api/kitchen/menu', cookie, itemInput({ price: '$12.5' }));
      expect(res.statusCode).toBe(201);
      const item = res.json<MenuItem>();
      expect(item).toMatchObject({
        kitchenUid: kitchen.uid,
        item: 'Paneer Tikka',
        priceCents: 1250,
        wait: '25 min',
      });
      expect(await menuRows(get(), kitchen.uid)).toMatchObject([{ id: item.id, priceCents: 1250 }]);
      await stream.waitFor((d) => Array.isArray(d) && (d as MenuItem[]).some((m) => m.id === item.id));
    } finally {
      stream.close();
    }
  });

  it('POST accepts a free item and two decimals', async () => {
    const { cookie } = await buildKitchen(get());
    expect((await send('POST', '/api/kitchen/menu', cookie, itemInput({ price: '0' }))).json()).toMatchObject(
      {
        priceCents: 0,
      },
    );
    expect(
      (await send('POST', '/api/kitchen/menu', cookie, itemInput({ price: '7.05' }))).json(),
    ).toMatchObject({
      priceCents: 705,
    });
  });

  it.each(badItemFields)(
    'POST refuses a bad %s (%j) with a 400 naming it, writing nothing',
    async (field, value) => {
      const { kitchen, cookie } = await buildKitchen(get());
      const res = await send('POST', '/api/kitchen/menu', cookie, itemInput({ [field]: value }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await menuRows(get(), kitchen.uid)).toEqual([]);
    },
  );

  it.each(['item', 'imageLink', 'price', 'wait'])('POST refuses a missing %s, naming it', async (field) => {
    const { kitchen, cookie } = await buildKitchen(get());
    const body: Record<string, unknown> = itemInput();
    delete body[field];
    const res = await send('POST', '/api/kitchen/menu', cookie, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
    expect(await menuRows(get(), kitchen.uid)).toEqual([]);
  });

  it('POST refuses anonymous, customer and kitchen-less sessions, writing nothing', async () => {
    expect((await send('POST', '/api/kitchen/menu', undefined, itemInput())).statusCode).toBe(401);
    const customer = await signedIn(get(), 'customer');
    expect((await send('POST', '/api/kitchen/menu', customer.cookie, itemInput())).statusCode).toBe(401);
    const newcomer = await signedIn(get(), 'kitchen');
    const res = await send('POST', '/api/kitchen/menu', newcomer.cookie, itemInput());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NO_KITCHEN' });
    expect(await menuRows(get(), newcomer.user.id)).toEqual([]);
    expect(await menuRows(get(), customer.user.id)).toEqual([]);
  });

  it('PATCH edits an own item and the live menu shows it', async () => {
    const { kitchen, cookie } = await buildKitchen(get());
    const item = await buildMenuItem(get(), kitchen, { item: 'Old name', price: '5' });
    const stream = await openEventStream(`${baseUrl}/api/kitchens/${kitchen.uid}/menu`);
    try {
      await stream.waitFor((d) => Array.isArray(d) && d.length === 1);
      const res = await send('PATCH', `/api/kitchen/menu/${item.id}`, cookie, {
        item: 'New name',
        price: '6.25',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: item.id, item: 'New name', priceCents: 625, wait: item.wait });
      await stream.waitFor(
        (d) => Array.isArray(d) && (d as MenuItem[]).some((m) => m.id === item.id && m.item === 'New name'),
      );
    } finally {
      stream.close();
    }
  });

  it.each(badItemFields)(
    'PATCH refuses a bad %s (%j) with a 400 naming it, changing nothing',
    async (field, value) => {
      const { kitchen, cookie } = await buildKitchen(get());
      const item = await buildMenuItem(get(), kitchen);
      const before = await menuRows(get(), kitchen.uid);
      const res = await send('PATCH', `/api/kitchen/menu/${item.id}`, cookie, {
        item: 'Changed',
        [field]: value,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await menuRows(get(), kitchen.uid)).toEqual(before);
    },
  );

  it('PATCH and DELETE refuse a malformed id (400 naming id) and an unknown one (404)', async () => {
    const { cookie } = await buildKitchen(get());
    const bad = await send('PATCH', '/api/kitchen/menu/nope', cookie, { item: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'id' });
    expect((await send('DELETE', '/api/kitchen/menu/nope', cookie)).json()).toMatchObject({ field: 'id' });
    expect((await send('PATCH', `/api/kitchen/menu/${randomUUID()}`, cookie, { item: 'X' })).statusCode).toBe(
      404,
    );
    expect((await send('DELETE', `/api/kitchen/menu/${randomUUID()}`, cookie)).statusCode).toBe(404);
  });

  it('PATCH and DELETE refuse anonymous, customer and another owner, changing nothing', async () => {
    const { kitchen } = await buildKitchen(get());
    const item = await buildMenuItem(get(), kitchen);
    const before = await menuRows(get(), kitchen.uid);
    const customer = await signedIn(get(), 'customer');
    const other = await buildKitchen(get());
    for (const cookie of [undefined, customer.cookie, other.cookie]) {
      const patched = await send('PATCH', `/api/kitchen/menu/${item.id}`, cookie, { item: 'Hacked' });
      const deleted = await send('DELETE', `/api/kitchen/menu/${item.id}`, cookie);
      const expected = cookie === other.cookie ? 404 : 401;
      expect(patched.statusCode).toBe(expected);
      expect(deleted.statusCode).toBe(expected);
    }
    expect(await menuRows(get(), kitchen.uid)).toEqual(before);
  });

  it('DELETE removes an own item (204) and the live menu drops it', async () => {
    const { kitchen, cookie } = await buildKitchen(get());
    const keep = await buildMenuItem(get(), kitchen, { item: 'Keep' });
    const drop = await buildMenuItem(get(), kitchen, { item: 'Drop' });
    const stream = await openEventStream(`${baseUrl}/api/kitchens/${kitchen.uid}/menu`);
    try {
      await stream.waitFor((d) => Array.isArray(d) && d.length === 2);
      const res = await send('DELETE', `/api/kitchen/menu/${drop.id}`, cookie);
      expect(res.statusCode).toBe(204);
      expect((await menuRows(get(), kitchen.uid)).map((r) => r.id)).toEqual([keep.id]);
      await stream.waitFor((d) => Array.isArray(d) && d.length === 1 && (d as MenuItem[])[0]?.id === keep.id);
      expect((await send('DELETE', `/api/kitchen/menu/${drop.id}`, cookie)).statusCode).toBe(404);
    } finally {
      stream.close();
    }
  });
});
