import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { InsightPeriod, Insights, Overview } from '../../shared/insights.js';
import { api } from '../lib/api-client.js';

/** The period asked: one of the offered ones, or custom days (YYYY-MM-DD, the kitchen's calendar). */
export interface PeriodChoice {
  period: InsightPeriod;
  from?: string | undefined;
  to?: string | undefined;
}

/** The query string of a period (and of a chart, for its CSV file). */
export function periodQuery(choice: PeriodChoice, chart?: string): string {
  const params = new URLSearchParams({ period: choice.period });
  if (choice.period === 'custom') {
    if (choice.from) params.set('from', choice.from);
    if (choice.to) params.set('to', choice.to);
  }
  if (chart) params.set('chart', chart);
  return `?${params.toString()}`;
}

const keyOf = (choice: PeriodChoice) =>
  [
    choice.period,
    choice.period === 'custom' ? (choice.from ?? '') : '',
    choice.period === 'custom' ? (choice.to ?? '') : '',
  ] as const;

/** Keyed by the cook, so that another cook signing in on this browser never sees these. */
export const allInsightsKey = ['insights'] as const;

/** The signed-in cook's insights over a period; the last answer stays on screen while another period loads. */
export function useInsights(ownerUid: string, choice: PeriodChoice) {
  return useQuery({
    queryKey: [...allInsightsKey, ownerUid, ...keyOf(choice)],
    queryFn: () => api.get<Insights>(`/api/kitchen/insights${periodQuery(choice)}`),
    placeholderData: keepPreviousData,
  });
}

export const insightsCsvUrl = (choice: PeriodChoice, chart: string) =>
  `/api/kitchen/insights.csv${periodQuery(choice, chart)}`;

/** The operator's overview of the marketplace over a period. */
export function useOverview(choice: PeriodChoice) {
  return useQuery({
    queryKey: ['overview', ...keyOf(choice)],
    queryFn: () => api.get<Overview>(`/api/operator/overview${periodQuery(choice)}`),
    placeholderData: keepPreviousData,
  });
}

export const overviewCsvUrl = (choice: PeriodChoice, chart: string) =>
  `/api/operator/overview.csv${periodQuery(choice, chart)}`;
