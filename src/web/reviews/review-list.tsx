import { Box, Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Review } from '../../shared/reviews.js';
import { LoadFailed } from '../lib/load-failed.js';
import { ReportButton } from '../moderation/report-button.js';
import { Stars } from './stars.js';
import { useReviewPages } from './use-reviews.js';
import { Spinner } from '../lib/spinner.js';
import { t, translator } from '../i18n.js';

const reviewDate = (iso: string) =>
  translator().dateFormat({ day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));

/** One review: stars, who and when, the text, and the cook's reply under it (or `replyForm`, for the cook). */
export function ReviewItem({ review, replyForm }: { review: Review; replyForm?: ReactNode }) {
  return (
    <Box component="li" py="sm" style={{ borderBlockEnd: '1px solid var(--mantine-color-gray-3)' }}>
      <Group gap="sm" align="baseline">
        <Stars stars={review.stars} />
        <Text size="sm" fw={600}>
          {review.reviewerName}
        </Text>
        <Text size="sm" c="dimmed">
          {reviewDate(review.createdAt)}
        </Text>
        <ReportButton targetKind="review" targetId={review.id} />
      </Group>
      {review.text ? <Text style={{ whiteSpace: 'pre-line' }}>{review.text}</Text> : null}
      {review.reply ? (
        <Box ms="lg" mt="xs" ps="sm" style={{ borderInlineStart: '3px solid var(--mantine-color-gray-4)' }}>
          <Text size="sm" fw={600}>
            {t('The cook replied')}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {review.reply}
          </Text>
        </Box>
      ) : (
        replyForm
      )}
    </Box>
  );
}

/** A kitchen's reviews, newest first, live; `renderReplyForm` lets the cook answer those not yet answered. */
export function ReviewList({
  kitchenUid,
  headingOrder = 2,
  renderReplyForm,
}: {
  kitchenUid: string;
  headingOrder?: 2 | 3;
  renderReplyForm?: (review: Review) => ReactNode;
}) {
  const { latest, reviews, hasOlder, showOlder, loadingOlder, olderError } = useReviewPages(kitchenUid);
  return (
    <section aria-labelledby={`reviews-${kitchenUid}`}>
      <Title order={headingOrder} id={`reviews-${kitchenUid}`} mb="sm">
        {t('Reviews')}
      </Title>
      {latest.isPending ? (
        <Center py="md">
          <Spinner size="sm" label={t('Loading the reviews')} />
        </Center>
      ) : latest.isError ? (
        <LoadFailed
          title={t('Could not load the reviews')}
          error={latest.error}
          retry={() => void latest.refetch()}
        />
      ) : !reviews || reviews.length === 0 ? (
        <Text c="dimmed">{t('No reviews yet')}</Text>
      ) : (
        <>
          <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('Reviews')}>
            {reviews.map((review) => (
              <ReviewItem key={review.id} review={review} replyForm={renderReplyForm?.(review)} />
            ))}
          </Stack>
          {olderError ? (
            <Text c="red.8" size="sm" mt="sm" role="alert">
              {t('Could not load older reviews: {reason}', { reason: olderError.message })}
            </Text>
          ) : null}
          {hasOlder ? (
            <Button variant="light" mt="sm" loading={loadingOlder} onClick={showOlder}>
              {t('Show older reviews')}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
