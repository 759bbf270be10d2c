import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../shared/opening-hours.js';
import type { Kitchen, KitchenInput } from '../../shared/kitchens.js';
import { computeTotals } from '../../shared/money.js';
import type { User } from '../auth/users.js';
import { orderItems, orders } from '../db/schema.js';
import { registerKitchen } from '../kitchens/kitchen-service.js';
import { mutate } from '../live/mutate.js';
import { customerOrderTopic, kitchenOrdersTopic } from '../orders/order-topics.js';
import { addMenuItem } from '../menu/menu-service.js';
import type { MenuItem, MenuItemInput } from '../../shared/menu.js';
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
  return addMenuItem(ctx.app, kitchen.uid, {
    item: 'Dal',
    price: '9.50',
    wait: '20 min',
    imageLink: 'https://img.example/dal.png',
    ...overrides,
  });
}

/**
 * An open order of `customer` at `kitchen`, written straight into orders and order_items (placing orders is the
 * customer side's API; this stands in for it) and announced on both live topics, as a real order would be.
 */
export async function buildOrder(
  ctx: TestContext,
  kitchen: Kitchen,
  customer: User,
  lines: { item: string; priceCents: number }[] = [{ item: 'Dal', priceCents: 950 }],
  address = '9 Delivery Road',
) {
  return mutate(ctx.app, async (tx, publish) => {
    const [order] = await tx
      .insert(orders)
      .values({
        kitchenId: kitchen.uid,
        kitchenName: kitchen.name,
        customerId: customer.id,
        customerEmail: customer.email,
        address,
        ...computeTotals(lines.map((l) => l.priceCents)),
        idempotencyKey: randomUUID(),
      })
      .returning();
    if (!order) throw new Error('order not created');
    await tx.insert(orderItems).values(lines.map((l, position) => ({ orderId: order.id, position, ...l })));
    publish(kitchenOrdersTopic, kitchen.uid);
    publish(customerOrderTopic, customer.id);
    return order;
  });
}
