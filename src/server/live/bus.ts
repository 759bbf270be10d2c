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
    for (const message of messages) this.deliver(message);
  }

  /** Messages committed and not yet handed to the other instances (NATS: the outbox's rows); none with NOTIFY. */
  backlog(): Promise<number | undefined> {
    return Promise.resolve(undefined);
  }

  protected payloads(messages: readonly BusMessage[]): string[] {
    // Stamped with the sending time, so that every receiver can tell how late it hears of a change.
    const at = this.clock.now();
    return messages.map((m) => JSON.stringify({ ...m, at }));
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
    const { at } = JSON.parse(payload) as { at?: unknown };
    if (typeof at === 'number') for (const handler of this.lagHandlers) handler(this.clock.now() - at);
    this.deliver(message);
  }

  protected resync(): void {
    this.resyncHandlers.forEach((handler) => handler());
  }
}

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
