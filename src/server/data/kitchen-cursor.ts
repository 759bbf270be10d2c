import { sql, type SQL } from 'drizzle-orm';
import { badRequest } from '../lib/errors.js';

/**
 * Keyset paging of kitchens (never OFFSET): a page's `next` cursor is its last kitchen's sort key, opaque to the
 * client (base64url of JSON), and the next page is the kitchens sorting after it. The key always ends with the
 * kitchen's creation time (in microseconds, as stored, so equal milliseconds are still told apart) and its owner
 * id, which make it unique: equal times or distances neither repeat nor skip a kitchen.
 */
export type CursorKind = 'newest' | 'nearest' | 'best' | 'nearest-best';

/** One column of a sort key: its SQL, its direction, and how its cursor value is cast back. */
export interface SortColumn {
  sql: SQL;
  direction: 'asc' | 'desc';
  cast: 'float8' | 'real' | 'micros' | 'uuid';
}

const NUMBER = /^(-?\d+(\.\d+)?(e[+-]?\d+)?|Infinity)$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MICROS = /^\d{1,16}$/;
/** Microseconds since 1970 the database can still add to a date (about the year 287,000; its limit is 294,276). */
const MAX_MICROS = 9e15;

/** The smallest and largest magnitudes (besides 0) the database reads into each floating type without an error. */
const FLOAT_RANGE = { float8: [1e-307, 1e308], real: [1.2e-38, 3.4e38] } as const;

/** A number the database reads as this type: within its range (a distance may be Infinity: no place). */
const isNumberOf = (cast: 'float8' | 'real', value: string) => {
  if (!NUMBER.test(value)) return false;
  if (value.toLowerCase() === 'infinity') return cast === 'float8';
  const magnitude = Math.abs(Number(value));
  const [least, most] = FLOAT_RANGE[cast];
  // Zero only when written as zero: 1e-999 reads as 0 here, but is out of range for the database.
  if (magnitude === 0) return /^-?0+(\.0+)?(e[+-]?\d+)?$/i.test(value);
  return magnitude >= least && magnitude <= most;
};

const isValid = (cast: SortColumn['cast'], value: unknown): value is string =>
  typeof value === 'string' &&
  value.length <= 200 &&
  (cast === 'uuid'
    ? UUID.test(value)
    : cast === 'micros'
      ? MICROS.test(value) && Number(value) <= MAX_MICROS
      : isNumberOf(cast, value));

/** The cursor after a row whose sort key is `values` (as text, exactly as the database wrote them). */
export function encodeCursor(kind: CursorKind, values: string[]): string {
  return Buffer.from(JSON.stringify([kind, ...values])).toString('base64url');
}

/** A cursor's sort key, checked against the columns it must fill; a 400 naming `cursor` for anything else. */
export function decodeCursor(cursor: string, kind: CursorKind, columns: SortColumn[]): string[] {
  const invalid = () =>
    badRequest('This cursor is not one this list gave (ask for the first page again)', 'cursor');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed[0] !== kind || parsed.length !== columns.length + 1) throw invalid();
  const values = parsed.slice(1) as unknown[];
  if (!values.every((value, i) => isValid(columns[i]!.cast, value))) throw invalid();
  return values as string[];
}

const castValue = (column: SortColumn, value: string): SQL => {
  switch (column.cast) {
    case 'float8':
      return sql`${value}::float8`;
    case 'real':
      return sql`${value}::real`;
    case 'micros':
      return sql`(timestamptz 'epoch' + ${value}::bigint * interval '1 microsecond')`;
    case 'uuid':
      return sql`${value}::uuid`;
  }
};

/** The rows sorting after the key `values`, for an `order by` of `columns` in their order. */
export function after(columns: SortColumn[], values: string[]): SQL {
  const alternatives = columns.map((column, i) => {
    const equal = columns.slice(0, i).map((c, j) => sql`${c.sql} = ${castValue(c, values[j]!)}`);
    const beyond = sql`${column.sql} ${sql.raw(column.direction === 'asc' ? '>' : '<')} ${castValue(column, values[i]!)}`;
    return sql`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  // The first column's bound again, on its own: an index on it (kitchens_created_at_idx) can start there.
  const first = columns[0]!;
  const bound = sql`${first.sql} ${sql.raw(first.direction === 'asc' ? '>=' : '<=')} ${castValue(first, values[0]!)}`;
  return sql`(${bound} and (${sql.join(alternatives, sql` or `)}))`;
}

/** The `order by` of `columns`. */
export const orderBy = (columns: SortColumn[]): SQL =>
  sql.join(
    columns.map((c) => sql`${c.sql} ${sql.raw(c.direction)}`),
    sql`, `,
  );

/** A kitchen's creation time as its cursor holds it: microseconds since 1970, as text. */
export const createdMicros = (createdAt: SQL): SQL<string> =>
  sql<string>`(extract(epoch from ${createdAt}) * 1000000)::bigint::text`;
