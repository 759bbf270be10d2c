import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

/** Who may read a topic, as its access rule decides for one request. */
export interface TopicAccess<P> {
  /** Which instance of the topic (a kitchen's uid, a customer's id; nothing for a single list). */
  params: P;
  /** Hashed sessions whose end (sign-out) ends this request's stream: a private topic's readers. */
  sessions?: readonly string[];
}

/**
 * A live list some screen shows, declared once: its key on the change bus, how to load it, and who may read it.
 * A route serves it with one line (`app.get(path, serveTopic(topic))`); a write announces it with
 * `publish(topic, params)`.
 */
export interface Topic<P, T> {
  key(params: P): string;
  /** Loads the data; `clock` is the app's (a kitchen's "today" depends on it). */
  load(db: Db, params: P, clock: Clock): Promise<T>;
  /** Resolves the instance this request may read, or throws (401, 403, 404). */
  access(request: FastifyRequest): Promise<TopicAccess<P>>;
  /** A snapshot that means "there is no such thing": reads and streams of it answer 404 with `message`. */
  missing?: { when(data: T): boolean; message: string };
}

export function defineTopic<P = void, T = unknown>(topic: Topic<P, T>): Topic<P, T> {
  return topic;
}

/** The access rule of a topic anyone may read. */
export const everyone = async (): Promise<TopicAccess<void>> => ({ params: undefined });
