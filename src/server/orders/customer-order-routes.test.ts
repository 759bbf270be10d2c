import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../shared/opening-hours.js';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Tx } from '../db/database.js';
import { computeTotals } from '../../shared/money.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { dishPortions, kitchens, menuItems, orderItems, orders } from '../db/schema.js';
import { registerKitchen } from '../kitchens/kitchen-service.js';
import { limits } from '../identity/rate-limit.js';
import { hostileLineTexts } from '../test/hostile-values.js';
import {
  closeTestContext,
  createTestContext,
  describeEachEngine,
  signedIn,
  type TestContext,
} from '../test/test-app.js';

/** A kitchen with a menu of [name, cents] items, written as the kitchen's own routes would. */
async function buildKitchen(ctx: TestContext, menu: [string, number][]) {
  const { user } = await signedIn(ctx, 'kitchen');
  const name = `Kitchen ${randomUUID().slice(0, 8)}`;
  const kitchen = await registerKitchen(ctx.app, user, {
    name,
    category: 'Filipino',
    address: '7 Sampaguita Road',
    imageLink: 'https://img.example/k.png',
    hours: ALL_DAY_HOURS,
  });
  if (!kitchen) throw new Error('kitchen not created');
  const items = await ctx.database.db
    .insert(menuItems)
    .values(
      menu.map(([item, priceCents]) => ({
        kitchenId: kitchen.uid,
        item,
        priceCents,
        wait: '20 min',
        imageLink: 'https://img.example/i.png',
      })),
    )
    .returning();
  return { kitchen, items, ids: items.map((i) => i.id) };
}

const key = () => `key-${randomUUID()}`;

const addresses = new Map<string | undefined, string>();
/** A documentation-range IPv6 address per cookie, standing for that customer's browser. */
function addressOf(cookie: string | undefined): string {
  let address = addresses.get(cookie);
  if (!address) {
    address = `2001:db8::${(addresses.size + 1).toString(16)}`;
    addresses.set(cookie, address);
  }
  return address;
}

