import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './database.js';

const dialect = new PgDialect();
/** One name per distinct statement text: PostgreSQL refuses a name reused for another text on a connection. */
const names = new Map<string, string>();

/**
 * Runs `query` as a named prepared statement: PostgreSQL parses and plans it once per pooled connection instead of
 * on every call (PGlite runs it as usual). For the hottest statements; rows come back as the driver returns them.
 */
export async function executePrepared<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const built = dialect.sqlToQuery(query);
  let name = names.get(built.sql);
  if (name === undefined) names.set(built.sql, (name = `hc_${names.size + 1}`));
  const result = (await db._.session.prepareQuery(built, undefined, name, false).execute()) as
    { rows: Row[] } | Row[];
  return Array.isArray(result) ? result : result.rows;
}
