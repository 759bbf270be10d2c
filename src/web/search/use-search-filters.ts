import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useNavigate, useSearchParams } from '../router/router.js';
import { DIETARY_TAGS, type DietaryTag } from '../../shared/dietary-tags.js';
import { formatLatLon, parseLatLon } from '../../shared/search-params.js';
import type { LatLon } from '../../shared/geo.js';
import type { AvoidedAllergens } from '../allergies/use-allergy-profile.js';

/** What the landing page is narrowed to; it lives in the URL (`/?q=biryani&diet=halal`), so it can be shared. */
export interface SearchFilters {
  q: string;
  cuisine: string;
  diet: DietaryTag[];
  near: LatLon | undefined;
  /** Only kitchens open now (each kitchen's hours in its own zone: paged on the server, kept current here). */
  open: boolean;
}

/** Whether the list is narrowed (the server pages the matching kitchens rather than every kitchen). */
export const isFiltered = (f: SearchFilters) =>
  f.q.trim() !== '' || f.cuisine !== '' || f.diet.length > 0 || !!f.near || f.open;

/**
 * The API query of these filters (the same names as the page's URL), and of 'Hide dishes with my allergens' when on
 * (sent to the API only: the page's URL never carries a person's allergies).
 */
export function searchQueryString(f: SearchFilters, allergies?: AvoidedAllergens): string {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q.trim());
  if (f.cuisine) params.set('cuisine', f.cuisine);
  if (f.diet.length) params.set('diet', f.diet.join(','));
  if (f.near) params.set('near', formatLatLon(f.near));
  if (f.open) params.set('open', '1');
  if (allergies?.avoid.length) {
    params.set('avoid', allergies.avoid.join(','));
    if (!allergies.mayContain) params.set('mayContain', '0');
  }
  return params.toString();
}

/**
 * The filters read from the URL, and a setter that writes them back as a new history entry (so the back button
 * returns to the previous search). Unknown values in a hand-edited URL are ignored rather than refused. A change
 * may be a function of the filters: it then builds on the last change asked for even while the URL has not caught
 * up with it yet (two chips ticked in quick succession both count).
 */
export function useSearchFilters() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filters = useMemo<SearchFilters>(
    () => ({
      q: (params.get('q') ?? '').slice(0, 100),
      cuisine: (params.get('cuisine') ?? '').slice(0, 40),
      diet: DIETARY_TAGS.filter((tag) => (params.get('diet') ?? '').split(',').includes(tag)),
      near: parseLatLon(params.get('near') ?? ''),
      open: params.get('open') === '1',
    }),
    [params],
  );
  /** The changes asked for and not yet in the URL, oldest first, each with its query. */
  const pending = useRef<{ filters: SearchFilters; query: string }[]>([]);
  useEffect(() => {
    const query = params.toString();
    const reached = pending.current.findIndex((p) => p.query === query);
    // Caught up with a change asked for (the ones before it are done too), or moved on its own (the back button,
    // a link): then the URL is the truth again.
    pending.current = reached < 0 ? [] : pending.current.slice(reached + 1);
  }, [params]);
  const update = useCallback(
    (change: Partial<SearchFilters> | ((current: SearchFilters) => Partial<SearchFilters>)) => {
      const current = pending.current.at(-1)?.filters ?? filters;
      const next = { ...current, ...(typeof change === 'function' ? change(current) : change) };
      // Commas left readable (`diet=halal,vegan`, `near=51.5,-0.1`): they need no escaping in a query.
      const query = searchQueryString(next).replace(/%2C/g, ',');
      pending.current.push({ filters: next, query: new URLSearchParams(query).toString() });
      void navigate({ search: query ? `?${query}` : '' }, { preventScrollReset: true });
    },
    [filters, navigate],
  );
  return { filters, update };
}
