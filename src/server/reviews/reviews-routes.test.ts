import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Kitchen, KitchenProfile } from '../../shared/kitchens.js';
import type { MenuItem } from '../../shared/menu.js';
import type { CustomerOrder } from '../../shared/orders.js';
import type { Review } from '../../shared/reviews.js';
import type { KitchenSearchHit } from '../../shared/search.js';
import { kitchens, reviews } from '../db/schema.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { openEventStream } from '../test/event-stream.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';

type Cook = Awaited<ReturnType<typeof buildKitchen>>;

/** Everything in the reviews table, to prove a refused call changed nothing. */
async function reviewRows(ctx: TestContext) {
  return ctx.database.db.select().from(reviews).orderBy(reviews.id);
}

describeEachEngine('reviews, the cook’s reply and the cook’s story', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie?: string, payload?: object) =>
    get().app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

  /** A customer (named `name`) orders a dish of `cook`'s kitchen through the API. */
  async function order(cook: Cook, dish: MenuItem, name = `Amira Customer ${randomUUID().slice(0, 4)}`) {
    const customer = await signedIn(get(), 'customer', { displayName: name });
    const res = await inject('POST', '/api/orders', customer.cookie, {
      kitchenUid: cook.kitchen.uid,
      itemIds: [dish.id],
      address: '4 Lane',
      idempotencyKey: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(201);
    return { ...customer, order: res.json<CustomerOrder>() };
  }

  /** The cook moves the order through its states up to `until` (all the way to delivered by default). */
  async function moveAlong(cook: Cook, orderId: string, until = 'deliver') {
    for (const body of [
      { move: 'accept', readyInMinutes: 30 },
      { move: 'prepare' },
      { move: 'dispatch' },
      { move: 'deliver' },
    ]) {
      const res = await inject('POST', `/api/kitchen/orders/${orderId}/moves`, cook.cookie, body);
      expect(res.statusCode, res.body).toBe(200);
      if (body.move === until) return;
    }
  }

  async function kitchenWithDish() {
    const cook = await buildKitchen(get(), { name: `Reviewed ${randomUUID().slice(0, 6)}` });
    const dish = await buildMenuItem(get(), cook.kitchen);
    return { cook, dish };
  }

  async function deliveredOrder() {
    const { cook, dish } = await kitchenWithDish();
    const customer = await order(cook, dish);
    await moveAlong(cook, customer.order.id);
    return { cook, dish, customer };
  }

  const rate = (cookie: string | undefined, orderId: string, body: object) =>
    inject('POST', `/api/orders/${orderId}/review`, cookie, body);
  const profile = async (uid: string) => (await inject('GET', `/api/kitchens/${uid}`)).json<KitchenProfile>();

  it('lets the customer rate their delivered order once, and shows it on their order', async () => {
    const { cook, customer } = await deliveredOrder();
    const res = await rate(customer.cookie, customer.order.id, {
      stars: 4,
      text: 'Lovely dal.\nMore please',
    });
    expect(res.statusCode, res.body).toBe(201);
    const review = res.json<Review>();
    expect(review).toMatchObject({ stars: 4, text: 'Lovely dal.\nMore please', reply: null });
    expect(review.reviewerName).toBe('Amira');

    const again = await rate(customer.cookie, customer.order.id, { stars: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_REVIEWED' });

    const mine = (await inject('GET', '/api/orders/mine', customer.cookie)).json<CustomerOrder>();
    expect(mine.review).toMatchObject({ stars: 4, text: 'Lovely dal.\nMore please' });
    const list = (await inject('GET', '/api/orders', customer.cookie)).json<CustomerOrder[]>();
    expect(list[0]?.review?.stars).toBe(4);

    const shown = (await inject('GET', `/api/kitchens/${cook.kitchen.uid}/reviews`)).json<Review[]>();
    expect(shown).toEqual([review]);
    // The reviewer's email and full name are never shown.
    expect(JSON.stringify(shown)).not.toContain(customer.user.email);
    expect(JSON.stringify(shown)).not.toContain(customer.user.displayName);
  });

  it('refuses an order not yet delivered, another customer, a cook and no session, changing nothing', async () => {
    const { cook, dish } = await kitchenWithDish();
    const customer = await order(cook, dish);
    const before = await reviewRows(get());
    for (const step of [
      undefined,
      { move: 'accept', readyInMinutes: 30 },
      { move: 'prepare' },
      { move: 'dispatch' },
    ]) {
      if (step) {
        const moved = await inject(
          'POST',
          `/api/kitchen/orders/${customer.order.id}/moves`,
          cook.cookie,
          step,
        );
        expect(moved.statusCode).toBe(200);
      }
      const res = await rate(customer.cookie, customer.order.id, { stars: 5 });
      expect(res.statusCode, step?.move).toBe(409);
      expect(res.json()).toMatchObject({ code: 'NOT_DELIVERED' });
    }
    const delivered = await inject('POST', `/api/kitchen/orders/${customer.order.id}/moves`, cook.cookie, {
      move: 'deliver',
    });
    expect(delivered.statusCode).toBe(200);
    const other = await signedIn(get(), 'customer');
    expect((await rate(other.cookie, customer.order.id, { stars: 5 })).statusCode).toBe(404);
    expect((await rate(cook.cookie, customer.order.id, { stars: 5 })).statusCode).toBe(401);
    expect((await rate(undefined, customer.order.id, { stars: 5 })).statusCode).toBe(401);
    expect((await rate(customer.cookie, randomUUID(), { stars: 5 })).statusCode).toBe(404);
    expect(await reviewRows(get())).toEqual(before);
    // A declined order is never rated either.
    const declined = await order(cook, dish);
    const decline = await inject('POST', `/api/kitchen/orders/${declined.order.id}/moves`, cook.cookie, {
      move: 'decline',
      reason: 'Out of lentils',
    });
    expect(decline.statusCode).toBe(200);
    expect((await rate(declined.cookie, declined.order.id, { stars: 3 })).statusCode).toBe(409);
    expect(await reviewRows(get())).toEqual(before);
  });

  it('answers bad input with 400 naming the field', async () => {
    const { customer } = await deliveredOrder();
    const before = await reviewRows(get());
    for (const [body, field] of [
      [{}, 'stars'],
      [{ stars: 0 }, 'stars'],
      [{ stars: 6 }, 'stars'],
      [{ stars: 4.5 }, 'stars'],
      [{ stars: '5' }, 'stars'],
      [{ stars: 5, text: 'x'.repeat(1001) }, 'text'],
      [{ stars: 5, text: 'tab\there' }, 'text'],
      [{ stars: 5, text: 'nul\u0000' }, 'text'],
      [{ stars: 5, text: 'evil \u202Eoverride' }, 'text'],
      [{ stars: 5, text: 42 }, 'text'],
    ] as const) {
      const res = await rate(customer.cookie, customer.order.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ field });
    }
    expect(await reviewRows(get())).toEqual(before);
    // 1000 characters is fine.
    expect(
      (await rate(customer.cookie, customer.order.id, { stars: 5, text: 'y'.repeat(1000) })).statusCode,
    ).toBe(201);
  });

  it('averages visible reviews on the list, the kitchen, and search; hidden ones are neither shown nor counted', async () => {
    const { cook, dish } = await kitchenWithDish();
    expect((await profile(cook.kitchen.uid)).rating).toBeNull();
    const reviewIds: string[] = [];
    for (const stars of [5, 4, 4]) {
      const customer = await order(cook, dish);
      await moveAlong(cook, customer.order.id);
      const res = await rate(customer.cookie, customer.order.id, { stars });
      expect(res.statusCode).toBe(201);
      reviewIds.push(res.json<Review>().id);
    }
    // (5 + 4 + 4) / 3 = 4.333… → 4.3
    expect((await profile(cook.kitchen.uid)).rating).toEqual({ average: 4.3, count: 3 });
    const list = (await inject('GET', '/api/kitchens')).json<Kitchen[]>();
    expect(list.find((k) => k.uid === cook.kitchen.uid)?.rating).toEqual({ average: 4.3, count: 3 });
    const search = async () =>
      (await inject('GET', `/api/kitchens/search?q=${encodeURIComponent(cook.kitchen.name)}`))
        .json<KitchenSearchHit[]>()
        .find((k) => k.uid === cook.kitchen.uid)?.rating;
    expect(await search()).toEqual({ average: 4.3, count: 3 });

    // An operator hides the 5-star review (set directly: their screens are another feature's), and announces it.
    await get()
      .database.db.update(reviews)
      .set({ hiddenAt: sql`now()` })
      .where(eq(reviews.id, reviewIds[0] ?? ''));
    const { mutate } = await import('../events/mutate.js');
    await mutate(get().app, async (_tx, record) =>
      record({ type: 'review.hidden', reviewId: reviewIds[0] ?? '', kitchenUid: cook.kitchen.uid }),
    );
    expect((await profile(cook.kitchen.uid)).rating).toEqual({ average: 4, count: 2 });
    expect(await search()).toEqual({ average: 4, count: 2 });
    const shown = (await inject('GET', `/api/kitchens/${cook.kitchen.uid}/reviews`)).json<Review[]>();
    expect(shown.map((r) => r.id).sort()).toEqual(reviewIds.slice(1).sort());
    // Newest first.
    expect(shown.map((r) => r.id)).toEqual([reviewIds[2], reviewIds[1]]);
  });

  it('pushes a new review to open streams: the reviews, the kitchen and the list', async () => {
    const { cook, customer } = await deliveredOrder();
    const uid = cook.kitchen.uid;
    const streams = await Promise.all([
      openEventStream(`${baseUrl}/api/kitchens/${uid}/reviews`),
      openEventStream(`${baseUrl}/api/kitchens/${uid}`),
      openEventStream(`${baseUrl}/api/kitchens`),
    ]);
    try {
      const [reviewsStream, kitchenStream, listStream] = streams;
      await Promise.all(streams.map((s) => s.waitFor(() => true)));
      expect((await rate(customer.cookie, customer.order.id, { stars: 5, text: 'Yum' })).statusCode).toBe(
        201,
      );
      await reviewsStream?.waitFor((d) => (d as Review[]).some((r) => r.text === 'Yum'));
      await kitchenStream?.waitFor((d) => (d as KitchenProfile).rating?.count === 1);
      await listStream?.waitFor((d) =>
        (d as Kitchen[]).some((k) => k.uid === uid && k.rating?.average === 5),
      );
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('lets the cook reply once to a review of their own kitchen, publicly', async () => {
    const { cook, customer } = await deliveredOrder();
    const review = (await rate(customer.cookie, customer.order.id, { stars: 3 })).json<Review>();
    const url = `/api/kitchen/reviews/${review.id}/reply`;
    const other = await buildKitchen(get(), { name: 'Other' });
    const before = await reviewRows(get());
    expect((await inject('POST', url, other.cookie, { reply: 'Not mine' })).statusCode).toBe(404);
    expect((await inject('POST', url, customer.cookie, { reply: 'Me?' })).statusCode).toBe(401);
    expect((await inject('POST', url, undefined, { reply: 'Anyone' })).statusCode).toBe(401);
    for (const [body, field] of [
      [{}, 'reply'],
      [{ reply: '   ' }, 'reply'],
      [{ reply: 'z'.repeat(1001) }, 'reply'],
      [{ reply: 'bell\u0007' }, 'reply'],
    ] as const) {
      const res = await inject('POST', url, cook.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ field });
    }
    expect(await reviewRows(get())).toEqual(before);

    const res = await inject('POST', url, cook.cookie, { reply: 'Thank you!\nCome again' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Review>()).toMatchObject({ id: review.id, reply: 'Thank you!\nCome again' });
    const second = await inject('POST', url, cook.cookie, { reply: 'Changed my mind' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'ALREADY_REPLIED' });
    const shown = (await inject('GET', `/api/kitchens/${cook.kitchen.uid}/reviews`)).json<Review[]>();
    expect(shown[0]).toMatchObject({ reply: 'Thank you!\nCome again' });
    expect(shown[0]?.repliedAt).toEqual(expect.any(String));
  });

  it('a hidden review cannot be replied to', async () => {
    const { cook, customer } = await deliveredOrder();
    const review = (await rate(customer.cookie, customer.order.id, { stars: 2 })).json<Review>();
    await get()
      .database.db.update(reviews)
      .set({ hiddenAt: sql`now()` })
      .where(eq(reviews.id, review.id));
    const res = await inject('POST', `/api/kitchen/reviews/${review.id}/reply`, cook.cookie, { reply: 'Hi' });
    expect(res.statusCode).toBe(404);
  });

  it("keeps 'About the cook', the month it started and the orders it delivered", async () => {
    const { cook, dish } = await kitchenWithDish();
    expect((await profile(cook.kitchen.uid)).about).toBe('');
    const story = 'I learnt from my grandmother.\n\nEvery dish is hers.';
    const patched = await inject('PATCH', '/api/kitchen', cook.cookie, { about: story });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<Kitchen>().about).toBe(story);
    for (const [about, status] of [
      ['a'.repeat(1001), 400],
      ['tab\tin it', 400],
      ['bidi \u202E', 400],
      [42, 400],
    ] as const) {
      const res = await inject('PATCH', '/api/kitchen', cook.cookie, { about });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ field: 'about' });
    }
    const [row] = await get()
      .database.db.select()
      .from(kitchens)
      .where(eq(kitchens.ownerId, cook.kitchen.uid));
    expect(row?.about).toBe(story);
    // The story can be cleared.
    expect((await inject('PATCH', '/api/kitchen', cook.cookie, { about: '' })).json<Kitchen>().about).toBe(
      '',
    );
    await inject('PATCH', '/api/kitchen', cook.cookie, { about: story });

    const first = await profile(cook.kitchen.uid);
    expect(first).toMatchObject({ about: story, deliveredOrders: 0, createdAt: cook.kitchen.createdAt });
    // Two orders delivered, one still on its way: two count.
    for (const until of ['deliver', 'deliver', 'dispatch']) {
      const customer = await order(cook, dish);
      await moveAlong(cook, customer.order.id, until);
    }
    expect((await profile(cook.kitchen.uid)).deliveredOrders).toBe(2);
  });

  it("pages a kitchen's reviews: the live latest 50, then older ones by the oldest held, hidden ones left out", async () => {
    const { cook } = await kitchenWithDish();
    const customer = await signedIn(get(), 'customer', { displayName: 'Paging Pat' });
    // 120 delivered orders, each reviewed a minute apart (the 7th oldest hidden by an operator): 119 visible.
    const db = get().database.db;
    await db.execute(sql`
      with made as (
        insert into orders (kitchen_id, kitchen_name, customer_id, customer_email, address, idempotency_key, state,
          items_cents, delivery_fee_cents, fees_and_tax_cents, total_cents, created_at)
        select ${cook.kitchen.uid}, ${cook.kitchen.name}, ${customer.user.id}, ${customer.user.email}, '1 Page Road',
          'paging-' || n, 'delivered', 900, 0, 0, 900, now() - make_interval(mins => 200 - n)
        from generate_series(1, 120) as n
        returning id, created_at, idempotency_key
      )
      insert into reviews (order_id, kitchen_id, customer_id, stars, text, created_at, hidden_at)
      select id, ${cook.kitchen.uid}, ${customer.user.id}, 4, 'Review ' || substr(idempotency_key, 8), created_at,
        case when idempotency_key = 'paging-7' then now() end
      from made`);
    const texts = (list: Review[]) => list.map((r) => r.text);
    const numbers = (from: number, to: number) =>
      Array.from({ length: from - to + 1 }, (_, i) => `Review ${from - i}`).filter((t) => t !== 'Review 7');
    const latest = (await inject('GET', `/api/kitchens/${cook.kitchen.uid}/reviews`)).json<Review[]>();
    expect(texts(latest)).toEqual(numbers(120, 71));
    const older = (before: string) =>
      inject('GET', `/api/kitchens/${cook.kitchen.uid}/reviews/older?before=${encodeURIComponent(before)}`);
    const second = (await older(latest.at(-1)!.id)).json<Review[]>();
    expect(texts(second)).toEqual(numbers(70, 21));
    const last = await older(second.at(-1)!.id);
    expect(last.statusCode).toBe(200);
    expect(texts(last.json<Review[]>())).toEqual(numbers(20, 1));
    expect(last.headers['cache-control']).toBe('no-store');
    // Bad and foreign cursors: 400 naming before, 404 for a review not of this kitchen.
    const bad = await older('not-a-review');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'before' });
    const missing = await inject('GET', `/api/kitchens/${cook.kitchen.uid}/reviews/older`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'before' });
    const { cook: other } = await kitchenWithDish();
    const foreign = await inject(
      'GET',
      `/api/kitchens/${other.kitchen.uid}/reviews/older?before=${latest[0]!.id}`,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await older(randomUUID())).statusCode).toBe(404);
  });

  it('a kitchen with no such id has no reviews (404), and a malformed id is a 400', async () => {
    expect((await inject('GET', `/api/kitchens/${randomUUID()}/reviews`)).statusCode).toBe(404);
    const bad = await inject('GET', '/api/kitchens/not-a-uuid/reviews');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'uid' });
  });
});
