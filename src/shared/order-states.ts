import { msg, translator, type Translator } from './i18n/translator.js';

/**
 * The order lifecycle, one state machine for both sides: the server enforces it, the screens offer only the moves
 * it allows. `recieved` is spelt so, per the spec.
 */
export const ORDER_STATES = [
  /** A card order whose payment is not authorised yet: the kitchen does not see it. */
  'awaiting payment',
  'recieved',
  'accepted',
  'preparing',
  'out for delivery',
  'delivered',
  'declined',
  'cancelled',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Each state as people read it (the spec's words: 'recieved' too); `orderStateName` gives it in a language. */
export const ORDER_STATE_NAMES: Record<OrderState, string> = {
  'awaiting payment': msg('awaiting payment'),
  recieved: msg('recieved'),
  accepted: msg('accepted'),
  preparing: msg('preparing'),
  'out for delivery': msg('out for delivery'),
  delivered: msg('delivered'),
  declined: msg('declined'),
  cancelled: msg('cancelled'),
};

/** An order's state in `tr`'s language ('recieved' in English). */
export const orderStateName = (state: OrderState, tr: Translator = translator()): string =>
  tr.t(ORDER_STATE_NAMES[state]);

/** The states in which an order has ended: it no longer blocks the customer's next order. */
export const ENDED_STATES: readonly OrderState[] = ['delivered', 'declined', 'cancelled'];
export const isEnded = (state: OrderState) => ENDED_STATES.includes(state);
/** The states of an order in progress, in their order. */
export const PROGRESS_STATES: readonly OrderState[] = ORDER_STATES.filter((s) => !isEnded(s));

export type OrderActor = 'kitchen' | 'customer';

export const ORDER_MOVES = ['accept', 'decline', 'prepare', 'dispatch', 'deliver', 'cancel'] as const;
export type OrderMove = (typeof ORDER_MOVES)[number];

interface MoveRule {
  to: OrderState;
  /** Who may make the move from which states. */
  from: Partial<Record<OrderActor, readonly OrderState[]>>;
  /** The button that makes it (on the kitchen's orders page; the customer's is 'Cancel order'): a message, t() it. */
  label: string;
}

export const MOVE_RULES: Record<OrderMove, MoveRule> = {
  accept: { to: 'accepted', from: { kitchen: ['recieved'] }, label: msg('Accept') },
  decline: { to: 'declined', from: { kitchen: ['recieved'] }, label: msg('Decline') },
  prepare: { to: 'preparing', from: { kitchen: ['accepted'] }, label: msg('Preparing') },
  dispatch: { to: 'out for delivery', from: { kitchen: ['preparing'] }, label: msg('Out for delivery') },
  deliver: { to: 'delivered', from: { kitchen: ['out for delivery'] }, label: msg('Delivered') },
  cancel: {
    to: 'cancelled',
    from: {
      kitchen: PROGRESS_STATES.filter((state) => state !== 'awaiting payment'),
      customer: ['awaiting payment', 'recieved'],
    },
    label: msg('Cancel'),
  },
};

/** Moves the kitchen must give a reason for (the customer sees it). */
export const MOVES_WITH_REASON: readonly OrderMove[] = ['decline', 'cancel'];

/** The state a move leads to, or undefined when `actor` may not make it from `state`. */
export function nextState(state: OrderState, move: OrderMove, actor: OrderActor): OrderState | undefined {
  const rule = MOVE_RULES[move];
  return rule.from[actor]?.includes(state) ? rule.to : undefined;
}

/** The moves `actor` may make now, in the order the screens show them. */
export function allowedMoves(state: OrderState, actor: OrderActor): OrderMove[] {
  return ORDER_MOVES.filter((move) => nextState(state, move, actor) !== undefined);
}

/** Minutes until an accepted order is ready: the quick picks of the 'Accept' dialog. */
export const READY_IN_PICKS = [15, 30, 45, 60] as const;
