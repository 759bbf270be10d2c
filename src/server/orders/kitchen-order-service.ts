import type { FastifyInstance } from 'fastify';
import type { KitchenOrder } from '../../shared/orders.js';
import { mutate } from '../live/mutate.js';
import { topics } from '../live/topics.js';
import { archiveOrder, listKitchenOrders, updateOrderStatus } from './kitchen-order-queries.js';

type App = Pick<FastifyInstance, 'db' | 'hub'>;

/**
 * Sets an open order's status. Both the kitchen's list and the customer's status page show it, so both
 * topics are announced. Undefined when this kitchen has no such open order.
 */
export function setOrderStatus(
  app: App,
  kitchenUid: string,
  id: string,
  status: string,
): Promise<KitchenOrder | undefined> {
  return mutate(app, async (tx, publish) => {
    const changed = await updateOrderStatus(tx, kitchenUid, id, status);
    if (!changed) return undefined;
    await publish(topics.kitchenOrders(kitchenUid));
    await publish(topics.customerOrder(changed.customerId));
    const [order] = await listKitchenOrders(tx, kitchenUid, id);
    return order;
  });
}

/**
 * Takes an order off the kitchen's list (archived, kept for history); its customer may then order again.
 * False when this kitchen has no such open order.
 */
export function closeOrder(app: App, kitchenUid: string, id: string): Promise<boolean> {
  return mutate(app, async (tx, publish) => {
    const archived = await archiveOrder(tx, kitchenUid, id);
    if (!archived) return false;
    await publish(topics.kitchenOrders(kitchenUid));
    await publish(topics.customerOrder(archived.customerId));
    return true;
  });
}
