import type { Kitchen } from '../../shared/kitchens.js';
import { defineTopic, everyone } from '../live/topic.js';
import { KitchenParams } from '../../shared/kitchens.js';
import { findKitchen, listKitchens } from './kitchen-queries.js';

/** The landing page's list of every kitchen, newest first. */
export const kitchensTopic = defineTopic<void, Kitchen[]>({
  key: () => 'kitchens',
  load: (db) => listKitchens(db),
  access: everyone,
});

/** One kitchen (its menu page's header: name, picture, hours, whether it is taking orders); null when none. */
export const kitchenTopic = defineTopic<string, Kitchen | null>({
  key: (uid) => `kitchen:${uid}`,
  load: async (db, uid) => (await findKitchen(db, uid)) ?? null,
  access: async (request) => ({ params: KitchenParams.parse(request.params).uid }),
  missing: { when: (kitchen) => kitchen === null, message: 'No kitchen with this id' },
});
