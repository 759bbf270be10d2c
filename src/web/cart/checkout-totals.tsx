import { Divider, Group, Stack, Text } from '@mantine/core';
import { computeTotals, formatCents } from '../../shared/money.js';
import type { Fulfilment } from '../../shared/ordering.js';
import { creditLineText } from '../../shared/credit.js';
import { codeLineText } from '../../shared/code-input.js';
import { t } from '../i18n.js';

/** The fee lines and total as a preview: the server prices the order again when it is placed. */
export function CheckoutTotals({
  pricesCents,
  fulfilment = 'delivery',
  tipCents = 0,
  creditCents = 0,
  discount = null,
}: {
  pricesCents: number[];
  fulfilment?: Fulfilment;
  /** The tip chosen for the cook (paid with the order, outside the platform's fee). */
  tipCents?: number;
  /** Store credit the customer chose to use: at most the total (the server takes it from their balance). */
  creditCents?: number;
  /** A promotion code the server quoted for this cart: 'Code FIRST10: −$5.00' (ADR 30). */
  discount?: { code: string; discountCents: number } | null;
}) {
  const dishes = computeTotals(pricesCents, fulfilment);
  const off = discount ? Math.min(discount.discountCents, dishes.itemsCents) : 0;
  const totals = { ...dishes, totalCents: dishes.totalCents + tipCents - off };
  const credit = Math.min(creditCents, totals.totalCents);
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
      {tipCents > 0 && row(t('Tip for the cook'), tipCents)}
      {discount && off > 0 && (
        <Text c="teal.9" data-testid="cart-code">
          {codeLineText(discount.code, formatCents(off))}
        </Text>
      )}
      <Divider />
      {row(t('Total'), totals.totalCents, true)}
      {credit > 0 && (
        <>
          <Text>{creditLineText(formatCents(credit))}</Text>
          {row(t('To pay by card'), totals.totalCents - credit)}
        </>
      )}
    </Stack>
  );
}
