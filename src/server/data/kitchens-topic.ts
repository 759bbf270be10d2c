import type { Kitchen, KitchenFirstPage, KitchenProfile } from '../../shared/kitchens.js';
import { KITCHEN_PAGE_SIZE } from '../../shared/search.js';
import { defineTopic, everyone } from '../live/topic.js';
import { KitchenParams } from '../../shared/kitchens.js';
import { deliveredOrders, reviewsChangedAt } from './review-queries.js';
import {
  countKitchens,
  findKitchen,
  listKitchens,
  newestKitchensPage,
  topCuisines,
} from './kitchen-queries.js';
import { msg } from '../../shared/i18n/translator.js';
import { kitchenPlace } from './kitchen-place.js';

/** The landing page's list of every kitchen, newest first. */
export const kitchensTopic = defineTopic<void, Kitchen[]>({
  key: () => 'kitchens',
  public: true,
  load: (db) => listKitchens(db),
  access: everyone,
});

/**
 * One kitchen (its menu page's header: name, picture, hours, whether it is taking orders, its rating; 'About the
 * cook' and the orders it delivered); null when none. A suspended or unlisted kitchen's picture and story are
 * withheld (what got it suspended or refused is not served): its name still says whose dishes a cart holds, and `suspended` tells its page, its
 * cook's dashboard and the carts holding its dishes; its cook edits the whole profile through `/api/kitchen`.
 */
export const kitchenTopic = defineTopic<string, KitchenProfile | null>({
  key: (uid) => `kitchen:${uid}`,
  public: true,
  load: async (db, uid) => {
    const kitchen = await findKitchen(db, uid);
    if (!kitchen) return null;
    const [delivered, changedAt, where] = await Promise.all([
      deliveredOrders(db, uid),
      reviewsChangedAt(db, uid),
      kitchenPlace(db, uid),
    ]);
    const listed = where?.listing.state === 'listed';
    const shown =
      kitchen.suspended || !listed ? { ...kitchen, imageLink: null, image: null, about: '' } : kitchen;
    return { ...shown, listed, deliveredOrders: delivered, reviewsChangedAt: changedAt };
  },
  access: async (request) => ({ params: KitchenParams.parse(request.params).uid }),
  missing: { when: (kitchen) => kitchen === null, message: msg('No kitchen with this id') },
});

/**
 * The landing page's first page: its newest kitchens (KITCHEN_PAGE_SIZE), the cursor of the next page, how many
 * there are in all and the cuisines most of them cook. Live, like the whole list: a new kitchen sorts onto it. The pages after it are read on demand
 * (`/api/kitchens/page?cursor=…`) and are not live.
 */
export const kitchensFirstPageTopic = defineTopic<void, KitchenFirstPage>({
  key: () => 'kitchens:first-page',
  public: true,
  load: async (db) => {
    const [page, total, cuisines] = await Promise.all([
      newestKitchensPage(db, KITCHEN_PAGE_SIZE),
      countKitchens(db),
      topCuisines(db),
    ]);
    return { ...page, total, cuisines };
  },
  access: everyone,
});
