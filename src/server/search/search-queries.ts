import { sql, type SQL } from 'drizzle-orm';
import { MAX_SEARCH_RESULTS, type KitchenSearch, type KitchenSearchHit } from '../../shared/search.js';
import type { WeeklyHours } from '../../shared/opening-hours.js';
import type { Db, Tx } from '../db/database.js';

import { ratingsOf } from '../data/review-queries.js';
import type { Rating } from '../../shared/reviews.js';
import { countKitchens, newestKitchensPage, toKitchen, type KitchenRow } from '../data/kitchen-queries.js';
import {
  after,
  createdMicros,
  decodeCursor,
  encodeCursor,
  orderBy,
  type CursorKind,
  type SortColumn,
} from '../data/kitchen-cursor.js';
import type { KitchenPage, KitchenPageRequest } from '../../shared/search.js';

/**
 * How alike the typed words and a name must be (pg_trgm's word similarity, 0..1). PostgreSQL's default, 0.6,
 * misses one-letter typos in short words ('biryni' is 0.57 of 'Chicken Biryani'); below 0.4 unrelated names creep
 * in.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.45;
/** Matching dishes named on one card, at most. */
const MAX_DISHES_PER_KITCHEN = 3;
/**
 * Dishes a search with words scores, at most, and as many kitchens found by name or cuisine (its candidates). Without
 * a cap a common word scored every dish it matched ('chicken': 18,000 of 200,000, half a second on a loaded machine);
 * with it a search costs about the same however broad its words. See `searchParts`.
 */
export const MAX_CANDIDATES = 300;
/**
 * Rows a search reads, at most, to pick its best MAX_CANDIDATES among the names that are alike but not exact: each is
 * scored, and read from anywhere in the table (1,200 took 14 of a three-word search's 21 ms on 200,000 dishes).
 */
const MAX_SCANNED = 2 * MAX_CANDIDATES;

/** Great-circle distance in km from `near` to the kitchen's place (null when it has none). */
const distanceKm = (near: { lat: number; lon: number }) => sql`
  (6371 * 2 * asin(sqrt(
    power(sin(radians(k.latitude - ${near.lat}) / 2), 2) +
    cos(radians(${near.lat})) * cos(radians(k.latitude)) * power(sin(radians(k.longitude - ${near.lon}) / 2), 2)
  )))`;

/**
 * A dish of kitchen `k` carrying every one of the dietary tags. The kitchen's tags together (dish_dietary, kept by the
 * database: migration 0021) answer for one tag, and sieve for several before their dishes are read.
 */
const hasDietDish = (diet: string[]) => {
  const sieve = sql`k.dish_dietary @> ${toArray(diet)}`;
  return diet.length === 1
    ? sieve
    : sql`${sieve} and exists (select 1 from menu_items d where d.kitchen_id = k.owner_id and d.dietary @> ${toArray(diet)})`;
};

/**
 * A dish `d` that holds none of the allergens avoided ('Hide dishes with my allergens'): declared (a dish of before
 * declarations may hold anything), and neither contains one nor, when `mayContain`, may contain one. The menu hides
 * the same dishes (public-menu-list.tsx).
 */
const safeDish = ({ avoid, mayContain }: Pick<KitchenSearch, 'avoid' | 'mayContain'>) =>
  mayContain
    ? sql`d.allergens_declared_at is not null and not (d.allergens && ${toArray(avoid)} or d.may_contain && ${toArray(avoid)})`
    : sql`d.allergens_declared_at is not null and not (d.allergens && ${toArray(avoid)})`;

/**
 * A dish of kitchen `k` left by the allergens avoided, carrying every one of the dietary tags too (the kitchen's tags
 * together sieve first, as for hasDietDish).
 */
const hasSafeDish = (search: Pick<KitchenSearch, 'avoid' | 'mayContain' | 'diet'>) => {
  const diet = search.diet.length ? sql` and d.dietary @> ${toArray(search.diet)}` : sql``;
  const safe = sql`exists (select 1 from menu_items d where d.kitchen_id = k.owner_id and ${safeDish(search)}${diet})`;
  return search.diet.length ? sql`k.dish_dietary @> ${toArray(search.diet)} and ${safe}` : safe;
};

const toArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/**
 * A search's settings for its transaction, in one statement. Worker processes would only take cores from the other
 * searches (each is short, many run at once). With words: the trigram indexes, not a table scan that stops at the
 * cap (the planner takes a limit for a reason to scan); and for the search itself, the few kitchens found read by
 * key, not the whole table to join them with; and no JIT compiling (a plan left without an index then costs 10^10,
 * and compiling it took longer than running it).
 */
const searchSettings = (tx: Tx, words: boolean) =>
  tx.execute(
    words
      ? sql`select set_config('max_parallel_workers_per_gather', '0', true), set_config('enable_seqscan', 'off', true),
                   set_config('jit', 'off', true)`
      : sql`select set_config('max_parallel_workers_per_gather', '0', true)`,
  );

/**
 * Kitchens matching a search: words found (with typos and without accents) in the kitchen's name, category or
 * dish names; an optional cuisine (category, any case) and dietary tags a dish must all carry. Nearest first when
 * the customer's place is known, else best match first, else newest first. Words are matched among a capped set of
 * candidates (searchParts); the `<%` operators use the trigram indexes on kitchens.search_name (name and cuisine) and
 * menu_items.item_search (migrations 0006 and 0021, by hand: drizzle's schema does not list these generated
 * columns).
 */
export async function searchKitchens(db: Db, search: KitchenSearch): Promise<KitchenSearchHit[]> {
  const { near } = search;
  // A kitchen an operator suspended is found by no search.
  const distance = near ? distanceKm(near) : sql`null::double precision`;
  const words = search.q.length > 0;
  const order: SQL[] = [];
  if (near) order.push(sql`distance_km asc nulls last`);
  if (words) order.push(sql`mt.score desc`);
  order.push(sql`k.created_at desc, k.owner_id desc`);
  const rows = await db.transaction(async (tx) => {
    await searchSettings(tx, words);
    const { filters, matches, join } = searchParts(search);
    const query = sql`${matches}
      select k.*, ${words ? sql`mt.dishes` : sql`null::text[]`} as dishes, ${distance} as distance_km,
        i.width as image_width, i.height as image_height, i.widths as image_widths
      from kitchens k ${join}
      left join images i on i.id = k.image_id
      where ${sql.join(filters, sql` and `)}
      order by ${sql.join(order, sql`, `)}
      limit ${MAX_SEARCH_RESULTS}`;
    return ((await tx.execute(query)) as unknown as { rows: SearchRow[] }).rows;
  });
  const ratings = await ratingsOf(
    db,
    rows.map((r) => r.owner_id),
  );
  return rows.map((row) => toHit(row, ratings.get(row.owner_id) ?? null));
}

interface SearchRow {
  owner_id: string;
  name: string;
  category: string;
  address: string;
  image_link: string | null;
  image_id: string | null;
  image_width: number | null;
  image_height: number | null;
  image_widths: number[] | null;
  owner_name: string;
  owner_email: string;
  latitude: number | null;
  longitude: number | null;
  delivery_radius_km: number;
  time_zone: string;
  opening_hours: WeeklyHours | null;
  paused_at: string | Date | null;
  paused_until: string | Date | null;
  about: string;
  suspended_at: string | Date | null;
  payout_account_id: string | null;
  payout_state: 'not-set-up' | 'details-needed' | 'payouts-on';
  accepts_cash: boolean;
  created_at: string | Date;
  dishes: (string | null)[] | null;
  distance_km: number | null;
}

function toHit(row: SearchRow, rating: Rating | null): KitchenSearchHit {
  const kitchen = toKitchen(
    {
      ownerId: row.owner_id,
      name: row.name,
      category: row.category,
      address: row.address,
      imageLink: row.image_link,
      imageId: row.image_id,
      ownerName: row.owner_name,
      ownerEmail: row.owner_email,
      latitude: row.latitude,
      longitude: row.longitude,
      deliveryRadiusKm: row.delivery_radius_km,
      timeZone: row.time_zone,
      openingHours: row.opening_hours,
      pausedAt: row.paused_at === null ? null : new Date(row.paused_at),
      pausedUntil: row.paused_until === null ? null : new Date(row.paused_until),
      about: row.about,
      suspendedAt: row.suspended_at === null ? null : new Date(row.suspended_at),
      payoutAccountId: row.payout_account_id,
      payoutAccountRequestedAt: null, // not read by a search
      payoutState: row.payout_state,
      acceptsCash: row.accepts_cash,
      acceptsTips: true, // not read by a search
      createdAt: new Date(row.created_at),
    } satisfies KitchenRow,
    row.image_id === null
      ? null
      : {
          id: row.image_id,
          ownerId: row.owner_id,
          width: row.image_width ?? 0,
          height: row.image_height ?? 0,
          widths: row.image_widths ?? [],
          // A kitchen's picture is a cook's: public.
          private: false,
          createdAt: new Date(row.created_at),
        },
    rating,
  );
  return {
    ...kitchen,
    matchingDishes: (row.dishes ?? []).filter((d): d is string => d !== null),
    distanceKm: row.distance_km === null ? null : Math.round(row.distance_km * 10) / 10,
  };
}

