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

/** A throw-away PostgreSQL database (empty, or a copy of `template`), dropped by the returned function. */
export async function createPgDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${TEST_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
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

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A migrated, empty PGlite data directory, made once per test process: starting from its copy takes a fifth of the
 * time of starting from nothing (PGlite's initdb) and migrating.
 */
function migratedPglite(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const database = await openPglite('memory://');
    try {
      const copy = await database.backup?.();
      if (!copy) throw new Error('PGlite gave no copy of its data directory');
      return copy;
    } finally {
      await database.close();
    }
  })();
  return pgliteTemplate;
}

let pgTemplate: Promise<string> | undefined;

/**
 * A migrated, empty PostgreSQL database of this test process's own (named with its pid, so the next run's global
 * set-up drops it once the process is gone), copied for each test database instead of migrating each one.
 */
function migratedPgTemplate(): Promise<string> {
  pgTemplate ??= (async () => {
    const name = `${TEST_DB_PREFIX}${process.pid}_template`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.query(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    // Nobody may be connected to a template while it is copied: the pool is closed before the first copy.
    const database = await openPostgres(databaseUrl(name), { poolSize: 1 });
    await database.close();
    return name;
  })();
  return pgTemplate;
}

/** A fresh, migrated database of the given engine: PGlite in memory, or a new PostgreSQL database. */
export async function openTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') return openPglite('memory://', { loadDataDir: await migratedPglite() });
  const created = await createPgDatabase(await migratedPgTemplate());
  const database = await openPostgres(created.url);
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}
