import { Text, type TextProps } from '@mantine/core';
import { formatRating } from '../../shared/review-texts.js';
import type { Rating } from '../../shared/reviews.js';
import { t, translator } from '../i18n.js';

/** ★★★★☆, read out as '4 out of 5 stars'. */
export function Stars({ stars, ...props }: { stars: number } & TextProps) {
  return (
    <Text
      component="span"
      // A dark amber: readable on white (4.5:1 and more), still a star's colour.
      c="#8a5300"
      role="img"
      aria-label={t('{stars} out of 5 stars', { stars })}
      style={{ letterSpacing: 1 }}
      {...props}
    >
      {'★'.repeat(stars)}
      {'☆'.repeat(5 - stars)}
    </Text>
  );
}

/** 'rated 4.6 out of 5 by 23 reviews': a rating in words. */
export const ratingWords = (rating: Rating) =>
  t('rated {average} out of 5 by {count, plural, one {# review} other {# reviews}}', {
    average: translator()
      .numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 })
      .format(rating.average),
    count: rating.count,
  });

/** '★ 4.6 (23)': a kitchen's average and number of reviews; nothing before the first. */
export function RatingLine({ rating, ...props }: { rating: Rating | null | undefined } & TextProps) {
  if (!rating) return null;
  return (
    <Text size="sm" fw={600} title={ratingWords(rating)} {...props}>
      {formatRating(rating)}
    </Text>
  );
}