describeEachEngine('placing an order', (get) => {
  // Each test's customer posts from an address of its own, so the per-address rate limit stays out of the way.
  const post = (cookie: string | undefined, payload: unknown, remoteAddress = addressOf(cookie)) =>
    get().app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: cookie ? { cookie } : {},
      payload: payload as object,
      remoteAddress,
    });
  const ordersOf = (customerId: string) =>
    get().database.db.select().from(orders).where(eq(orders.customerId, customerId));

  it('stores the order priced from the database, status exactly "recieved", and answers 201', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [
      ['Chicken Adobo', 1100],
      ['Ube Halaya', 500],
    ]);
    const { user, cookie } = await signedIn(get(), 'customer');
    const [adobo, ube] = ids as [string, string];
    const res = await post(cookie, {
      kitchenUid: kitchen.uid,
      itemIds: [ube, adobo, ube],
      address: '  221B Baker Street, London  ',
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(201);
    const order = res.json<CustomerOrder>();
    expect(order).toMatchObject({
      kitchenUid: kitchen.uid,
      kitchenName: kitchen.name,
      status: 'recieved',
      address: '221B Baker Street, London',
      items: [
        { item: 'Ube Halaya', priceCents: 500 },
        { item: 'Chicken Adobo', priceCents: 1100 },
        { item: 'Ube Halaya', priceCents: 500 },
      ],
      itemsCents: 2100,
      deliveryFeeCents: 299,
      feesAndTaxCents: 746,
      totalCents: 3145,
    });
    const [row] = await ordersOf(user.id);
    expect(row).toMatchObject({
      id: order.id,
      customerEmail: user.email,
      status: 'recieved',
      totalCents: 3145,
    });
    const lines = await get()
      .database.db.select()
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .orderBy(orderItems.position);
    expect(lines.map((l) => [l.position, l.menuItemId])).toEqual([
      [0, ube],
      [1, adobo],
      [2, ube],
    ]);
  });

  it('computes the totals on the server for several carts; prices sent by the browser change nothing', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [
      ['Lasagna', 1350],
      ['Water', 0],
      ['Tiramisu', 600],
    ]);
    const [lasagna, water, tiramisu] = ids as [string, string, string];
    const carts: [string[], number][] = [
      [[lasagna], 1350],
      [[water], 0],
      [[lasagna, lasagna, tiramisu], 3300],
      [[tiramisu, water, tiramisu, lasagna], 2550],
    ];
    for (const [itemIds, itemsCents] of carts) {
      const { cookie } = await signedIn(get(), 'customer');
      const res = await post(cookie, {
        kitchenUid: kitchen.uid,
        itemIds,
        address: '1 Main St',
        idempotencyKey: key(),
        // What a tampering browser might add: unknown fields are ignored.
        priceCents: 1,
        itemsCents: 1,
        totalCents: 1,
        items: itemIds.map((id) => ({ id, priceCents: 1 })),
        status: 'delivered',
      });
      expect(res.statusCode).toBe(201);
      const order = res.json<CustomerOrder>();
      expect(order).toMatchObject({ ...computeTotals([itemsCents]), status: 'recieved' });
      expect(order.totalCents).toBe(itemsCents + 1045);
    }
  });

  it('refuses an item of another kitchen, or an unknown item or kitchen, naming the field; writes nothing', async () => {
    const a = await buildKitchen(get(), [['Jollof Rice', 1050]]);
    const b = await buildKitchen(get(), [['Bibimbap', 1175]]);
    const { user, cookie } = await signedIn(get(), 'customer');
    const cases: [object, string][] = [
      [{ kitchenUid: a.kitchen.uid, itemIds: [a.ids[0], b.ids[0]] }, 'itemIds'],
      [{ kitchenUid: a.kitchen.uid, itemIds: [randomUUID()] }, 'itemIds'],
      [{ kitchenUid: randomUUID(), itemIds: a.ids }, 'kitchenUid'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(cookie, { ...payload, address: '1 Main St', idempotencyKey: key() });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
    }
    expect(await ordersOf(user.id)).toEqual([]);
  });

  it('refuses bad input field by field (400 naming it) and writes nothing', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [['Churros', 425]]);
    const { user, cookie } = await signedIn(get(), 'customer');
    const good = { kitchenUid: kitchen.uid, itemIds: ids, address: '48 Agave Street', idempotencyKey: key() };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ kitchenUid: undefined }, /^kitchenUid$/],
      [{ kitchenUid: 'not-a-uuid' }, /^kitchenUid$/],
      [{ kitchenUid: 42 }, /^kitchenUid$/],
      [{ itemIds: undefined }, /^itemIds$/],
      [{ itemIds: [] }, /^itemIds$/],
      [{ itemIds: 'x' }, /^itemIds$/],
      [{ itemIds: ['nope'] }, /^itemIds\.0$/],
      [{ itemIds: Array.from({ length: 51 }, () => ids[0]) }, /^itemIds$/],
      [{ address: undefined }, /^address$/],
      [{ address: '   ' }, /^address$/],
      [{ address: 'x'.repeat(301) }, /^address$/],
      ...hostileLineTexts.map((address): [Record<string, unknown>, RegExp] => [{ address }, /^address$/]),
      [{ idempotencyKey: undefined }, /^idempotencyKey$/],
      [{ idempotencyKey: 'short' }, /^idempotencyKey$/],
      [{ idempotencyKey: 'has spaces in it' }, /^idempotencyKey$/],
    ];
    for (const [change, field] of cases) {
      const res = await post(cookie, { ...good, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json<{ field: string }>().field, JSON.stringify(change)).toMatch(field);
    }
    const malformed = await get().app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"kitchenUid":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await ordersOf(user.id)).toEqual([]);
  });

  it('refuses anonymous callers and kitchen sessions (401) and writes nothing', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [['Pozole Rojo', 1150]]);
    const payload = { kitchenUid: kitchen.uid, itemIds: ids, address: '1 Main St', idempotencyKey: key() };
    expect((await post(undefined, payload)).statusCode).toBe(401);
    const cook = await signedIn(get(), 'kitchen');
    const res = await post(cook.cookie, payload);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await ordersOf(cook.user.id)).toEqual([]);
    const all = await get().database.db.select().from(orders).where(eq(orders.kitchenId, kitchen.uid));
    expect(all).toEqual([]);
  });

  it('makes exactly one order from 10 identical submits sent at once', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [['Pancit Canton', 975]]);
    // A few rounds, each with a new customer, so that the commit lands at different points of the others.
    for (let round = 0; round < 3; round++) {
      const { user, cookie } = await signedIn(get(), 'customer');
      const payload = { kitchenUid: kitchen.uid, itemIds: ids, address: '1 Main St', idempotencyKey: key() };
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(cookie, payload)));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      const placed = await ordersOf(user.id);
      expect(placed).toHaveLength(1);
      expect(new Set(answers.map((a) => a.json<CustomerOrder>().id))).toEqual(new Set([placed[0]?.id]));
      const lines = await get()
        .database.db.select()
        .from(orderItems)
        .where(eq(orderItems.orderId, placed[0]!.id));
      expect(lines).toHaveLength(1);
    }
  });

  it('allows one open order per customer (409 for another), and a new one once the first is archived', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [['Aloo Paratha', 675]]);
    const { user, cookie } = await signedIn(get(), 'customer');
    const firstPayload = {
      kitchenUid: kitchen.uid,
      itemIds: ids,
      address: 'A street',
      idempotencyKey: key(),
    };
    const first = await post(cookie, firstPayload);
    expect(first.statusCode).toBe(201);
    const again = { ...firstPayload, address: 'B street', idempotencyKey: key() };
    const second = await post(cookie, again);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await ordersOf(user.id)).toHaveLength(1);
    // The same submit retried is not a second order: it answers the first one.
    const retried = await post(cookie, firstPayload);
    expect(retried.statusCode).toBe(200);
    expect(retried.json<CustomerOrder>().id).toBe(first.json<CustomerOrder>().id);

    await get()
      .database.db.update(orders)
      .set({ archivedAt: new Date() })
      .where(eq(orders.id, first.json<CustomerOrder>().id));
    expect((await post(cookie, again)).statusCode).toBe(201);
    expect(await ordersOf(user.id)).toHaveLength(2);
  });

  it('limits order submits per customer (429 with Retry-After) and writes nothing then', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [['Puff-Puff', 400]]);
    const { user, cookie } = await signedIn(get(), 'customer');
    const from = '2001:db8:ffff::1';
    const bad = { kitchenUid: kitchen.uid, itemIds: ids, address: '', idempotencyKey: key() };
    for (let i = 0; i < limits.orders.max; i++) expect((await post(cookie, bad, from)).statusCode).toBe(400);
    const good = { ...bad, address: '21 Lagos Avenue' };
    const refused = await post(cookie, good, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await ordersOf(user.id)).toEqual([]);
    // Another customer behind the same address is not held back.
    const other = await signedIn(get(), 'customer');
    expect((await post(other.cookie, { ...good, idempotencyKey: key() }, from)).statusCode).toBe(201);
  });
});

