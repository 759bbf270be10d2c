import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { users } from '../db/schema.js';

export interface Identity {
  issuer: string;
  subject: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
}

export type User = typeof users.$inferSelect;

/** Finds the user of (issuer, subject), creating it or refreshing its profile from the latest ID token. */
export async function upsertUser(db: DbOrTx, identity: Identity): Promise<User> {
  const [user] = await db
    .insert(users)
    .values(identity)
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: {
        email: sql`excluded.email`,
        displayName: sql`excluded.display_name`,
        photoUrl: sql`excluded.photo_url`,
      },
    })
    .returning();
  if (!user) throw new Error('upsert returned no row');
  return user;
}
