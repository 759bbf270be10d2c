import { eq } from 'drizzle-orm';
import type { PlaceParts } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens } from '../db/schema.js';

/** Where a kitchen is (as the geocoder named it), its time zone, and whether an operator suspended it. */
export async function kitchenPlace(
  db: DbOrTx,
  kitchenUid: string,
): Promise<{ place: PlaceParts; timeZone: string; suspended: boolean } | undefined> {
  const [row] = await db
    .select({
      countryCode: kitchens.countryCode,
      region: kitchens.region,
      county: kitchens.county,
      timeZone: kitchens.timeZone,
      suspendedAt: kitchens.suspendedAt,
    })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid));
  return (
    row && {
      place: { countryCode: row.countryCode, region: row.region, county: row.county },
      timeZone: row.timeZone,
      suspended: row.suspendedAt !== null,
    }
  );
}
