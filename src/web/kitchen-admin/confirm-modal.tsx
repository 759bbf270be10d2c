import { Button, Group, Modal, Text } from '@mantine/core';
import { t } from '../i18n.js';

/** An accessible yes/no dialog for a destructive action (focus is trapped, Escape cancels). */
export function ConfirmModal({
  opened,
  title,
  message,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          {t('Cancel')}
        </Button>
        <Button color="red" loading={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
