import { Card, Group, Text } from '@mantine/core';
import { OpenBadge } from '../availability/open-badge.js';
import { useAvailability } from '../availability/use-availability.js';
import { formatDistance } from '../../shared/geo.js';
import type { KitchenSearchHit } from '../../shared/search.js';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { GRID_SIZES, Picture } from '../images/picture.js';
import { RatingLine, ratingWords } from '../reviews/stars.js';
import { kitchenKey, type Kitchen } from './use-kitchens.js';
import { t } from '../i18n.js';

/**
 * A kitchen on the landing page: its name above its picture; a click opens its menu. A search hit also names
 * the dishes that matched and how far the kitchen is.
 */
export function KitchenCard({
  kitchen,
  firstRow = false,
}: {
  kitchen: Kitchen | KitchenSearchHit;
  /** In the grid's first row: its picture may be on the first screen, so it is not left to lazy loading. */
  firstRow?: boolean;
}) {
  const hit = 'matchingDishes' in kitchen ? kitchen : undefined;
  const queryClient = useQueryClient();
  const state = useAvailability(kitchen);
  return (
    <Card
      component={Link}
      to={paths.kitchenMenu.href(kitchen.uid)}
      // The selection the menu page starts from, so it shows name and picture at once.
      onClick={() => queryClient.setQueryData(kitchenKey(kitchen.uid), kitchen)}
      shadow="sm"
      radius="md"
      withBorder
      padding="md"
      // The name a screen reader hears (and tests find): with its rating, which the label would otherwise hide.
      aria-label={
        kitchen.rating
          ? t('{name}, {category} kitchen, {rating}', {
              name: kitchen.name,
              category: kitchen.category,
              rating: ratingWords(kitchen.rating),
            })
          : t('{name}, {category} kitchen', { name: kitchen.name, category: kitchen.category })
      }
      data-testid="kitchen-card"
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb={4}>
        <Text component="h3" fw={700} size="lg" lineClamp={1}>
          {kitchen.name}
        </Text>
        <OpenBadge state={state} />
      </Group>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {kitchen.category}
        </Text>
        <RatingLine rating={kitchen.rating} />
      </Group>
      <DeliveryLine kitchen={kitchen} distanceKm={hit?.distanceKm ?? null} />
      {hit && hit.matchingDishes.length > 0 && (
        <Text size="sm" mb={4} lineClamp={2}>
          {t('Matches: {dishes}', { dishes: hit.matchingDishes.join(', ') })}
        </Text>
      )}
      <Card.Section>
        <Picture
          picture={kitchen}
          sizes={GRID_SIZES}
          loading={firstRow ? 'eager' : 'lazy'}
          alt={t('{name} kitchen', { name: kitchen.name })}
          h={180}
          w="100%"
          fit="cover"
        />
      </Card.Section>
    </Card>
  );
}

function DeliveryLine({ kitchen, distanceKm }: { kitchen: Kitchen; distanceKm: number | null }) {
  const outside = distanceKm !== null && distanceKm > kitchen.deliveryRadiusKm;
  return (
    <Text size="sm" mb="sm" c={outside ? 'red.8' : 'dimmed'}>
      {distanceKm !== null && `${formatDistance(distanceKm)} · `}
      {outside
        ? t('Outside delivery area')
        : t('Delivers within {distance}', { distance: formatDistance(kitchen.deliveryRadiusKm) })}
    </Text>
  );
}
