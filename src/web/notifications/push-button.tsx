import { Button, Group, Stack, Text } from '@mantine/core';
import { usePush, type PushAs } from './use-push.js';
import { msg, t } from '../i18n.js';

export const HOME_SCREEN_FIRST = msg(
  'On iPhone, add HomeCooked to your Home Screen first (Share → Add to Home Screen), then allow notifications there.',
);

/**
 * Push notifications on this device, for the `as` session: 'Allow notifications on this device', or, once on, that
 * they are and 'Turn off on this device'. On an iPhone or iPad in Safari it says to add the app to the Home Screen
 * first; where the browser or the server has no push, nothing (`intro` included). `compact` (beside the kitchen's in-tab alerts, once
 * those are allowed): a small 'Also when this page is closed'.
 */
export function PushButton({
  as = null,
  compact = false,
  intro,
}: {
  as?: PushAs | null;
  compact?: boolean;
  /** A line above the button, while there is a button to press (or a Home Screen to add the app to first). */
  intro?: string;
}) {
  const push = usePush(as);
  const introLine = intro ? <Text size="sm">{intro}</Text> : null;
  const size = compact ? 'xs' : 'sm';
  const failed = push.error ? (
    <Text size="sm" c="red.8" role="alert">
      {t('Could not change notifications on this device: {error}', { error: t(push.error) })}
    </Text>
  ) : null;
  switch (push.state) {
    case 'checking':
    case 'unavailable':
      return null;
    case 'home-screen':
      return (
        <Stack gap={4}>
          {introLine}
          <Text size="sm" c="dimmed">
            {t(HOME_SCREEN_FIRST)}
          </Text>
        </Stack>
      );
    case 'denied':
      return compact ? null : (
        <Text size="sm" c="dimmed">
          {t(
            "Notifications are blocked for this site: allow them in your browser's settings to get them on this device.",
          )}
        </Text>
      );
    case 'off':
      return (
        <Stack gap={4} align="flex-start">
          {introLine}
          <Button size={size} variant="light" loading={push.busy} onClick={() => void push.turnOn()}>
            {compact ? t('Also when this page is closed') : t('Allow notifications on this device')}
          </Button>
          {failed}
        </Stack>
      );
    case 'on':
      return (
        <Stack gap={4} align="flex-start">
          <Group gap="sm">
            <Text size="sm" c={compact ? 'dimmed' : undefined}>
              {compact ? t('Also with this page closed') : t('Notifications are on for this device')}
            </Text>
            <Button size="xs" variant="subtle" loading={push.busy} onClick={() => void push.turnOff()}>
              {t('Turn off on this device')}
            </Button>
          </Group>
          {failed}
        </Stack>
      );
  }
}
