import { useMutation } from '@tanstack/react-query';
import type { ListingDecisionInput, ModerationView, OperatorActionResult } from '../../shared/moderation.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const moderationKey = ['moderation'] as const;

/** The operator's live view: open reports, suspended kitchens, recent actions. */
export function useModeration(enabled: boolean) {
  return useLiveQuery<ModerationView>({ queryKey: moderationKey, url: '/api/operator/moderation', enabled });
}

/** One operator action, by its URL (the live view shows its effect when the server announces it). */
export function useOperatorAction() {
  return useMutation({ mutationFn: (url: string) => api.post<OperatorActionResult>(url, {}) });
}

export const actionUrls = {
  hideMessage: (id: string) => `/api/operator/chat-messages/${encodeURIComponent(id)}/hide`,
  hideReview: (id: string) => `/api/operator/reviews/${encodeURIComponent(id)}/hide`,
  suspend: (uid: string) => `/api/operator/kitchens/${encodeURIComponent(uid)}/suspend`,
  lift: (uid: string) => `/api/operator/kitchens/${encodeURIComponent(uid)}/lift-suspension`,
  closeReport: (id: string) => `/api/operator/reports/${encodeURIComponent(id)}/close`,
};

/** An operator's decision on a kitchen awaiting approval (approve, ask for changes, refuse, with a reason). */
export function useListingDecision(uid: string) {
  return useMutation({
    mutationFn: (input: { decision: ListingDecisionInput['decision']; reason: string }) =>
      api.post<OperatorActionResult>(`/api/operator/kitchens/${encodeURIComponent(uid)}/listing`, input),
  });
}
