import { asc, eq } from 'drizzle-orm';
import type { MenuItem } from '../../shared/menu.js';
import type { DbOrTx } from '../db/database.js';
import { menuItems } from '../db/schema.js';

type MenuItemRow = typeof menuItems.$inferSelect;

export function toMenuItem(row: MenuItemRow): MenuItem {
  return {
    id: row.id,
    kitchenUid: row.kitchenId,
    item: row.item,
    imageLink: row.imageLink,
    priceCents: row.priceCents,
    wait: row.wait,
  };
}

/** A kitchen's menu in the order the cook added it. */
export async function listMenu(db: DbOrTx, kitchenUid: string): Promise<MenuItem[]> {
  const rows = await db
    .select()
    .from(menuItems)
    .where(eq(menuItems.kitchenId, kitchenUid))
    .orderBy(asc(menuItems.createdAt), asc(menuItems.id));
  return rows.map(toMenuItem);
}
