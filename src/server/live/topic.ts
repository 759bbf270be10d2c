import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { Snapshot } from './hub.js';

/** Who may read a topic, as its access rule decides for one request. */
export interface TopicAccess<P> {
  /** Which instance of the topic (a kitchen's uid, a customer's id; nothing for a single list). */
  params: P;
  /** Hashed sessions whose end (sign-out) ends this request's stream: a private topic's readers. */
  sessions?: readonly string[];
  /**
   * Another topic whose change can end this request's stream (a kitchen's suspension ends the public's streams of
   * its dishes and reviews): access is checked when a stream opens, so this is what stops one already open. Its
   * reader's next attempt meets the access rule again.
   */
  endsWhen?: StreamEnd;
}

/** A topic that ends a stream once `ends` says so of its snapshot: see `endsWhen`. */
export interface StreamEnd {
  /** The topic's key on the change bus. */
  key: string;
  load(db: Db, clock: Clock): Promise<unknown>;
  /** Its topic is public (see `Topic.public`). */
  public: boolean;
  isMissing: ((data: unknown) => boolean) | undefined;
  ends(snapshot: Snapshot): boolean;
}

/**
 * A live list some screen shows, declared once: its key on the change bus, how to load it, and who may read it.
 * A route serves it with one line (`app.get(path, serveTopic(topic))`); a write announces it with
 * a domain event whose reaction names it (src/server/reactions.ts).
 */
export interface Topic<P, T> {
  key(params: P): string;
  /** Loads the data; `clock` is the app's (a kitchen's "today" depends on it). */
  load(db: Db, params: P, clock: Clock): Promise<T>;
  /**
   * Public data, the same whoever reads it (who may read it is the access rule's): its reads may come off a
   * streaming replica (docs/decisions/0009-public-reads-off-a-replica.md). Anything else reads the primary.
   */
  public?: boolean;
  /** Resolves the instance this request may read, or throws (401, 403, 404). */
  access(request: FastifyRequest): Promise<TopicAccess<P>>;
  /** A snapshot that means "there is no such thing": reads and streams of it answer 404 with `message`. */
  missing?: { when(data: T): boolean; message: string };
}

export function defineTopic<P = void, T = unknown>(topic: Topic<P, T>): Topic<P, T> {
  return topic;
}

/** Whether a topic's data means "there is no such thing", as the hub asks it of a loaded snapshot. */
export function missingTest<P, T>(topic: Topic<P, T>): ((data: unknown) => boolean) | undefined {
  const { missing } = topic;
  return missing && ((data) => missing.when(data as T));
}

/** A stream of some topic ends once `topic`'s snapshot (of `params`) is one that `ends` (see `endsWhen`). */
export function endsWhen<P, T>(
  topic: Topic<P, T>,
  params: P,
  ends: (snapshot: Snapshot) => boolean,
): StreamEnd {
  return {
    key: topic.key(params),
    load: (db, clock) => topic.load(db, params, clock),
    public: topic.public ?? false,
    isMissing: missingTest(topic),
    ends,
  };
}

/** The access rule of a topic anyone may read. */
export const everyone = async (): Promise<TopicAccess<void>> => ({ params: undefined });
