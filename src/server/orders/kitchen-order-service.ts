import type { FastifyInstance } from 'fastify';
import type { KitchenOrder } from '../../shared/orders.js';
import { mutate } from '../live/mutate.js';
import { customerOrderTopic, kitchenOrdersTopic } from '../orders/order-topics.js';
import { archiveOrder, listKitchenOrders, updateOrderStatus } from './kitchen-order-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus'>;

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
    publish(kitchenOrdersTopic, kitchenUid);
    publish(customerOrderTopic, changed.customerId);
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
    publish(kitchenOrdersTopic, kitchenUid);
    publish(customerOrderTopic, archived.customerId);
    return true;
  });
}
