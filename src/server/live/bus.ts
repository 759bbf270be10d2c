import { randomUUID } from 'node:crypto';
import type { Database, Tx } from '../db/database.js';
import { sql, type SQL } from 'drizzle-orm';
import { notify, notifyCalls } from '../db/database.js';
import { systemClock, type Clock } from '../lib/clock.js';

/** What instances tell each other. Payloads carry keys and ids, never rows. */
export type BusMessage =
  /** A topic's data changed: reload it. */
  | { type: 'changed'; topic: string }
  /** A session was signed out: forget it and end the streams it opened. */
  | { type: 'session-ended'; sessionHash: string }
  /** Notifications were enqueued: the workers look for work now rather than at their next round. */
  | { type: 'notices-queued' };

type Handler<K extends BusMessage['type']> = (message: Extract<BusMessage, { type: K }>) => void;

/**
 * The change bus: messages sent inside a write's transaction reach every instance (this one included) once it
 * commits. This one rides on PostgreSQL's LISTEN/NOTIFY (PGlite delivers in process); `NatsChangeBus`
 * (./nats-bus.ts, BUS_URL=nats://…) implements the same `send`/`sendingIn`/`afterCommit`/`on`/`listen` over NATS
 * JetStream, from an outbox of the database's, and no feature changes.
 */
export class ChangeBus {
  private readonly handlers = new Map<BusMessage['type'], Set<(message: BusMessage) => void>>();
  private readonly resyncHandlers = new Set<() => void>();
  private readonly lagHandlers = new Set<(ms: number) => void>();
  /** This instance's name in the stamps of its messages (`<instance>:<sequence>`). */
  private readonly instance = randomUUID();
  private sequence = 0;
  /** Each message's stamp, given as it is sent. */
  private readonly stamps = new WeakMap<BusMessage, string>();
  /**
   * Our own messages delivered once, whichever comes first: the writer's call after its commit (`afterCommit`) or the
   * database's echo (PGlite's comes before, PostgreSQL's after). The stamps of those delivered, until the other comes.
   */
  private readonly deliveredOnce = new Set<string>();

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Sends messages with the transaction `tx`: they are delivered only if, and when, it commits. */
  async send(tx: Tx, messages: readonly BusMessage[]): Promise<void> {
    if (messages.length > 0) await notify(tx, ...this.payloads(messages));
  }

  /**
   * The same sending as select-list expressions, for a write that is a single statement (atomic by itself): the
   * statement selects them, and the messages are delivered only if, and when, it commits.
   */
  sendingIn(messages: readonly BusMessage[]): SQL {
    return messages.length === 0 ? sql`null` : notifyCalls(this.payloads(messages));
  }

  /**
   * What the writer calls once its transaction (or single statement) committed, with the messages it sent: this
   * instance handles them at once, so that the writer reads its own write.
   */
  afterCommit(messages: readonly BusMessage[]): void {
    for (const message of messages) {
      const stamp = this.stamps.get(message);
      if (stamp !== undefined && !this.firstOf(stamp)) continue;
      this.deliver(message);
    }
  }

  /** Messages committed and not yet handed to the other instances (NATS: the outbox's rows); none with NOTIFY. */
  backlog(): Promise<number | undefined> {
    return Promise.resolve(undefined);
  }

  protected payloads(messages: readonly BusMessage[]): string[] {
    // Stamped with the sending time, so that every receiver can tell how late it hears of a change.
    const at = this.clock.now();
    return messages.map((m) => {
      const stamp = `${this.instance}:${++this.sequence}`;
      this.stamps.set(m, stamp);
      return JSON.stringify({ ...m, at, stamp });
    });
  }

  /** Is told, for each message arriving from the database, the ms since it was sent (clocks of instances agree). */
  onLag(handler: (ms: number) => void): void {
    this.lagHandlers.add(handler);
  }

  on<K extends BusMessage['type']>(type: K, handler: Handler<K>): void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler as (message: BusMessage) => void);
  }

  /** The feed was interrupted (a lost connection came back): anything may have changed meanwhile. */
  onResync(handler: () => void): void {
    this.resyncHandlers.add(handler);
  }

  /** Hands a message to this instance's handlers (on arrival, and right after our own commit). */
  deliver(message: BusMessage): void {
    for (const handler of this.handlers.get(message.type) ?? []) handler(message);
  }

  /** Starts listening to other instances; returns the function that stops it. */
  listen(): Promise<() => Promise<void>> {
    return this.database.listen({
      onMessage: (payload) => this.arrived(payload),
      onResync: () => this.resync(),
    });
  }

  /** A payload from another instance (or from this one, the long way round): its lag told, then delivered. */
  protected arrived(payload: string): void {
    const message = parseMessage(payload);
    if (!message) return;
    const { at, stamp } = JSON.parse(payload) as { at?: unknown; stamp?: unknown };
    if (typeof at === 'number') for (const handler of this.lagHandlers) handler(this.clock.now() - at);
    if (typeof stamp === 'string' && stamp.startsWith(this.instance) && !this.firstOf(stamp)) return;
    this.deliver(message);
  }

  /** Whether this is the first of the two ways one of our own messages reaches us (then it is delivered). */
  private firstOf(stamp: string): boolean {
    if (this.deliveredOnce.delete(stamp)) return false;
    // Bounded: an echo that never comes (a feed interrupted, then resynced) is forgotten in bulk.
    if (this.deliveredOnce.size >= MAX_AWAITED_ECHOES) this.deliveredOnce.clear();
    this.deliveredOnce.add(stamp);
    return true;
  }

  protected resync(): void {
    this.resyncHandlers.forEach((handler) => handler());
  }
}

/** How many of our own messages' second arrivals are awaited at most. */
const MAX_AWAITED_ECHOES = 10_000;

function parseMessage(payload: string): BusMessage | undefined {
  try {
    const value = JSON.parse(payload) as Partial<Record<string, unknown>>;
    if (value.type === 'changed' && typeof value.topic === 'string')
      return { type: 'changed', topic: value.topic };
    if (value.type === 'session-ended' && typeof value.sessionHash === 'string')
      return { type: 'session-ended', sessionHash: value.sessionHash };
  } catch {
    // Not one of ours (another program on the channel): ignore it.
  }
  return undefined;
}
