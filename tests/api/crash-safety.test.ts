import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../../src/server/auth/sessions.js';
import { upsertUser } from '../../src/server/auth/users.js';
import { openPglite, openPostgres, type Database } from '../../src/server/db/database.js';
import { kitchens, menuItems, orders } from '../../src/server/db/schema.js';
import { freePort } from '../../src/server/test/http-client.js';
import { killServerProcesses, startServerProcess } from '../../src/server/test/server-process.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

const CUSTOMERS = 200;

afterEach(killServerProcesses);

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
    });
    const [item] = await tx
      .insert(menuItems)
      .values({
        kitchenId: owner.id,
        item: 'Dal',
        imageLink: '/demo/dish-yellow.svg',
        priceCents: 950,
        wait: '20 min',
      })
      .returning();
    const tokens: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const user = await upsertUser(tx, {
        issuer: 'urn:crash',
        subject: `c${i}`,
        email: `c${i}@crash.test`,
        displayName: `C${i}`,
        photoUrl: null,
      });
      tokens.push(await createSession(tx, user.id, 'customer'));
    }
    return { kitchenUid: owner.id, itemId: item?.id ?? '', tokens };
  });
}

/**
 * 200 customers submit at once; the server is killed with SIGKILL part-way. After a restart, every order that
 * was answered 201 is there, and no customer's submit made two orders.
 */
async function crashDuringOrders(env: Record<string, string>, open: () => Promise<Database>) {
  const setup = await open();
  const data = await seed(setup);
  await setup.close();

  const port = await freePort();
  const server = startServerProcess({ ...env, PORT: String(port), SEED_DEMO: 'false', LOG_LEVEL: 'warn' });
  await server.ready();
  const base = `http://127.0.0.1:${port}`;
  const acknowledged: string[] = [];
  let answered = 0;
  const submits = data.tokens.map((token, i) =>
    fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `customer_session=${token}` },
      body: JSON.stringify({
        kitchenUid: data.kitchenUid,
        itemIds: [data.itemId],
        address: `${i} Crash Street`,
        idempotencyKey: `crash-key-${i}`,
      }),
    })
      .then(async (res) => {
        answered++;
        if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
      })
      .catch(() => {}),
  );
  // Kill it once some orders are answered and others are still in flight.
  const deadline = Date.now() + 20_000;
  while (answered < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  server.child.kill('SIGKILL');
  await Promise.all(submits);
  await server.exited;
  expect(acknowledged.length).toBeGreaterThan(0);

  // Restart (PGlite: the dead server's lock is taken over) and look at what was kept.
  const again = startServerProcess({ ...env, PORT: String(port), SEED_DEMO: 'false', LOG_LEVEL: 'warn' });
  await again.ready();
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);

  const after = await open();
  try {
    const rows = await after.db
      .select({ id: orders.id, customerId: orders.customerId, key: orders.idempotencyKey })
      .from(orders);
    const ids = new Set(rows.map((r) => r.id));
    for (const id of acknowledged)
      expect(ids.has(id), `order ${id} was answered 201 but is missing`).toBe(true);
    expect(new Set(rows.map((r) => r.customerId)).size).toBe(rows.length); // none twice
    return { acknowledged: acknowledged.length, kept: rows.length };
  } finally {
    await after.close();
  }
}

describe('crash safety: SIGKILL during 200 concurrent order submissions', () => {
  it('on PostgreSQL, keeps every acknowledged order, none twice', async () => {
    const pg = await createPgDatabase();
    try {
      await crashDuringOrders({ DATABASE_URL: pg.url }, () => openPostgres(pg.url, { poolSize: 2 }));
    } finally {
      await pg.drop();
    }
  }, 120_000);

  it('on PGlite, keeps every acknowledged order, none twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mkt-crash-'));
    await crashDuringOrders({ DATA_DIR: dataDir }, () => openPglite(dataDir));
  }, 120_000);
});