describeEachEngine('placing an order: totals, changed carts', (get) => {
  const post = (cookie: string, payload: object) =>
    get().app.inject({ method: 'POST', url: '/api/orders', headers: { cookie }, payload });

  it('refuses an order above $10,000.00 (400 naming itemIds) and writes nothing; accepts one just below', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [
      ['Wedding banquet', 99_999_999],
      ['Party tray', 998_955],
    ]);
    const [banquet, tray] = ids as [string, string];
    const { user, cookie } = await signedIn(get(), 'customer');
    // 22 x $999,999.99 overflowed the integer cent columns (a 500); 50 is the most a cart may hold.
    for (const count of [1, 22, 50]) {
      const res = await post(cookie, {
        kitchenUid: kitchen.uid,
        itemIds: Array.from({ length: count }, () => banquet),
        address: '1 Main St',
        idempotencyKey: key(),
      });
      expect(res.statusCode, `${count} banquets`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'itemIds', message: /\$10000\.00/ });
    }
    expect(await get().database.db.select().from(orders).where(eq(orders.customerId, user.id))).toEqual([]);
    const atLimit = await post(cookie, {
      kitchenUid: kitchen.uid,
      itemIds: [tray],
      address: '1 Main St',
      idempotencyKey: key(),
    });
    expect(atLimit.statusCode).toBe(201);
    expect(atLimit.json<CustomerOrder>().totalCents).toBe(1_000_000);
  });

  it('answers 422 when an idempotency key is reused for a different cart or address, and changes nothing', async () => {
    const { kitchen, ids } = await buildKitchen(get(), [
      ['Sinigang', 1250],
      ['Halo-halo', 650],
    ]);
    const [sinigang, halo] = ids as [string, string];
    const { user, cookie } = await signedIn(get(), 'customer');
    const first = {
      kitchenUid: kitchen.uid,
      itemIds: [sinigang],
      address: '9 Mabini St',
      idempotencyKey: key(),
    };
    const placed = await post(cookie, first);
    expect(placed.statusCode).toBe(201);
    for (const change of [{ itemIds: [sinigang, halo] }, { itemIds: [halo] }, { address: '10 Rizal Ave' }]) {
      const res = await post(cookie, { ...first, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(422);
      expect(res.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' });
    }
    // The very same submit is still a retry: it answers the order it made.
    const retried = await post(cookie, first);
    expect(retried.statusCode).toBe(200);
    expect(retried.json<CustomerOrder>()).toEqual(placed.json());
    const rows = await get().database.db.select().from(orders).where(eq(orders.customerId, user.id));
    expect(rows.map((r) => r.id)).toEqual([placed.json<CustomerOrder>().id]);
  });
});

/** What `app.inject` answers. */
type Answer = Awaited<ReturnType<TestContext['app']['inject']>>;

/** Until a statement of this PostgreSQL database waits for a lock (a racing write has got that far). */
async function untilALockIsAwaited(c: TestContext) {
  await vi.waitFor(
    async () => {
      const { rows } = (await c.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
      )) as unknown as { rows: { n: number }[] };
      expect(rows[0]?.n).toBeGreaterThan(0);
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe('placing an order while its dish is being deleted [postgres]', () => {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestContext('postgres');
  });
  afterAll(() => closeTestContext(ctx));

  it('answers that the item is no longer on the menu (4xx naming itemIds), never a 500', async () => {
    const c = ctx!;
    const { kitchen, ids } = await buildKitchen(c, [['Kare-kare', 1500]]);
    const { user, cookie } = await signedIn(c, 'customer');
    let commitDelete!: () => void;
    const deleted = new Promise<void>((resolve) => (commitDelete = resolve));
    let deleting!: () => void;
    const started = new Promise<void>((resolve) => (deleting = resolve));
    // The cook deletes the dish in a transaction that stays open until the order is waiting on it.
    const deletion = c.database.db.transaction(async (tx) => {
      await tx.delete(menuItems).where(eq(menuItems.id, ids[0]!));
      deleting();
      await deleted;
    });
    await started;
    const answer = c.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie },
      payload: { kitchenUid: kitchen.uid, itemIds: ids, address: '1 Main St', idempotencyKey: key() },
    });
    await untilALockIsAwaited(c);
    commitDelete();
    await deletion;
    const res = await answer;
    expect([400, 409]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({
      field: 'itemIds',
      message: /no longer on the menu|menu \(any more\)/,
    });
    expect(await c.database.db.select().from(orders).where(eq(orders.customerId, user.id))).toEqual([]);
  });
});

