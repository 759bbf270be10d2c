import {
  Button,
  Checkbox,
  Fieldset,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MAX_ORDERS_PER_SLOT, type OrderingSettings } from '../../shared/ordering.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import {
  DAYS_AHEAD_OPTIONS,
  formFieldOf,
  formValuesOf,
  inputOf,
  PRIOR_NOTICE_OPTIONS,
  SLOT_LENGTH_OPTIONS,
  validateOrdering,
  withCurrent,
  type OrderingFormValues,
} from './ordering-form.js';
import { useOrdering, useSaveOrdering } from './use-ordering.js';

const SHOWN_ONCE_ACCEPTED = 'Shown to a customer only once their order is accepted';

function OrderingForm({ settings }: { settings: OrderingSettings }) {
  const save = useSaveOrdering();
  const form = useForm<OrderingFormValues>({
    initialValues: formValuesOf(settings),
    validate: validateOrdering,
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(inputOf(values));
      const kept = formValuesOf(saved);
      form.setValues(kept);
      form.resetDirty(kept);
      notifications.show({
        color: 'green',
        title: 'Ordering options saved',
        message: 'Customers see them on your menu page and at checkout',
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The save failed';
      const field = error instanceof ApiError && error.field ? formFieldOf(error.field) : undefined;
      if (field) form.setFieldError(field, message);
      else notifications.show({ color: 'red', title: 'Could not save', message });
    }
  });
  const { values } = form;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <Fieldset legend="How customers get their order">
          <Stack gap="sm">
            <Checkbox label="Delivery" {...form.getInputProps('offersDelivery', { type: 'checkbox' })} />
            <Checkbox label="Pickup" {...form.getInputProps('offersPickup', { type: 'checkbox' })} />
            {values.offersPickup ? (
              <>
                <Textarea
                  label="Pickup address"
                  description={SHOWN_ONCE_ACCEPTED}
                  withAsterisk
                  autosize
                  minRows={2}
                  maxRows={6}
                  maxLength={300}
                  {...form.getInputProps('pickupAddress')}
                />
                <Textarea
                  label="Pickup instructions"
                  description={`${SHOWN_ONCE_ACCEPTED} (optional): where to ring, where to park`}
                  autosize
                  minRows={2}
                  maxRows={6}
                  maxLength={500}
                  {...form.getInputProps('pickupInstructions')}
                />
              </>
            ) : null}
          </Stack>
        </Fieldset>
        <Fieldset legend="When orders can be for">
          <Stack gap="sm">
            <Checkbox
              label="As soon as possible (while open)"
              {...form.getInputProps('takesAsap', { type: 'checkbox' })}
            />
            <Checkbox
              label="Orders for later"
              description="Customers choose a time slot ahead"
              {...form.getInputProps('forLater', { type: 'checkbox' })}
            />
            {values.forLater ? (
              <>
                <NativeSelect
                  label="Slot length"
                  data={withCurrent(SLOT_LENGTH_OPTIONS, values.slotMinutes, (v) => `${v} minutes`)}
                  {...form.getInputProps('slotMinutes')}
                />
                <NativeSelect
                  label="Prior notice"
                  description="How long before a slot its orders must be in"
                  data={withCurrent(PRIOR_NOTICE_OPTIONS, values.priorNoticeMinutes, (v) => `${v} minutes`)}
                  {...form.getInputProps('priorNoticeMinutes')}
                />
                <NativeSelect
                  label="Days ahead"
                  description="How far ahead customers can order"
                  data={withCurrent(DAYS_AHEAD_OPTIONS, values.daysAhead, (v) => `${v} days`)}
                  {...form.getInputProps('daysAhead')}
                />
                <TextInput
                  type="time"
                  label="Same-day cut-off"
                  description="After this time, no more orders for today's slots (optional)"
                  {...form.getInputProps('sameDayCutoff')}
                />
                <NumberInput
                  label="Orders per slot"
                  description="The most orders one slot takes (optional: empty for no limit)"
                  min={1}
                  max={MAX_ORDERS_PER_SLOT}
                  allowDecimal={false}
                  allowNegative={false}
                  {...form.getInputProps('ordersPerSlot')}
                />
              </>
            ) : null}
          </Stack>
        </Fieldset>
        <TextInput
          label="Minimum order"
          description="The dishes of an order must total at least this (0 for no minimum)"
          leftSection="$"
          inputMode="decimal"
          autoComplete="off"
          maw={200}
          {...form.getInputProps('minimumOrder')}
        />
        <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
          Save
        </Button>
      </Stack>
    </form>
  );
}

/**
 * 'How you take orders' on /MenuDashboard: delivery and/or pickup (where, and how to find it), 'As soon as
 * possible' while open and/or orders for later in time slots (their length, notice, how far ahead, a same-day
 * cut-off, a cap), and a minimum order.
 */
export function HowYouTakeOrders() {
  const ordering = useOrdering();
  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-labelledby="ordering-heading">
      <Title order={2} size="h3" id="ordering-heading" mb="sm">
        How you take orders
      </Title>
      {ordering.isError ? (
        <LoadFailed
          title="Could not load your ordering options"
          error={ordering.error}
          retry={() => void ordering.refetch()}
        />
      ) : !ordering.data ? (
        <Text c="dimmed">Loading…</Text>
      ) : (
        <OrderingForm settings={ordering.data} />
      )}
    </Paper>
  );
}
