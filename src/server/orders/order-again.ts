import { and, asc, eq } from 'drizzle-orm';
import type { OrderAgain } from '../../shared/orders.js';
import type { DbOrTx } from '../db/database.js';
import { images, kitchens, menuItems, orderItems, orders } from '../db/schema.js';
import { toMenuItem } from '../data/menu-queries.js';

/**
 * 'Order again' for one of the customer's orders: each of its dishes still on that kitchen's menu, as the menu
 * has it today (name and price), one per line of the order; and the names of those no longer there. Undefined
 * when the customer has no such order, or its kitchen is gone.
 */
export async function findOrderAgain(
  db: DbOrTx,
  customerId: string,
  orderId: string,
): Promise<OrderAgain | undefined> {
  const [order] = await db
    .select({ kitchenUid: kitchens.ownerId, kitchenName: kitchens.name })
    .from(orders)
    .innerJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)));
  if (!order) return undefined;
  const lines = await db
    .select({ ordered: orderItems.item, now: menuItems, image: images })
    .from(orderItems)
    .leftJoin(
      menuItems,
      and(eq(menuItems.id, orderItems.menuItemId), eq(menuItems.kitchenId, order.kitchenUid)),
    )
    .leftJoin(images, eq(images.id, menuItems.imageId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  return {
    kitchen: { uid: order.kitchenUid, name: order.kitchenName },
    items: lines.flatMap((line) => (line.now ? [toMenuItem(line.now, line.image)] : [])),
    gone: [...new Set(lines.filter((line) => !line.now).map((line) => line.ordered))],
  };
}
