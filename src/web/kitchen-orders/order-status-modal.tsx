import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { UpdateOrderStatusInput, type KitchenOrder } from '../../shared/orders.js';
import { ApiError } from '../lib/api-client.js';
import { useUpdateOrderStatus } from './use-kitchen-orders.js';
import { msg, t } from '../i18n.js';

// The status saved is the English text (the customer reads it in their own language); the buttons say it in the cook's.
const QUICK_PICKS = [msg('Preparing'), msg('Out for delivery'), msg('Delivered')];

function StatusForm({ order, onDone }: { order: KitchenOrder; onDone: (status: string) => void }) {
  const update = useUpdateOrderStatus();
  const form = useForm<UpdateOrderStatusInput>({
    initialValues: { status: '' },
    validate: schemaResolver(UpdateOrderStatusInput, { sync: true }),
  });
  const submit = form.onSubmit(async ({ status }) => {
    try {
      const saved = await update.mutateAsync({ id: order.id, status });
      onDone(saved.status);
    } catch (error) {
      const message = t((error as Error).message);
      if (error instanceof ApiError && error.field === 'status') form.setFieldError('status', message);
      else notifications.show({ color: 'red', title: t('Could not update the order'), message });
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('What is the status of the order?')}
          description={t('Now: {status}', { status: t(order.status) })}
          data-autofocus
          autoComplete="off"
          {...form.getInputProps('status')}
        />
        <div>
          <Text size="sm" id="quick-picks-label" mb={4}>
            {t('Quick picks')}
          </Text>
          <Group gap="xs" role="group" aria-labelledby="quick-picks-label">
            {QUICK_PICKS.map((pick) => (
              <Button
                key={pick}
                size="xs"
                variant={form.values.status === pick ? 'filled' : 'light'}
                aria-pressed={form.values.status === pick}
                onClick={() => form.setFieldValue('status', pick)}
              >
                {t(pick)}
              </Button>
            ))}
          </Group>
        </div>
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={form.submitting}>
            {t('Save status')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Replaces the spec's window.prompt: an accessible dialog with a free-text status and quick picks. */
export function OrderStatusModal({
  order,
  onClose,
  onUpdated,
}: {
  order: KitchenOrder | undefined;
  onClose: () => void;
  onUpdated: (order: KitchenOrder, status: string) => void;
}) {
  return (
    <Modal opened={order !== undefined} onClose={onClose} title={t('Update order status')} centered>
      {order ? (
        <StatusForm key={order.id} order={order} onDone={(status) => onUpdated(order, status)} />
      ) : null}
    </Modal>
  );
}
