import { useQuery } from '@tanstack/react-query';
import type { CreditAccount } from '../../shared/credit.js';
import { api } from '../lib/api-client.js';

export const creditKey = ['account', 'credit'] as const;

/** The signed-in customer's store credit: balance and movements (ADR 29). */
export function useCredit(enabled = true) {
  return useQuery({
    queryKey: creditKey,
    queryFn: () => api.get<CreditAccount>('/api/account/credit'),
    enabled,
  });
}