describe('placing an order while its kitchen is suspended, paused or deleted [postgres]', () => {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestContext('postgres');
  });
  afterAll(() => closeTestContext(ctx));

  /** Places an order while `change` to its kitchen is written but not committed, then commits it. */
  async function racing(
    c: TestContext,
    change: (tx: Tx) => Promise<unknown>,
    placing: () => Promise<Answer>,
  ) {
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const changed = new Promise<void>((resolve) => (written = resolve));
    const transaction = c.database.db.transaction(async (tx) => {
      await change(tx);
      written();
      await committed;
    });
    await changed;
    // The order's checks read the kitchen as it was (the change is not committed yet); its insert must then wait
    // for the change and see it.
    const answer = placing();
    await untilALockIsAwaited(c);
    commit();
    await transaction;
    return answer;
  }

  async function orderFrom(c: TestContext, portionsPerDay: number | null) {
    const { kitchen, ids } = await buildKitchen(c, [['Sinigang', 1400]]);
    await c.database.db.update(menuItems).set({ portionsPerDay }).where(eq(menuItems.id, ids[0]!));
    const { user, cookie } = await signedIn(c, 'customer');
    const place = () =>
      c.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie },
        payload: { kitchenUid: kitchen.uid, itemIds: ids, address: '1 Main St', idempotencyKey: key() },
      });
    const placedNothing = async () => {
      expect(await c.database.db.select().from(orders).where(eq(orders.customerId, user.id))).toEqual([]);
      const taken = await c.database.db
        .select()
        .from(dishPortions)
        .where(eq(dishPortions.menuItemId, ids[0]!));
      expect(taken.reduce((sum, row) => sum + row.taken, 0)).toBe(0);
    };
    return { kitchen, place, placedNothing };
  }

  it('an operator suspends it: refused (409 naming the kitchen), nothing placed, with or without counted portions', async () => {
    const c = ctx!;
    for (const portionsPerDay of [null, 5]) {
      const { kitchen, place, placedNothing } = await orderFrom(c, portionsPerDay);
      const suspend = (tx: Tx) =>
        tx.update(kitchens).set({ suspendedAt: new Date() }).where(eq(kitchens.ownerId, kitchen.uid));
      const res = await racing(c, suspend, place);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'KITCHEN_SUSPENDED', field: 'kitchenUid' });
      expect(res.json<{ message: string }>().message).toContain(kitchen.name);
      await placedNothing();
    }
  });

  it('its cook pauses new orders: refused (409, not taking orders), nothing placed, with or without counted portions', async () => {
    const c = ctx!;
    for (const portionsPerDay of [null, 5]) {
      const { kitchen, place, placedNothing } = await orderFrom(c, portionsPerDay);
      const pause = (tx: Tx) =>
        tx.update(kitchens).set({ pausedAt: new Date() }).where(eq(kitchens.ownerId, kitchen.uid));
      const res = await racing(c, pause, place);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'KITCHEN_CLOSED',
        field: 'kitchenUid',
        message: `${kitchen.name} is not taking orders right now.`,
      });
      await placedNothing();
    }
  });

  it('a pause that has ended by the time of the order does not refuse it', async () => {
    const c = ctx!;
    const { kitchen, place } = await orderFrom(c, null);
    const ended = (tx: Tx) =>
      tx
        .update(kitchens)
        .set({ pausedAt: new Date(Date.now() - 7200_000), pausedUntil: new Date(Date.now() - 3600_000) })
        .where(eq(kitchens.ownerId, kitchen.uid));
    const res = await racing(c, ended, place);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('its cook deletes it: the kitchen does not exist (400 naming kitchenUid), with or without counted portions', async () => {
    const c = ctx!;
    for (const portionsPerDay of [null, 5]) {
      const { kitchen, place } = await orderFrom(c, portionsPerDay);
      const remove = (tx: Tx) => tx.delete(kitchens).where(eq(kitchens.ownerId, kitchen.uid));
      const res = await racing(c, remove, place);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ field: 'kitchenUid', message: 'This kitchen does not exist' });
      const left = await c.database.db.select().from(orders).where(eq(orders.kitchenName, kitchen.name));
      expect(left).toEqual([]);
    }
  });
});
