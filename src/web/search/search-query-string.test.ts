import { expect, it } from 'vitest';
import { KitchenSearchQuery } from '../../shared/search.js';
import { searchQueryString, type SearchFilters } from './use-search-filters.js';

const none: SearchFilters = { q: '', cuisine: '', diet: [], near: undefined, open: false };

it("sends 'Hide dishes with my allergens' as avoid (and mayContain=0 only when it does not matter), which the server reads back", () => {
  expect(searchQueryString({ ...none, q: 'noodles' })).toBe('q=noodles');
  const avoiding = searchQueryString(
    { ...none, q: 'noodles' },
    { avoid: ['sesame', 'tree nuts'], mayContain: true },
  );
  expect(avoiding).toBe('q=noodles&avoid=sesame%2Ctree+nuts');
  expect(KitchenSearchQuery.parse(Object.fromEntries(new URLSearchParams(avoiding)))).toMatchObject({
    avoid: ['tree nuts', 'sesame'],
    mayContain: true,
  });
  const mayContainAside = searchQueryString(none, { avoid: ['milk'], mayContain: false });
  expect(mayContainAside).toBe('avoid=milk&mayContain=0');
  expect(KitchenSearchQuery.parse(Object.fromEntries(new URLSearchParams(mayContainAside)))).toMatchObject({
    avoid: ['milk'],
    mayContain: false,
  });
  expect(searchQueryString(none, { avoid: [], mayContain: true })).toBe('');
});
