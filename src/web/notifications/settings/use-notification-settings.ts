import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailSettingInput, NotificationSettings } from '../../../shared/notifications.js';
import { api } from '../../lib/api-client.js';

/** Whose notifications: the cook's (the kitchen session) or the customer's (one browser may hold both). */
export type NoticeAudience = 'kitchen' | 'customer';

/** The settings' cache key: what changes them elsewhere (a device subscribed) invalidates `notificationSettingsKey`. */
export const notificationSettingsKey = ['notifications', 'settings'] as const;
const keyOf = (audience: NoticeAudience) => [...notificationSettingsKey, audience] as const;

const settingsUrl = (audience: NoticeAudience) => `/api/notifications/settings?as=${audience}`;
const emailUrl = (audience: NoticeAudience) => `/api/notifications/settings/email?as=${audience}`;

/** 'Notifications': the person's email setting per kind, their push devices and the server's VAPID key. */
export function useNotificationSettings(audience: NoticeAudience) {
  return useQuery({
    queryKey: keyOf(audience),
    queryFn: () => api.get<NotificationSettings>(settingsUrl(audience)),
  });
}

/** Turns one kind's email on or off; the answer (every setting as it now is) becomes the cache's. */
export function useSaveEmailSetting(audience: NoticeAudience) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailSettingInput) => api.put<NotificationSettings>(emailUrl(audience), input),
    onSuccess: (settings) => queryClient.setQueryData(keyOf(audience), settings),
  });
}

/**
 * Removes a push device (the push routes' DELETE), then reads the settings afresh: without a device, a cook's
 * new-order email may be locked again.
 */
export function useRemoveDevice(audience: NoticeAudience) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<void>(`/api/notifications/push-subscriptions/${encodeURIComponent(id)}?as=${audience}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationSettingsKey }),
  });
}
