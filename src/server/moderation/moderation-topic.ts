import type { ModerationView } from '../../shared/moderation.js';
import { requestSessionHashes, requireOperator } from '../identity/sessions.js';
import { defineTopic } from '../live/topic.js';
import { loadModerationView } from './moderation-queries.js';

/**
 * The operator's page: open reports, suspended kitchens and recent actions, for operators only (the list is
 * checked when the stream opens; signing out ends it). Published by every report and every operator action.
 */
export const moderationTopic = defineTopic<void, ModerationView>({
  key: () => 'moderation',
  load: (db, _params, clock) => loadModerationView(db, clock.now()),
  access: async (request) => {
    await requireOperator(request);
    return { params: undefined, sessions: requestSessionHashes(request) };
  },
});
