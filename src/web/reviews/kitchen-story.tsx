import { Stack, Text, Title } from '@mantine/core';
import type { Kitchen, KitchenProfile } from '../../shared/kitchens.js';
import { t, translator } from '../i18n.js';

/**
 * 'About the cook': the cook's story, since when they cook here and how many orders they delivered. The count
 * arrives with the kitchen's own stream (a card click starts the page from the list's kitchen, without it).
 */
/** 'Cooking here since March 2026': the month a kitchen registered, in its own time zone. */
function cookingSince(createdAt: string, timeZone: string): string {
  const month = (zone: string) =>
    translator().dateFormat({ month: 'long', year: 'numeric', timeZone: zone }).format(new Date(createdAt));
  let since: string;
  try {
    since = month(timeZone);
  } catch {
    since = month('UTC'); // a zone this browser does not know
  }
  return t('Cooking here since {month}', { month: since });
}

export function KitchenStory({ kitchen }: { kitchen: Kitchen | KitchenProfile }) {
  const delivered = 'deliveredOrders' in kitchen ? kitchen.deliveredOrders : undefined;
  return (
    <section aria-labelledby="about-cook-heading">
      <Title order={2} id="about-cook-heading" mb="sm">
        {t('About the cook')}
      </Title>
      <Stack gap={4} maw={720}>
        {kitchen.about ? <Text style={{ whiteSpace: 'pre-line' }}>{kitchen.about}</Text> : null}
        <Text c="dimmed">{cookingSince(kitchen.createdAt, kitchen.timeZone)}</Text>
        {delivered === undefined ? null : (
          <Text c="dimmed">
            {t('{count, plural, one {# order delivered} other {# orders delivered}}', { count: delivered })}
          </Text>
        )}
      </Stack>
    </section>
  );
}
