import { Divider, Group, Stack, Text } from '@mantine/core';
import { computeTotals, formatCents } from '../../shared/money.js';
import type { Fulfilment } from '../../shared/ordering.js';
import { t } from '../i18n.js';

/** The fee lines and total as a preview: the server prices the order again when it is placed. */
export function CheckoutTotals({
  pricesCents,
  fulfilment = 'delivery',
}: {
  pricesCents: number[];
  fulfilment?: Fulfilment;
}) {
  const totals = computeTotals(pricesCents, fulfilment);
  const row = (label: string, cents: number, strong = false) => (
    <Group justify="space-between">
      <Text fw={strong ? 700 : 400}>{label}</Text>
      <Text fw={strong ? 700 : 400} data-testid={strong ? 'cart-total' : undefined}>
        {formatCents(cents)}
      </Text>
    </Group>
  );
  return (
    <Stack gap={6}>
      {row(t('Items'), totals.itemsCents)}
      {fulfilment === 'delivery' && row(t('Delivery fee'), totals.deliveryFeeCents)}
      {row(t('Fees and Estimated Tax'), totals.feesAndTaxCents)}
      <Divider />
      {row(t('Total'), totals.totalCents, true)}
    </Stack>
  );
}
