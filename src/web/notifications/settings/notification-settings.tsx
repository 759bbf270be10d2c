import { Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PushButton } from '../push-button.js';
import { usePush } from '../use-push.js';
import {
  LEGAL_NOTICE_LOCKED,
  type EmailSetting,
  type NoticeKind,
  type PushDevice,
} from '../../../shared/notifications.js';
import { LoadFailed } from '../../lib/load-failed.js';
import {
  notificationSettingsKey,
  useNotificationSettings,
  useRemoveDevice,
  useSaveEmailSetting,
  type NoticeAudience,
} from './use-notification-settings.js';
import { msg, t, translator } from '../../i18n.js';

/** Why the cook's new-order email switch cannot be turned off. */
export const LOCKED_EXPLANATION = msg(
  'Stays on while your kitchen takes orders and you have no device with push notifications',
);

const addedOn = (iso: string) => translator().dateFormat({ dateStyle: 'medium' }).format(new Date(iso));

/**
 * 'Notifications': what the person is told of with the tab closed. An email switch per kind of notice (the cook's
 * new-order email locked while their kitchen takes orders and no device gets pushes), the devices that get push
 * notifications, each removable, and the button that adds this one.
 */
export function NotificationSettingsSection({ audience }: { audience: NoticeAudience }) {
  const settings = useNotificationSettings(audience);
  // This device turned on or off (here, or by the kitchen's 'Allow notifications'): the devices listed follow.
  const pushState = usePush(audience).state;
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: notificationSettingsKey });
  }, [pushState, queryClient]);
  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-labelledby="notification-settings-heading">
      <Title order={2} size="h3" id="notification-settings-heading" mb="xs">
        {t('Notifications')}
      </Title>
      {settings.isError ? (
        <LoadFailed
          title={t('Could not load your notifications')}
          error={settings.error}
          retry={() => void settings.refetch()}
        />
      ) : !settings.data ? (
        <Text c="dimmed">{t('Loading…')}</Text>
      ) : (
        <Stack gap="lg">
          <Text size="sm">
            {audience === 'kitchen'
              ? t('How we tell you of your orders and your kitchen while HomeCooked is not open.')
              : t('How we tell you where your order stands while HomeCooked is not open.')}
          </Text>
          <EmailSwitches audience={audience} settings={settings.data.email} />
          <Devices audience={audience} devices={settings.data.devices} />
        </Stack>
      )}
    </Paper>
  );
}

function EmailSwitches({ audience, settings }: { audience: NoticeAudience; settings: EmailSetting[] }) {
  const save = useSaveEmailSetting(audience);
  const [errors, setErrors] = useState<Partial<Record<NoticeKind, string>>>({});
  const saving = save.isPending ? save.variables.kind : undefined;

  const change = (kind: NoticeKind, email: boolean) => {
    setErrors((current) => ({ ...current, [kind]: undefined }));
    save.mutate(
      { kind, email },
      { onError: (error) => setErrors((current) => ({ ...current, [kind]: error.message })) },
    );
  };

  return (
    <Stack gap="sm" role="group" aria-labelledby="notification-email-heading">
      <Title order={3} size="h5" id="notification-email-heading">
        {t('By email')}
      </Title>
      {settings.map((setting) => {
        // The explanation is said after the switch's name, not in it (a Switch's description is inside its label).
        const explanation = `notification-email-${setting.kind}-locked`;
        return (
          <div key={setting.kind}>
            <Switch
              label={t('{kind} by email', { kind: t(setting.label) })}
              checked={setting.email}
              disabled={setting.locked || saving === setting.kind}
              error={errors[setting.kind]}
              aria-describedby={setting.locked ? explanation : undefined}
              onChange={(event) => change(setting.kind, event.currentTarget.checked)}
            />
            {setting.locked ? (
              <Text id={explanation} size="xs" c="dimmed" mt={4}>
                {t(setting.kind === 'order-new' ? LOCKED_EXPLANATION : LEGAL_NOTICE_LOCKED)}
              </Text>
            ) : null}
          </div>
        );
      })}
    </Stack>
  );
}

function Devices({ audience, devices }: { audience: NoticeAudience; devices: PushDevice[] }) {
  const remove = useRemoveDevice(audience);
  const removing = remove.isPending ? remove.variables : undefined;
  const removeDevice = (device: PushDevice) =>
    remove.mutate(device.id, {
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: t('Could not remove the device'),
          message: t(error.message),
        }),
    });

  return (
    <Stack gap="sm" role="group" aria-labelledby="notification-devices-heading">
      <Title order={3} size="h5" id="notification-devices-heading">
        {t('Push notifications on your devices')}
      </Title>
      {devices.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('No device of yours gets push notifications yet.')}
        </Text>
      ) : (
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('Your devices')}
        >
          {devices.map((device) => {
            const name = device.name || t('A device');
            return (
              <Group component="li" key={device.id} justify="space-between" wrap="nowrap" gap="sm">
                <div>
                  <Text>{name}</Text>
                  <Text size="xs" c="dimmed">
                    {t('Added {date}', { date: addedOn(device.createdAt) })}
                  </Text>
                </div>
                <Button
                  variant="light"
                  color="red"
                  size="xs"
                  aria-label={t('Remove {name}', { name })}
                  loading={removing === device.id}
                  onClick={() => removeDevice(device)}
                >
                  {t('Remove')}
                </Button>
              </Group>
            );
          })}
        </Stack>
      )}
      <PushButton as={audience} />
    </Stack>
  );
}
