import { Button, Stack, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MAX_REVIEW_TEXT, ReplyInput, type Review } from '../../shared/reviews.js';
import { ReviewList } from '../reviews/review-list.js';
import { useReplyToReview } from '../reviews/review-actions.js';
import { t } from '../i18n.js';

/** The dashboard's 'Reviews': the kitchen's reviews as customers see them, each unanswered one with a reply form. */
export function KitchenReviews({ kitchenUid }: { kitchenUid: string }) {
  return (
    <ReviewList
      kitchenUid={kitchenUid}
      renderReplyForm={(review) => <ReplyForm kitchenUid={kitchenUid} review={review} />}
    />
  );
}

/** The cook's one public reply to a review. */
function ReplyForm({ kitchenUid, review }: { kitchenUid: string; review: Review }) {
  const reply = useReplyToReview(kitchenUid);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ReplyInput.safeParse({ reply: text });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]?.message ?? 'Please check your reply'));
      return;
    }
    setError(undefined);
    try {
      await reply.mutateAsync({ id: review.id, reply: parsed.data.reply });
      notifications.show({
        color: 'green',
        title: t('Reply published'),
        message: t('To {name}', { name: review.reviewerName }),
      });
    } catch (e) {
      setError(t((e as Error).message));
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="xs" mt="xs" maw={560}>
        <Textarea
          label={t('Reply to {name}', { name: review.reviewerName })}
          description={t('Shown under the review on your menu page; you can reply once.')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maxLength={MAX_REVIEW_TEXT}
          autosize
          minRows={2}
          maxRows={6}
          error={error}
        />
        <Button
          type="submit"
          size="sm"
          variant="light"
          loading={reply.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('Publish reply')}
        </Button>
      </Stack>
    </form>
  );
}
