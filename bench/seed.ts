import { createSession } from '../src/server/identity/sessions.js';
import { ALL_DAY_HOURS } from '../src/shared/opening-hours.js';
import { upsertUser } from '../src/server/identity/users.js';
import type { Database } from '../src/server/db/database.js';
import { kitchens, menuItems } from '../src/server/db/schema.js';

export interface BenchData {
  kitchenUid: string;
  itemIds: string[];
  ownerToken: string;
  customerTokens: string[];
}

/** 50 kitchens, one of them with a 30-item menu (the read benchmarks), its owner's session and customers'. */
export async function seedBench(database: Database, customers: number): Promise<BenchData> {
  const { db } = database;
  return db.transaction(async (tx) => {
    const owners = [];
    for (let i = 0; i < 50; i++) {
      owners.push(
        await upsertUser(tx, {
          issuer: 'urn:bench',
          subject: `owner-${i}`,
          email: `owner-${i}@bench.test`,
          displayName: `Owner ${i}`,
          photoUrl: null,
        }),
      );
    }
    await tx.insert(kitchens).values(
      owners.map((o, i) => ({
        ownerId: o.id,
        name: `Bench Kitchen ${i}`,
        category: ['Indian', 'Mexican', 'Filipino', 'Italian', 'Korean'][i % 5] ?? 'Indian',
        address: `${i} Bench Street`,
        imageLink: '/demo/kitchen-indian.svg',
        ownerName: o.displayName,
        ownerEmail: o.email,
        openingHours: ALL_DAY_HOURS, // the order benchmark runs at any hour
        createdAt: new Date(Date.now() - (50 - i) * 60_000),
      })),
    );
    const first = owners[0];
    if (!first) throw new Error('no owner');
    const items = await tx
      .insert(menuItems)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          kitchenId: first.id,
          item: `Dish number ${i}`,
          imageLink: '/demo/dish-red.svg',
          priceCents: 500 + i * 25,
          wait: `${10 + i} min`,
          createdAt: new Date(Date.now() - (30 - i) * 1000),
        })),
      )
      .returning({ id: menuItems.id });
    const ownerToken = await createSession(tx, first.id, 'kitchen');
    const customerTokens: string[] = [];
    for (let i = 0; i < customers; i++) {
      const user = await upsertUser(tx, {
        issuer: 'urn:bench',
        subject: `customer-${i}`,
        email: `customer-${i}@bench.test`,
        displayName: `Customer ${i}`,
        photoUrl: null,
      });
      customerTokens.push(await createSession(tx, user.id, 'customer'));
    }
    return { kitchenUid: first.id, itemIds: items.map((i) => i.id), ownerToken, customerTokens };
  });
}

/** The n-th customer's order submit (a request for autocannon): its own session, two dishes, its own key. */
export function orderRequest(data: BenchData, n: number, tag: string) {
  return {
    headers: {
      'content-type': 'application/json',
      cookie: `customer_session=${data.customerTokens[n % data.customerTokens.length]}`,
    },
    body: JSON.stringify({
      kitchenUid: data.kitchenUid,
      itemIds: [data.itemIds[n % 30], data.itemIds[(n + 7) % 30]],
      address: `${n} Benchmark Avenue`,
      idempotencyKey: `bench-${tag}-${n}-key`,
    }),
  };
}
