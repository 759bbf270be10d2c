import type { FastifyInstance } from 'fastify';
import type { Kitchen, KitchenInput } from '../../shared/kitchens.js';
import { mutate } from '../live/mutate.js';
import { topics } from '../live/topics.js';
import { insertKitchen, type KitchenOwner } from './kitchen-queries.js';

/** Registers the owner's kitchen and announces it; undefined when the owner already has one. */
export function registerKitchen(
  app: Pick<FastifyInstance, 'db' | 'hub'>,
  owner: KitchenOwner,
  input: KitchenInput,
): Promise<Kitchen | undefined> {
  return mutate(app, async (tx, publish) => {
    const kitchen = await insertKitchen(tx, owner, input);
    if (kitchen) {
      await publish(topics.kitchens());
      await publish(topics.menu(kitchen.uid)); // its menu now exists (empty) rather than "no such kitchen"
    }
    return kitchen;
  });
}
