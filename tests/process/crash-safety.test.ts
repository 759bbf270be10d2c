import { mkdtempSync } from 'node:fs';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeTotals } from '../../src/shared/money.js';
import { createSession } from '../../src/server/identity/sessions.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { openPglite, openPostgres, type Database } from '../../src/server/db/database.js';
import { kitchens, menuItems, orderItems, orders } from '../../src/server/db/schema.js';
import { freePort } from '../../src/server/test/http-client.js';
import { createPrivatePostgres } from '../../src/server/test/private-postgres.js';
import { killServerProcesses, startServerProcess } from '../../src/server/test/server-process.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

const CUSTOMERS = 100;
const DISHES = [
  { item: 'Dal', priceCents: 950 },
  { item: 'Rice', priceCents: 300 },
  { item: 'Naan', priceCents: 275 },
];

afterEach(killServerProcesses);

type Seeded = Awaited<ReturnType<typeof seed>>;
type ServerProcess = ReturnType<typeof startServerProcess>;

async function seed(database: Database) {
  return database.db.transaction(async (tx) => {
    const owner = await upsertUser(tx, {
      issuer: 'urn:crash',
      subject: 'owner',
      email: 'owner@crash.test',
      displayName: 'Owner',
      photoUrl: null,
    });
    await tx.insert(kitchens).values({
      ownerId: owner.id,
      name: 'Crash Kitchen',
      category: 'Indian',
      address: '1 Crash Rd',
      imageLink: '/demo/kitchen-indian.svg',
      ownerName: 'Owner',
      ownerEmail: owner.email,
      openingHours: ALL_DAY_HOURS, // orders must be taken whatever the hour the test runs
    });
    const items = await tx
      .insert(menuItems)
      .values(
        DISHES.map((dish) => ({
          kitchenId: owner.id,
          imageLink: '/demo/dish-yellow.svg',
          wait: '20 min',
          ...dish,
        })),
      )
      .returning();
    const customers: { id: string; token: string }[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const user = await upsertUser(tx, {
        issuer: 'urn:crash',
        subject: `c${i}`,
        email: `c${i}@crash.test`,
        displayName: `C${i}`,
        photoUrl: null,
      });
      customers.push({ id: user.id, token: await createSession(tx, user.id, 'customer') });
    }
    // In the order of DISHES, which is the order of every order's lines.
    const itemIds = DISHES.map((dish) => items.find((row) => row.item === dish.item)?.id ?? '');
    return { kitchenUid: owner.id, itemIds, customers };
  });
}

