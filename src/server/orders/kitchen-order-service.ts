import type { FastifyInstance } from 'fastify';
import type { KitchenOrder } from '../../shared/orders.js';
import { mutate } from '../events/mutate.js';
import { archiveOrder, updateOrderStatus } from './kitchen-order-queries.js';
import { and, eq, isNull } from 'drizzle-orm';
import { isEnded } from '../../shared/order-states.js';
import { DELETED_BY_KITCHEN_REASON } from '../../shared/payments.js';
import { orders } from '../db/schema.js';
import type { PaymentStateName } from '../../shared/payments.js';
import { settleSoon, type PaymentApp } from './order-payments.js';
import { moveInTransaction } from './order-moves.js';
import { findKitchenOrder, kitchenSees } from '../data/order-queries.js';

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
 * Takes an order off the kitchen's list (kept for history, in 'Past'). An order in progress is cancelled first, as the
 * kitchen's 'Cancel' would (DELETED_BY_KITCHEN_REASON): it will not be made, so its customer is told, its portions
 * and its slot's place are there to order again, and its payment is released, or refunded once taken (a capture
 * still under way included). False when this kitchen has no such order on its list.
 */
export async function closeOrder(
  app: PaymentApp,
  kitchen: { uid: string; userId: string },
  id: string,
): Promise<boolean> {
  let payment: PaymentStateName | undefined;
  const closed = await mutate(app, async (tx, record) => {
    const [listed] = await tx
      .select({ state: orders.state })
      .from(orders)
      .where(
        and(eq(orders.id, id), eq(orders.kitchenId, kitchen.uid), isNull(orders.archivedAt), kitchenSees),
      )
      .for('update');
    if (!listed) return false;
    if (!isEnded(listed.state))
      payment = (
        await moveInTransaction(
          tx,
          record,
          { role: 'kitchen', userId: kitchen.userId, kitchenUid: kitchen.uid },
          id,
          { move: 'cancel', reason: DELETED_BY_KITCHEN_REASON },
          listed.state,
        )
      )?.payment;
    const archived = await archiveOrder(tx, kitchen.uid, id);
    if (!archived) return false;
    record({ type: 'order.archived', orderId: id, kitchenUid: kitchen.uid, customerId: archived.customerId });
    return true;
  });
  if (closed && payment) await settleSoon(app, id);
  return closed;
}
