import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OperatorRules, RuleOverride, RuleOverrideInput } from '../../shared/jurisdictions.js';
import type { FeeChange, FeeChangeInput, FeeChanges } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';

const rulesKey = ['operator', 'rules'] as const;
const feesKey = ['operator', 'fee-changes'] as const;

/** Every profile's caps with the overrides in force, and the kitchens with their own (asked each time the tab opens). */
export function useOperatorRules() {
  return useQuery({
    queryKey: rulesKey,
    queryFn: () => api.get<OperatorRules>('/api/operator/rules'),
    refetchOnMount: 'always',
  });
}

/** The commission in force, the earliest day a change may apply, and the changes announced. */
export function useFeeChanges() {
  return useQuery({
    queryKey: feesKey,
    queryFn: () => api.get<FeeChanges>('/api/operator/fee-changes'),
    refetchOnMount: 'always',
  });
}

/** Overrides a value of a profile or a kitchen; the rules are asked again. */
export function useOverrideRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RuleOverrideInput) => api.post<RuleOverride>('/api/operator/rule-overrides', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKey }),
  });
}

/** Announces a change of fees to every cook; the list is asked again. */
export function useAnnounceFeeChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeeChangeInput) => api.post<FeeChange>('/api/operator/fee-changes', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feesKey }),
  });
}
