import { and, eq, isNull, sql } from 'drizzle-orm';
import type { OfferedLocale } from '../../shared/i18n/locales.js';
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

/** Keeps the language `userId` chose (users.locale): their emails and pushes are in it. */
export async function saveLocale(db: DbOrTx, userId: string, locale: OfferedLocale): Promise<void> {
  await db.update(users).set({ locale }).where(eq(users.id, userId));
}

/** On signing in, the language of the request, for a person who never chose one (a choice made is kept). */
export async function adoptLocale(db: DbOrTx, user: User, locale: OfferedLocale): Promise<void> {
  if (user.locale !== null) return;
  await db
    .update(users)
    .set({ locale })
    .where(and(eq(users.id, user.id), isNull(users.locale)));
}
