import type { MenuItem, MenuItemInput, MenuItemUpdateInput } from '../../shared/menu.js';
import { parsePriceToCents } from '../../shared/money.js';
import { claimImage } from '../pictures/image-queries.js';
import { writeReleasingImages, type ImagesApp } from '../pictures/image-service.js';
import { pictureColumns } from '../data/kitchen-queries.js';
import { badRequest } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import {
  deleteMenuItem,
  insertMenuItem,
  menuItemImageId,
  updateMenuItem,
  type MenuItemValues,
} from '../data/menu-queries.js';

type App = Pick<ImagesApp, 'db' | 'bus' | 'reactions'>;

/** The schema has already checked the price; this only turns the text into minor units of the currency. */
function toCents(price: string, currency: string): number {
  const cents = parsePriceToCents(price, currency);
  if (cents === null) throw badRequest('Price must be an amount like 12.50', 'price');
  return cents;
}

function toValues(input: MenuItemUpdateInput, currency: string): Partial<MenuItemValues> {
  return {
    item: input.item,
    secondName: input.secondName,
    ...pictureColumns(input),
    priceCents: input.price === undefined ? undefined : toCents(input.price, currency),
    wait: input.wait,
    dietary: input.dietary,
    allergens: input.allergens,
    soldOut: input.soldOut,
    portionsPerDay: input.portionsPerDay,
  };
}

/**
 * Adds an item to the kitchen's menu and announces the menu's change; its price is read in `currency`'s minor units
 * (the deployment's `CURRENCY`: "500" is 500 yen).
 */
export function addMenuItem(
  app: App,
  kitchenUid: string,
  input: MenuItemInput,
  currency: string,
): Promise<MenuItem> {
  const values: MenuItemValues = {
    item: input.item,
    secondName: input.secondName ?? null,
    imageLink: input.imageLink ?? null,
    imageId: input.imageId ?? null,
    priceCents: toCents(input.price, currency),
    wait: input.wait,
    dietary: input.dietary,
    allergens: input.allergens,
    soldOut: input.soldOut,
    portionsPerDay: input.portionsPerDay,
  };
  return mutate(app, async (tx, record) => {
    if (values.imageId) await claimImage(tx, kitchenUid, values.imageId);
    const item = await insertMenuItem(tx, kitchenUid, values);
    record({ type: 'dish.added', kitchenUid, dishId: item.id });
    return item;
  });
}

/** Edits one of the kitchen's items; undefined when it has no item with this id. Its replaced picture goes. */
export function editMenuItem(
  app: ImagesApp,
  kitchenUid: string,
  id: string,
  input: MenuItemUpdateInput,
  /** The deployment's, its price's minor units. */
  currency: string,
): Promise<MenuItem | undefined> {
  const values = toValues(input, currency);
  return writeReleasingImages(app, async (tx, record) => {
    if (values.imageId) await claimImage(tx, kitchenUid, values.imageId);
    const previous = await menuItemImageId(tx, kitchenUid, id);
    const item = await updateMenuItem(tx, kitchenUid, id, values);
    if (item) record({ type: 'dish.changed', kitchenUid, dishId: id });
    return { result: item, released: [previous] };
  });
}

/** Removes one of the kitchen's items (orders keep their own copy of its name and price), and its picture. */
export function removeMenuItem(app: ImagesApp, kitchenUid: string, id: string): Promise<boolean> {
  return writeReleasingImages(app, async (tx, record) => {
    const removed = await deleteMenuItem(tx, kitchenUid, id);
    if (removed) record({ type: 'dish.removed', kitchenUid, dishId: id });
    return { result: removed !== false, released: [removed ? removed.imageId : null] };
  });
}
