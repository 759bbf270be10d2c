import { Button, Paper, Rating, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import type { CustomerOrder } from '../../shared/orders.js';
import { MAX_REVIEW_TEXT, ReviewInput } from '../../shared/reviews.js';
import { ApiError } from '../lib/api-client.js';
import { Stars } from './stars.js';
import { useRateOrder } from './review-actions.js';
import { t } from '../i18n.js';

const starLabel = (count: number) => t('{count, plural, one {# star} other {# stars}}', { count });

/**
 * Once an order is delivered: 'Rate your order' (1–5 stars and an optional text, once), then the rating given.
 * Nothing for an order not delivered.
 */
export function RateOrder({ order, compact = false }: { order: CustomerOrder; compact?: boolean }) {
  if (order.state !== 'delivered') return null;
  const { review } = order;
  if (review)
    return (
      <Stack gap={2} data-testid="your-rating">
        <Text size="sm" fw={600}>
          {t('Your rating')} <Stars stars={review.stars} />
        </Text>
        {review.text && !compact ? (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {review.text}
          </Text>
        ) : null}
      </Stack>
    );
  return <RateOrderForm order={order} compact={compact} />;
}

function RateOrderForm({ order, compact }: { order: CustomerOrder; compact: boolean }) {
  const rate = useRateOrder(order);
  const [stars, setStars] = useState(0);
  const [text, setText] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | undefined>();
  const headingId = `rate-${order.id}`;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ReviewInput.safeParse({ stars, text });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError({
        field: String(issue?.path[0] ?? ''),
        message: issue ? t(issue.message) : t('Please check your rating'),
      });
      return;
    }
    setError(undefined);
    try {
      await rate.mutateAsync(parsed.data);
    } catch (e) {
      setError({
        field: e instanceof ApiError ? e.field : undefined,
        message: (e as Error).message,
      });
    }
  };

  return (
    <Paper
      component="form"
      onSubmit={(e: React.FormEvent) => void submit(e)}
      noValidate
      withBorder={!compact}
      p={compact ? 0 : 'lg'}
      radius="md"
      maw={560}
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Title order={2} size={compact ? 'h5' : 'h4'} id={headingId}>
          {t('Rate your order')}
        </Title>
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <Text component="legend" size="sm" fw={500} mb={4}>
            {t('Stars')}
          </Text>
          <Rating
            value={stars}
            onChange={setStars}
            size="lg"
            name={`stars-${order.id}`}
            getSymbolLabel={starLabel}
          />
          {error?.field === 'stars' ? (
            <Text size="sm" c="red.8" mt={4} role="alert">
              {stars === 0 ? t('Choose from 1 to 5 stars') : error.message}
            </Text>
          ) : null}
        </fieldset>
        {compact ? null : (
          <Textarea
            label={t('Tell others about it (optional)')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={MAX_REVIEW_TEXT}
            autosize
            minRows={2}
            maxRows={6}
            error={error?.field === 'text' ? error.message : undefined}
          />
        )}
        {error && error.field !== 'stars' && error.field !== 'text' ? (
          <Text size="sm" c="red.8" role="alert">
            {error.message}
          </Text>
        ) : null}
        <Button type="submit" loading={rate.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('Send rating')}
        </Button>
      </Stack>
    </Paper>
  );
}
