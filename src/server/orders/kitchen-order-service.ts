import type { FastifyInstance } from 'fastify';
import type { KitchenOrder } from '../../shared/orders.js';
import { mutate } from '../events/mutate.js';
import { archiveOrder, updateOrderStatus } from './kitchen-order-queries.js';
import { findKitchenOrder } from '../data/order-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>;

/**
 * Sets the free-text status of an order on the kitchen's list (its state stays). Both the kitchen's list and the
 * customer's status page show it. Undefined when this kitchen has no such order on its list.
 */
export function setOrderStatus(
  app: App,
  kitchenUid: string,
  id: string,
  status: string,
): Promise<KitchenOrder | undefined> {
  return mutate(app, async (tx, record) => {
    const changed = await updateOrderStatus(tx, kitchenUid, id, status);
    if (!changed) return undefined;
    record({ type: 'order.status-set', orderId: id, kitchenUid, customerId: changed.customerId });
    return findKitchenOrder(tx, kitchenUid, id);
  });
}

/**
 * Takes an order off the kitchen's list (kept for history, in 'Past'); an order in progress no longer counts as
 * one, so its customer may order again. False when this kitchen has no such order on its list.
 */
export function closeOrder(app: App, kitchenUid: string, id: string): Promise<boolean> {
  return mutate(app, async (tx, record) => {
    const archived = await archiveOrder(tx, kitchenUid, id);
    if (!archived) return false;
    record({ type: 'order.archived', orderId: id, kitchenUid, customerId: archived.customerId });
    return true;
  });
}
