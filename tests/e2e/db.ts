import { randomUUID } from 'node:crypto';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { upsertUser } from '../../src/server/auth/users.js';
import { registerKitchen } from '../../src/server/kitchens/kitchen-service.js';
import type { LiveHub } from '../../src/server/live/hub.js';

let database: Promise<Database> | undefined;

/** The end-to-end server's own database (PostgreSQL), for writes a screen of this test does not make. */
export function e2eDatabase(): Promise<Database> {
  database ??= openPostgres(process.env.E2E_DATABASE_URL ?? '', { poolSize: 2 });
  return database;
}

/** Registers a kitchen through the service the API uses; its commit notifies the running server. */
export async function createKitchen(name: string) {
  const { db } = await e2eDatabase();
  const owner = await upsertUser(db, {
    issuer: 'urn:e2e',
    subject: randomUUID(),
    email: `${randomUUID()}@e2e.test`,
    displayName: 'E2E Cook',
    photoUrl: null,
  });
  // This process holds no live streams; the server learns of the change through the database's notification.
  const noLocalHub = { changed() {} } as unknown as LiveHub;
  const kitchen = await registerKitchen({ db, hub: noLocalHub }, owner, {
    name,
    category: 'Fusion',
    address: '5 Test Road',
    imageLink: 'https://images.invalid/broken.png',
  });
  if (!kitchen) throw new Error('kitchen not created');
  return kitchen;
}
