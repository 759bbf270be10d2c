import pg from 'pg';
import { TEST_DB_PREFIX, adminUrl } from './test-database.js';

/** Drops throw-away test databases left by a run that was killed, before and after the run. */
async function dropLeftovers(): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${TEST_DB_PREFIX}%'`,
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  try {
    await dropLeftovers();
  } catch (error) {
    throw new Error(
      `PostgreSQL is needed for the database tests (TEST_PG_URL=${adminUrl()}): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

export async function teardown(): Promise<void> {
  await dropLeftovers();
}
