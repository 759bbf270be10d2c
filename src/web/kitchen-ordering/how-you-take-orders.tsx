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
import { minorDigits } from '../../shared/money.js';
import { MAX_ORDERS_PER_SLOT, type OrderingSettings } from '../../shared/ordering.js';
import { ApiError } from '../lib/api-client.js';
import { LoadFailed } from '../lib/load-failed.js';
import {
  daysAheadOptions,
  daysLabel,
  formFieldOf,
  formValuesOf,
  inputOf,
  minutesLabel,
  priorNoticeOptions,
  slotLengthOptions,
  validateOrdering,
  withCurrent,
  type OrderingFormValues,
} from './ordering-form.js';
import { useOrdering, useSaveOrdering } from './use-ordering.js';
import { t, translator } from '../i18n.js';

/** The deployment's currency's symbol in the page's language ('$' in English). */
const currencySymbol = () => {
  const { currency } = translator();
  return (
    translator()
      .numberFormat({ style: 'currency', currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
};

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
        title: t('Ordering options saved'),
        message: t('Customers see them on your menu page and at checkout'),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : t('The save failed');
      const field = error instanceof ApiError && error.field ? formFieldOf(error.field) : undefined;
      if (field) form.setFieldError(field, message);
      else notifications.show({ color: 'red', title: t('Could not save'), message });
    }
  });
  const { values } = form;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <Fieldset legend={t('How customers get their order')}>
          <Stack gap="sm">
            <Checkbox label={t('Delivery')} {...form.getInputProps('offersDelivery', { type: 'checkbox' })} />
            <Checkbox label={t('Pickup')} {...form.getInputProps('offersPickup', { type: 'checkbox' })} />
            {values.offersPickup ? (
              <>
                <Textarea
                  label={t('Pickup address')}
                  description={t('Shown to a customer only once their order is accepted')}
                  withAsterisk
                  autosize
                  minRows={2}
                  maxRows={6}
                  maxLength={300}
                  {...form.getInputProps('pickupAddress')}
                />
                <Textarea
                  label={t('Pickup instructions')}
                  description={t(
                    'Shown to a customer only once their order is accepted (optional): where to ring, where to park',
                  )}
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
        <Fieldset legend={t('When orders can be for')}>
          <Stack gap="sm">
            <Checkbox
              label={t('As soon as possible (while open)')}
              {...form.getInputProps('takesAsap', { type: 'checkbox' })}
            />
            <Checkbox
              label={t('Orders for later')}
              description={t('Customers choose a time slot ahead')}
              {...form.getInputProps('forLater', { type: 'checkbox' })}
            />
            {values.forLater ? (
              <>
                <NativeSelect
                  label={t('Slot length')}
                  data={withCurrent(slotLengthOptions(), values.slotMinutes, minutesLabel)}
                  {...form.getInputProps('slotMinutes')}
                />
                <NativeSelect
                  label={t('Prior notice')}
                  description={t('How long before a slot its orders must be in')}
                  data={withCurrent(priorNoticeOptions(), values.priorNoticeMinutes, minutesLabel)}
                  {...form.getInputProps('priorNoticeMinutes')}
                />
                <NativeSelect
                  label={t('Days ahead')}
                  description={t('How far ahead customers can order')}
                  data={withCurrent(daysAheadOptions(), values.daysAhead, daysLabel)}
                  {...form.getInputProps('daysAhead')}
                />
                <TextInput
                  type="time"
                  label={t('Same-day cut-off')}
                  description={t("After this time, no more orders for today's slots (optional)")}
                  {...form.getInputProps('sameDayCutoff')}
                />
                <NumberInput
                  label={t('Orders per slot')}
                  description={t('The most orders one slot takes (optional: empty for no limit)')}
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
          label={t('Minimum order')}
          description={t('The dishes of an order must total at least this (0 for no minimum)')}
          leftSection={currencySymbol()}
          inputMode={minorDigits(translator().currency) === 0 ? 'numeric' : 'decimal'}
          autoComplete="off"
          maw={200}
          {...form.getInputProps('minimumOrder')}
        />
        <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('Save')}
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
        {t('How you take orders')}
      </Title>
      {ordering.isError ? (
        <LoadFailed
          title={t('Could not load your ordering options')}
          error={ordering.error}
          retry={() => void ordering.refetch()}
        />
      ) : !ordering.data ? (
        <Text c="dimmed">{t('Loading…')}</Text>
      ) : (
        <OrderingForm settings={ordering.data} />
      )}
    </Paper>
  );
}
