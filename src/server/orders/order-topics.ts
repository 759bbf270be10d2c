import type { CustomerOrder, KitchenOrder } from '../../shared/orders.js';
import { requestSessionHashes, requireUser } from '../auth/sessions.js';
import { requireKitchen } from '../kitchens/require-kitchen.js';
import { defineTopic } from '../live/topic.js';
import { findOpenOrder } from './customer-order-queries.js';
import { listKitchenOrders } from './kitchen-order-queries.js';

/** A kitchen's open orders, for its owner only. */
export const kitchenOrdersTopic = defineTopic<string, KitchenOrder[]>({
  key: (kitchenUid) => `orders:${kitchenUid}`,
  load: (db, kitchenUid) => listKitchenOrders(db, kitchenUid),
  access: async (request) => ({
    params: (await requireKitchen(request)).kitchen.uid,
    sessions: requestSessionHashes(request),
  }),
});

/** A customer's own open order (or null), for that customer only. */
export const customerOrderTopic = defineTopic<string, CustomerOrder | null>({
  key: (customerId) => `order:${customerId}`,
  load: (db, customerId) => findOpenOrder(db, customerId),
  access: async (request) => ({
    params: (await requireUser(request, 'customer')).id,
    sessions: requestSessionHashes(request),
  }),
});
