import { Radio, Stack, Text, Textarea } from '@mantine/core';
import { formatCents } from '../../shared/money.js';
import { MAX_NOTE_LENGTH, type Fulfilment, type PublicOrdering } from '../../shared/ordering.js';
import { t } from '../i18n.js';

/** The fulfilment a kitchen leaves: the customer's choice where it offers both, else the one it offers. */
export function fulfilmentFor(ordering: PublicOrdering | undefined, chosen: Fulfilment): Fulfilment {
  if (!ordering) return chosen;
  if (ordering.offersDelivery && ordering.offersPickup) return chosen;
  return ordering.offersPickup ? 'pickup' : 'delivery';
}

/** 'Delivery' or 'Pickup' at checkout, as the kitchen offers them. */
export function FulfilmentChoice({
  ordering,
  kitchenName,
  value,
  onChange,
}: {
  ordering: PublicOrdering | undefined;
  kitchenName: string;
  value: Fulfilment;
  onChange: (fulfilment: Fulfilment) => void;
}) {
  if (!ordering) return null;
  const pickupText = t(
    'Collect it from {kitchen}: the address is shown once the kitchen accepts your order',
    {
      kitchen: kitchenName,
    },
  );
  if (ordering.offersDelivery && ordering.offersPickup)
    return (
      <Radio.Group
        label={t('Delivery or pickup')}
        value={value}
        onChange={(v) => onChange(v === 'pickup' ? 'pickup' : 'delivery')}
      >
        <Stack gap="xs" mt={6}>
          <Radio value="delivery" label={t('Delivery')} description={t('To your address')} />
          <Radio value="pickup" label={t('Pickup')} description={pickupText} />
        </Stack>
      </Radio.Group>
    );
  if (ordering.offersPickup)
    return (
      <Text size="sm">
        {t(
          'Pickup only. Collect it from {kitchen}: the address is shown once the kitchen accepts your order.',
          { kitchen: kitchenName },
        )}
      </Text>
    );
  return null;
}

/** 'A note for the cook': up to 300 characters, shown on the kitchen's order. */
export function NoteField({ value, onChange }: { value: string; onChange: (note: string) => void }) {
  return (
    <Textarea
      label={t('A note for the cook')}
      description={t('Allergies, spice, the door bell… ({length}/{max})', {
        length: value.length,
        max: MAX_NOTE_LENGTH,
      })}
      value={value}
      maxLength={MAX_NOTE_LENGTH}
      autosize
      minRows={2}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** 'Add $4.50 more to order from this kitchen', or undefined when the dishes reach its minimum. */
export function belowMinimum(ordering: PublicOrdering | undefined, itemsCents: number): string | undefined {
  const short = (ordering?.minimumOrderCents ?? 0) - itemsCents;
  return short > 0
    ? t('Add {amount} more to order from this kitchen', { amount: formatCents(short) })
    : undefined;
}
