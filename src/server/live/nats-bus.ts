import { asc, count, inArray, sql, type SQL } from 'drizzle-orm';
import {
  connect,
  DiscardPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JsMsg,
  type NatsConnection,
  type StreamConfig,
} from 'nats';
import type { Db, Tx } from '../db/database.js';
import { busOutbox } from '../db/schema.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { ChangeBus, type BusMessage } from './bus.js';

/** The JetStream stream every instance publishes its changes to and reads them from. */
export const NATS_STREAM = 'HOMECOOKED_CHANGES';
export const NATS_SUBJECT = 'homecooked.changes';
/** How long the stream keeps a change: an instance away for longer than this reloads everything when back. */
export const STREAM_MAX_AGE_MS = 60 * 60 * 1000;
/** A change published again within this (a relay that died between publishing and deleting) is dropped. */
export const DEDUPE_WINDOW_MS = 2 * 60 * 1000;

export interface NatsBusOptions {
  /** nats://host:port */
  url: string;
  clock?: Clock;
  /** How often the outbox is swept for rows nobody published (a crashed instance, a NATS outage). */
  sweepMs?: number;
  /** How long one publish may wait for JetStream's answer. */
  publishTimeoutMs?: number;
  /** Told of a relay or consumer that failed (it is tried again at the next sweep). */
  onError?: (error: unknown) => void;
}

