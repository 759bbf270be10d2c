import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import pg from 'pg';
import type { Database, Db } from './database.js';
import * as schema from './schema.js';

/**
 * Public reads off a streaming replica (docs/decisions/0009-public-reads-off-a-replica.md): which server answers a
 * public read, so that nobody misses their own change and no shared cache keeps what the replica had not replayed.
 */

/** Which server answered a read. */
export type ReadTarget = 'replica' | 'primary';

/** A position in the primary's WAL as a number (PostgreSQL writes it as two hex halves: `16/B374D848`). */
export function parseLsn(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export const formatLsn = (lsn: bigint): string =>
  `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;

/** A read-only pool on the replica (no migrations: the replica replays the primary's). */
export interface Replica {
  db: Db;
  /** How far the replica has replayed the primary's WAL; undefined when it is no replica (not in recovery). */
  replayLsn(): Promise<bigint | undefined>;
  close(): Promise<void>;
}

export function openReplica(url: string, { poolSize = 10 } = {}): Replica {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A replica that does not answer soon is passed over: the primary answers instead.
    connectionTimeoutMillis: 1000,
    idleTimeoutMillis: 30_000,
    query_timeout: 10_000,
    application_name: 'homecooked-public-reads',
  });
  pool.on('error', () => {
    // An idle client lost its connection (the replica restarted); the pool replaces it on the next checkout.
  });
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    async replayLsn() {
      const { rows } = await pool.query<{ lsn: string | null }>(
        'select pg_last_wal_replay_lsn()::text as lsn',
      );
      return parseLsn(rows[0]?.lsn);
    },
    close: () => pool.end(),
  };
}

/** What the router knows of the replica at one moment. */
interface ReplicaState {
  /** It answered, and is a replica. */
  up: boolean;
  /** It has replayed every change this instance heard of (and every write a client told it of): shared caches may be filled from it. */
  caughtUp: boolean;
  /** It is further behind than allowed: even a reader's own answer comes from the primary. */
  lagging: boolean;
  replay: bigint;
}

/** How one public read of one request is answered. */
export type PublicRead =
  /** From the shared caches (the hub's snapshots, the search cache), filled by `shared` reads. */
  | { shared: true }
  /** From the replica, which has not replayed every change heard: answered to this reader only, never cached. */
  | { shared: false };

/** The reads of a request that wrote: its answer carries the primary's WAL position (the read-after cookie). */
const requestWrites = new AsyncLocalStorage<{ wrote: boolean }>();

/** Called after a write commits: the request it ran in will tell its client where the primary's WAL was. */
export function noteCommittedWrite(): void {
  const store = requestWrites.getStore();
  if (store) store.wrote = true;
}

export interface ReadRouterOptions {
  /** How far behind (ms) the replica may be before every public read goes to the primary. */
  maxLagMs: number;
  log?: FastifyBaseLogger;
  /** How long one look at the replica's replay position is used (ms). */
  replayCacheMs?: number;
  /** After the replica failed to answer, how long it is passed over before it is asked again (ms). */
  retryDownMs?: number;
}

/**
 * Sends public reads to the replica, or the primary. Keeps a watermark: the primary's WAL position after the last
 * change this instance heard of (a bus message, taken just after it was heard) or a client said it wrote (its
 * cookie). A read whose answer goes into a shared cache uses the replica only once it has replayed past the watermark
 * (else the cache would keep the old value until the next change); a reader's own answer may come from a replica
 * that is behind, unless the reader wrote after what it replayed, or it is more than `maxLagMs` behind.
 */
export class ReadRouter {
  /** Public reads answered by each server (metrics, tests). */
  readonly counts: Record<ReadTarget, number> = { replica: 0, primary: 0 };
  private watermark = 0n;
  /** Watermarks the replica had not replayed when last looked at, oldest first, with when they were noted. */
  private behind: { lsn: bigint; at: number }[] = [];
  /** Changes heard whose position is not in the watermark yet (the primary is being asked). */
  private unprobed = 0;
  private probing = false;
  private replay: { lsn: bigint | undefined; at: number } | undefined;
  private replayInflight: Promise<bigint | undefined> | undefined;
  private downUntil = 0;
  private closed = false;
  private readonly replayCacheMs: number;
  private readonly retryDownMs: number;

  constructor(
    private readonly primary: Database,
    private readonly replica: Replica | undefined,
    private readonly options: ReadRouterOptions,
  ) {
    this.replayCacheMs = options.replayCacheMs ?? 20;
    this.retryDownMs = options.retryDownMs ?? 1000;
  }

  get enabled(): boolean {
    return this.replica !== undefined;
  }

  /** A change was heard (committed here or elsewhere), or the feed had a gap: note the primary's position after it. */
  heardChange(): void {
    if (!this.replica || this.closed) return;
    this.unprobed++;
    void this.probe();
  }

  /** The primary's current WAL position. */
  async primaryLsn(): Promise<bigint> {
    const result = (await this.primary.db.execute(
      sql`select pg_current_wal_lsn()::text as lsn`,
    )) as unknown as {
      rows: { lsn: string }[];
    };
    const lsn = parseLsn(result.rows[0]?.lsn);
    if (lsn === undefined) throw new Error('the primary did not say its WAL position');
    return lsn;
  }

  /** A client says it wrote up to `lsn` (its cookie, signed by us): no shared cache is filled from before it. */
  noteClientWrite(lsn: bigint): void {
    this.raise(lsn, Date.now());
  }

  /**
   * How a request's public read is answered: `requiredLsn` is where the client's last write left the primary (its
   * cookie), if it wrote lately.
   */
  async publicRead(requiredLsn: bigint | undefined): Promise<PublicRead> {
    // No lag allowed: nobody is answered from a replica that is behind.
    if (!this.replica || this.options.maxLagMs === 0) return { shared: true };
    if (requiredLsn !== undefined) this.noteClientWrite(requiredLsn);
    const state = await this.state();
    // Caught up: the shared path reads the replica. Down or lagging: the shared path reads the primary.
    if (!state.up || state.caughtUp || state.lagging) return { shared: true };
    // The reader wrote after what the replica replayed: the primary (through the shared path, which is fresh).
    if (requiredLsn !== undefined && state.replay < requiredLsn) return { shared: true };
    return { shared: false };
  }

  /**
   * Runs a read whose answer may be shared (a hub snapshot, a cached search): on the replica if it has replayed
   * everything heard of, else on the primary. A replica that fails is passed over, and the primary answers.
   */
  async shared<T>(read: (db: Db) => Promise<T>): Promise<T> {
    if (this.replica && (await this.state()).caughtUp) return this.onReplica(read);
    return this.onPrimary(read);
  }

  /** Runs a reader's own read on the replica (see `publicRead`); the primary answers if the replica fails. */
  own<T>(read: (db: Db) => Promise<T>): Promise<T> {
    return this.replica ? this.onReplica(read) : this.onPrimary(read);
  }

  close(): void {
    this.closed = true;
  }

  private async onReplica<T>(read: (db: Db) => Promise<T>): Promise<T> {
    const replica = this.replica;
    if (!replica) return this.onPrimary(read);
    let value: T;
    try {
      value = await read(replica.db);
    } catch (error) {
      this.options.log?.warn({ err: error }, 'the read replica failed a read: the primary answers');
      this.markDown();
      return this.onPrimary(read);
    }
    this.counts.replica++;
    return value;
  }

  private async onPrimary<T>(read: (db: Db) => Promise<T>): Promise<T> {
    const value = await read(this.primary.db);
    this.counts.primary++;
    return value;
  }

  private markDown(): void {
    this.downUntil = Date.now() + this.retryDownMs;
    this.replay = undefined;
  }

  private raise(lsn: bigint, at: number): void {
    if (lsn <= this.watermark) return;
    this.watermark = lsn;
    const { behind } = this;
    const last = behind.at(-1);
    // Positions noted within 50 ms of each other are one (dated by the first: the lag is over-counted by that much).
    if (last && at - last.at < 50) last.lsn = lsn;
    else behind.push({ lsn, at });
    // Those older than the allowed lag are one too, dated by the oldest: any of them not replayed means lagging,
    // as one not replayed of the merged does. So the list stays short however long the replica is away.
    const first = behind[0];
    while (first && behind.length >= 2 && at - (behind[1]?.at ?? at) > this.options.maxLagMs) {
      first.lsn = behind[1]?.lsn ?? first.lsn;
      behind.splice(1, 1);
    }
  }

  /** Asks the primary its position for the changes heard meanwhile, until none is left unasked. */
  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      while (this.unprobed > 0 && !this.closed) {
        const covering = this.unprobed;
        const at = Date.now();
        try {
          this.raise(await this.primaryLsn(), at);
          this.unprobed -= covering;
        } catch {
          // The primary is out of reach: the changes stay unasked (shared reads keep off the replica meanwhile).
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    } finally {
      this.probing = false;
    }
  }

  /** The replica's replay position, looked at most once per `replayCacheMs`; undefined while it is down. */
  private replayLsn(): Promise<bigint | undefined> {
    const replica = this.replica;
    const now = Date.now();
    if (!replica || now < this.downUntil) return Promise.resolve(undefined);
    if (this.replay && now - this.replay.at < this.replayCacheMs) return Promise.resolve(this.replay.lsn);
    if (this.replayInflight) return this.replayInflight;
    const inflight = replica.replayLsn().then(
      (lsn) => {
        // Not in recovery (a promoted replica, or a primary named by mistake): not a replica of ours.
        if (lsn === undefined)
          this.options.log?.warn('DATABASE_READ_URL is not in recovery: reads stay on the primary');
        this.replay = { lsn, at: now };
        if (lsn === undefined) this.downUntil = Date.now() + this.retryDownMs;
        return lsn;
      },
      () => {
        this.markDown();
        return undefined;
      },
    );
    this.replayInflight = inflight;
    void inflight.finally(() => {
      if (this.replayInflight === inflight) this.replayInflight = undefined;
    });
    return inflight;
  }

  private async state(): Promise<ReplicaState> {
    const replay = await this.replayLsn();
    if (replay === undefined) return { up: false, caughtUp: false, lagging: true, replay: 0n };
    while (this.behind.length > 0 && (this.behind[0]?.lsn ?? 0n) <= replay) this.behind.shift();
    const oldest = this.behind[0];
    return {
      up: true,
      caughtUp: this.unprobed === 0 && oldest === undefined,
      lagging: oldest !== undefined && Date.now() - oldest.at > this.options.maxLagMs,
      replay,
    };
  }
}

/** The cookie that says where the primary's WAL was after a client's last write (signed; see `registerReadAfterWrite`). */
export const readAfterCookie = (https: boolean) => `${https ? '__Host-' : ''}read_after`;

/** The WAL position a request's read-after cookie names, if it is one we signed; anything else is ignored. */
export function requiredLsnOf(request: FastifyRequest): bigint | undefined {
  const raw = request.cookies[readAfterCookie(request.server.config.https)];
  if (typeof raw !== 'string' || raw.length > 200) return undefined;
  let unsigned: ReturnType<FastifyRequest['unsignCookie']>;
  try {
    unsigned = request.unsignCookie(raw);
  } catch {
    return undefined;
  }
  return unsigned.valid && unsigned.value !== null ? parseLsn(unsigned.value) : undefined;
}

/**
 * With a replica: every request runs knowing whether it wrote (`noteCommittedWrite`), and the answer of one that did
 * carries the primary's WAL position after it, in a short-lived signed cookie, so that its client's public reads
 * come from the primary until the replica has replayed it. The cookie outlives the allowed lag: once it is gone, a
 * replica that still had not replayed the write is further behind than allowed, and is not read.
 */
export function registerReadAfterWrite(app: FastifyInstance, router: ReadRouter, maxLagMs: number): void {
  if (!router.enabled) return;
  const maxAge = Math.ceil(maxLagMs / 1000) + 5;
  app.addHook('onRequest', (request, _reply, done) => {
    // A client that wrote (perhaps through another instance, whose change this one may not have heard of yet):
    // whatever this request loads into a shared cache (a server-rendered page's lists too) is not older than that.
    const wrote = requiredLsnOf(request);
    if (wrote !== undefined) router.noteClientWrite(wrote);
    requestWrites.run({ wrote: false }, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!requestWrites.getStore()?.wrote) return payload;
    try {
      const lsn = await router.primaryLsn();
      void reply.setCookie(readAfterCookie(app.config.https), formatLsn(lsn), {
        signed: true,
        httpOnly: true,
        sameSite: 'lax',
        secure: app.config.https,
        path: '/',
        maxAge,
      });
    } catch (error) {
      // The write is done; without the cookie this client may read the replica's older copy for a moment.
      request.log.warn({ err: error }, 'could not read the primary WAL position after a write');
    }
    return payload;
  });
}
