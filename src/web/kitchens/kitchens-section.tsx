import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Placeholder } from '../lib/placeholder.js';
import { useEffect, useMemo, useRef } from 'react';
import type { KitchenSearchHit } from '../../shared/search.js';
import { availability } from '../../shared/opening-hours-rules.js';
import { useMinuteTick } from '../availability/use-availability.js';
import { LoadFailed } from '../lib/load-failed.js';
import { cuisinesOf } from '../search/cuisines.js';
import { SearchControls } from '../search/search-controls.js';
import { useKitchenSearch } from '../search/use-kitchen-search.js';
import { isFiltered, useSearchFilters } from '../search/use-search-filters.js';
import { KitchenCard } from './kitchen-card.js';
import { useSteadyWhilePressed } from '../live/steady-while-pressed.js';
import { FIRST_ROW } from '../images/picture.js';
import { useKitchens, type Kitchen } from './use-kitchens.js';
import { useAllergyProfile, useAvoidedAllergens } from '../allergies/use-allergy-profile.js';
import { t } from '../i18n.js';

/**
 * The landing page's live grid (3 columns on large screens, 2 on medium, 1 on phones): kitchens newest first, a page
 * at a time (use-kitchens.ts),
 * or, when the URL carries a search, the kitchens matching it (kept current as kitchens and dishes change).
 */
export function KitchensSection() {
  const landing = useKitchens();
  const kitchens = landing.list;
  const { filters, update } = useSearchFilters();
  // 'Hide dishes with my allergens' (kept in this browser, not in the URL): searched on the server too.
  const allergies = useAvoidedAllergens();
  const { setHide } = useAllergyProfile();
  const filtered = isFiltered(filters) || !!allergies;
  // Narrowed by more than 'Open now' (which says so in its own words when nothing is open).
  const searching = isFiltered({ ...filters, open: false }) || !!allergies;
  const searched = useKitchenSearch(filters, filtered, allergies);
  const search = searched.list;
  const cuisines = useMemo(
    () => landing.cuisines ?? cuisinesOf(kitchens.data ?? []),
    [landing.cuisines, kitchens.data],
  );
  const listed = filtered ? search : kitchens;
  const { total, hasMore, loadingMore, showMore, moreFailed } = filtered ? searched : landing;
  const now = useMinuteTick(filters.open);
  const current = useMemo(
    () =>
      filters.open && listed.data
        ? { ...listed, data: listed.data.filter((k) => availability(k, new Date(now)).open) }
        : listed,
    [listed, filters.open, now],
  );
  // A kitchen added live does not move the card under a finger.
  const shown = useSteadyWhilePressed(current);
  return (
    <section aria-labelledby="kitchens-heading">
      <Title order={2} id="kitchens-heading" mb="md">
        {t('Kitchens')}
      </Title>
      <SearchControls filters={filters} update={update} cuisines={cuisines} />
      {shown.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-busy="true" aria-label={t('Loading kitchens')}>
          {[0, 1, 2].map((i) => (
            <Card key={i} withBorder radius="md" padding="md">
              <Placeholder h={24} w="60%" mb="sm" />
              <Placeholder h={180} />
            </Card>
          ))}
        </SimpleGrid>
      ) : shown.isError ? (
        <LoadFailed
          title={searching ? t('Could not search the kitchens') : t('Could not load the kitchens')}
          error={shown.error}
          retry={() => void shown.refetch()}
        />
      ) : shown.data.length === 0 ? (
        filtered ? (
          <Stack align="flex-start" gap="xs" role="status">
            <Text>
              {searching ? t('No kitchens match your search.') : t('No kitchen is open right now.')}
            </Text>
            <Button
              variant="light"
              onClick={() => {
                update({ q: '', cuisine: '', diet: [], near: undefined, open: false });
                setHide(false);
              }}
            >
              {t('Clear search')}
            </Button>
          </Stack>
        ) : (
          <Text c="dimmed">
            {t('No kitchens yet. Are you a home cook? Register your kitchen and be the first.')}
          </Text>
        )
      ) : (
        <>
          {filtered && total !== undefined ? (
            <Text c="dimmed" size="sm" mb="sm">
              {searched.totalAtLeast
                ? t('{count, plural, other {#+ kitchens match}}', { count: total })
                : t('{count, plural, one {# kitchen matches} other {# kitchens match}}', { count: total })}
            </Text>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" data-testid="kitchens-grid">
            {shown.data.map((kitchen: Kitchen | KitchenSearchHit, index) => (
              <KitchenCard key={kitchen.uid} kitchen={kitchen} firstRow={index < FIRST_ROW} />
            ))}
          </SimpleGrid>
        </>
      )}
      {!shown.isPending && !shown.isError && hasMore ? (
        <ShowMore
          onMore={showMore}
          loading={loadingMore}
          failed={moreFailed}
          shownCount={shown.data.length}
          total={total}
        />
      ) : null}
    </section>
  );
}

/**
 * 'Show more kitchens' under the grid (only when there are more than a page holds): a click, or the button coming
 * near the screen's bottom as the visitor scrolls, shows the next page.
 */
function ShowMore({
  onMore,
  loading,
  failed,
  shownCount,
  total,
}: {
  onMore: () => void;
  loading: boolean;
  failed: boolean;
  shownCount: number;
  total: number | undefined;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined' || failed) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) more.current();
      },
      { rootMargin: '0px 0px 400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [failed, loading, shownCount]);
  return (
    <Stack ref={ref} align="center" gap="xs" mt="lg">
      {total !== undefined ? (
        <Text c="dimmed" size="sm">
          {t('{total, plural, other {Showing {shown} of # kitchens}}', {
            shown: Math.min(shownCount, total),
            total,
          })}
        </Text>
      ) : null}
      <Button variant="light" onClick={onMore} loading={loading}>
        {failed ? t('Try again: show more kitchens') : t('Show more kitchens')}
      </Button>
    </Stack>
  );
}
