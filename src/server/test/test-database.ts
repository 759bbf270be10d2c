import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/database.js';

export type Engine = 'pglite' | 'postgres';
export const ENGINES: readonly Engine[] = ['pglite', 'postgres'];
export const TEST_DB_PREFIX = 'mkt_t_';

export const adminUrl = () => process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Builds a connection URL for `database` on the test PostgreSQL server. */
export function databaseUrl(database: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

/** A throw-away PostgreSQL database, dropped by the returned function. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${TEST_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return {
    url: databaseUrl(name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/** A fresh, migrated database of the given engine: PGlite in memory, or a new PostgreSQL database. */
export async function openTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') return openPglite('memory://');
  const created = await createPgDatabase();
  const database = await openPostgres(created.url);
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}
