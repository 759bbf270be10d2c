import { Anchor, Group, Text } from '@mantine/core';
import { allergenName } from '../../shared/allergen-set.js';
import { LABELLED_STATES, type LabelSize } from '../../shared/labels.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { msg, pageLocale, t } from '../i18n.js';

/** 'Customer allergies: sesame, peanuts', with a warning sign (not colour alone); nothing when they gave none. */
export function CustomerAllergies({ order }: { order: KitchenOrder }) {
  if (!order.customerAllergies.length) return null;
  const names = order.customerAllergies.map((a) => allergenName(a, pageLocale())).join(t(', '));
  return (
    <Text size="sm" fw={700} c="red.9">
      <span aria-hidden="true">⚠ </span>
      {t('Customer allergies: {allergens}', { allergens: names })}
    </Text>
  );
}

const SIZES: [LabelSize, string][] = [
  ['62mm', msg('62 mm roll')],
  ['4x6', msg('4 × 6 in')],
  ['a4', msg('A4 sheet')],
];

/** The order's printable documents: its packing list, and its labels once accepted. */
export function OrderDocuments({ order }: { order: KitchenOrder }) {
  const base = `/api/kitchen/orders/${order.id}`;
  const labelled = (LABELLED_STATES as readonly string[]).includes(order.state);
  return (
    <Group gap="xs" mt={4} wrap="wrap">
      <Anchor size="sm" href={`${base}/packing-list`} target="_blank">
        {t('Packing list (PDF)')}
      </Anchor>
      {labelled &&
        SIZES.map(([size, name]) => (
          <Anchor key={size} size="sm" href={`${base}/labels?size=${size}`} target="_blank">
            {t('Labels (PDF, {size})', { size: t(name) })}
          </Anchor>
        ))}
    </Group>
  );
}
