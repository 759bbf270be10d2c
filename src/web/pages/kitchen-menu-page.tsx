import { Group, Stack, Text, Title } from '@mantine/core';
import { Placeholder } from '../lib/placeholder.js';
import { KitchenPaymentNote } from '../payments/kitchen-payment-note.js';
import { useEffect, type ReactNode } from 'react';
import { useParams } from '../router/router.js';
import { kitchenPageTitle, siteTitle } from '../../shared/page-data.js';
import { CartBar } from '../cart/cart-bar.js';
import { CartButton } from '../cart/cart-button.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { useAvailability } from '../availability/use-availability.js';
import { useKitchen } from '../kitchens/use-kitchen.js';
import { PageLayout } from '../layout/page-layout.js';
import { ApiError } from '../lib/api-client.js';
import { Picture } from '../images/picture.js';
import { PublicMenuList } from '../menu/public-menu-list.js';
import { OrderingLine } from '../menu/ordering-line.js';
import { FullyBookedNote } from '../law/fully-booked-note.js';
import { NotFoundPage } from './not-found-page.js';
import { KitchenStory } from '../reviews/kitchen-story.js';
import { ReviewList } from '../reviews/review-list.js';
import { RatingLine } from '../reviews/stars.js';
import { LoadFailed } from '../lib/load-failed.js';
import { KITCHEN_UNAVAILABLE } from '../../shared/moderation-texts.js';
import { useSession } from '../auth/use-session.js';
import { ReportButton } from '../moderation/report-button.js';
import { t } from '../i18n.js';
import { StaticPart } from '../ssr/static-part.js';

/** Today's hours in the kitchen's time zone, and whether it takes orders now ('Open now', 'Closed · opens …'). */
function KitchenHours({ kitchen }: { kitchen: Kitchen }) {
  const state = useAvailability(kitchen);
  return (
    <Stack gap={0} align="flex-end" data-testid="kitchen-hours">
      <Text c="dimmed">{t(state.todayHours)}</Text>
      <Text fw={600} c={state.open ? '#1f6b32' : 'red.9'} role="status">
        {t(state.label)}
      </Text>
      {state.paused && <Text size="sm">{t('Not taking orders right now')}</Text>}
    </Stack>
  );
}

/**
 * An unlisted kitchen's page (awaiting approval, refused, or where home kitchens may not sell): its cook and
 * operators see it; anyone else reads that it is unavailable (the server refuses its menu, reviews and orders too).
 * The session is read only here, so a listed kitchen's page renders once (ADR 16).
 */
function NotListed({ uid, page, unavailable }: { uid: string; page: ReactNode; unavailable: ReactNode }) {
  const session = useSession().data;
  return session?.operator || session?.kitchen?.uid === uid ? page : unavailable;
}

/** The tab's title names the kitchen while its page is open (the served page's <title> says the same). */
function useKitchenTitle(kitchen: Kitchen | null | undefined) {
  const title = kitchen ? kitchenPageTitle(kitchen) : undefined;
  useEffect(() => {
    if (!title) return;
    document.title = title;
    return () => {
      document.title = siteTitle();
    };
  }, [title]);
}

/** /KitchenMenu/{id}: one kitchen's public menu, loaded by id so links and reloads work. */
export function KitchenMenuPage() {
  const uid = useParams().id ?? '';
  const kitchen = useKitchen(uid);
  useKitchenTitle(kitchen.data);

  // null: the server rendered this page for a kitchen that does not exist (and answered 404).
  const missing =
    kitchen.data === null ||
    (kitchen.isError && kitchen.error instanceof ApiError && [400, 404].includes(kitchen.error.status));
  if (missing)
    return (
      <NotFoundPage
        title={t('Kitchen not found')}
        message={t('We could not find this kitchen. It may have closed, or the link may be wrong.')}
      />
    );

  // Suspended by an operator: the page says so, and shows no menu to order from (the server refuses orders too).
  const unavailable = (
    <PageLayout>
      <Title order={1} mb="md">
        {t('Kitchen unavailable')}
      </Title>
      <Text role="status">{t(KITCHEN_UNAVAILABLE)}</Text>
    </PageLayout>
  );
  if (kitchen.data?.suspended) return unavailable;

  const page = (
    <PageLayout>
      {kitchen.isPending ? (
        <Group
          justify="space-between"
          align="flex-end"
          mb="xl"
          aria-busy="true"
          aria-label={t('Loading the kitchen')}
        >
          <Group align="center" gap="lg">
            <Placeholder h={120} w={180} radius="md" />
            <Stack gap={4}>
              <Placeholder h={44} w={240} />
              <Placeholder h={24} w={100} />
            </Stack>
          </Group>
          <CartButton />
        </Group>
      ) : kitchen.isError ? (
        <LoadFailed
          title={t('Could not load this kitchen')}
          error={kitchen.error}
          retry={() => void kitchen.refetch()}
          mb="xl"
        />
      ) : kitchen.data ? (
        <Group justify="space-between" align="flex-end" mb="xl">
          <Group align="center" gap="lg">
            {/* Its picture, name, cuisine and rating are read, never touched: not hydrated (ADR 13). */}
            <StaticPart inputs={[kitchen.data.name, kitchen.data.imageLink, kitchen.data.image]}>
              <Picture
                picture={kitchen.data}
                sizes="180px"
                loading="eager"
                fetchPriority="high"
                alt={t('{name} kitchen', { name: kitchen.data.name })}
                h={120}
                w={180}
                radius="md"
                fit="cover"
              />
            </StaticPart>
            <Stack gap={4}>
              <StaticPart inputs={[kitchen.data.name, kitchen.data.category, kitchen.data.rating]}>
                <Title order={1}>{kitchen.data.name}</Title>
                <Text c="dimmed">{kitchen.data.category}</Text>
                {/* Before the first review, the 'Reviews' section below says 'No reviews yet'. */}
                <RatingLine rating={kitchen.data.rating} size="md" />
              </StaticPart>
              <OrderingLine kitchenUid={uid} />
              <FullyBookedNote kitchenUid={uid} />
              <KitchenPaymentNote kitchenUid={uid} />
              {/* Not for the visitor's own kitchen. The session is read by the button, not by the page: it is asked
                  for as the page hydrates (the served page is the same for everyone), and its answer renders the
                  button alone again. */}
              <Group>
                <ReportButton targetKind="kitchen" targetId={uid} />
              </Group>
            </Stack>
          </Group>
          <CartButton />
        </Group>
      ) : null}
      <Group justify="space-between" align="baseline" mb="md">
        <Title order={2}>{t('Full Menu')}</Title>
        {kitchen.data ? (
          <KitchenHours kitchen={kitchen.data} />
        ) : (
          <Text c="dimmed">{t('10:00 AM - 8:15 PM')}</Text>
        )}
      </Group>
      {/* The menu loads alongside the kitchen, not after it. */}
      {!kitchen.isError && <PublicMenuList kitchen={{ uid, name: kitchen.data?.name ?? '' }} />}
      {kitchen.data ? (
        <Stack gap="xl" mt="xl">
          <KitchenStory kitchen={kitchen.data} />
          <ReviewList kitchenUid={uid} />
        </Stack>
      ) : null}
      <CartBar />
    </PageLayout>
  );
  // A kitchen of a list (a landing page's card) is listed; its own snapshot says.
  const unlisted = kitchen.data && 'listed' in kitchen.data && !kitchen.data.listed;
  return unlisted ? <NotListed uid={uid} page={page} unavailable={unavailable} /> : page;
}
