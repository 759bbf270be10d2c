import { useQuery } from '@tanstack/react-query';
import type { MoneyOverview } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';

export const moneyKey = ['operator', 'money'] as const;

/** The operator's 'Money' tab: asked when the tab is opened, and again each time it is. */
export function useMoneyOverview() {
  return useQuery({
    queryKey: moneyKey,
    queryFn: () => api.get<MoneyOverview>('/api/operator/money'),
    refetchOnMount: 'always',
  });
}
