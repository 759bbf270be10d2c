import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Earnings } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';

/** The days asked (YYYY-MM-DD, the kitchen's calendar); left out, the server answers the last 12 months. */
export interface EarningsRange {
  from?: string | undefined;
  to?: string | undefined;
}

const query = (range: EarningsRange) => {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** Keyed by the cook, so that another cook signing in on this browser never sees these. */
export const earningsKey = (ownerUid: string, range: EarningsRange) =>
  ['earnings', ownerUid, range.from ?? '', range.to ?? ''] as const;
export const allEarningsKey = ['earnings'] as const;

export const fetchEarnings = (range: EarningsRange) =>
  api.get<Earnings>(`/api/kitchen/earnings${query(range)}`);

/** The same lines as a CSV file: the link 'Download CSV' follows (the browser sends the session cookie). */
export const earningsCsvUrl = (range: EarningsRange) => `/api/kitchen/earnings.csv${query(range)}`;

/** The signed-in cook's paid orders over `range`; the last answer stays on screen while another range loads. */
export function useEarnings(ownerUid: string, range: EarningsRange) {
  return useQuery({
    queryKey: earningsKey(ownerUid, range),
    queryFn: () => fetchEarnings(range),
    placeholderData: keepPreviousData,
  });
}
