import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { markCheckoutFailure } from '../lib/errors.js';
import { projectRoot } from '../lib/project-root.js';
import { lockDataDir } from './data-dir-lock.js';
import { timeQueries, type QueryObserver } from './query-timing.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export const CHANGES_CHANNEL = 'marketplace_changes';

export interface ListenHandlers {
  /** A payload sent with `notify` by a transaction that committed (on any instance). */
  onMessage(payload: string): void;
  /** The listening connection was lost and is back: anything may have changed meanwhile. */
  onResync(): void;
}

/** One database, embedded (PGlite) or a PostgreSQL server, behind the same Drizzle API. */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** True when this database was created empty by this start (so demo data may be seeded). */
  fresh: boolean;
  ping(): Promise<void>;
  listen(handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Is told the duration of every statement from now on (metrics). */
  observeQueries(observer: QueryObserver): void;
  /** PGlite only: a consistent copy of its data directory, as a gzipped tar (src/server/backup/). */
  backup?(): Promise<Blob>;
  /** The connection pool's state (PostgreSQL); PGlite is one connection in process. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}

/** The select-list expressions that send payloads when the statement carrying them commits. */
export const notifyCalls = (payloads: readonly string[]): SQL =>
  sql.join(
    payloads.map((payload) => sql`pg_notify(${CHANGES_CHANNEL}, ${payload})`),
    sql`, `,
  );

/** Sends payloads inside the caller's transaction: they are delivered only if and when it commits. */
export async function notify(tx: DbOrTx, ...payloads: string[]): Promise<void> {
  await tx.execute(sql`select ${notifyCalls(payloads)}`);
}

const migrationsFolder = () => join(projectRoot(), 'drizzle');

async function hasAppliedMigrations(query: (text: string) => Promise<unknown[]>): Promise<boolean> {
  const rows = (await query(
    "select 1 from information_schema.tables where table_schema = 'drizzle' and table_name = '__drizzle_migrations'",
  )) as unknown[];
  return rows.length > 0;
}

/**
 * PGlite in `dataDir` (or in memory when dataDir is 'memory://'). Locks the directory against a second process.
 * `loadDataDir`: an in-memory database starts from this copy of a data directory (a `backup()`) instead of an empty one.
 */
export async function openPglite(
  dataDir: string,
  options: {
    loadDataDir?: Blob;
    /**
     * Tests only: an in-memory PGlite already running, given back to `release` on close instead of being closed
     * (src/server/test/test-database.ts keeps a few, emptied, for the next test file).
     */
    reuse?: { client: PGlite; release(client: PGlite): Promise<void> };
  } = {},
): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  const unlock = inMemory ? () => {} : lockDataDir(dataDir);
  let client: PGlite;
  if (options.reuse) {
    client = options.reuse.client;
    // Its statements timed for this Database's observers alone, not every earlier one's too.
    const own = unwrapped.get(client);
    if (own) Object.assign(client, own);
  } else
    try {
      client = await startPglite(inMemory ? undefined : dataDir, options.loadDataDir);
    } catch (error) {
      unlock();
      throw error;
    }
  if (!unwrapped.has(client)) unwrapped.set(client, { query: client.query, transaction: client.transaction });
  const observers = new Set<QueryObserver>();
  timeQueries(client, observers);
  // A transaction's statements go through its own object.
  const transaction = client.transaction.bind(client);
  client.transaction = (fn) =>
    transaction((tx) => {
      timeQueries(tx, observers);
      return fn(tx);
    });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const fresh = !(await hasAppliedMigrations(async (q) => (await client.query(q)).rows));
  await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() });
  let closed = false;
  return {
    kind: 'pglite',
    db,
    fresh,
    async ping() {
      await client.query('select 1');
    },
    observeQueries: (observer) => void observers.add(observer),
    async backup() {
      // Written pages first (a smaller replay on restore); then the files, while no transaction is open (PGlite
      // runs one at a time: holding the turn keeps any other out until the copy is taken).
      await client.query('checkpoint');
      return client.transaction(() => client.dumpDataDir('gzip'));
    },
    async listen({ onMessage }) {
      const unsubscribe = await client.listen(CHANGES_CHANNEL, onMessage);
      return async () => {
        if (!closed) await unsubscribe();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      if (options.reuse) return options.reuse.release(client);
      await client.close();
      unlock();
    },
  };
}

