import pg from 'pg';
import { TEST_DB_PREFIX, adminUrl } from './test-database.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Drops throw-away test databases left by killed runs. Names carry the creating process's pid, so the databases
 * of another run still in progress on this machine are left alone.
 */
async function dropLeftovers(): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${TEST_DB_PREFIX}%'`,
    );
    for (const { datname } of rows) {
      const pid = Number(datname.slice(TEST_DB_PREFIX.length).split('_')[0]);
      if (Number.isInteger(pid) && isAlive(pid)) continue;
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
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
