import { ActionIcon, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { DIETARY_LABELS } from '../../shared/dietary-tags.js';
import { formatCents } from '../../shared/money.js';
import { portionsNote } from '../../shared/menu-portions.js';
import type { MenuItem } from '../../shared/menu.js';
import { GRID_SIZES, Picture } from '../images/picture.js';
import classes from './public-menu-item.module.css';
import { t } from '../i18n.js';
import { StaticPart } from '../ssr/static-part.js';

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
  const soldOut = portionsNote(item) === 'Sold out';
  return (
    <Card withBorder radius="md" padding="md" component="li" data-testid="menu-item" className={classes.dish}>
      <Card.Section className={classes.picture}>
        {/* Not whether it is in the first row: that only says how a picture not yet shown is to be loaded. */}
        <StaticPart inputs={[item]}>
          <Picture
            picture={item}
            sizes={GRID_SIZES}
            loading={firstRow ? 'eager' : 'lazy'}
            alt={item.item}
            h={160}
            fit="cover"
          />
        </StaticPart>
      </Card.Section>
      <Group justify="space-between" align="flex-start" mt="md" wrap="nowrap" className={classes.body}>
        {/* Its text made only when rendered: a price in another language than English builds Intl's number
            formatter, which a page that keeps the server's HTML never needs (ADR 15). */}
        <StaticPart inputs={[item]}>
          <DishText item={item} />
        </StaticPart>
        <ActionIcon
          size="xl"
          radius="xl"
          aria-label={
            soldOut
              ? t('{dish} is sold out', { dish: item.item })
              : t('Add {dish} to cart', { dish: item.item })
          }
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

/** A dish's name, price, portions left, wait, tags and allergens. */
function DishText({ item }: { item: MenuItem }) {
  const note = portionsNote(item);
  const soldOut = note === 'Sold out';
  const noteText = soldOut
    ? t('Sold out')
    : note && item.portionsLeft !== null
      ? t('{count, plural, one {Only # left} other {Only # left}}', { count: item.portionsLeft })
      : note;
  return (
    <Stack gap={2}>
      {/* A name reads as written, whichever way it and the page run (isolated, aligned with the page). */}
      <Text component="h3" fw={700} size="lg">
        <bdi>{item.item}</bdi>
      </Text>
      {item.secondName && (
        <Text size="sm" fw={600} c="dimmed" data-testid="second-name">
          <bdi>{item.secondName}</bdi>
        </Text>
      )}
      <Group gap="xs">
        <Text fw={600}>{formatCents(item.priceCents)}</Text>
        {noteText && (
          <Badge size="sm" variant="filled" tt="none" color={soldOut ? 'gray.7' : '#9c3d00'}>
            {noteText}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('Wait time: {wait}', { wait: item.wait })}
      </Text>
      {item.dietary.length > 0 && (
        <Group gap={4} mt={4}>
          {item.dietary.map((tag) => (
            <Badge key={tag} size="sm" variant="light" color="green">
              {t(DIETARY_LABELS[tag])}
            </Badge>
          ))}
        </Group>
      )}
      {item.allergens.length > 0 && (
        <Text size="sm" mt={4}>
          {t('Contains: {allergens}', {
            allergens: item.allergens.map((allergen) => t(allergen)).join(', '),
          })}
        </Text>
      )}
    </Stack>
  );
}
