// Meal caps' cost on the order route (issue 50: "placing an order with caps on against caps off in the same run,
// target <= 10 % slower"). `npm run bench:caps`: on PGlite and PostgreSQL, one app (in process, `app.inject`: the
// server's own cost, no network) with two kitchens alike but for their place: one no profile covers (caps off: the
// order is one statement), one whose profile caps its meals (caps on: the order's transaction counts them). Orders
// alternate between the two, by customers of their own, so both see the same server at the same moments.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { buildApp } from '../src/server/app.js';
import { openPglite, openPostgres, type Database } from '../src/server/db/database.js';
import { kitchenMealCounts, kitchens, menuItems } from '../src/server/db/schema.js';
import { createSession } from '../src/server/identity/sessions.js';
import { upsertUser } from '../src/server/identity/users.js';
import { loadConfig } from '../src/server/lib/config.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { ALL_DAY_HOURS } from '../src/shared/opening-hours.js';
import { percentile } from './lib.js';

const ORDERS = process.env.BENCH_QUICK === '1' ? 200 : 1000;
const CONCURRENCY = 10;

/** A profile for the bench's place: caps as California's, but too high to refuse any of the bench's orders. */
function benchProfiles(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-jurisdictions-'));
  writeFileSync(
    join(dir, 'none.yaml'),
    [
      'id: none',
      'country: null',
      'version: 1',
      'node:',
      '  name: No rules configured',
      '  sources: [{ title: bench, url: docs/decisions/0019-rules-of-places-are-data.md, read: 2026-11-29 }]',
      '  rules: { sellingAllowed: true, permit: null, certificates: [], caps: {}, thirdPartyDelivery: true,',
      '    sameDayService: false, forbiddenWords: [] }',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'xb.yaml'),
    [
      'id: xb',
      'country: XB',
      'version: 1',
      'node:',
      '  name: Bench land',
      '  sources: [{ title: bench, url: docs/decisions/0019-rules-of-places-are-data.md, read: 2026-11-29 }]',
      '  rules:',
      '    sellingAllowed: true',
      '    caps: { mealsPerDay: 1000000, mealsPerWeek: 1000000,',
      '      grossPerYear: { amountMinor: 2000000000, currency: USD }, meal: dish-portion }',
      '',
    ].join('\n'),
  );
  return dir;
}

async function seed(database: Database, customers: number, kitchensEach: number) {
  const { db } = database;
  const kitchen = async (name: string, countryCode: string | null) => {
    const owner = await upsertUser(db, {
      issuer: 'urn:bench',
      subject: `owner-${name}`,
      email: `owner-${name}@bench.test`,
      displayName: name,
      photoUrl: null,
    });
    await db.insert(kitchens).values({
      ownerId: owner.id,
      name,
      category: 'Indian',
      address: '1 Bench Street',
      imageLink: '/demo/kitchen-indian.svg',
      ownerName: name,
      ownerEmail: owner.email,
      openingHours: ALL_DAY_HOURS,
      timeZone: 'America/Los_Angeles',
      countryCode,
    });
    const dishes = await db
      .insert(menuItems)
      .values(
        [0, 1].map((i) => ({
          kitchenId: owner.id,
          item: `Dish ${i}`,
          imageLink: '/demo/dish-red.svg',
          priceCents: 900 + i * 100,
          wait: '20 min',
        })),
      )
      .returning({ id: menuItems.id });
    return { uid: owner.id, itemIds: dishes.map((d) => d.id) };
  };
  const off: Kitchen[] = [];
  const on: Kitchen[] = [];
  for (let k = 0; k < kitchensEach; k++) {
    off.push(await kitchen(`Caps off ${k}`, null));
    on.push(await kitchen(`Caps on ${k}`, 'XB'));
  }
  const cookies: string[] = [];
  for (let i = 0; i < customers; i++) {
    const user = await upsertUser(db, {
      issuer: 'urn:bench',
      subject: `customer-${i}`,
      email: `customer-${i}@bench.test`,
      displayName: `Customer ${i}`,
      photoUrl: null,
    });
    cookies.push(`customer_session=${await createSession(db, user.id, 'customer')}`);
  }
  return { off, on, cookies };
}

