/**
 * What a server-rendered page hands the browser (as `<script type="application/json" id="page-data">`): the
 * instant it was rendered at, so 'Open now' is computed the same on both sides, and the query cache entries it was
 * rendered from, so the browser hydrates without fetching them again.
 */
export interface PageData {
  /** The server's clock when the page was rendered (ms since the epoch). */
  now: number;
  /** TanStack Query entries: [query key, data]. */
  queries: [readonly unknown[], unknown][];
}

/** The id of the element holding the page's data. */
export const PAGE_DATA_ID = 'page-data';

/** What the server-side bundle (src/web/ssr-entry.tsx, built into dist/ssr) exports. */
export interface PageRenderer {
  /** The app's HTML for `url` (path and query), rendered from `data` alone: it fetches nothing. */
  render(url: string, data: PageData): Promise<string>;
}

/**
 * JSON safe inside a `<script>` element: `<` is written `\u003c` (valid in JSON strings, and `<` never appears
 * outside one), so no `</script>` or `<!--` in a cook's text can end the element.
 */
export const scriptSafeJson = (json: string): string =>
  json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The title of every page but a kitchen's (the one in index.html). */
export const SITE_TITLE = 'HomeCooked — homemade food from home cooks';

/** A kitchen's page's title, the same in the served HTML and after a navigation in the browser. */
export const kitchenPageTitle = (kitchen: { name: string; category: string }) =>
  `${kitchen.name} — ${kitchen.category} | HomeCooked`;
