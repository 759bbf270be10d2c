import { Alert, Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Role } from '../../shared/auth.js';
import { downloadMyData, useDeleteAccount } from './use-your-data.js';
import { t } from '../i18n.js';

/** 'Your data': download everything we hold about the signed-in person, or delete their account. */
export function YourData({ role }: { role: Role }) {
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);

  const download = async () => {
    setDownloading(true);
    setDownloadError(undefined);
    try {
      await downloadMyData(role);
    } catch (error) {
      setDownloadError((error as Error).message);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="your-data-heading">
      <Title order={2} id="your-data-heading" mb="xs">
        {t('Your data')}
      </Title>
      <Stack gap="sm" maw={640}>
        <Text>
          {t(
            'Download everything HomeCooked holds about you as a file, or delete your account and what belongs to it.',
          )}
        </Text>
        <Group gap="sm">
          <Button variant="default" loading={downloading} onClick={() => void download()}>
            {t('Download my data')}
          </Button>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            {t('Delete my account')}
          </Button>
        </Group>
        {downloadError ? (
          <Alert color="red" title={t('Could not download your data')} role="alert">
            {downloadError}
          </Alert>
        ) : null}
      </Stack>
      <DeleteAccountModal role={role} opened={confirming} onClose={() => setConfirming(false)} />
    </section>
  );
}

/** The confirmation: what goes, what stays, and the server's refusal (an order in progress) when there is one. */
function DeleteAccountModal({ role, opened, onClose }: { role: Role; opened: boolean; onClose: () => void }) {
  const deleteAccount = useDeleteAccount(role);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const close = () => {
    setError(undefined);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await deleteAccount();
      notifications.show({
        color: 'green',
        title: t('Your account has been deleted'),
        message: t('You are signed out. Thank you for cooking and eating with us.'),
        autoClose: 10_000,
      });
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('Delete your account?')} centered size="lg">
      <Stack gap="sm">
        <Text fw={600}>{t('These go, for good:')}</Text>
        <List size="sm" spacing={4}>
          <List.Item>{t('your profile and every sign-in, as a customer and as a cook')}</List.Item>
          <List.Item>{t('your chat messages and the reviews you wrote')}</List.Item>
          <List.Item>{t('your kitchen, if you have one: its menu, photos and reviews')}</List.Item>
        </List>
        <Text fw={600}>{t("These stay, for the other side's records:")}</Text>
        <List size="sm" spacing={4}>
          <List.Item>
            {t(
              'orders you placed, with their dishes and totals; the kitchen sees ‘Deleted customer’ instead of your email and ‘Removed’ instead of your address',
            )}
          </List.Item>
          <List.Item>
            {t("orders your kitchen received stay in your customers' histories, under its name")}
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          {t('Download your data first if you want a copy. Not possible while an order is in progress.')}
        </Text>
        {error ? (
          <Alert color="red" title={t('Your account was not deleted')} role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={close} data-autofocus>
            {t('Cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => void confirm()}>
            {t('Yes, delete my account')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
