import { ActionIcon, Group, Image, Stack, Text } from '@mantine/core';
import { formatCents } from '../../shared/money.js';
import { FALLBACK_IMAGE } from '../lib/images.js';
import { TrashIcon } from './trash-icon.js';

export interface ShownLine {
  key: string;
  item: string;
  priceCents: number;
  imageLink?: string | undefined;
}

/** Lines of a cart or an order: picture, name, price and a delete icon. */
export function CartLines({
  lines,
  label,
  onRemove,
}: {
  lines: ShownLine[];
  label: string;
  onRemove: (line: ShownLine) => void;
}) {
  return (
    <Stack component="ul" gap="sm" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
      {lines.map((line) => (
        <Group component="li" key={line.key} justify="space-between" wrap="nowrap" data-testid="cart-line">
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
            <Text fw={600}>{line.item}</Text>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Text>{formatCents(line.priceCents)}</Text>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove ${line.item}`}
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
