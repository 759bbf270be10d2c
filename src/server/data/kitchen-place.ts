import { eq } from 'drizzle-orm';
import type { KitchenListingState, PlaceParts } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens } from '../db/schema.js';

/**
 * Where a kitchen is (as the geocoder named it), its time zone, whether an operator suspended it, and whether it is
 * listed under its place's rules.
 */
export async function kitchenPlace(
  db: DbOrTx,
  kitchenUid: string,
): Promise<
  { place: PlaceParts; timeZone: string; suspended: boolean; listing: KitchenListingState } | undefined
> {
  const [row] = await db
    .select({
      countryCode: kitchens.countryCode,
      region: kitchens.region,
      county: kitchens.county,
      timeZone: kitchens.timeZone,
      suspendedAt: kitchens.suspendedAt,
      listing: kitchens.listing,
      listingReason: kitchens.listingReason,
      listingDecidedAt: kitchens.listingDecidedAt,
    })
    .from(kitchens)
    .where(eq(kitchens.ownerId, kitchenUid));
  return (
    row && {
      place: { countryCode: row.countryCode, region: row.region, county: row.county },
      timeZone: row.timeZone,
      suspended: row.suspendedAt !== null,
      listing: {
        state: row.listing,
        reason: row.listingReason,
        decidedAt: row.listingDecidedAt?.toISOString() ?? null,
      },
    }
  );
}