/**
 * Kitchens open at `instant`: their hours hold it in their own time zone (hc_open_at, drizzle/0017_open_now.sql, the
 * SQL twin of isOpenAt) and the cook has not paused orders (isPaused).
 */
const openAt = (instant: Date): SQL => {
  const at = sql`${instant.toISOString()}::timestamptz`;
  return sql`hc_open_at(k.opening_hours, k.time_zone, ${at})
    and (k.paused_at is null or (k.paused_until is not null and k.paused_until <= ${at}))`;
};

/**
 * The matches of a search with words (none without words): its best candidates, a dish of a kitchen or the kitchen
 * itself, found by hc_search_candidates (migration 0021) in two steps so that neither reads every name a common word
 * matches: first names holding the words exactly (word similarity 1, the trigram index finds them without a miss),
 * up to MAX_CANDIDATES; then, if fewer, names alike at WORD_SIMILARITY_THRESHOLD or more (typos, parts of the words),
 * the best of at most MAX_SCANNED of them. When more than MAX_CANDIDATES dishes hold the words exactly, which of them
 * are kept is the index's order; the kitchens found are still those with the best match. Dishes carry the dietary
 * tags searched and belong to a kitchen of the cuisine searched; kitchens are found by name or cuisine, each kind
 * capped apart. Dishes holding an allergen avoided are dropped from the candidates (so a common word may find fewer
 * safe dishes than the cap would allow: the candidates are picked before the allergens are read). `capped`: whether a kind filled its room (there may be more than it kept), so that a count of what
 * was found is a lower bound. Found inside the search's own statement, not read back and sent again.
 */
function searchParts(search: KitchenSearch) {
  const { q, cuisine, diet, avoid } = search;
  const filters: SQL[] = [sql`k.suspended_at is null and k.listing = 'listed'`];
  if (cuisine) filters.push(sql`lower(k.category) = lower(${cuisine})`);
  if (avoid.length) filters.push(hasSafeDish(search));
  else if (diet.length) filters.push(hasDietDish(diet));
  if (q.length === 0) return { filters, matches: sql``, join: sql``, capped: sql`false` };
  // A dish found that holds an allergen avoided is no match (a kitchen found by its name stays, with a safe dish).
  const kept = avoid.length
    ? sql`where item is null or exists (select 1 from menu_items d where d.kitchen_id = hits.kitchen_id
              and d.item || coalesce(' · ' || d.second_name, '') = hits.item and ${safeDish(search)})`
    : sql``;
  const matches = sql`with hits as materialized (
      select hit_kitchen as kitchen_id, hit_item as item, hit_score as score
      from hc_search_candidates(${q}, ${toArray(diet)}, ${cuisine || null}, ${MAX_CANDIDATES}, ${MAX_SCANNED},
                                ${WORD_SIMILARITY_THRESHOLD})
    ), matches as (
      select kitchen_id, max(score) as score,
             (array_agg(item order by score desc, item) filter (where item is not null))[1:${MAX_DISHES_PER_KITCHEN}] as dishes
      from hits ${kept} group by kitchen_id)`;
  const capped = sql`(select count(*) filter (where item is not null) >= ${MAX_CANDIDATES}
                             or count(*) filter (where item is null) >= ${MAX_CANDIDATES} from hits)`;
  return { filters, matches, join: sql`join matches mt on mt.kitchen_id = k.owner_id`, capped };
}

/**
 * One page of kitchens matching a search (or of every kitchen): nearest first when `near` is given (kitchens with
 * no place last), then best match first when words are searched, then newest first; keyset-paged by `cursor` (a
 * `next` this gave; 400 naming `cursor` otherwise). The first page says how many match in all.
 */
