import type { FastifyInstance } from 'fastify';
import type { MenuItem, MenuItemInput, MenuItemUpdateInput } from '../../shared/menu.js';
import { parsePriceToCents } from '../../shared/money.js';
import { badRequest } from '../lib/errors.js';
import { mutate } from '../live/mutate.js';
import { menuTopic } from '../menu/menu-topic.js';
import { catalogTopic } from '../search/catalog-topic.js';
import { deleteMenuItem, insertMenuItem, updateMenuItem, type MenuItemValues } from './menu-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus'>;

/** The schema has already checked the price; this only turns the text into cents. */
function toCents(price: string): number {
  const cents = parsePriceToCents(price);
  if (cents === null) throw badRequest('Price must be an amount like 12.50', 'price');
  return cents;
}

function toValues(input: MenuItemUpdateInput): Partial<MenuItemValues> {
  return {
    item: input.item,
    imageLink: input.imageLink,
    priceCents: input.price === undefined ? undefined : toCents(input.price),
    wait: input.wait,
    dietary: input.dietary,
    allergens: input.allergens,
  };
}

/** Adds an item to the kitchen's menu and announces the menu's change. */
export function addMenuItem(app: App, kitchenUid: string, input: MenuItemInput): Promise<MenuItem> {
  const { price, ...rest } = input;
  return mutate(app, async (tx, publish) => {
    const item = await insertMenuItem(tx, kitchenUid, { ...rest, priceCents: toCents(price) });
    publish(menuTopic, kitchenUid);
    publish(catalogTopic);
    return item;
  });
}

/** Edits one of the kitchen's items; undefined when it has no item with this id. */
export function editMenuItem(
  app: App,
  kitchenUid: string,
  id: string,
  input: MenuItemUpdateInput,
): Promise<MenuItem | undefined> {
  const values = toValues(input);
  return mutate(app, async (tx, publish) => {
    const item = await updateMenuItem(tx, kitchenUid, id, values);
    if (item) {
      publish(menuTopic, kitchenUid);
      publish(catalogTopic);
    }
    return item;
  });
}

/** Removes one of the kitchen's items (orders keep their own copy of its name and price). */
export function removeMenuItem(app: App, kitchenUid: string, id: string): Promise<boolean> {
  return mutate(app, async (tx, publish) => {
    const removed = await deleteMenuItem(tx, kitchenUid, id);
    if (removed) {
      publish(menuTopic, kitchenUid);
      publish(catalogTopic);
    }
    return removed;
  });
}
