import { Stack, Text, Title } from '@mantine/core';
import type { Kitchen, KitchenProfile } from '../../shared/kitchens.js';
import { t, translator } from '../i18n.js';
import { StaticPart } from '../ssr/static-part.js';

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
  const { about, createdAt, timeZone } = kitchen;
  return (
    <section aria-labelledby="about-cook-heading">
      {/* Read, never touched: not hydrated (ADR 13), nor its month formatted again (ADR 15). */}
      <StaticPart inputs={[about, createdAt, timeZone, delivered]}>
        <Story about={about} createdAt={createdAt} timeZone={timeZone} delivered={delivered} />
      </StaticPart>
    </section>
  );
}

function Story({
  about,
  createdAt,
  timeZone,
  delivered,
}: Pick<Kitchen, 'about' | 'createdAt' | 'timeZone'> & { delivered: number | undefined }) {
  return (
    <>
      <Title order={2} id="about-cook-heading" mb="sm">
        {t('About the cook')}
      </Title>
      <Stack gap={4} maw={720}>
        {about ? <Text style={{ whiteSpace: 'pre-line' }}>{about}</Text> : null}
        <Text c="dimmed">{cookingSince(createdAt, timeZone)}</Text>
        {delivered === undefined ? null : (
          <Text c="dimmed">
            {t('{count, plural, one {# order delivered} other {# orders delivered}}', { count: delivered })}
          </Text>
        )}
      </Stack>
    </>
  );
}
