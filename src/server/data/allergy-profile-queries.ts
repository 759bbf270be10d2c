import { eq } from 'drizzle-orm';
import type { AllergyProfile, AllergyProfileInput } from '../../shared/allergen-declaration.js';
import type { Allergen } from '../../shared/allergen-set.js';
import type { DbOrTx } from '../db/database.js';
import { allergyProfiles } from '../db/schema.js';

/** 'Your allergies' of a user: none picked (and 'may contain' mattering) until they save some. */
export async function findAllergyProfile(db: DbOrTx, userId: string): Promise<AllergyProfile> {
  const [row] = await db.select().from(allergyProfiles).where(eq(allergyProfiles.userId, userId));
  return row
    ? {
        allergens: row.allergens as Allergen[],
        mayContainMatters: row.mayContainMatters,
        updatedAt: row.updatedAt.toISOString(),
      }
    : { allergens: [], mayContainMatters: true, updatedAt: null };
}

/** Saves a user's allergies (replacing what was there). */
export async function saveAllergyProfile(
  db: DbOrTx,
  userId: string,
  input: AllergyProfileInput,
  at: Date,
): Promise<AllergyProfile> {
  const values = { allergens: input.allergens, mayContainMatters: input.mayContainMatters, updatedAt: at };
  await db
    .insert(allergyProfiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: allergyProfiles.userId, set: values });
  return { ...values, allergens: [...input.allergens], updatedAt: at.toISOString() };
}