type Kitchen = { uid: string; itemIds: string[] };

/**
 * One engine, one spread: `kitchensEach` kitchens of each kind, the orders going round them. With one, every order
 * of a kind is for the same kitchen: the capped kitchen's counter rows are then the queue all its orders wait in (each
 * holds them until its commit). With many, orders meet as a marketplace's do, a few at a time per kitchen at most.
 */
async function run(engine: 'pglite' | 'postgres', kitchensEach: number) {
  const pg = engine === 'postgres' ? await createPgDatabase() : undefined;
  const database = pg ? await openPostgres(pg.url) : await openPglite('memory://');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    GEOCODER: 'off',
    PAYMENTS: 'off',
    NOTIFICATIONS: 'off',
    PAYMENT_POLL_SECONDS: '0',
    JURISDICTIONS_DIR: benchProfiles(),
  });
  const app = await buildApp({ config, database, webDir: '/nonexistent' });
  await app.ready();
  try {
    const { off, on, cookies } = await seed(database, ORDERS * 2 + CONCURRENCY * 4, kitchensEach);
    let next = 0;
    const turns = { off: 0, on: 0 };
    const place = async (kind: 'off' | 'on') => {
      const group = kind === 'off' ? off : on;
      const kitchen = group[turns[kind]++ % group.length]!;
      const cookie = cookies[next++]!;
      const start = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie, 'content-type': 'application/json', origin: config.publicUrl },
        payload: {
          kitchenUid: kitchen.uid,
          itemIds: kitchen.itemIds,
          address: '1 Road',
          idempotencyKey: randomUUID(),
        },
        remoteAddress: `10.9.${Math.floor(next / 250)}.${next % 250}`,
      });
      if (res.statusCode !== 201) throw new Error(`order answered ${res.statusCode}: ${res.body}`);
      return performance.now() - start;
    };
    // Warm up both paths.
    for (let i = 0; i < CONCURRENCY * 2; i++) {
      await place('off');
      await place('on');
    }
    const samples = { off: [] as number[], on: [] as number[] };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, client) => {
        const turn = client % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (let i = 0; i < ORDERS / CONCURRENCY; i++)
          for (const which of turn) samples[which].push(await place(which));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const counted = await database.db
      .select({ meals: kitchenMealCounts.meals })
      .from(kitchenMealCounts)
      .where(
        and(
          inArray(
            kitchenMealCounts.kitchenId,
            on.map((k) => k.uid),
          ),
          eq(kitchenMealCounts.period, 'year'),
        ),
      );
    const row = (p: number) => ({
      off: percentile(samples.off, p),
      on: percentile(samples.on, p),
    });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const p50 = row(50);
    const p99 = row(99);
    const slower = (mean(samples.on) / mean(samples.off) - 1) * 100;
    console.log(
      `${engine}, ${kitchensEach} kitchen(s) of each kind: ${ORDERS} orders each, ${CONCURRENCY} at once, ` +
        `${((ORDERS * 2) / seconds).toFixed(0)} orders/s in all; meals counted on the capped kitchens: ` +
        `${counted.reduce((sum, row) => sum + row.meals, 0)}`,
    );
    console.log(`  p50 ms   caps off ${p50.off.toFixed(2)}   caps on ${p50.on.toFixed(2)}`);
    console.log(`  p99 ms   caps off ${p99.off.toFixed(2)}   caps on ${p99.on.toFixed(2)}`);
    console.log(
      `  mean ms  caps off ${mean(samples.off).toFixed(2)}   caps on ${mean(samples.on).toFixed(2)}   ` +
        `(${slower >= 0 ? '+' : ''}${slower.toFixed(1)} %, target <= 10 %)`,
    );
  } finally {
    await app.close();
    await database.close();
    await pg?.drop();
  }
}

const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
// One kitchen of each kind (all ten clients on one capped kitchen), then 20 (orders spread as a marketplace's are).
const spreads = (process.env.BENCH_CAPS_KITCHENS ?? '1,20').split(',').map(Number);
for (const engine of engines) for (const kitchensEach of spreads) await run(engine, kitchensEach);
