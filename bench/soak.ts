// `npm run soak`: 500 simulated users browse, order and chat for 60 seconds on loopback, against the built server.
// Checks: zero 5xx, every 201 order in the database exactly once, memory flat at the end. Exits non-zero if not.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { ALL_DAY_HOURS } from '../src/shared/opening-hours.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { count } from 'drizzle-orm';
import { createSession } from '../src/server/identity/sessions.js';
import { upsertUser } from '../src/server/identity/users.js';
import { openPglite, openPostgres, type Database } from '../src/server/db/database.js';
import { kitchens, menuItems, orders } from '../src/server/db/schema.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { root, rssMiB, sleep, startApp } from './lib.js';

const USERS = Number(process.env.SOAK_USERS ?? 500);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const ENGINE = process.env.SOAK_ENGINE === 'postgres' ? 'postgres' : 'pglite';

async function seed(database: Database) {
  return database.db.transaction(async (tx) => {
    const menus: { kitchenUid: string; itemIds: string[] }[] = [];
    for (let k = 0; k < 10; k++) {
      const owner = await upsertUser(tx, {
        issuer: 'urn:soak',
        subject: `owner-${k}`,
        email: `owner-${k}@soak.test`,
        displayName: `Owner ${k}`,
        photoUrl: null,
      });
      await tx.insert(kitchens).values({
        ownerId: owner.id,
        name: `Soak Kitchen ${k}`,
        category: 'Indian',
        address: `${k} Soak St`,
        imageLink: '/demo/kitchen-indian.svg',
        ownerName: owner.displayName,
        ownerEmail: owner.email,
        openingHours: ALL_DAY_HOURS, // the soak runs at any hour
      });
      const items = await tx
        .insert(menuItems)
        .values(
          Array.from({ length: 8 }, (_, i) => ({
            kitchenId: owner.id,
            item: `Dish ${k}-${i}`,
            imageLink: '/demo/dish-red.svg',
            priceCents: 400 + i * 100,
            wait: '20 min',
          })),
        )
        .returning({ id: menuItems.id });
      menus.push({ kitchenUid: owner.id, itemIds: items.map((i) => i.id) });
    }
    const tokens: string[] = [];
    for (let u = 0; u < USERS; u++) {
      const user = await upsertUser(tx, {
        issuer: 'urn:soak',
        subject: `user-${u}`,
        email: `user-${u}@soak.test`,
        displayName: `User ${u}`,
        photoUrl: null,
      });
      tokens.push(await createSession(tx, user.id, 'customer'));
    }
    return { menus, tokens };
  });
}

const statuses = new Map<number, number>();
let failures = 0;
const created = new Set<string>();

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        cookie: `customer_session=${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const text = await res.text();
    return { status: res.status, text };
  } catch {
    failures++;
    return { status: 0, text: '' };
  }
}

async function user(
  base: string,
  token: string,
  index: number,
  menus: { kitchenUid: string; itemIds: string[] }[],
  until: number,
) {
  const menu = menus[index % menus.length] ?? menus[0];
  if (!menu) return;
  const key = `soak-${index}-order`;
  let ordered = false;
  let lastChat = 0;
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.35) await call(base, token, 'GET', '/api/kitchens');
    else if (roll < 0.65) await call(base, token, 'GET', `/api/kitchens/${menu.kitchenUid}/menu`);
    else if (roll < 0.8) await call(base, token, 'GET', '/api/orders/mine');
    else if (roll < 0.9 && Date.now() - lastChat > 2500) {
      lastChat = Date.now();
      await call(base, token, 'POST', '/api/chat', { text: `hello from user ${index} at ${Date.now()}` });
    } else if (!ordered || roll > 0.98) {
      // Each user orders once; now and then a submit is retried with the same key, as a flaky network would.
      const res = await call(base, token, 'POST', '/api/orders', {
        kitchenUid: menu.kitchenUid,
        itemIds: menu.itemIds.slice(0, 1 + (index % 3)),
        address: `${index} Soak Road`,
        idempotencyKey: key,
      });
      if (res.status === 201) created.add((JSON.parse(res.text) as { id: string }).id);
      ordered = ordered || res.status === 201 || res.status === 200;
    }
    await sleep(200 + Math.random() * 800);
  }
}

/** Holds `n` live streams open for the run, as open browser tabs would. */
function holdStreams(base: string, n: number) {
  const requests: http.ClientRequest[] = [];
  for (let i = 0; i < n; i++) {
    const req = http.get(`${base}/api/kitchens`, { headers: { accept: 'text/event-stream' } }, (res) =>
      res.resume(),
    );
    req.on('error', () => {});
    requests.push(req);
  }
  return () => requests.forEach((r) => r.destroy());
}

async function main() {
  let env: Record<string, string>;
  let open: () => Promise<Database>;
  let drop = async () => {};
  if (ENGINE === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-soak-'));
    env = { DATA_DIR: dir };
    open = () => openPglite(dir);
  } else {
    const pg = await createPgDatabase();
    env = { DATABASE_URL: pg.url };
    open = () => openPostgres(pg.url, { poolSize: 2 });
    drop = pg.drop;
  }
  const setup = await open();
  const { menus, tokens } = await seed(setup);
  await setup.close();

  const app = await startApp(env);
  const pid = app.child.pid ?? 0;
  const memory: number[] = [];
  const sampler = setInterval(() => memory.push(rssMiB(pid)), 5000);
  const release = holdStreams(app.url, 100);
  const until = Date.now() + SECONDS * 1000;
  console.log(`soak: ${USERS} users for ${SECONDS} s on ${ENGINE}`);
  await Promise.all(tokens.map((token, i) => user(app.url, token, i, menus, until)));
  release();
  clearInterval(sampler);
  await app.stop();

  const after = await open();
  const inDb = (await after.db.select({ n: count() }).from(orders))[0]?.n ?? 0;
  await after.close();
  await drop();

  const fiveXX = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const third = Math.max(1, Math.floor(memory.length / 3));
  const middle = memory.slice(third, 2 * third);
  const end = memory.slice(-third);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const growth = ((avg(end) - avg(middle)) / Math.max(1, avg(middle))) * 100;
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const result = {
    engine: ENGINE,
    users: USERS,
    seconds: SECONDS,
    requests: total,
    requestsPerSecond: Math.round(total / SECONDS),
    statuses: Object.fromEntries(statuses),
    networkFailures: failures,
    fiveXX,
    orders201: created.size,
    ordersInDatabase: inDb,
    memoryMiB: memory.map((m) => Math.round(m)),
    memoryGrowthLastThirdPercent: Math.round(growth * 10) / 10,
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    join(root, `bench/results/soak-${ENGINE}.json`),
    JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2) + '\n',
  );
  const ok = fiveXX === 0 && failures === 0 && inDb === created.size && growth < 10;
  console.log(ok ? 'soak: OK' : 'soak: FAILED');
  process.exit(ok ? 0 : 1);
}

await main();
