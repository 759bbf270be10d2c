import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { StoredImage } from '../../shared/images.js';
import type { MenuItem } from '../../shared/menu.js';
import { chatMessages, kitchens, reports, reviews } from '../db/schema.js';
import { buildKitchen, buildMenuItem, buildOrder } from './builders.js';
import { signedIn, type TestContext } from './test-app.js';
import { makePicture } from './test-images.js';

/** The tests' world for 'Your data' (src/server/account). */

export const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

/** An API call with a session cookie (and our origin, as a browser's write would carry). */
export async function call(
  ctx: TestContext,
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: Record<string, unknown>,
) {
  return ctx.app.inject({
    method,
    url,
    headers: { origin: ctx.config.publicUrl, ...(cookie ? { cookie } : {}) },
    ...(body ? { payload: body } : {}),
  });
}

/** Moves an order through the kitchen's buttons up to `delivered` (each move recorded as an event). */
export async function deliver(ctx: TestContext, kitchenCookie: string, orderId: string) {
  const moves = [
    { move: 'accept', readyInMinutes: 30 },
    { move: 'prepare' },
    { move: 'dispatch' },
    { move: 'deliver' },
  ];
  for (const body of moves) {
    const res = await call(ctx, kitchenCookie, 'POST', `/api/kitchen/orders/${orderId}/moves`, body);
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** A photo `cookie`'s cook uploads. */
export async function uploadPhoto(ctx: TestContext, cookie: string): Promise<StoredImage> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/images',
    headers: { cookie, 'content-type': 'image/png', origin: ctx.config.publicUrl },
    payload: await makePicture('png', 64, 48),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<StoredImage>();
}

/**
 * Cook K (a kitchen with a story, an uploaded photo and a dish); customer C, who ordered from K (delivered),
 * chatted (one message hidden by an operator), reviewed the order (K replied) and filed a report; and another
 * customer D with an order at K, a chat message and a report of their own.
 */
export async function buildAccountWorld(ctx: TestContext) {
  const tag = Math.random().toString(36).slice(2, 10);
  const cook = await buildKitchen(ctx, { name: `Kitchen K ${tag}` });
  await ctx.database.db
    .update(kitchens)
    .set({ about: `Cooking since 1990 ${tag}` })
    .where(eq(kitchens.ownerId, cook.user.id));
  const photo = await uploadPhoto(ctx, cook.cookie);
  expect((await call(ctx, cook.cookie, 'PATCH', '/api/kitchen', { imageId: photo.id })).statusCode).toBe(200);
  const dish: MenuItem = await buildMenuItem(ctx, cook.kitchen, { item: `Dal ${tag}` });

  const customer = await signedIn(ctx, 'customer', { email: `c-${tag}@example.test` });
  const order = await buildOrder(
    ctx,
    cook.kitchen,
    customer.user,
    [{ item: `Dal ${tag}`, priceCents: 950 }],
    `1 C Street ${tag}`,
  );
  await deliver(ctx, cook.cookie, order.id);
  const said = await call(ctx, customer.cookie, 'POST', '/api/chat', { text: `C says hi ${tag}` });
  expect(said.statusCode).toBe(201);
  const [hidden] = await ctx.database.db
    .insert(chatMessages)
    .values({ userId: customer.user.id, text: `C hidden ${tag}`, hiddenAt: new Date() })
    .returning();
  const [review] = await ctx.database.db
    .insert(reviews)
    .values({
      orderId: order.id,
      kitchenId: cook.kitchen.uid,
      customerId: customer.user.id,
      stars: 5,
      text: `Lovely ${tag}`,
      reply: `Thank you ${tag}`,
      repliedAt: new Date(),
    })
    .returning();
  const [report] = await ctx.database.db
    .insert(reports)
    .values({
      reporterId: customer.user.id,
      targetKind: 'kitchen',
      targetId: cook.kitchen.uid,
      reason: `C reports ${tag}`,
    })
    .returning();

  const other = await signedIn(ctx, 'customer', { email: `d-${tag}@example.test` });
  const otherOrder = await buildOrder(
    ctx,
    cook.kitchen,
    other.user,
    [{ item: `Dal ${tag}`, priceCents: 950 }],
    `2 D Street ${tag}`,
  );
  await deliver(ctx, cook.cookie, otherOrder.id);
  expect((await call(ctx, other.cookie, 'POST', '/api/chat', { text: `D says hi ${tag}` })).statusCode).toBe(
    201,
  );
  await ctx.database.db.insert(reports).values({
    reporterId: other.user.id,
    targetKind: 'kitchen',
    targetId: cook.kitchen.uid,
    reason: `D reports ${tag}`,
  });

  if (!hidden || !review || !report) throw new Error('world not built');
  return {
    tag,
    cook,
    photo,
    dish,
    customer,
    said: said.json<{ id: string }>(),
    order,
    hidden,
    review,
    report,
    other,
    otherOrder,
  };
}

/** How many rows of `table` match `where` (a condition on `t`). */
export async function count(ctx: TestContext, table: string, where: ReturnType<typeof sql>): Promise<number> {
  const result = await ctx.database.db.execute(
    sql`select count(*)::int as n from ${sql.raw(table)} t where ${where}`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? -1;
}
