import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { afterEach, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createSession } from '../../src/server/identity/sessions.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { openPostgres } from '../../src/server/db/database.js';
import { kitchens, menuItems, notificationOutbox } from '../../src/server/db/schema.js';
import { freePort } from '../../src/server/test/http-client.js';
import { killServerProcesses, startServerProcess } from '../../src/server/test/server-process.js';
import { SmtpWorld } from '../../src/server/test/smtp-world.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

afterEach(killServerProcesses);

async function waitUntil(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A server's worker is killed (SIGKILL) while its relay holds a notification's mail unanswered; a new server takes
 * the notice once the dead worker's lease has run out, and the mail arrives once.
 */
it('a worker killed mid-send loses no notification and sends none twice', async () => {
  const created = await createPgDatabase();
  const smtp = new SmtpWorld();
  const smtpUrl = await smtp.start();
  try {
    const env = {
      DATABASE_URL: created.url,
      SMTP_URL: smtpUrl,
      SEED_DEMO: 'false',
      PAYMENTS: 'off',
      LOG_LEVEL: 'warn',
      NOTIFY_POLL_SECONDS: '1',
      NOTIFY_LEASE_SECONDS: '5',
    };
    const port = await freePort();
    const first = startServerProcess({ ...env, PORT: String(port) });
    await first.ready();
    // A kitchen with a dish and a customer, written beside the server (its migrations ran).
    const database = await openPostgres(created.url);
    const seeded = await database.db.transaction(async (tx) => {
      const owner = await upsertUser(tx, {
        issuer: 'urn:notice-crash',
        subject: 'owner',
        email: 'owner@notice-crash.test',
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
        openingHours: ALL_DAY_HOURS,
      });
      const [dish] = await tx
        .insert(menuItems)
        .values({
          kitchenId: owner.id,
          item: 'Dal',
          priceCents: 950,
          wait: '20 min',
          imageLink: '/demo/dish-yellow.svg',
        })
        .returning();
      const customer = await upsertUser(tx, {
        issuer: 'urn:notice-crash',
        subject: 'customer',
        email: 'customer@notice-crash.test',
        displayName: 'Customer',
        photoUrl: null,
      });
      return { owner, dishId: dish!.id, token: await createSession(tx, customer.id, 'customer') };
    });

    // The relay takes the mail's data and never answers: the worker is mid-send when it is killed.
    smtp.stalling = true;
    const placed = await fetch(`http://127.0.0.1:${port}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `customer_session=${seeded.token}` },
      body: JSON.stringify({
        kitchenUid: seeded.owner.id,
        itemIds: [seeded.dishId],
        address: '2 Crash Street',
        idempotencyKey: randomUUID(),
      }),
    });
    expect(placed.status).toBe(201);
    await waitUntil(() => smtp.stalled > 0, 20_000, 'the mail under way');
    first.child.kill('SIGKILL');
    await first.exited;
    smtp.stalling = false;
    expect(smtp.to('owner@notice-crash.test')).toHaveLength(0);

    // Another server (its own worker) takes the notice once the lease has run out, and sends it.
    const second = startServerProcess({ ...env, PORT: String(await freePort()) });
    await second.ready();
    await waitUntil(() => smtp.to('owner@notice-crash.test').length > 0, 30_000, 'the mail sent again');
    const notice = async () =>
      (
        await database.db
          .select()
          .from(notificationOutbox)
          .where(eq(notificationOutbox.recipientId, seeded.owner.id))
      )[0];
    await waitUntil(async () => (await notice())?.pushDoneAt != null, 10_000, 'the notice done');
    expect((await notice())?.attempts).toBe(2);
    expect(smtp.to('owner@notice-crash.test')).toHaveLength(1);
    await database.close();
  } finally {
    killServerProcesses();
    await smtp.close();
    await created.drop();
  }
}, 120_000);
