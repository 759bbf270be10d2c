import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MOVE_RULES, MOVES_WITH_REASON, nextState, type OrderActor } from '../../shared/order-states.js';
import type { OrderMoveInput } from '../../shared/orders.js';
import { orderEvents, orders } from '../db/schema.js';
import { conflict, HttpError } from '../lib/errors.js';
import { MOVE_EVENTS } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import { givePortionsBack } from './portions.js';

/** Who moves the order: a kitchen owner acts on their kitchen's orders, a customer on their own. */
export type Mover =
  { role: 'kitchen'; userId: string; kitchenUid: string } | { role: 'customer'; userId: string };

/**
 * Moves an order along its lifecycle (src/shared/order-states.ts), if `mover` may make that move from its state
 * now: the state and the spec's status text change together, the step is recorded with its time, author and
 * reason, and both sides' lists hear of it. Undefined when the mover has no such order; 409 when the move is
 * not possible in the order's state (the message names it).
 */
export function moveOrder(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>,
  mover: Mover,
  orderId: string,
  input: OrderMoveInput,
): Promise<string | undefined> {
  return mutate(app, async (tx, record) => {
    const own =
      mover.role === 'kitchen' ? eq(orders.kitchenId, mover.kitchenUid) : eq(orders.customerId, mover.userId);
    // Locked, so that two moves at once are decided one after the other on the state each finds.
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), own))
      .for('update');
    if (!order) return undefined;
    if (order.archivedAt) throw conflict('This order was deleted from the kitchen’s list', 'move');
    const to = nextState(order.state, input.move, mover.role as OrderActor);
    if (!to)
      throw new HttpError(
        409,
        'INVALID_MOVE',
        `This order is ${order.state}: '${MOVE_RULES[input.move].label}' is not possible now`,
        'move',
      );
    const reason = MOVES_WITH_REASON.includes(input.move) ? (input.reason ?? null) : null;
    await tx
      .update(orders)
      .set({
        state: to,
        status: to,
        updatedAt: sql`now()`,
        ...(input.readyInMinutes !== undefined && input.move === 'accept'
          ? { readyAt: sql`now() + make_interval(mins => ${input.readyInMinutes})` }
          : {}),
        ...(reason !== null ? { endReason: reason } : {}),
      })
      .where(eq(orders.id, order.id));
    await tx
      .insert(orderEvents)
      .values({ orderId: order.id, state: to, byRole: mover.role, byUserId: mover.userId, reason });
    // A declined or cancelled order's counted portions are there to order again.
    const portionsReturned = (to === 'declined' || to === 'cancelled') && order.portionsDay !== null;
    if (portionsReturned && order.portionsDay !== null)
      await givePortionsBack(tx, order.id, order.portionsDay);
    record({
      type: `order.${MOVE_EVENTS[input.move]}`,
      orderId: order.id,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      to,
      portionsReturned,
    });
    return order.id;
  });
}
