import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../shared/opening-hours.js';
import type { Kitchen, KitchenInput } from '../../shared/kitchens.js';
import { computeTotals } from '../../shared/money.js';
import type { User } from '../identity/users.js';
import { eq } from 'drizzle-orm';
import { menuItems, orders } from '../db/schema.js';
import { registerKitchen } from '../kitchens/kitchen-service.js';
import { mutateInOneStatement } from '../events/mutate.js';
import { insertOrder, type NewOrder } from '../orders/customer-order-queries.js';
import { addMenuItem } from '../menu/menu-service.js';
import type { MenuItem, MenuItemInput } from '../../shared/menu.js';
import { answersWith } from '../../shared/allergen-declaration.js';
import type { Allergen } from '../../shared/allergen-set.js';
import { signedIn, type TestContext } from './test-app.js';

export const kitchenInput = (overrides: Partial<KitchenInput> = {}): KitchenInput => ({
  name: 'Test Kitchen',
  category: 'Indian',
  address: '1 Main St',
  imageLink: 'https://img.example/k.png',
  // Open around the clock: tests of anything but opening hours must not depend on the hour they run at.
  hours: ALL_DAY_HOURS,
  ...overrides,
});

/** A new kitchen owner, signed in, with a registered kitchen. */
export async function buildKitchen(ctx: TestContext, overrides: Partial<KitchenInput> = {}) {
  const { user, cookie } = await signedIn(ctx, 'kitchen');
  const kitchen = await registerKitchen(ctx.app, user, kitchenInput(overrides));
  if (!kitchen) throw new Error('kitchen not created');
  return { user, cookie, kitchen };
}

/** A menu item of `kitchen`, added through the service the API uses. */
export function buildMenuItem(
  ctx: TestContext,
  kitchen: Kitchen,
  overrides: Partial<MenuItemInput> = {},
): Promise<MenuItem> {
  return addMenuItem(
    ctx.app,
    kitchen.uid,
    {
      item: 'Dal',
      price: '9.50',
      wait: '20 min',
      imageLink: 'https://img.example/dal.png',
      // Declared to hold none of the allergens, as a dish must be to be published.
      allergenAnswers: answersWith(),
      ...overrides,
    },
    ctx.config.payments.currency,
  );
}

/**
 * Turns a dish into one of before declarations (its allergens as tags, nothing declared), as the migration to
 * declarations left them: the API publishes no such dish any more.
 */
export async function undeclareDish(ctx: TestContext, dishId: string, allergens: Allergen[] = []) {
  await ctx.database.db
    .update(menuItems)
    .set({ allergens, mayContain: [], allergensDeclaredAt: null })
    .where(eq(menuItems.id, dishId));
}

/**
 * An open order of `customer` at `kitchen` with these lines (dishes need not exist), written by the statement that
 * places a real order (its lines, its first event, its change notices: src/server/orders/customer-order-queries.ts)
 * and announced on the topics a real order is; only the checks of the order route (hours, portions, the cart) are
 * left out. Returns the order's row.
 */
export async function buildOrder(
  ctx: TestContext,
  kitchen: Kitchen,
  customer: User,
  lines: { item: string; priceCents: number; menuItemId?: string }[] = [{ item: 'Dal', priceCents: 950 }],
  address = '9 Delivery Road',
  allergies: { customerAllergies?: string[]; allergensAcknowledged?: string[] } = {},
) {
  const order: NewOrder = {
    id: randomUUID(),
    at: new Date(ctx.app.clock.now()),
    kitchenUid: kitchen.uid,
    kitchenName: kitchen.name,
    customerId: customer.id,
    customerEmail: customer.email,
    address,
    fulfilment: 'delivery',
    slot: null,
    capsDay: null,
    capsMeals: 0,
    note: '',
    customerAllergies: allergies.customerAllergies ?? [],
    allergensAcknowledged: allergies.allergensAcknowledged ?? [],
    idempotencyKey: randomUUID(),
    requestHash: randomUUID(),
    portionsDay: null,
    totals: computeTotals(lines.map((l) => l.priceCents)),
    tipCents: 0,
    creditCents: 0,
    discount: null,
    payment: 'cash',
    platformFeeCents: 0,
    currency: 'USD',
    lines: lines.map(({ menuItemId, ...line }) => ({ menuItemId: menuItemId ?? null, ...line })),
  };
  const placed = await mutateInOneStatement(
    ctx.app,
    [
      {
        type: 'order.placed',
        orderId: order.id,
        kitchenUid: kitchen.uid,
        customerId: customer.id,
        countsPortions: false,
      },
    ],
    (sending) => insertOrder(ctx.app.db, order, sending),
  );
  if (!placed) throw new Error('the kitchen takes no orders now (paused, suspended or gone)');
  const [row] = await ctx.app.db.select().from(orders).where(eq(orders.id, placed.id));
  if (!row) throw new Error('order not created');
  return row;
}
