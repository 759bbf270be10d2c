import { and, asc, eq } from 'drizzle-orm';
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
    dietary: row.dietary as MenuItem['dietary'],
    allergens: row.allergens as MenuItem['allergens'],
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

/** The columns of a new or edited menu item; the price arrives in cents, already checked. */
export interface MenuItemValues {
  item: string;
  imageLink: string;
  priceCents: number;
  wait: string;
  dietary?: string[] | undefined;
  allergens?: string[] | undefined;
}

export async function insertMenuItem(
  db: DbOrTx,
  kitchenUid: string,
  values: MenuItemValues,
): Promise<MenuItem> {
  const [row] = await db
    .insert(menuItems)
    .values({ kitchenId: kitchenUid, ...values })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toMenuItem(row);
}

/** Changes one item of this kitchen; undefined when the kitchen has no item with this id. */
export async function updateMenuItem(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
  values: Partial<MenuItemValues>,
): Promise<MenuItem | undefined> {
  const [row] = await db
    .update(menuItems)
    .set(values)
    .where(and(eq(menuItems.id, id), eq(menuItems.kitchenId, kitchenUid)))
    .returning();
  return row && toMenuItem(row);
}

/** Removes one item of this kitchen; false when the kitchen has no item with this id. */
export async function deleteMenuItem(db: DbOrTx, kitchenUid: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(menuItems)
    .where(and(eq(menuItems.id, id), eq(menuItems.kitchenId, kitchenUid)))
    .returning({ id: menuItems.id });
  return rows.length > 0;
}
