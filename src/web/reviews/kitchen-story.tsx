import { Stack, Text, Title } from '@mantine/core';
import type { Kitchen, KitchenProfile } from '../../shared/kitchens.js';
import { cookingSince, ordersDelivered } from '../../shared/review-texts.js';

/**
 * 'About the cook': the cook's story, since when they cook here and how many orders they delivered. The count
 * arrives with the kitchen's own stream (a card click starts the page from the list's kitchen, without it).
 */
export function KitchenStory({ kitchen }: { kitchen: Kitchen | KitchenProfile }) {
  const delivered = 'deliveredOrders' in kitchen ? kitchen.deliveredOrders : undefined;
  return (
    <section aria-labelledby="about-cook-heading">
      <Title order={2} id="about-cook-heading" mb="sm">
        About the cook
      </Title>
      <Stack gap={4} maw={720}>
        {kitchen.about ? <Text style={{ whiteSpace: 'pre-line' }}>{kitchen.about}</Text> : null}
        <Text c="dimmed">{cookingSince(kitchen.createdAt, kitchen.timeZone)}</Text>
        {delivered === undefined ? null : <Text c="dimmed">{ordersDelivered(delivered)}</Text>}
      </Stack>
    </section>
  );
}
