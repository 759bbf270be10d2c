import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { computeTotals } from '../../shared/money.js';
import { recordOrderFigures } from '../data/order-figures.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens, menuItems, orderEvents, orderItems, orders, reviews } from '../db/schema.js';
import { upsertUser } from '../identity/users.js';

/** The demo's regular customers (first names are all a cook sees of them). */
const CUSTOMERS = [
  'Amira Haddad',
  'Ben Okafor',
  'Chen Wei',
  'Dolores Ruiz',
  'Emeka Obi',
  'Fatima Zahra',
  'Gita Rao',
];

/** A small generator of the same numbers every time (mulberry32), so that a demo looks the same on each run. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hours orders come at, lunch and dinner the most. */
const HOURS = [11, 12, 12, 12, 13, 13, 17, 18, 18, 19, 19, 19, 20, 21];

/**
 * `days` days of past orders at a kitchen, until `now`: a few a day (more at weekends), mostly delivered, some
 * declined or cancelled, from a handful of returning customers and a few new ones, with reviews; each with its
 * steps and its figures (recorded as any order's are). For the demo, the end-to-end tests and the screenshots:
 * what a cook who has cooked for a few weeks sees on 'Insights'. Returns how many orders it wrote.
 */
export async function addDemoHistory(
  db: DbOrTx,
  kitchenUid: string,
  { days, now, seed = 1 }: { days: number; now: Date; seed?: number },
): Promise<number> {
  const random = randomFrom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const [kitchen] = await db.select().from(kitchens).where(eq(kitchens.ownerId, kitchenUid));
  if (!kitchen) throw new Error(`no kitchen ${kitchenUid}`);
  const dishes = await db.select().from(menuItems).where(eq(menuItems.kitchenId, kitchenUid));
  // The first dish sells best; the last sells nothing (it shows as unsold).
  const selling = dishes.length > 1 ? dishes.slice(0, -1) : dishes;
  if (selling.length === 0) return 0;
  const regulars = [];
  for (const [i, name] of CUSTOMERS.entries())
    regulars.push(
      await upsertUser(db, {
        issuer: 'urn:marketplace:demo-customers',
        subject: `${kitchenUid}-${i}`,
        email: `customer-${i + 1}.${kitchenUid.slice(0, 8)}@customers.example`,
        displayName: name,
        photoUrl: null,
      }),
    );
  let written = 0;
  for (let day = days; day >= 1; day--) {
    const date = new Date(now.getTime() - day * 86_400_000);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    const count = Math.floor(random() * 4) + (weekend ? 4 : 2);
    // In the order they came: a customer's first order is the first recorded.
    const times = Array.from({ length: count }, () => {
      const at = new Date(date);
      at.setUTCHours(pick(HOURS), Math.floor(random() * 60), 0, 0);
      return at;
    }).sort((a, b) => a.getTime() - b.getTime());
    for (const [n, at] of times.entries()) {
      const customer = random() < 0.7 ? pick(regulars) : undefined;
      const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        // Weighted to the first dishes.
        random() < 0.5 ? selling[0]! : pick(selling),
      );
      const totals = computeTotals(lines.map((l) => l.priceCents));
      const roll = random();
      const state = roll < 0.06 ? 'declined' : roll < 0.1 ? 'cancelled' : 'delivered';
      const id = randomUUID();
      const buyer =
        customer ??
        (await upsertUser(db, {
          issuer: 'urn:marketplace:demo-customers',
          subject: `${kitchenUid}-once-${day}-${n}`,
          email: `once-${day}-${n}.${kitchenUid.slice(0, 8)}@customers.example`,
          displayName: pick(['Hana Sato', 'Ivan Petrov', 'Jo Smith', 'Kofi Mensah', 'Lena Vogel']),
          photoUrl: null,
        }));
      await db.insert(orders).values({
        id,
        kitchenId: kitchenUid,
        kitchenName: kitchen.name,
        customerId: buyer.id,
        customerEmail: buyer.email,
        address: '12 Demo Street',
        status: state,
        state,
        endReason: state === 'declined' ? 'Sold out' : state === 'cancelled' ? 'Oven broke' : null,
        ...totals,
        idempotencyKey: randomUUID(),
        paymentMethod: 'cash',
        paymentState: state === 'delivered' ? 'cash-paid' : 'cash-due',
        createdAt: at,
        updatedAt: at,
      });
      await db.insert(orderItems).values(
        lines.map((l, position) => ({
          orderId: id,
          menuItemId: l.id,
          position,
          item: l.item,
          priceCents: l.priceCents,
        })),
      );
      const minutes = (m: number) => new Date(at.getTime() + m * 60_000);
      const acceptAfter = 2 + Math.floor(random() * 12);
      const steps: {
        state: (typeof orderEvents.$inferInsert)['state'];
        at: Date;
        by: 'kitchen' | 'customer';
      }[] = [{ state: 'recieved', at, by: 'customer' }];
      if (state === 'declined') steps.push({ state: 'declined', at: minutes(acceptAfter), by: 'kitchen' });
      else {
        steps.push({ state: 'accepted', at: minutes(acceptAfter), by: 'kitchen' });
        if (state === 'cancelled')
          steps.push({ state: 'cancelled', at: minutes(acceptAfter + 10), by: 'kitchen' });
        else
          steps.push(
            { state: 'preparing', at: minutes(acceptAfter + 2), by: 'kitchen' },
            {
              state: 'out for delivery',
              at: minutes(acceptAfter + 20 + Math.floor(random() * 20)),
              by: 'kitchen',
            },
            { state: 'delivered', at: minutes(acceptAfter + 55), by: 'kitchen' },
          );
      }
      await db.insert(orderEvents).values(
        steps.map((s) => ({
          orderId: id,
          state: s.state,
          byRole: s.by,
          byUserId: s.by === 'kitchen' ? kitchenUid : buyer.id,
          createdAt: s.at,
        })),
      );
      if (state === 'delivered' && random() < 0.35)
        await db.insert(reviews).values({
          orderId: id,
          kitchenId: kitchenUid,
          customerId: buyer.id,
          stars: random() < 0.75 ? 5 : 4,
          createdAt: minutes(120),
        });
      await recordOrderFigures(db, id);
      written++;
    }
  }
  return written;
}