export interface RelayHooks {
  /** Tests: called after the rows are published and before they are deleted (a throw rolls the claim back). */
  beforeDelete?: () => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The change bus over NATS JetStream (BUS_URL=nats://…), for more instances than LISTEN/NOTIFY serves. Sending is
 * an insert into the database's outbox (`bus_outbox`, by `hc_bus_publish`) in the write's own transaction: a
 * rolled-back write announces nothing. After the commit this instance delivers at once (as the PostgreSQL bus
 * does) and kicks its relay, which claims outbox rows (`for update skip locked`, in id order), publishes each with
 * its id as JetStream's message id (a publish repeated after a crash is deduplicated), and deletes them in the same
 * transaction; a sweep every second publishes what a crashed instance or a NATS outage left. Every instance reads
 * the stream with an ordered consumer from the sequence after the last it handled; when the stream no longer has
 * that one (kept for an hour), every topic reloads (`onResync`), as with a lost LISTEN connection.
 */
export class NatsChangeBus extends ChangeBus {
  private js: JetStreamClient | undefined;
  private connected = false;
  private stopped = false;
  /** The outbox row ids are per database: the message ids carry its name too (a NATS shared by databases). */
  private idPrefix = '';
  /** The stream sequence of the last message handled (0: none yet). */
  private lastSequence = 0;
  /** When the stream we read was made: another time means NATS lost it (and what we had not read). */
  private streamCreated = '';
  private messages: ConsumerMessages | undefined;
  private generation = 0;
  private relayRun: Promise<void> | undefined;
  private relayAgain = false;
  private readonly sweepMs: number;
  private readonly publishTimeoutMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly db: Db,
    private readonly options: NatsBusOptions,
  ) {
    // LISTEN is not used: the database's `listen` is never called.
    super(
      { listen: () => Promise.reject(new Error('the NATS bus does not listen to the database')) },
      options.clock ?? systemClock,
    );
    this.sweepMs = options.sweepMs ?? 1000;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 2000;
    this.onError = options.onError ?? (() => {});
  }

  override async send(tx: Tx, messages: readonly BusMessage[]): Promise<void> {
    if (messages.length > 0) await tx.execute(sql`select ${this.sendingIn(messages)}`);
  }

  override sendingIn(messages: readonly BusMessage[]): SQL {
    if (messages.length === 0) return sql`null`;
    return sql.join(
      this.payloads(messages).map((payload) => sql`hc_bus_publish(${payload})`),
      sql`, `,
    );
  }

  override afterCommit(messages: readonly BusMessage[]): void {
    super.afterCommit(messages);
    if (messages.length > 0) this.kick();
  }

  /** Relays now, or once more after the relay running now (never two at once on one instance). */
  private kick(): void {
    if (this.stopped) return;
    if (this.relayRun) {
      this.relayAgain = true;
      return;
    }
    this.relayRun = (async () => {
      do {
        this.relayAgain = false;
        try {
          await this.relay();
        } catch (error) {
          // Left in the outbox: the next sweep tries again.
          this.onError(error);
        }
      } while (this.relayAgain && !this.stopped);
    })().finally(() => {
      this.relayRun = undefined;
    });
  }

  override async backlog(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(busOutbox);
    return row?.n ?? 0;
  }

  /** Resolves once the relay running now (and any it was asked to run after it) is done. */
  async relayed(): Promise<void> {
    while (this.relayRun) await this.relayRun;
  }

  /**
   * Publishes what the outbox holds (that no other relay holds), then deletes it: one transaction a batch, so that
   * a relay that dies between the two leaves its rows to another (published again, deduplicated by JetStream).
   * Returns how many rows it published; nothing while NATS is away.
   */
  async relay(hooks: RelayHooks = {}, batch = 256): Promise<number> {
    let total = 0;
    for (;;) {
      const js = this.js;
      if (!js || !this.connected || this.stopped) return total;
      const count = await this.db.transaction(async (tx) => {
        const rows = await tx
          .select({ id: busOutbox.id, payload: busOutbox.payload })
          .from(busOutbox)
          .orderBy(asc(busOutbox.id))
          .limit(batch)
          .for('update', { skipLocked: true });
        if (rows.length === 0) return 0;
        // Sent one after another on the one connection, so the stream holds them in id order; answered together.
        await Promise.all(
          rows.map((row) =>
            js.publish(NATS_SUBJECT, encoder.encode(row.payload), {
              msgID: `${this.idPrefix}${row.id}`,
              expect: { streamName: NATS_STREAM },
              timeout: this.publishTimeoutMs,
            }),
          ),
        );
        hooks.beforeDelete?.();
        await tx.delete(busOutbox).where(
          inArray(
            busOutbox.id,
            rows.map((row) => row.id),
          ),
        );
        return rows.length;
      });
      total += count;
      if (count < batch) return total;
    }
  }

  /** Connects, makes sure of the stream, reads it from its end, and sweeps the outbox; returns what stops it all. */
  override async listen(): Promise<() => Promise<void>> {
    let connection: NatsConnection;
    try {
      connection = await connect({
        servers: this.options.url,
        name: 'homecooked',
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        pingInterval: 2000,
        maxPingOut: 2,
      });
    } catch (error) {
      throw new Error(`The change bus: NATS at ${this.options.url} (BUS_URL) does not answer`, {
        cause: error,
      });
    }
    try {
      this.connected = true;
      void this.followStatus(connection);
      const result = (await this.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: { name: string }[];
      };
      this.idPrefix = `${result.rows[0]?.name ?? ''}:`;
      this.js = connection.jetstream({ timeout: this.publishTimeoutMs });
      const { created, last_seq } = await this.ensureStream(connection);
      this.streamCreated = created;
      this.lastSequence = last_seq;
      await this.follow(last_seq + 1);
    } catch (error) {
      // JetStream not enabled on that server, say: nothing left running.
      this.stopped = true;
      stopForGood(this.messages);
      await connection.close();
      throw new Error(
        `The change bus could not start on NATS at ${this.options.url} (BUS_URL): is JetStream on (nats-server -js)?`,
        { cause: error },
      );
    }
    const sweep = setInterval(() => this.kick(), this.sweepMs);
    sweep.unref();
    // What a crashed instance (or this one, before a restart) left.
    this.kick();
    return async () => {
      if (this.stopped) return;
      this.stopped = true;
      clearInterval(sweep);
      await this.relayRun;
      this.generation++;
      stopForGood(this.messages);
      await connection.close();
    };
  }

  /** Makes the stream (or gives it our limits); returns when it was made and its last sequence. */
  private async ensureStream(connection: NatsConnection): Promise<{ created: string; last_seq: number }> {
    const jsm = await connection.jetstreamManager();
    const config: Partial<StreamConfig> = {
      name: NATS_STREAM,
      subjects: [NATS_SUBJECT],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: nanos(STREAM_MAX_AGE_MS),
      duplicate_window: nanos(DEDUPE_WINDOW_MS),
    };
    try {
      await jsm.streams.add(config);
    } catch {
      // There, with other limits (an older release's): ours from now on.
      await jsm.streams.update(NATS_STREAM, config);
    }
    const info = await jsm.streams.info(NATS_STREAM);
    return { created: info.created, last_seq: info.state.last_seq };
  }

  /** Reads the stream from `sequence` on, with an ordered consumer (which makes itself again when lost). */
  private async follow(sequence: number): Promise<void> {
    const js = this.js;
    if (!js) return;
    // A consumer replaced is not heard any more, even if it still delivers something.
    const generation = ++this.generation;
    stopForGood(this.messages);
    const consumer = await js.consumers.get(NATS_STREAM, {
      filterSubjects: NATS_SUBJECT,
      opt_start_seq: sequence,
    });
    const messages = await consumer.consume({
      callback: (message) => {
        if (generation === this.generation) this.received(message);
      },
      // Short pulls: a restarted server's lost consumer is noticed (and made again) within seconds.
      expires: 5000,
    });
    // Stopped, or followed again from elsewhere, meanwhile: this one is not needed.
    if (this.stopped || generation !== this.generation) stopForGood(messages);
    else this.messages = messages;
  }

  /**
   * Back after a disconnection: the stream is the one we read (the ordered consumer resumes after our last
   * sequence, and `received` notices a gap), or NATS lost it and it is made again empty: every topic reloads, and
   * we read the new one from its start.
   */
  private async reconnected(connection: NatsConnection): Promise<void> {
    const { created } = await this.ensureStream(connection);
    if (created === this.streamCreated || this.stopped) return;
    this.streamCreated = created;
    this.lastSequence = 0;
    this.resync();
    await this.follow(1);
  }

  private received(message: JsMsg): void {
    const sequence = message.seq;
    // A gap: the stream no longer has changes this instance has not seen (older than its limits); a sequence not
    // after the last: the stream was made again. Either way anything may have changed.
    const gap = this.lastSequence > 0 && sequence !== this.lastSequence + 1;
    this.lastSequence = sequence;
    if (gap) this.resync();
    this.arrived(decoder.decode(message.data));
  }

  private async followStatus(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') this.connected = false;
      if (status.type === 'reconnect') {
        this.connected = true;
        void this.reconnected(connection)
          .catch((error: unknown) => this.onError(error))
          // What was written while NATS was away.
          .finally(() => this.kick());
      }
    }
  }
}

/**
 * Stops an ordered consumer's messages for good. nats.js (2.29) may bind a new source to them as they are stopped
 * (an ordered reset in flight: heartbeats missed, a restarted server), which then runs on with its own heartbeat
 * check, polling a closed connection every few seconds for good ('aborting resetPending - connection is closed' on
 * the console, seen in CI on 2026-11-27). A source bound after the stop is stopped at once.
 */
function stopForGood(messages: ConsumerMessages | undefined): void {
  if (!messages) return;
  messages.stop();
  const ordered = messages as ConsumerMessages & { setSource?: (source: { stop(): void }) => void };
  if (typeof ordered.setSource === 'function') ordered.setSource = (source) => source.stop();
}
