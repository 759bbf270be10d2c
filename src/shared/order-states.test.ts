import { describe, expect, it } from 'vitest';
import {
  allowedMoves,
  isEnded,
  nextState,
  ORDER_MOVES,
  ORDER_STATES,
  type OrderActor,
  type OrderMove,
  type OrderState,
} from './order-states.js';

/** Every allowed (state, move, actor), written out by hand from the issue; anything else is refused. */
const ALLOWED: [OrderState, OrderMove, OrderActor, OrderState][] = [
  // A card order before its payment: only its customer may give it up (the kitchen does not see it yet).
  ['awaiting payment', 'cancel', 'customer', 'cancelled'],
  ['recieved', 'accept', 'kitchen', 'accepted'],
  ['recieved', 'decline', 'kitchen', 'declined'],
  ['recieved', 'cancel', 'kitchen', 'cancelled'],
  ['recieved', 'cancel', 'customer', 'cancelled'],
  ['accepted', 'prepare', 'kitchen', 'preparing'],
  ['accepted', 'cancel', 'kitchen', 'cancelled'],
  ['preparing', 'dispatch', 'kitchen', 'out for delivery'],
  ['preparing', 'cancel', 'kitchen', 'cancelled'],
  ['out for delivery', 'deliver', 'kitchen', 'delivered'],
  ['out for delivery', 'cancel', 'kitchen', 'cancelled'],
];

describe('the order state machine', () => {
  const actors: OrderActor[] = ['kitchen', 'customer'];
  const every = ORDER_STATES.flatMap((state) =>
    ORDER_MOVES.flatMap((move) => actors.map((actor) => [state, move, actor] as const)),
  );

  it.each(every)('%s + %s by the %s', (state, move, actor) => {
    const allowed = ALLOWED.find(([s, m, a]) => s === state && m === move && a === actor);
    expect(nextState(state, move, actor)).toBe(allowed?.[3]);
  });

  it('ends with delivered, declined and cancelled, from which nobody moves', () => {
    expect(ORDER_STATES.filter(isEnded)).toEqual(['delivered', 'declined', 'cancelled']);
    for (const state of ORDER_STATES.filter(isEnded))
      for (const actor of actors) expect(allowedMoves(state, actor)).toEqual([]);
  });

  it('offers each side only its moves, in order', () => {
    expect(allowedMoves('recieved', 'kitchen')).toEqual(['accept', 'decline', 'cancel']);
    expect(allowedMoves('recieved', 'customer')).toEqual(['cancel']);
    expect(allowedMoves('accepted', 'customer')).toEqual([]);
    expect(allowedMoves('awaiting payment', 'kitchen')).toEqual([]);
    expect(allowedMoves('preparing', 'kitchen')).toEqual(['dispatch', 'cancel']);
  });
});
