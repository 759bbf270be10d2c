import type { FastifyRequest } from 'fastify';
import { KitchenParams, type KitchenProfile } from '../../shared/kitchens.js';
import { KITCHEN_NOT_LISTED, KITCHEN_UNAVAILABLE } from '../../shared/moderation.js';
import { currentOperator, currentUser, hashToken } from '../identity/sessions.js';
import { notFound } from '../lib/errors.js';
import type { Snapshot } from '../live/hub.js';
import { readTopic } from '../live/live-route.js';
import { endsWhen, type TopicAccess } from '../live/topic.js';
import { kitchenTopic } from './kitchens-topic.js';

/** Why the public may not see a kitchen's content: suspended by an operator, or not listed under its rules. */
export type KitchenHidden = 'suspended' | 'not-listed' | null;

/** Why a kitchen snapshot (from the hub's cache) is hidden from the public: parsed once per snapshot. */
const hiddenBySnapshot = new WeakMap<Snapshot, KitchenHidden>();

/** Why a kitchen's snapshot (from the hub's cache) is hidden from the public (null: it is not, or no such kitchen). */
export function kitchenHidden(snapshot: Snapshot): KitchenHidden {
  if (snapshot.missing) return null;
  let hidden = hiddenBySnapshot.get(snapshot);
  if (hidden === undefined) {
    const kitchen = JSON.parse(snapshot.json) as KitchenProfile;
    hidden = kitchen.suspended ? 'suspended' : kitchen.listed ? null : 'not-listed';
    hiddenBySnapshot.set(snapshot, hidden);
  }
  return hidden;
}

/** Whether a kitchen's snapshot is of a kitchen whose content the public may not read. */
export const isHiddenKitchen = (snapshot: Snapshot) => kitchenHidden(snapshot) !== null;

/**
 * Who may read a kitchen's dishes and reviews: anyone, unless an operator has suspended the kitchen or it is not
 * listed under its place's rules (awaiting approval, refused, where home kitchens may not sell). Then only its
 * cook (whose dashboard goes on showing them) and operators may; anyone else is answered 404, as the kitchen's own
 * page says it is unavailable (or not available), and what got it suspended or refused is no longer served. A stream opened before the
 * suspension ends with it (its cook's stream too, which reopens at once: who reads is only looked up when the
 * kitchen is suspended, not on every stream of a kitchen that is not). The cook's and operators' streams of a
 * suspended kitchen's content end when the session that let them read it signs out.
 */
export async function kitchenContentAccess(request: FastifyRequest): Promise<TopicAccess<string>> {
  const { uid } = KitchenParams.parse(request.params);
  const hidden = kitchenHidden(await readTopic(request.server, kitchenTopic, uid));
  if (hidden) {
    // The session that lets them read it: its sign-out ends the stream, as a private topic's does.
    const role = (await currentUser(request, 'kitchen'))?.id === uid ? 'kitchen' : 'operator';
    if (role === 'operator' && !(await currentOperator(request)))
      throw notFound(hidden === 'suspended' ? KITCHEN_UNAVAILABLE : KITCHEN_NOT_LISTED);
    const token = request.cookies[request.server.config.sessionCookies[role]];
    return { params: uid, sessions: token ? [hashToken(token)] : [] };
  }
  return { params: uid, endsWhen: endsWhen(kitchenTopic, uid, isHiddenKitchen) };
}
