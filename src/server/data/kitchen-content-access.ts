import type { FastifyRequest } from 'fastify';
import { KitchenParams, type Kitchen } from '../../shared/kitchens.js';
import { KITCHEN_UNAVAILABLE } from '../../shared/moderation.js';
import { currentOperator, currentUser, hashToken } from '../identity/sessions.js';
import { notFound } from '../lib/errors.js';
import type { Snapshot } from '../live/hub.js';
import { readTopic } from '../live/live-route.js';
import { endsWhen, type TopicAccess } from '../live/topic.js';
import { kitchenTopic } from './kitchens-topic.js';

/** Whether a kitchen snapshot (from the hub's cache) is of a suspended kitchen: parsed once per snapshot. */
const suspendedBySnapshot = new WeakMap<Snapshot, boolean>();

/** Whether a kitchen's snapshot (from the hub's cache) is of a suspended kitchen (false: no such kitchen). */
export function isSuspendedKitchen(snapshot: Snapshot): boolean {
  if (snapshot.missing) return false;
  let suspended = suspendedBySnapshot.get(snapshot);
  if (suspended === undefined) {
    suspended = (JSON.parse(snapshot.json) as Kitchen).suspended;
    suspendedBySnapshot.set(snapshot, suspended);
  }
  return suspended;
}

/**
 * Who may read a kitchen's dishes and reviews: anyone, unless an operator has suspended the kitchen. Then only its
 * cook (whose dashboard goes on showing them) and operators may; anyone else is answered 404, as the kitchen's own
 * page says it is unavailable, and what got it suspended is no longer served. A stream opened before the
 * suspension ends with it (its cook's stream too, which reopens at once: who reads is only looked up when the
 * kitchen is suspended, not on every stream of a kitchen that is not). The cook's and operators' streams of a
 * suspended kitchen's content end when the session that let them read it signs out.
 */
export async function kitchenContentAccess(request: FastifyRequest): Promise<TopicAccess<string>> {
  const { uid } = KitchenParams.parse(request.params);
  if (isSuspendedKitchen(await readTopic(request.server, kitchenTopic, uid))) {
    // The session that lets them read it: its sign-out ends the stream, as a private topic's does.
    const role = (await currentUser(request, 'kitchen'))?.id === uid ? 'kitchen' : 'operator';
    if (role === 'operator' && !(await currentOperator(request))) throw notFound(KITCHEN_UNAVAILABLE);
    const token = request.cookies[request.server.config.sessionCookies[role]];
    return { params: uid, sessions: token ? [hashToken(token)] : [] };
  }
  return { params: uid, endsWhen: endsWhen(kitchenTopic, uid, isSuspendedKitchen) };
}
