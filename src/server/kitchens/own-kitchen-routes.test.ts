import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kitchen } from '../../shared/kitchens.js';
import { kitchens } from '../db/schema.js';
import { openEventStream } from '../test/event-stream.js';
import { buildKitchen, kitchenInput } from '../test/builders.js';
import { hostileLineTexts, hostilePictureLinks } from '../test/hostile-values.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

const badKitchenFields: [field: string, value: unknown][] = [
  ['name', ''],
  ['name', '   '],
  ['name', 'x'.repeat(81)],
  ['name', 42],
  ['name', 'Bad\u0000name'],
  ['category', ''],
  ['category', 'x'.repeat(41)],
  ['address', ''],
  ['address', 'x'.repeat(201)],
  ['imageLink', ''],
  ['imageLink', 'javascript:alert(1)'],
  ['imageLink', 'data:image/png;base64,AAAA'],
  ['imageLink', '//evil.example/x.png'],
  ['imageLink', 'not a link'],
  ['imageLink', `https://img.example/${'x'.repeat(2000)}`],
  ...hostilePictureLinks.map((link): [string, string] => ['imageLink', link]),
  ...hostileLineTexts.map((text): [string, string] => ['name', text]),
  ...hostileLineTexts.map((text): [string, string] => ['address', text]),
];

async function kitchenRow(ctx: TestContext, uid: string) {
  const [row] = await ctx.database.db.select().from(kitchens).where(eq(kitchens.ownerId, uid));
  return row;
}

