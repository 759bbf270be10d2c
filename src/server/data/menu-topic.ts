import type { MenuItem } from '../../shared/menu.js';
import { kitchenContentAccess } from './kitchen-content-access.js';
import { findKitchen } from './kitchen-queries.js';
import { defineTopic } from '../live/topic.js';
import { listMenu } from './menu-queries.js';
import { msg } from '../../shared/i18n/translator.js';

/** One kitchen's public menu (its dashboard reads the same list); null when there is no such kitchen; a suspended kitchen's are its cook's and operators' only. */
export const menuTopic = defineTopic<string, MenuItem[] | null>({
  key: (kitchenUid) => `menu:${kitchenUid}`,
  public: true,
  load: async (db, kitchenUid, clock) =>
    (await findKitchen(db, kitchenUid)) ? listMenu(db, kitchenUid, new Date(clock.now())) : null,
  access: kitchenContentAccess,
  missing: { when: (menu) => menu === null, message: msg('No kitchen with this id') },
});
