import { and, eq, isNull, sql } from 'drizzle-orm';
import { toOneLine } from '../../shared/fields.js';
import type { OfferedLocale } from '../../shared/i18n/locales.js';
import type { DbOrTx } from '../db/database.js';
import { users } from '../db/schema.js';

export interface Identity {
  issuer: string;
  subject: string;
  email: string;
  /** As the provider gives it (`upsertUser` keeps it as one line, or the email's local part). */
  displayName: string;
  photoUrl: string | null;
}

export type User = typeof users.$inferSelect;

/**
 * The name a person is shown by (kitchen cards, menus, reviews): the identity provider's, as one line of plain text
 * as every name of ours is; when nothing is left of it, their email's local part, else their email.
 */
export function displayNameOf(name: string, email: string): string {
  const local = email.slice(0, Math.max(0, email.lastIndexOf('@')));
  return toOneLine(name) || toOneLine(local) || toOneLine(email);
}

/** Finds the user of (issuer, subject), creating it or refreshing its profile from the latest ID token. */
export async function upsertUser(db: DbOrTx, identity: Identity): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({ ...identity, displayName: displayNameOf(identity.displayName, identity.email) })
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
