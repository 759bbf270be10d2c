import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { MarketplaceFees } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';
import { t, translator } from '../i18n.js';

/**
 * What selling here costs a cook (GET /api/fees), read once: it changes with the deployment's settings, or on a day
 * announced 30 days ahead (`upcoming`).
 */
export function useMarketplaceFees() {
  return useQuery({
    queryKey: ['fees'],
    queryFn: () => api.get<MarketplaceFees>('/api/fees'),
    staleTime: Infinity,
  });
}

/**
 * The fees a cook agrees to, said before they agree: at sign-up and on 'Get paid'. Nothing while they load (or if
 * they cannot be loaded: the rest of the page works without them).
 */
export function FeesNote() {
  const fees = useMarketplaceFees();
  if (!fees.data) return null;
  const percent = translator().numberFormat({ maximumFractionDigits: 2 }).format(fees.data.commissionPercent);
  const { upcoming } = fees.data;
  return (
    <Text size="sm" data-testid="fees-note">
      {fees.data.cardPayments
        ? t(
            "What selling here costs you: on a card order the platform keeps {percent} % of your dishes' price, and the delivery fee comes to you whole. A cash order costs you nothing.",
            { percent },
          )
        : t('What selling here costs you: nothing. Your customers pay you in cash.')}
      {fees.data.cardPayments && upcoming && (
        <>
          {' '}
          {t('From {date}, the platform will keep {percent} % (every cook was told by email).', {
            date: translator()
              .dateFormat({ dateStyle: 'long', timeZone: 'UTC' })
              .format(new Date(`${upcoming.effectiveOn}T12:00:00Z`)),
            percent: translator()
              .numberFormat({ maximumFractionDigits: 2 })
              .format(upcoming.commissionPercent),
          })}
        </>
      )}
    </Text>
  );
}
