import type { Locale } from './i18n/locales.js';
import type { AvailabilityWindow } from './opening-hours-rules.js';
import type { Catalogue } from './i18n/messages.js';
import { translator, type Translator } from './i18n/translator.js';
/** One query of a TanStack Query cache as `dehydrate` writes it and `hydrate` reads it. */
export interface DehydratedQuery {
  queryKey: readonly unknown[];
  queryHash: string;
  dehydratedAt: number;
  state: {
    data: unknown;
    dataUpdateCount: number;
    dataUpdatedAt: number;
    error: null;
    errorUpdateCount: number;
    errorUpdatedAt: number;
    fetchFailureCount: number;
    fetchFailureReason: null;
    fetchMeta: null;
    isInvalidated: boolean;
    status: 'success';
    fetchStatus: 'idle';
  };
}

/**
 * What a server-rendered page hands the browser (as `<script type="application/json" id="page-data">`): the
 * instant it was rendered at, so 'Open now' is computed the same on both sides, and the query cache it was rendered
 * from, in TanStack Query's own dehydrated form, so the browser hydrates it (`hydrate`) without fetching it again.
 */
export interface PageData {
  /** The server's clock when the page was rendered (ms since the epoch). */
  now: number;
  /** TanStack Query's dehydrated state: the queries the page was rendered from. */
  cache: { mutations: []; queries: DehydratedQuery[] };
  /** Its kitchens' availability as the render computed it, and until when each holds. */
  clocks?: AvailabilityWindow[];
  /**
   * The version (the live stream's tag, `etagOf`) of each query the page was rendered from that is a live topic, by
   * query hash: the browser's stream says it holds that version, and is not sent it again as the page hydrates.
   */
  versions?: Record<string, string>;
}

/** A query a page is rendered from: its key, its data as JSON, and its live topic's version when it is one. */
export type PageQuery = readonly [key: readonly string[], json: string, version?: string];

/**
 * A dehydrated cache of `queries` ([query key, data as JSON]) at `now`, as JSON: built from the topics' JSON as it is
 * (no parse and stringify of what may be a long list). A key of strings hashes as TanStack Query hashes it.
 */
export function dehydratedCacheJson(queries: readonly PageQuery[], now: number): string {
  const entries = queries.map(([key, json]) => {
    const keyJson = JSON.stringify(key);
    return `{"queryKey":${keyJson},"queryHash":${JSON.stringify(keyJson)},"dehydratedAt":${now},"state":{"data":${json},"dataUpdateCount":1,"dataUpdatedAt":${now},"error":null,"errorUpdateCount":0,"errorUpdatedAt":0,"fetchFailureCount":0,"fetchFailureReason":null,"fetchMeta":null,"isInvalidated":false,"status":"success","fetchStatus":"idle"}}`;
  });
  return `{"mutations":[],"queries":[${entries.join(',')}]}`;
}

/** The `versions` of a page's data (see `PageData`), as JSON: the queries that are live topics, by query hash. */
export function pageVersionsJson(queries: readonly PageQuery[]): string {
  const versions: Record<string, string> = {};
  for (const [key, , version] of queries) if (version !== undefined) versions[JSON.stringify(key)] = version;
  return JSON.stringify(versions);
}

/** The id of the element holding the page's data. */
export const PAGE_DATA_ID = 'page-data';

/** The language a page is rendered in. */
export interface RenderLanguage {
  locale: Locale;
  /** Every compiled message of the language. */
  messages: Catalogue;
  currency: string;
}

/** What the server-side bundle (src/web/ssr-entry.tsx, built into dist/ssr) exports. */
export interface PageRenderer {
  /**
   * The app's HTML for `url` (path and query), rendered from `data` alone (it fetches nothing), the keys of the
   * messages it used (the browser hydrates with those), and the availability it computed (the page carries it).
   */
  render(
    url: string,
    data: PageData,
    language: RenderLanguage,
  ): Promise<{ html: string; used: string[]; clocks: AvailabilityWindow[] }>;
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

/** The title of every page but a kitchen's (the one in index.html), in the current language. */
export const siteTitle = (tr: Translator = translator()) =>
  tr.t('HomeCooked — homemade food from home cooks');

/** A kitchen's page's title, the same in the served HTML and after a navigation in the browser. */
export const kitchenPageTitle = (
  kitchen: { name: string; category: string },
  tr: Translator = translator(),
) => tr.t('{kitchen} — {cuisine} | HomeCooked', { kitchen: kitchen.name, cuisine: kitchen.category });
