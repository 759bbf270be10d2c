import type { MenuItem, MenuItemInput, MenuItemUpdateInput } from '../../shared/menu.js';
import { declarationOf } from '../../shared/allergen-declaration.js';
import { parsePriceToCents } from '../../shared/money.js';
import { claimImage } from '../pictures/image-queries.js';
import { writeReleasingImages, type ImagesApp } from '../pictures/image-service.js';
import { pictureColumns } from '../data/kitchen-queries.js';
import { badRequest } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import {
  deleteMenuItem,
  findMenuItem,
  insertMenuItem,
  recordDeclaration,
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

/** The allergen columns an input sets: complete answers declare the dish (now); none leave them as they are. */
function allergenValues(input: MenuItemUpdateInput, now: Date): Partial<MenuItemValues> {
  if (input.allergenAnswers) {
    const { contains, mayContain } = declarationOf(input.allergenAnswers);
    return { allergens: contains, mayContain, allergensDeclaredAt: now };
  }
  return {};
}

/** Whether an edit changes what the dish declares (its allergens or ingredients): its history gets a row. */
const changesDeclaration = (before: MenuItem | undefined, after: MenuItem) =>
  !before ||
  before.ingredients !== after.ingredients ||
  before.allergensDeclared !== after.allergensDeclared ||
  before.allergens.join() !== after.allergens.join() ||
  before.mayContain.join() !== after.mayContain.join();

function toValues(input: MenuItemUpdateInput, currency: string, now: Date): Partial<MenuItemValues> {
  return {
    ...allergenValues(input, now),
    ingredients: input.ingredients,
    keepsDays: input.keepsDays,
    reheating: input.reheating,
    item: input.item,
    secondName: input.secondName,
    ...pictureColumns(input),
    priceCents: input.price === undefined ? undefined : toCents(input.price, currency),
    wait: input.wait,
    dietary: input.dietary,
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
    ...allergenValues(input, new Date()),
    ingredients: input.ingredients,
    keepsDays: input.keepsDays,
    reheating: input.reheating,
    soldOut: input.soldOut,
    portionsPerDay: input.portionsPerDay,
  };
  return mutate(app, async (tx, record) => {
    if (values.imageId) await claimImage(tx, kitchenUid, values.imageId);
    const item = await insertMenuItem(tx, kitchenUid, values);
    await recordDeclaration(tx, item);
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
  const values = toValues(input, currency, new Date());
  return writeReleasingImages(app, async (tx, record) => {
    if (values.imageId) await claimImage(tx, kitchenUid, values.imageId);
    const previous = await menuItemImageId(tx, kitchenUid, id);
    const before = previous === undefined ? undefined : await findMenuItem(tx, kitchenUid, id);
    const item = await updateMenuItem(tx, kitchenUid, id, values);
    if (item && changesDeclaration(before, item)) await recordDeclaration(tx, item);
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