/**
 * A PGlite running in `dataDir` (in memory without one, from `loadDataDir` if given: a copy of a data directory),
 * with our settings and extensions; `openPglite` migrates it and wraps it as a Database.
 */
export async function startPglite(dataDir?: string, loadDataDir?: Blob): Promise<PGlite> {
  // Options in one object: `new PGlite(undefined, options)` would ignore the options (in-memory databases).
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(!dataDir && loadDataDir ? { loadDataDir } : {}),
    // PostgreSQL's default 128 MB of shared buffers is most of PGlite's memory; a marketplace's working set
    // is far smaller (idle RSS 282 -> 158 MiB measured with 16 MB).
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
    // Search's contrib extensions (created by a migration, as on PostgreSQL), loaded in process.
    extensions: { pg_trgm, unaccent },
  });
  await client.waitReady;
  return client;
}

/** A PGlite's own `query` and `transaction`, before `timeQueries` wrapped them (for a client used again). */
const unwrapped = new WeakMap<PGlite, Pick<PGlite, 'query' | 'transaction'>>();

/** A pool on a PostgreSQL server; migrations run under an advisory lock so instances may start together. */
export async function openPostgres(
  url: string,
  options: { poolSize?: number; queryTimeoutMs?: number } = {},
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 20,
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
    // A query the server has not answered by then is given up (a bench's bulk seed may ask for longer).
    query_timeout: options.queryTimeoutMs ?? 15_000,
  });
  pool.on('error', () => {
    // An idle client lost its connection (server restart); the pool replaces it on the next checkout.
  });
  markCheckoutFailures(pool);
  // A client checked out for a transaction has no error listener of the pool's: losing the server between two of
  // its statements would crash the process. With this one, its next statement fails instead (answered 503).
  const observers = new Set<QueryObserver>();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    timeQueries(client, observers);
  });
  const client = await pool.connect();
  let fresh: boolean;
  try {
    await client.query('select pg_advisory_lock(7254001)');
    fresh = !(await hasAppliedMigrations(async (q) => (await client.query(q)).rows));
    await migratePg(drizzlePg(client), { migrationsFolder: migrationsFolder() });
  } finally {
    await client.query('select pg_advisory_unlock(7254001)').catch(() => {});
    client.release();
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listeners = new Set<{ stop(): Promise<void> }>();
  return {
    kind: 'postgres',
    db,
    fresh,
    async ping() {
      await pool.query('select 1');
    },
    observeQueries: (observer) => void observers.add(observer),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }),
    async listen(handlers) {
      const listener = new PgListener(url, handlers);
      await listener.start();
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.stop()));
      await pool.end();
    },
  };
}

type Checkout = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;

/**
 * Every error of a checkout from `pool` is marked as the database being unavailable (answered 503): a transaction
 * checks its connection out bare, outside drizzle's wrapping, and whatever stops a connection from opening (refused,
 * reset, 'too many clients' as a restarted server's clients all come back) means the database cannot serve now.
 * (crash-safety's PostgreSQL case answered a 500 in two CI runs whose cause is not proven; this closes one way.)
 */
export function markCheckoutFailures(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: Checkout) => Promise<pg.PoolClient> | undefined;
  const marked = (callback?: Checkout) =>
    callback
      ? connect((err, client, done) => callback(err && markCheckoutFailure(err), client, done))
      : connect()?.catch((error: unknown) => {
          throw markCheckoutFailure(error);
        });
  pool.connect = marked as typeof pool.connect;
}

/** A dedicated LISTEN connection that reconnects by itself and reports a resync when it comes back. */
class PgListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly handlers: ListenHandlers,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 2000 });
    client.on('notification', (msg) => {
      if (msg.channel === CHANGES_CHANNEL && msg.payload) this.handlers.onMessage(msg.payload);
    });
    const onLost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      this.scheduleReconnect(100);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    await client.connect();
    await client.query(`listen ${CHANGES_CHANNEL}`);
    this.client = client;
  }

  private scheduleReconnect(delay: number): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => void this.reconnect(delay), delay);
  }

  private async reconnect(delay: number): Promise<void> {
    try {
      await this.connect();
      this.handlers.onResync();
    } catch {
      this.scheduleReconnect(Math.min(delay * 2, 1000));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}

export async function openDatabase(config: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}
