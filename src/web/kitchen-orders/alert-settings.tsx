import { Button, Group, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { PushButton } from '../notifications/push-button.js';
import { turnOnPush } from '../notifications/use-push.js';
import { msg, t } from '../i18n.js';

const SOUND_KEY = 'homecooked:new-order-sound';
const TITLE = msg('Orders of your kitchen');

type Permission = NotificationPermission | 'unsupported';
const currentPermission = (): Permission =>
  typeof Notification === 'function' ? Notification.permission : 'unsupported';

/** The cook's choices for new-order alerts: sound (remembered on this device) and system notifications. */
export function useAlertSettings() {
  const [sound, setSound] = useState(() => localStorage.getItem(SOUND_KEY) === 'on');
  const [permission, setPermission] = useState<Permission>(currentPermission);
  return {
    sound,
    setSound: (on: boolean) => {
      localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
      setSound(on);
    },
    permission,
    // Browsers ask only in answer to a click, as here. Allowed: this device gets pushes too, with the page closed.
    askPermission: async () => {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer === 'granted') await turnOnPush('kitchen').catch(() => undefined);
    },
  };
}

/** The tab's title counts the orders not yet accepted: '(2) Orders of your kitchen'. */
export function useOrdersTitle(waiting: number) {
  useEffect(() => {
    const before = document.title;
    document.title = waiting > 0 ? t('({count}) Orders of your kitchen', { count: waiting }) : t(TITLE);
    return () => {
      document.title = before;
    };
  }, [waiting]);
}

export function AlertSettings({ settings }: { settings: ReturnType<typeof useAlertSettings> }) {
  return (
    <Group gap="md">
      <Switch
        label={t('Sound for new orders')}
        checked={settings.sound}
        onChange={(e) => settings.setSound(e.currentTarget.checked)}
      />
      {settings.permission === 'default' ? (
        <Button size="xs" variant="light" onClick={() => void settings.askPermission()}>
          {t('Allow notifications')}
        </Button>
      ) : settings.permission === 'granted' ? (
        <>
          <Text size="sm" c="dimmed">
            {t('Notifications on')}
          </Text>
          <PushButton as="kitchen" compact />
        </>
      ) : settings.permission === 'denied' ? (
        <Text size="sm" c="dimmed">
          {t('Notifications are blocked in this browser')}
        </Text>
      ) : null}
    </Group>
  );
}
