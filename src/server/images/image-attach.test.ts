import { expect, it } from 'vitest';
import type { StoredImage } from '../../shared/images.js';
import type { Kitchen } from '../../shared/kitchens.js';
import type { MenuItem } from '../../shared/menu.js';
import { FakeClock } from '../test/fake-clock.js';
import { buildKitchen, buildMenuItem, kitchenInput } from '../test/builders.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { makePicture } from '../test/test-images.js';
import { ABANDONED_AFTER_MS, sweepAbandonedImages } from './image-sweep.js';
import { answersWith } from '../../shared/allergen-declaration.js';

async function uploadAs(ctx: TestContext, cookie: string): Promise<StoredImage> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/images',
    headers: { cookie, 'content-type': 'image/png' },
    payload: await makePicture('png', 400, 300),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<StoredImage>();
}

const send = (ctx: TestContext, cookie: string, method: 'POST' | 'PATCH', url: string, body: object) =>
  ctx.app.inject({ method, url, headers: { cookie }, payload: body });

/** Whether the picture is still stored: its record and its bytes (served at its URL). */
async function stored(ctx: TestContext, image: StoredImage) {
  const res = await ctx.app.inject({ url: `/images/${image.id}-320.webp` });
  return res.statusCode === 200;
}

const itemBody = (imageId: string) => ({
  item: 'Dal',
  price: '9.50',
  wait: '20 min',
  imageId,
  allergenAnswers: answersWith(),
});

describeEachEngine('attaching uploaded pictures', (get) => {
  it('registers a kitchen with its uploaded picture and shows it on the public list', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const image = await uploadAs(ctx, cookie);
    const { imageLink: _link, ...fields } = kitchenInput({ name: 'Photo Kitchen' });
    const res = await send(ctx, cookie, 'POST', '/api/kitchen', { ...fields, imageId: image.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Kitchen>()).toMatchObject({ imageLink: null, image });
    const list = (await ctx.app.inject({ url: '/api/kitchens' })).json<Kitchen[]>();
    expect(list.find((k) => k.name === 'Photo Kitchen')?.image).toEqual(image);
  });

  it('refuses a link and an upload at once, and neither', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const image = await uploadAs(ctx, cookie);
    const both = await send(ctx, cookie, 'POST', '/api/kitchen', { ...kitchenInput(), imageId: image.id });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ field: 'imageId' });
    const { imageLink: _link, ...neither } = kitchenInput();
    const none = await send(ctx, cookie, 'POST', '/api/kitchen', neither);
    expect(none.json()).toMatchObject({
      field: 'imageLink',
      message: 'Image of your kitchen link is required',
    });
  });

  it("another kitchen cannot attach a cook's picture, nor replace the picture of their dish", async () => {
    const ctx = get();
    const x = await buildKitchen(ctx);
    const y = await buildKitchen(ctx);
    const xImage = await uploadAs(ctx, x.cookie);
    const xItem = await buildMenuItem(ctx, x.kitchen);
    const yItem = await buildMenuItem(ctx, y.kitchen);
    const attempts = [
      await send(ctx, y.cookie, 'POST', '/api/kitchen/menu', itemBody(xImage.id)),
      await send(ctx, y.cookie, 'PATCH', `/api/kitchen/menu/${yItem.id}`, { imageId: xImage.id }),
      await send(ctx, y.cookie, 'PATCH', '/api/kitchen', { imageId: xImage.id }),
    ];
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ field: 'imageId' });
    }
    const yImage = await uploadAs(ctx, y.cookie);
    const replace = await send(ctx, y.cookie, 'PATCH', `/api/kitchen/menu/${xItem.id}`, {
      imageId: yImage.id,
    });
    expect(replace.statusCode).toBe(404);
    const menu = (await ctx.app.inject({ url: `/api/kitchens/${x.kitchen.uid}/menu` })).json<MenuItem[]>();
    expect(menu[0]).toMatchObject({ imageLink: xItem.imageLink, image: null });
    const kitchenY = (await ctx.app.inject({ url: `/api/kitchens/${y.kitchen.uid}` })).json<Kitchen>();
    expect(kitchenY.image).toBeNull();
  });

  it('deletes a picture once its dish replaces or drops it, or its dish is deleted', async () => {
    const ctx = get();
    const x = await buildKitchen(ctx);
    const first = await uploadAs(ctx, x.cookie);
    const second = await uploadAs(ctx, x.cookie);
    const item = (
      await send(ctx, x.cookie, 'POST', '/api/kitchen/menu', itemBody(first.id))
    ).json<MenuItem>();
    expect(item.image).toEqual(first);

    await send(ctx, x.cookie, 'PATCH', `/api/kitchen/menu/${item.id}`, { imageId: second.id });
    expect(await stored(ctx, first)).toBe(false);
    expect(await stored(ctx, second)).toBe(true);

    const other = (
      await send(ctx, x.cookie, 'POST', '/api/kitchen/menu', itemBody(second.id))
    ).json<MenuItem>();
    const linked = await send(ctx, x.cookie, 'PATCH', `/api/kitchen/menu/${item.id}`, {
      imageLink: 'https://img.example/dal.png',
    });
    expect(linked.json<MenuItem>()).toMatchObject({ imageLink: 'https://img.example/dal.png', image: null });
    expect(await stored(ctx, second)).toBe(true); // the other dish still shows it

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/kitchen/menu/${other.id}`,
      headers: { cookie: x.cookie },
    });
    expect(removed.statusCode).toBe(204);
    expect(await stored(ctx, second)).toBe(false);
  });

  it("deletes the kitchen's old picture when it changes to a link", async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const image = await uploadAs(ctx, cookie);
    const { imageLink: _link, ...fields } = kitchenInput();
    await send(ctx, cookie, 'POST', '/api/kitchen', { ...fields, imageId: image.id });
    const res = await send(ctx, cookie, 'PATCH', '/api/kitchen', {
      imageLink: 'https://img.example/new.png',
    });
    expect(res.json<Kitchen>()).toMatchObject({ imageLink: 'https://img.example/new.png', image: null });
    expect(await stored(ctx, image)).toBe(false);
  });

  it('deletes pictures never attached a day after their upload, and no other', async () => {
    const ctx = get();
    const x = await buildKitchen(ctx);
    const abandoned = await uploadAs(ctx, x.cookie);
    const used = await uploadAs(ctx, x.cookie);
    await send(ctx, x.cookie, 'POST', '/api/kitchen/menu', itemBody(used.id));

    const clock = new FakeClock();
    clock.advance(Date.now());
    expect(await sweepAbandonedImages(ctx.app, clock)).not.toContain(abandoned.id);
    expect(await stored(ctx, abandoned)).toBe(true);

    clock.advance(ABANDONED_AFTER_MS + 60_000);
    const gone = await sweepAbandonedImages(ctx.app, clock);
    expect(gone).toContain(abandoned.id);
    expect(gone).not.toContain(used.id);
    expect(await stored(ctx, abandoned)).toBe(false);
    expect(await stored(ctx, used)).toBe(true);
  });
});
