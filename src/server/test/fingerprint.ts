import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';

/**
 * A fingerprint of the rows of `tables` (each filtered by `where[table]` on its alias `t`, all rows by default), in
 * one statement: per table, the number of rows and the sum of a 60-bit hash of each row's text. The sum does not
 * depend on the rows' order, so nothing is sorted: a call costs one pass over the rows, however many there are.
 */
export async function fingerprintTables(
  db: DbOrTx,
  tables: readonly string[],
  where: (table: string) => SQL = () => sql`true`,
): Promise<string> {
  const parts = tables.map(
    (table) =>
      sql`select ${table}::text as name, count(*)::int as n,
        coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint), 0)::text as h
        from ${sql.raw(table)} t where ${where(table)}`,
  );
  const result = await db.execute(sql.join(parts, sql` union all `));
  const rows = (result as unknown as { rows: { name: string; n: number; h: string }[] }).rows;
  return rows.map((row) => `${row.name}:${row.n}:${row.h}`).join('\n');
}