export async function searchKitchenPage(
  db: Db,
  request: KitchenPageRequest,
  now: Date,
): Promise<KitchenPage> {
  const { near, limit, cursor } = request;
  if (
    !near &&
    !request.q &&
    !request.cuisine &&
    request.diet.length === 0 &&
    request.avoid.length === 0 &&
    !request.open
  ) {
    // Every kitchen, newest first: the same page the live first page is made of, without a search's transaction.
    const [page, total] = await Promise.all([
      newestKitchensPage(db, limit, cursor),
      cursor === undefined ? countKitchens(db) : undefined,
    ]);
    const kitchens = page.kitchens.map((k) => ({ ...k, matchingDishes: [], distanceKm: null }));
    return { kitchens, next: page.next, ...(total === undefined ? {} : { total }) };
  }
  const words = request.q.length > 0;
  const distance = near ? distanceKm(near) : sql`null::double precision`;
  const columns: SortColumn[] = [];
  // Infinity for a kitchen without a place: last, and a key like the others' (no nulls to compare).
  if (near)
    columns.push({ sql: sql`coalesce(${distance}, 'infinity'::float8)`, direction: 'asc', cast: 'float8' });
  if (words) columns.push({ sql: sql`mt.score`, direction: 'desc', cast: 'real' });
  columns.push(
    { sql: sql`k.created_at`, direction: 'desc', cast: 'micros' },
    { sql: sql`k.owner_id`, direction: 'desc', cast: 'uuid' },
  );
  const kind: CursorKind = near ? (words ? 'nearest-best' : 'nearest') : words ? 'best' : 'newest';
  // Decoded first: a cursor this list did not give is the client's mistake (400), before any query runs.
  const position = cursor === undefined ? undefined : after(columns, decodeCursor(cursor, kind, columns));
  const keyText = columns.map((c, i) =>
    c.cast === 'micros'
      ? sql`${createdMicros(c.sql)} as key_${sql.raw(String(i))}`
      : sql`(${c.sql})::text as key_${sql.raw(String(i))}`,
  );
  // The first page says how many match: with words, counted among the matches by the page's own statement; without,
  // by a count of its own (every kitchen may match: a count over them all would keep the page from reading only its
  // first rows).
  const countAlong = words && cursor === undefined;
  const { rows, total, capped } = await db.transaction(async (tx) => {
    await searchSettings(tx, words);
    const { filters, matches, join, capped } = searchParts(request);
    if (request.open) filters.push(openAt(now));
    const where = position ? [...filters, position] : filters;
    const query = sql`${matches}
      select k.*, ${words ? sql`mt.dishes` : sql`null::text[]`} as dishes, ${distance} as distance_km,
        i.width as image_width, i.height as image_height, i.widths as image_widths, ${sql.join(keyText, sql`, `)}
        ${countAlong ? sql`, count(*) over ()::int as total, ${capped} as capped` : sql``}
      from kitchens k ${join}
      left join images i on i.id = k.image_id
      where ${sql.join(where, sql` and `)}
      order by ${orderBy(columns)}
      limit ${limit + 1}`;
    const { rows } = (await tx.execute(query)) as unknown as {
      rows: (SearchRow & Record<string, string> & { total?: number; capped?: boolean })[];
    };
    if (countAlong) return { rows, total: rows[0]?.total ?? 0, capped: rows[0]?.capped ?? false };
    const countQuery = sql`select count(*)::int as n from kitchens k where ${sql.join(filters, sql` and `)}`;
    const counted =
      cursor === undefined
        ? ((await tx.execute(countQuery)) as unknown as { rows: { n: number }[] }).rows[0]?.n
        : undefined;
    return { rows, total: counted, capped: false };
  });
  const page = rows.slice(0, limit);
  const ratings = await ratingsOf(
    db,
    page.map((r) => r.owner_id),
  );
  const last = page.at(-1);
  return {
    kitchens: page.map((row) => toHit(row, ratings.get(row.owner_id) ?? null)),
    next:
      rows.length > limit && last
        ? encodeCursor(
            kind,
            columns.map((_, i) => last[`key_${i}`]!),
          )
        : null,
    ...(total === undefined ? {} : { total, ...(capped ? { totalAtLeast: true } : {}) }),
  };
}
