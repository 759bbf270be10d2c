import { and, eq, sql } from 'drizzle-orm';
import {
  MOVE_RULES,
  MOVES_WITH_REASON,
  nextState,
  orderStateName,
  type OrderActor,
  type OrderState,
} from '../../shared/order-states.js';
import { UNPAID_REASON, type PaymentStateName } from '../../shared/payments.js';
import type { OrderMoveInput } from '../../shared/orders.js';
import { orderEvents, orders } from '../db/schema.js';
import { badRequest, conflict, HttpError } from '../lib/errors.js';
import { MOVE_EVENTS } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import type { Tx } from '../db/database.js';
import type { RecordEvent } from '../events/domain-events.js';
import { recordOrderFigures } from '../data/order-figures.js';
import { giveBackWhatItTook } from './give-back.js';
import {
  closeCheckout,
  paymentAfterMove,
  setPaymentState,
  settleSoon,
  type PaymentApp,
} from './order-payments.js';
import { msg, type Translator, translator } from '../../shared/i18n/translator.js';

/**
 * Who moves the order: a kitchen owner acts on their kitchen's orders, a customer on their own, and the marketplace
 * itself for the kitchen on any order (declining one nobody answered in time).
 */
export type Mover =
  | { role: 'kitchen'; userId: string; kitchenUid: string }
  | { role: 'customer'; userId: string }
  | { role: 'system' };

/**
 * Moves an order along its lifecycle (src/shared/order-states.ts), if `mover` may make that move from its state
 * now: the state and the spec's status text change together, the step is recorded with its time, author and
 * reason, and both sides' lists hear of it. Undefined when the mover has no such order; 409 when the move is
 * not possible in the order's state (the message names it).
 */
export async function moveOrder(
  app: PaymentApp,
  mover: Mover,
  orderId: string,
  input: OrderMoveInput,
  /** The state the order must be in (the poll declines only what is still unanswered). */
  onlyFrom?: OrderState,
  /** The mover's language, for the names in a refusal. */
  tr: Translator = translator(),
): Promise<string | undefined> {
  let payment: PaymentStateName | undefined;
  const moved = await mutate(app, async (tx, record) => {
    const done = await moveInTransaction(tx, record, mover, orderId, input, onlyFrom, tr);
    payment = done?.payment;
    return done?.id;
  });
  if (moved && payment === 'unpaid') await closeCheckout(app, moved);
  else if (moved && payment) await settleSoon(app, moved);
  return moved;
}

/**
 * `moveOrder`'s change, in the transaction at hand (the order locked): the order's id and the payment step the move
 * asks for, which the caller carries out after the commit (`settleSoon`, or `closeCheckout` for 'unpaid').
 */
export async function moveInTransaction(
  tx: Tx,
  record: RecordEvent,
  mover: Mover,
  orderId: string,
  input: OrderMoveInput,
  onlyFrom?: OrderState,
  tr: Translator = translator(),
): Promise<{ id: string; payment: PaymentStateName | undefined } | undefined> {
  const own =
    mover.role === 'kitchen'
      ? eq(orders.kitchenId, mover.kitchenUid)
      : mover.role === 'customer'
        ? eq(orders.customerId, mover.userId)
        : undefined;
  // Locked, so that two moves at once are decided one after the other on the state each finds.
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), own))
    .for('update');
  if (!order || (onlyFrom !== undefined && order.state !== onlyFrom)) return undefined;
  if (order.archivedAt) throw conflict('This order was deleted from the kitchen’s list', 'move');
  const actor: OrderActor = mover.role === 'system' ? 'kitchen' : mover.role;
  const to = nextState(order.state, input.move, actor);
  if (!to)
    throw new HttpError(
      409,
      'INVALID_MOVE',
      // translators: {move} is the button's name, in quotes ('Accept')
      msg('This order is {state}: {move} is not possible now'),
      'move',
      undefined,
      { state: orderStateName(order.state, tr), move: `'${tr.t(MOVE_RULES[input.move].label)}'` },
    );
  // An order for 'As soon as possible' is accepted with its ready time; a pre-order is ready for its slot.
  if (input.move === 'accept' && order.slotStart === null && input.readyInMinutes === undefined)
    throw badRequest('When will it be ready?', 'readyInMinutes');
  const given = MOVES_WITH_REASON.includes(input.move) ? (input.reason ?? null) : null;
  const reason = given ?? (order.state === 'awaiting payment' ? UNPAID_REASON : null);
  await tx
    .update(orders)
    .set({
      state: to,
      status: to,
      updatedAt: sql`now()`,
      ...(input.move !== 'accept'
        ? {}
        : order.slotStart !== null
          ? { readyAt: order.slotStart }
          : { readyAt: sql`now() + make_interval(mins => ${input.readyInMinutes})` }),
      ...(reason !== null ? { endReason: reason } : {}),
    })
    .where(eq(orders.id, order.id));
  await tx.insert(orderEvents).values({
    orderId: order.id,
    state: to,
    byRole: actor,
    byUserId: mover.role === 'system' ? null : mover.userId,
    reason,
  });
  // The order's money follows it: captured on accept, released or refunded when it ends early.
  const payment = paymentAfterMove(order, to);
  if (payment) await setPaymentState(tx, record, order, payment);
  // A declined or cancelled order's counted portions, and its place in its slot, are there to order again.
  const portionsReturned = (to === 'declined' || to === 'cancelled') && (await giveBackWhatItTook(tx, order));
  record({
    type: `order.${MOVE_EVENTS[input.move]}`,
    orderId: order.id,
    kitchenUid: order.kitchenId,
    customerId: order.customerId,
    from: order.state,
    to,
    by: mover.role,
    portionsReturned,
  });
  await recordOrderFigures(tx, order.id);
  return { id: order.id, payment };
}
