import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { GEOCODE_DEBOUNCE_MS } from '../../shared/geocode-pace.js';
import type { AddressSuggestion, GeocodeSettings } from '../../shared/geocode.js';
import { api } from '../lib/api-client.js';

function useGeocodeSettings() {
  return useQuery({
    queryKey: ['geocode', 'settings'],
    queryFn: () => api.get<GeocodeSettings>('/api/geocode/settings'),
    staleTime: Infinity,
    retry: false,
  });
}

/** How long to wait after a keystroke before asking: the configured provider's pace (0 = never ask). */
export function useGeocodeDebounce(): number {
  const kind = useGeocodeSettings().data?.kind ?? 'off';
  return GEOCODE_DEBOUNCE_MS[kind];
}

/** Suggestions for an already debounced address text; none for short text or when the geocoder is off. */
export function useAddressSuggestions(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['geocode', q],
    queryFn: () => api.get<AddressSuggestion[]>(`/api/geocode?q=${encodeURIComponent(q)}`),
    enabled: enabled && q.length >= 3 && q.length <= 200,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
