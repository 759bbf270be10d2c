import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerPlan, KitchenPlans, PlanChange, PlanSettings } from '../../shared/plans.js';
import { api } from '../lib/api-client.js';

const plansKey = ['plans', 'mine'] as const;
const kitchenPlansKey = ['kitchen', 'plans'] as const;

/** 'Your plans': the customer's weekly plans. */
export function usePlans() {
  return useQuery({ queryKey: plansKey, queryFn: () => api.get<CustomerPlan[]>('/api/plans') });
}

/** Skips a week, pauses, resumes or cancels a plan; the plan as it now is replaces it in the list. */
export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: PlanChange }) =>
      api.patch<CustomerPlan>(`/api/plans/${id}`, change),
    onSuccess: (plan) =>
      queryClient.setQueryData<CustomerPlan[]>(plansKey, (plans) =>
        plans?.map((p) => (p.id === plan.id ? plan : p)),
      ),
  });
}

/** The cook's 'Plans'. */
export function useKitchenPlans() {
  return useQuery({ queryKey: kitchenPlansKey, queryFn: () => api.get<KitchenPlans>('/api/kitchen/plans') });
}

/** Saves 'Offer weekly plans' and the cut-off. */
export function useSavePlanSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: PlanSettings) => api.put<PlanSettings>('/api/kitchen/plans/settings', settings),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: kitchenPlansKey }),
  });
}
