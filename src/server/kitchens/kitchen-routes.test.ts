import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kitchen } from '../../shared/kitchens.js';
import { openEventStream } from '../test/event-stream.js';
import { buildUser, describeEachEngine } from '../test/test-app.js';
import { registerKitchen } from './kitchen-service.js';

const input = (name: string) => ({
  name,
  category: 'Indian',
  address: '1 Main St',
  imageLink: 'https://img.example/k.png',
});

describeEachEngine('public kitchen reads', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    // closed with the context
  });

  async function newKitchen(name: string): Promise<Kitchen> {
    const owner = await buildUser(get());
    const kitchen = await registerKitchen(get().app, owner, input(name));
    if (!kitchen) throw new Error('not created');
    return kitchen;
  }

  it('lists kitchens newest first', async () => {
    const a = await newKitchen('Older');
    const b = await newKitchen('Newer');
    const res = await get().app.inject('/api/kitchens');
    expect(res.statusCode).toBe(200);
    const list = res.json<Kitchen[]>();
    const ids = list.map((k) => k.uid);
    expect(ids.indexOf(b.uid)).toBeLessThan(ids.indexOf(a.uid));
    expect(list.find((k) => k.uid === b.uid)).toMatchObject({
      name: 'Newer',
      category: 'Indian',
      imageLink: 'https://img.example/k.png',
    });
  });

  it('reads one kitchen by its uid; an unknown uid is a 404 and a malformed one a 400 naming uid', async () => {
    const k = await newKitchen('By id');
    expect((await get().app.inject(`/api/kitchens/${k.uid}`)).json()).toMatchObject({
      uid: k.uid,
      name: 'By id',
    });
    const missing = await get().app.inject(`/api/kitchens/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    const bad = await get().app.inject('/api/kitchens/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION', field: 'uid' });
  });

  it('streams a snapshot on connect and a new one when a kitchen is registered', async () => {
    const stream = await openEventStream(`${baseUrl}/api/kitchens`);
    try {
      await stream.waitFor((d) => Array.isArray(d));
      const k = await newKitchen('Live one');
      const snapshot = (await stream.waitFor(
        (d) => Array.isArray(d) && (d as Kitchen[]).some((x) => x.uid === k.uid),
      )) as Kitchen[];
      expect(snapshot[0]?.uid).toBe(k.uid);
    } finally {
      stream.close();
    }
  });

  it('refuses a second kitchen for the same owner', async () => {
    const owner = await buildUser(get());
    expect(await registerKitchen(get().app, owner, input('First'))).toBeDefined();
    expect(await registerKitchen(get().app, owner, input('Second'))).toBeUndefined();
  });
});
