import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { buildApp } from '../app.js';
import { markCheckoutFailures, type Database } from '../db/database.js';
import { chatMessages } from '../db/schema.js';
import { freePort } from '../test/http-client.js';
import { adminUrl, openTestDatabase } from '../test/test-database.js';
import { testConfig } from '../test/test-app.js';
import { isDatabaseUnavailable } from './errors.js';

describe('error handler', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
    app.get('/api/test/boom', async () => {
      throw new Error('secret internal detail');
    });
    // A write whose user was deleted meanwhile (say, by 'Delete my account'): a real foreign-key violation.
    app.get('/api/test/vanished', async () => {
      await database.db.insert(chatMessages).values({ userId: randomUUID(), text: 'too late' });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('hides the details of an unexpected error behind a generic 500', async () => {
    const res = await app.inject('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('at ');
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'Something went wrong on our side' });
  });

  it('answers 409, not 500, for a write that raced the deletion of what it points to', async () => {
    const res = await app.inject('/api/test/vanished');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/just been deleted/),
    });
  });
});

/** The error `action` fails with (real errors from the real drivers, not imitations). */
async function failure(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('what counts as "database unavailable"', () => {
  const pools: pg.Pool[] = [];
  const pool = (connectionString: string) => {
    const created = new pg.Pool({ connectionString, connectionTimeoutMillis: 2000 });
    created.on('error', () => {}); // a terminated idle client; the query's own error is what we look at
    pools.push(created);
    return created;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('counts a PostgreSQL server nobody answers at, in a query and in a transaction', async () => {
    const db = drizzlePg(pool(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`));
    expect(isDatabaseUnavailable(await failure(() => db.execute(sql`select 1`)))).toBe(true);
    // A transaction's pool checkout is not wrapped by drizzle: the driver's own error arrives bare.
    expect(isDatabaseUnavailable(await failure(() => db.transaction(async () => {})))).toBe(true);
  });

  it('counts a connection the server ends, and a closed PGlite', async () => {
    const db = drizzlePg(pool(adminUrl()));
    const terminated = await failure(() => db.execute(sql`select pg_terminate_backend(pg_backend_pid())`));
    expect(isDatabaseUnavailable(terminated)).toBe(true);

    const client = new PGlite();
    await client.close();
    expect(isDatabaseUnavailable(await failure(() => drizzlePglite(client).execute(sql`select 1`)))).toBe(
      true,
    );
  });

  it('counts a statement the server gave up on, and an answer not read in time', async () => {
    const db = drizzlePg(pool(adminUrl()));
    const cancelled = await failure(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 50`);
        await tx.execute(sql`select pg_sleep(2)`);
      }),
    );
    expect(isDatabaseUnavailable(cancelled)).toBe(true);

    const slow = new pg.Pool({ connectionString: adminUrl(), query_timeout: 50 });
    slow.on('error', () => {});
    pools.push(slow);
    expect(isDatabaseUnavailable(await failure(() => drizzlePg(slow).execute(sql`select pg_sleep(2)`)))).toBe(
      true,
    );
  });

  it("counts a connection the server refuses as it opens ('too many clients'), in a transaction too", async () => {
    // A server that answers the startup message as PostgreSQL does when max_connections is reached (an ErrorResponse,
    // FATAL 53300, then the connection closes: PostgreSQL's protocol, 'Start-up'): as a restarted server's clients
    // all come back at once may meet. In a transaction's checkout the driver's error arrives bare.
    const fields = ['SFATAL', 'VFATAL', 'C53300', 'Msorry, too many clients already']
      .map((f) => `${f}\0`)
      .join('');
    const body = Buffer.from(`${fields}\0`, 'utf8');
    const header = Buffer.alloc(5);
    header.write('E', 0);
    header.writeInt32BE(body.length + 4, 1);
    const full = net.createServer((socket) =>
      socket.once('data', () => socket.end(Buffer.concat([header, body]))),
    );
    await new Promise<void>((resolve) => full.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = full.address() as AddressInfo;
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const unmarked = await failure(() => drizzlePg(pool(url)).transaction(async () => {}));
      expect(unmarked).toMatchObject({ code: '53300' });
      // As the driver gives it, a refusal of the server's is not by itself an outage...
      expect(isDatabaseUnavailable(unmarked)).toBe(false);
      // ...but met checking a connection out of the pool openPostgres makes, the database cannot serve now: 503.
      const ours = pool(url);
      markCheckoutFailures(ours);
      const db = drizzlePg(ours);
      expect(isDatabaseUnavailable(await failure(() => db.transaction(async () => {})))).toBe(true);
      expect(isDatabaseUnavailable(await failure(() => db.execute(sql`select 1`)))).toBe(true);
    } finally {
      await new Promise((resolve) => full.close(resolve));
    }
  });

  it('does not count a query the database refuses, nor a network error of anything but the database', async () => {
    const db = drizzlePg(pool(adminUrl()));
    expect(isDatabaseUnavailable(await failure(() => db.execute(sql`select * from no_such_table`)))).toBe(
      false,
    );
    // e.g. the geocoder or the sign-in provider being down
    const port = await freePort();
    const fetchFailed = await failure(() => fetch(`http://127.0.0.1:${port}/`));
    expect(isDatabaseUnavailable(fetchFailed)).toBe(false);
  });
});