describeEachEngine('the owner’s kitchen: /api/kitchen', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    // the app closes with the context
  });

  const post = (body: unknown, cookie?: string) =>
    get().app.inject({
      method: 'POST',
      url: '/api/kitchen',
      payload: body as object,
      headers: cookie ? { cookie } : {},
    });
  const patch = (body: unknown, cookie?: string) =>
    get().app.inject({
      method: 'PATCH',
      url: '/api/kitchen',
      payload: body as object,
      headers: cookie ? { cookie } : {},
    });

  it('GET refuses without a kitchen session, and with a customer session', async () => {
    expect((await get().app.inject('/api/kitchen')).statusCode).toBe(401);
    const { cookie } = await signedIn(get(), 'customer');
    const res = await get().app.inject({ url: '/api/kitchen', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('GET answers 404 NO_KITCHEN to an owner who has not registered yet', async () => {
    const { cookie } = await signedIn(get(), 'kitchen');
    const res = await get().app.inject({ url: '/api/kitchen', headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NO_KITCHEN' });
  });

  it('GET answers each owner their own kitchen', async () => {
    const a = await buildKitchen(get(), { name: 'Kitchen A' });
    const b = await buildKitchen(get(), { name: 'Kitchen B' });
    const resA = await get().app.inject({ url: '/api/kitchen', headers: { cookie: a.cookie } });
    expect(resA.statusCode).toBe(200);
    expect(resA.json()).toMatchObject({ uid: a.user.id, name: 'Kitchen A' });
    const resB = await get().app.inject({ url: '/api/kitchen', headers: { cookie: b.cookie } });
    expect(resB.json()).toMatchObject({ uid: b.user.id, name: 'Kitchen B' });
  });

  it('GET /api/kitchen/check answers the own kitchen or null, and refuses anonymous and customer sessions', async () => {
    expect((await get().app.inject('/api/kitchen/check')).statusCode).toBe(401);
    const customer = await signedIn(get(), 'customer');
    expect(
      (await get().app.inject({ url: '/api/kitchen/check', headers: { cookie: customer.cookie } }))
        .statusCode,
    ).toBe(401);
    const newcomer = await signedIn(get(), 'kitchen');
    const none = await get().app.inject({ url: '/api/kitchen/check', headers: { cookie: newcomer.cookie } });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ kitchen: null });
    const a = await buildKitchen(get(), { name: 'Checked A' });
    await buildKitchen(get(), { name: 'Checked B' });
    const res = await get().app.inject({ url: '/api/kitchen/check', headers: { cookie: a.cookie } });
    expect(res.json()).toMatchObject({ kitchen: { uid: a.user.id, name: 'Checked A' } });
  });

  it('POST registers the kitchen with the owner’s name and email (201) and lists it live', async () => {
    const stream = await openEventStream(`${baseUrl}/api/kitchens`);
    try {
      await stream.waitFor((d) => Array.isArray(d));
      const { user, cookie } = await signedIn(get(), 'kitchen', { displayName: 'Ada Cook' });
      const res = await post(kitchenInput({ name: '  Ada’s Kitchen  ' }), cookie);
      expect(res.statusCode).toBe(201);
      expect(res.json<Kitchen>()).toMatchObject({
        uid: user.id,
        name: 'Ada’s Kitchen',
        category: 'Indian',
        address: '1 Main St',
        imageLink: 'https://img.example/k.png',
        ownerName: 'Ada Cook',
      });
      expect(await kitchenRow(get(), user.id)).toMatchObject({
        name: 'Ada’s Kitchen',
        ownerEmail: user.email,
      });
      const list = (await stream.waitFor(
        (d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === user.id),
      )) as Kitchen[];
      expect(list[0]?.uid).toBe(user.id);
    } finally {
      stream.close();
    }
  });

  it('POST makes the new kitchen’s menu readable at once, even after a read that found no kitchen', async () => {
    const { user, cookie } = await signedIn(get(), 'kitchen');
    expect((await get().app.inject(`/api/kitchens/${user.id}/menu`)).statusCode).toBe(404);
    expect((await post(kitchenInput(), cookie)).statusCode).toBe(201);
    const menu = await get().app.inject(`/api/kitchens/${user.id}/menu`);
    expect(menu.statusCode).toBe(200);
    expect(menu.json()).toEqual([]);
  });

  it('POST refuses a second kitchen with 409 and leaves the first unchanged', async () => {
    const { user, cookie } = await buildKitchen(get(), { name: 'First' });
    const res = await post(kitchenInput({ name: 'Second' }), cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect((await kitchenRow(get(), user.id))?.name).toBe('First');
  });

  it('POST refuses anonymous and customer sessions, writing nothing', async () => {
    expect((await post(kitchenInput())).statusCode).toBe(401);
    const { user, cookie } = await signedIn(get(), 'customer');
    expect((await post(kitchenInput(), cookie)).statusCode).toBe(401);
    expect(await kitchenRow(get(), user.id)).toBeUndefined();
  });

  it.each(badKitchenFields)(
    'POST refuses a bad %s (%j) with a 400 naming it, writing nothing',
    async (field, value) => {
      const { user, cookie } = await signedIn(get(), 'kitchen');
      const res = await post({ ...kitchenInput(), [field]: value }, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await kitchenRow(get(), user.id)).toBeUndefined();
    },
  );

  it.each(['name', 'category', 'address', 'imageLink'])(
    'POST refuses a missing %s, naming it',
    async (field) => {
      const { user, cookie } = await signedIn(get(), 'kitchen');
      const body: Record<string, unknown> = { ...kitchenInput() };
      delete body[field];
      const res = await post(body, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await kitchenRow(get(), user.id)).toBeUndefined();
    },
  );

  it('PATCH edits the owner’s kitchen and announces it on the live list', async () => {
    const { user, cookie } = await buildKitchen(get(), { name: 'Before' });
    const stream = await openEventStream(`${baseUrl}/api/kitchens`);
    try {
      await stream.waitFor((d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === user.id));
      const res = await patch({ name: 'After', address: '2 Side St' }, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        uid: user.id,
        name: 'After',
        address: '2 Side St',
        category: 'Indian',
      });
      expect(await kitchenRow(get(), user.id)).toMatchObject({ name: 'After', address: '2 Side St' });
      await stream.waitFor(
        (d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === user.id && k.name === 'After'),
      );
    } finally {
      stream.close();
    }
  });

  it.each(badKitchenFields)(
    'PATCH refuses a bad %s (%j) with a 400 naming it, changing nothing',
    async (field, value) => {
      const { user, cookie } = await buildKitchen(get(), { name: 'Unchanged' });
      const before = await kitchenRow(get(), user.id);
      const res = await patch({ name: 'Changed', [field]: value }, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      expect(await kitchenRow(get(), user.id)).toEqual(before);
    },
  );

  it('PATCH refuses an empty change', async () => {
    const { cookie } = await buildKitchen(get());
    const res = await patch({}, cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION' });
  });

  it('PATCH refuses anonymous, customer and kitchen-less sessions; another owner changes only their own', async () => {
    const a = await buildKitchen(get(), { name: 'Owner A' });
    const before = await kitchenRow(get(), a.user.id);
    expect((await patch({ name: 'Hacked' })).statusCode).toBe(401);
    const customer = await signedIn(get(), 'customer');
    expect((await patch({ name: 'Hacked' }, customer.cookie)).statusCode).toBe(401);
    const newcomer = await signedIn(get(), 'kitchen');
    const noKitchen = await patch({ name: 'Hacked' }, newcomer.cookie);
    expect(noKitchen.statusCode).toBe(404);
    expect(noKitchen.json()).toMatchObject({ code: 'NO_KITCHEN' });
    expect(await kitchenRow(get(), newcomer.user.id)).toBeUndefined();
    const b = await buildKitchen(get(), { name: 'Owner B' });
    const res = await patch({ name: 'B renamed' }, b.cookie);
    expect(res.json()).toMatchObject({ uid: b.user.id, name: 'B renamed' });
    expect(await kitchenRow(get(), a.user.id)).toEqual(before);
  });
});
