import { ActionIcon, Group, Image, Stack, Text } from '@mantine/core';
import { formatCents } from '../../shared/money.js';
import { FALLBACK_IMAGE } from '../lib/images.js';
import { TrashIcon } from './trash-icon.js';
import { t } from '../i18n.js';

export interface ShownLine {
  key: string;
  item: string;
  /** The price of one. */
  priceCents: number;
  quantity: number;
  imageLink?: string | undefined;
}

/**
 * Lines of a cart or an order, one per dish: picture, name, how many, price and a delete icon; with `onStep`, a
 * quantity stepper ('−' at 1 takes the dish out).
 */
export function CartLines({
  lines,
  label,
  onRemove,
  onStep,
}: {
  lines: ShownLine[];
  label: string;
  onRemove: (line: ShownLine) => void;
  onStep?: (line: ShownLine, by: 1 | -1) => void;
}) {
  return (
    <Stack component="ul" gap="sm" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
      {lines.map((line) => (
        // On a phone a dish's name of a few letters leaves no room for the stepper beside it: they go below.
        <Group component="li" key={line.key} justify="space-between" gap="xs" data-testid="cart-line">
          <Group wrap="nowrap" gap="md">
            {line.imageLink !== undefined && (
              <Image
                src={line.imageLink}
                fallbackSrc={FALLBACK_IMAGE}
                alt={line.item}
                w={64}
                h={64}
                radius="sm"
                fit="cover"
              />
            )}
            <Text fw={600}>
              {!onStep && line.quantity > 1
                ? t('{item} × {quantity}', { item: line.item, quantity: line.quantity })
                : line.item}
            </Text>
          </Group>
          <Group wrap="nowrap" gap="sm">
            {onStep && (
              <Group
                wrap="nowrap"
                gap={4}
                role="group"
                aria-label={t('Quantity of {name}', { name: line.item })}
              >
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('One fewer {name}', { name: line.item })}
                  onClick={() => onStep(line, -1)}
                >
                  −
                </ActionIcon>
                <Text w={24} ta="center" aria-live="polite" data-testid="quantity">
                  {line.quantity}
                </Text>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('One more {name}', { name: line.item })}
                  onClick={() => onStep(line, 1)}
                >
                  +
                </ActionIcon>
              </Group>
            )}
            <Text>{formatCents(line.priceCents * line.quantity)}</Text>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('Remove {name}', { name: line.item })}
              onClick={() => onRemove(line)}
            >
              <TrashIcon />
            </ActionIcon>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
