import type { FastifyInstance } from 'fastify';
import type { KitchenOrder } from '../../shared/orders.js';
import { mutate } from '../events/mutate.js';
import { archiveOrder, updateOrderStatus } from './kitchen-order-queries.js';
import { isEnded } from '../../shared/order-states.js';
import { paymentAfterMove, setPaymentState, settleSoon, type PaymentApp } from './order-payments.js';
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
export async function closeOrder(app: PaymentApp, kitchenUid: string, id: string): Promise<boolean> {
  let settle = false;
  const closed = await mutate(app, async (tx, record) => {
    const archived = await archiveOrder(tx, kitchenUid, id);
    if (!archived) return false;
    // Deleted while in progress, it will not be delivered: its payment is released, or refunded if taken.
    const payment = isEnded(archived.state) ? undefined : paymentAfterMove(archived, 'cancelled');
    if (payment === 'releasing' || payment === 'refunding') {
      await setPaymentState(tx, record, archived, payment);
      settle = true;
    }
    record({ type: 'order.archived', orderId: id, kitchenUid, customerId: archived.customerId });
    return true;
  });
  if (settle) await settleSoon(app, id);
  return closed;
}
