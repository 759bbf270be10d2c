import { and, asc, eq, sql } from 'drizzle-orm';
import type { MenuItem } from '../../shared/menu.js';
import type { DbOrTx } from '../db/database.js';
import { dishDeclarations, dishPortions, images, kitchens, menuItems } from '../db/schema.js';
import { toStoredImage } from '../pictures/image-queries.js';

type MenuItemRow = typeof menuItems.$inferSelect;

export function toMenuItem(
  row: MenuItemRow,
  image: typeof images.$inferSelect | null,
  /** Portions ordered on the kitchen's today. */
  taken = 0,
): MenuItem {
  return {
    id: row.id,
    kitchenUid: row.kitchenId,
    item: row.item,
    secondName: row.secondName,
    imageLink: row.imageLink,
    image: image && toStoredImage(image),
    priceCents: row.priceCents,
    wait: row.wait,
    dietary: row.dietary as MenuItem['dietary'],
    allergens: row.allergens as MenuItem['allergens'],
    mayContain: row.mayContain as MenuItem['mayContain'],
    allergensDeclared: row.allergensDeclaredAt !== null,
    ingredients: row.ingredients,
    keepsDays: row.keepsDays,
    reheating: row.reheating,
    soldOut: row.soldOut,
    portionsPerDay: row.portionsPerDay,
    portionsLeft: row.portionsPerDay === null ? null : Math.max(0, row.portionsPerDay - taken),
  };
}

/** The kitchen's local date at `now` (its "today": portions are counted per day), computed by the database. */
export const kitchenDay = (now: Date) =>
  sql`(${now.toISOString()}::timestamptz at time zone ${kitchens.timeZone})::date`;

/** Menu items with their uploaded picture, if any, and the portions taken on their kitchen's day at `now`. */
const selectMenuItems = (db: DbOrTx, now: Date) =>
  db
    .select({ menu_items: menuItems, images, taken: dishPortions.taken })
    .from(menuItems)
    .innerJoin(kitchens, eq(kitchens.ownerId, menuItems.kitchenId))
    .leftJoin(images, eq(menuItems.imageId, images.id))
    .leftJoin(
      dishPortions,
      and(eq(dishPortions.menuItemId, menuItems.id), eq(dishPortions.day, kitchenDay(now))),
    );

/** A kitchen's menu in the order the cook added it, with the portions left at `now`. */
export async function listMenu(db: DbOrTx, kitchenUid: string, now: Date): Promise<MenuItem[]> {
  const rows = await selectMenuItems(db, now)
    .where(eq(menuItems.kitchenId, kitchenUid))
    .orderBy(asc(menuItems.createdAt), asc(menuItems.id));
  return rows.map((r) => toMenuItem(r.menu_items, r.images, r.taken ?? 0));
}

/** One item of this kitchen, undefined when it has none with this id. */
export async function findMenuItem(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
  now = new Date(),
): Promise<MenuItem | undefined> {
  const [row] = await selectMenuItems(db, now).where(
    and(eq(menuItems.id, id), eq(menuItems.kitchenId, kitchenUid)),
  );
  return row && toMenuItem(row.menu_items, row.images, row.taken ?? 0);
}

/** The picture an item of this kitchen uses now, locked for the write about to change it. */
export async function menuItemImageId(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ imageId: menuItems.imageId })
    .from(menuItems)
    .where(and(eq(menuItems.id, id), eq(menuItems.kitchenId, kitchenUid)))
    .for('update');
  return row?.imageId;
}

/** The columns of a new or edited menu item; the price arrives in cents, already checked. */
export interface MenuItemValues {
  item: string;
  /** null: none; undefined (an edit): unchanged. */
  secondName?: string | null | undefined;
  imageLink: string | null;
  imageId: string | null;
  priceCents: number;
  wait: string;
  dietary?: string[] | undefined;
  allergens?: string[] | undefined;
  mayContain?: string[] | undefined;
  /** When every allergen was answered; null: not declared (only `allergens` given). */
  allergensDeclaredAt?: Date | null | undefined;
  ingredients?: string | undefined;
  keepsDays?: number | null | undefined;
  reheating?: string | undefined;
  soldOut?: boolean | undefined;
  portionsPerDay?: number | null | undefined;
}

export async function insertMenuItem(
  db: DbOrTx,
  kitchenUid: string,
  values: MenuItemValues,
): Promise<MenuItem> {
  const [row] = await db
    .insert(menuItems)
    .values({ kitchenId: kitchenUid, ...values })
    .returning({ id: menuItems.id });
  const item = row && (await findMenuItem(db, kitchenUid, row.id));
  if (!item) throw new Error('insert returned no row');
  return item;
}

/** Changes one item of this kitchen; undefined when the kitchen has no item with this id. */
export async function updateMenuItem(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
  values: Partial<MenuItemValues>,
): Promise<MenuItem | undefined> {
  const rows = await db
    .update(menuItems)
    .set(values)
    .where(and(eq(menuItems.id, id), eq(menuItems.kitchenId, kitchenUid)))
    .returning({ id: menuItems.id });
  return rows.length > 0 ? findMenuItem(db, kitchenUid, id) : undefined;
}

/** Removes one item of this kitchen; false when it has no item with this id, else the picture it used. */
export async function deleteMenuItem(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
): Promise<false | { imageId: string | null }> {
  const [row] = await db
    .delete(menuItems)
    .where(and(eq(menuItems.id, id), eq(menuItems.kitchenId, kitchenUid)))
    .returning({ imageId: menuItems.imageId });
  return row ?? false;
}

/** Records a dish's declaration as it now stands (its allergens and ingredients) in its history. */
export async function recordDeclaration(db: DbOrTx, item: MenuItem): Promise<void> {
  await db.insert(dishDeclarations).values({
    menuItemId: item.id,
    contains: item.allergens,
    mayContain: item.mayContain,
    declared: item.allergensDeclared,
    ingredients: item.ingredients,
  });
}

/** A dish's declarations, oldest first. */
export function declarationHistory(db: DbOrTx, menuItemId: string) {
  return db
    .select({
      contains: dishDeclarations.contains,
      mayContain: dishDeclarations.mayContain,
      declared: dishDeclarations.declared,
      ingredients: dishDeclarations.ingredients,
      at: dishDeclarations.createdAt,
    })
    .from(dishDeclarations)
    .where(eq(dishDeclarations.menuItemId, menuItemId))
    .orderBy(asc(dishDeclarations.createdAt), asc(dishDeclarations.id));
}
