import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { inProgress, type CustomerOrder } from '../../shared/orders.js';
import { useCancelOrder } from './order-actions.js';
import { t } from '../i18n.js';

/**
 * 'Cancel order' while the kitchen has not accepted the order, asked to confirm, with an optional reason for the
 * kitchen. It stays mounted once the order moves on (the button goes), so its dialog can close as usual.
 */
export function CancelOrderButton({ order }: { order: CustomerOrder }) {
  const cancellable = inProgress(order) && (order.state === 'recieved' || order.state === 'awaiting payment');
  const cancel = useCancelOrder();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const confirm = async () => {
    try {
      await cancel.mutateAsync({ id: order.id, ...(reason.trim() ? { reason } : {}) });
      setOpen(false);
      notifications.show({ color: 'green', title: t('Order cancelled'), message: order.kitchenName });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not cancel'),
        message: t((error as Error).message),
      });
    }
  };
  return (
    <>
      {cancellable ? (
        <Group>
          <Button variant="light" color="red" onClick={() => setOpen(true)}>
            {t('Cancel order')}
          </Button>
        </Group>
      ) : null}
      <Modal opened={open} onClose={() => setOpen(false)} title={t('Cancel this order?')} centered>
        <Stack gap="sm">
          <Text>{t('The kitchen has not accepted it yet, so you can still cancel it.')}</Text>
          <TextInput
            label={t('Reason (optional)')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={200}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('Keep my order')}
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={() => void confirm()}>
              {t('Cancel order')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