/** Customer i's submit, the same every time it is sent (as a browser's retry would be). */
async function submit(
  base: string,
  data: Seeded,
  i: number,
): Promise<{ status: number; id?: string; body?: unknown }> {
  const res = await fetch(`${base}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `customer_session=${data.customers[i]?.token}` },
    body: JSON.stringify({
      kitchenUid: data.kitchenUid,
      itemIds: data.itemIds,
      address: `${i} Crash Street`,
      idempotencyKey: `crash-key-${i}`,
    }),
  });
  const body = (await res.json()) as { id?: string };
  return res.ok ? { status: res.status, id: body.id } : { status: res.status, body };
}

async function waitUntil(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface CrashCase {
  /** The app server's environment (its database). */
  env: Record<string, string>;
  open(): Promise<Database>;
  /** Crashes something while orders are in flight, then brings it back; returns the server to go on with. */
  crashAndRecover(server: ServerProcess, serverEnv: Record<string, string>): Promise<ServerProcess>;
}

/**
 * Every customer submits an order (three lines) at once, and something crashes part-way. Each customer then
 * does what a browser does when it got no answer or a 5xx: submits the same order again. In the end every
 * customer has exactly one order, the one the server last told them about (an order answered 201 before the
 * crash is still there, a retry of an order that was committed but never answered finds it, nothing is half
 * written), and every order has all its lines, prices and totals.
 */
async function crashDuringOrders({ env, open, crashAndRecover }: CrashCase) {
  const setup = await open();
  const data = await seed(setup);
  await setup.close();

  // Cash orders: the order route itself (the payment steps' crashes are src/server/orders/payments.test.ts's).
  const serverEnv = {
    ...env,
    PORT: String(await freePort()),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    PAYMENTS: 'off',
  };
  const server = startServerProcess(serverEnv);
  await server.ready();
  const base = `http://127.0.0.1:${serverEnv.PORT}`;

  // What each customer was told: an order id (201), a status without an order, or nothing at all.
  const told: { status: number | 'no answer'; id?: string; body?: unknown }[] = data.customers.map(() => ({
    status: 'no answer',
  }));
  const submits = data.customers.map((_, i) =>
    submit(base, data, i).then(
      (answer) => (told[i] = answer),
      () => {},
    ),
  );
  const acknowledged = () => told.filter((t) => t.status === 201).length;
  await waitUntil(() => acknowledged() >= 10, 20_000, 'no orders were placed');
  const running = await crashAndRecover(server, serverEnv);
  await Promise.all(submits);
  expect(acknowledged()).toBeLessThan(CUSTOMERS); // the crash did land while orders were in flight
  // In doubt: no answer, or the server could not reach its database. Never a refusal.
  for (const t of told)
    expect([201, 503, 'no answer'], `${JSON.stringify(t)}\n${running.output()}`).toContain(t.status);

  const retrying = told.flatMap((t, i) => (t.status === 201 ? [] : [i]));
  const lane = async () => {
    for (let i = retrying.shift(); i !== undefined; i = retrying.shift()) {
      told[i] = await submit(base, data, i);
      expect([200, 201], `customer ${i}'s retry`).toContain(told[i]?.status);
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  running.child.kill('SIGTERM');
  expect(await running.exited, running.output()).toBe(0);

  const after = await open();
  try {
    const rows = await after.db.select().from(orders);
    const lines = await after.db.select().from(orderItems);
    expect(rows.length).toBe(CUSTOMERS);
    const expectedTotals = computeTotals(DISHES.map((dish) => dish.priceCents));
    data.customers.forEach((customer, i) => {
      const order = rows.find((row) => row.customerId === customer.id);
      expect(order?.id, `customer ${i}'s order`).toBe(told[i]?.id);
      expect(order).toMatchObject({
        address: `${i} Crash Street`,
        idempotencyKey: `crash-key-${i}`,
        ...expectedTotals,
      });
      const own = lines.filter((line) => line.orderId === order?.id).sort((a, b) => a.position - b.position);
      expect(own.map(({ item, priceCents, menuItemId }) => ({ item, priceCents, menuItemId }))).toEqual(
        DISHES.map((dish, position) => ({ ...dish, menuItemId: data.itemIds[position] })),
      );
    });
  } finally {
    await after.close();
  }
}

/** The app process dies with SIGKILL and is started again on the same database. */
async function killAndRestart(server: ServerProcess, env: Record<string, string>): Promise<ServerProcess> {
  server.child.kill('SIGKILL');
  await server.exited;
  const again = startServerProcess(env);
  await again.ready();
  return again;
}

describe('crash safety: a crash during 100 concurrent order submissions', () => {
  it('on PostgreSQL, the app killed with SIGKILL', async () => {
    const pg = await createPgDatabase();
    try {
      await crashDuringOrders({
        env: { DATABASE_URL: pg.url },
        open: () => openPostgres(pg.url, { poolSize: 2 }),
        crashAndRecover: killAndRestart,
      });
    } finally {
      await pg.drop();
    }
  }, 120_000);

  it('on PGlite, the app killed with SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mkt-crash-'));
    await crashDuringOrders({
      env: { DATA_DIR: dataDir },
      open: () => openPglite(dataDir),
      crashAndRecover: killAndRestart,
    });
  }, 120_000);

  it('on PostgreSQL, the database server stopped at once (pg_ctl stop -m immediate) and restarted', async () => {
    const pg = createPrivatePostgres(await freePort());
    try {
      pg.start();
      await crashDuringOrders({
        env: { DATABASE_URL: pg.url },
        open: () => openPostgres(pg.url, { poolSize: 2 }),
        crashAndRecover: async (server, serverEnv) => {
          pg.crash();
          pg.start(); // replays the write-ahead log
          // The app stayed up, and finds its database again by itself.
          const readyz = `http://127.0.0.1:${serverEnv.PORT}/readyz`;
          const ready = () =>
            fetch(readyz).then(
              (r) => r.ok,
              () => false,
            );
          await waitUntil(ready, 10_000, 'the app did not find its database again');
          expect(server.child.exitCode).toBe(null);
          return server;
        },
      });
    } finally {
      pg.destroy();
    }
  }, 120_000);
});
