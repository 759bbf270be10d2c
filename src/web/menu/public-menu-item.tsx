import { ActionIcon, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { allergenLine, DIETARY_LABELS } from '../../shared/dietary-tags.js';
import { formatCents } from '../../shared/money.js';
import { portionsNote } from '../../shared/menu-portions.js';
import type { MenuItem } from '../../shared/menu.js';
import { GRID_SIZES, Picture } from '../images/picture.js';
import classes from './public-menu-item.module.css';

/** One dish of a kitchen's public menu, with the '+' that puts it in the cart. */
export function PublicMenuItem({
  item,
  onAdd,
  firstRow = false,
}: {
  item: MenuItem;
  onAdd: () => void;
  /** In the grid's first row: its picture may be on the first screen, so it is not left to lazy loading. */
  firstRow?: boolean;
}) {
  const note = portionsNote(item);
  const soldOut = note === 'Sold out';
  return (
    <Card withBorder radius="md" padding="md" component="li" data-testid="menu-item" className={classes.dish}>
      <Card.Section className={classes.picture}>
        <Picture
          picture={item}
          sizes={GRID_SIZES}
          loading={firstRow ? 'eager' : 'lazy'}
          alt={item.item}
          h={160}
          fit="cover"
        />
      </Card.Section>
      <Group justify="space-between" align="flex-start" mt="md" wrap="nowrap" className={classes.body}>
        <Stack gap={2}>
          <Text component="h3" fw={700} size="lg">
            {item.item}
          </Text>
          <Group gap="xs">
            <Text fw={600}>{formatCents(item.priceCents)}</Text>
            {note && (
              <Badge size="sm" variant="filled" tt="none" color={soldOut ? 'gray.7' : '#9c3d00'}>
                {note}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Wait time: {item.wait}
          </Text>
          {item.dietary.length > 0 && (
            <Group gap={4} mt={4}>
              {item.dietary.map((tag) => (
                <Badge key={tag} size="sm" variant="light" color="green">
                  {DIETARY_LABELS[tag]}
                </Badge>
              ))}
            </Group>
          )}
          {allergenLine(item.allergens) && (
            <Text size="sm" mt={4}>
              {allergenLine(item.allergens)}
            </Text>
          )}
        </Stack>
        <ActionIcon
          size="xl"
          radius="xl"
          aria-label={soldOut ? `${item.item} is sold out` : `Add ${item.item} to cart`}
          onClick={onAdd}
          disabled={soldOut}
        >
          <Text component="span" fw={700} size="xl" aria-hidden="true">
            +
          </Text>
        </ActionIcon>
      </Group>
    </Card>
  );
}
