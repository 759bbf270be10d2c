import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres, startPglite, type Database } from '../db/database.js';

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

/**
 * Emptying every table of ours (identities restarted): what a migrated, empty database holds again afterwards (only
 * drizzle's own journal has rows then, and it is left alone). Rows are deleted with the foreign keys' triggers off
 * (every table is emptied, so none can be left pointing at a deleted row), not truncated: a truncate makes new files
 * for every table and index, over a second on PostgreSQL, where deleting the few rows of a test file is a few ms.
 */
const EMPTY_EVERY_TABLE = `do $$
declare
  name text;
begin
  set local session_replication_role = replica;
  for name in select format('%I.%I', schemaname, tablename) from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') loop
    execute 'delete from ' || name;
  end loop;
  for name in select format('%I.%I', schemaname, sequencename) from pg_sequences where schemaname <> 'drizzle' loop
    execute 'alter sequence ' || name || ' restart';
  end loop;
end $$`;

/**
 * Databases that closed test contexts gave back, emptied, for this worker's next test file: starting a PGlite from
 * the template's copy takes seconds (3.5 s each on a loaded machine, 2026-11-29), emptying one a fraction of it; and
 * a PostgreSQL database is emptied rather than copied from the template and dropped. One that cannot be emptied
 * (a statement still holding it) is closed and dropped instead.
 */
const idle: { pglite: PGlite[]; postgres: string[] } = { pglite: [], postgres: [] };

/** `work`, or an error once `ms` have passed. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function releasePglite(client: PGlite): Promise<void> {
  try {
    await within(10_000, client.exec(`reset all; ${EMPTY_EVERY_TABLE}`));
    idle.pglite.push(client);
  } catch {
    await client.close().catch(() => {});
  }
}

async function releasePostgres(url: string, drop: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await within(10_000, client.query(`set lock_timeout = '5s'; ${EMPTY_EVERY_TABLE}`));
    idle.postgres.push(url);
  } catch {
    await drop();
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh, migrated database of the given engine: PGlite in memory, or a new PostgreSQL database. */
export async function openTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') {
    const client = idle.pglite.pop() ?? (await startPglite(undefined, await migratedPglite()));
    return openPglite('memory://', { reuse: { client, release: releasePglite } });
  }
  const reused = idle.postgres.pop();
  const created = reused
    ? { url: reused, drop: () => dropDatabase(reused) }
    : await createPgDatabase(await migratedPgTemplate());
  const database = await openPostgres(created.url);
  return {
    ...database,
    async close() {
      await database.close();
      await releasePostgres(created.url, created.drop);
    },
  };
}

async function dropDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
  } finally {
    await client.end();
  }
}
