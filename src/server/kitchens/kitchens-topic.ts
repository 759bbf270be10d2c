import type { Kitchen } from '../../shared/kitchens.js';
import { defineTopic, everyone } from '../live/topic.js';
import { listKitchens } from './kitchen-queries.js';

/** The landing page's list of every kitchen, newest first. */
export const kitchensTopic = defineTopic<void, Kitchen[]>({
  key: () => 'kitchens',
  load: (db) => listKitchens(db),
  access: everyone,
});
