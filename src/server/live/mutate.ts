import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/database.js';
import type { BusMessage } from './bus.js';
import type { Topic } from './topic.js';

/** Announces that a topic changed; a topic without parameters takes none. */
export type Publish = <P, T>(topic: Topic<P, T>, ...params: P extends void ? [] : [P]) => void;
/** Sends another message on the change bus (a session ended). */
export type Send = (message: BusMessage) => void;

/**
 * Runs a write in one transaction. `publish(topic, params)` announces a change and `send(message)` anything else:
 * both travel with the transaction (delivered to every instance only if it commits), and after the commit this
 * instance handles them at once, so the writer reads its own write.
 */
export async function mutate<T>(
  app: Pick<FastifyInstance, 'db' | 'bus'>,
  fn: (tx: Tx, publish: Publish, send: Send) => Promise<T>,
): Promise<T> {
  const { messages, send, publish } = collector();
  const result = await app.db.transaction(async (tx) => {
    const value = await fn(tx, publish, send);
    // All of the write's messages in one statement, just before the commit that delivers them.
    await app.bus.send(tx, [...messages.values()]);
    return value;
  });
  for (const message of messages.values()) app.bus.deliver(message);
  return result;
}

function collector() {
  const messages = new Map<string, BusMessage>();
  const send: Send = (message) => void messages.set(JSON.stringify(message), message);
  const publish: Publish = (topic, ...params) =>
    send({ type: 'changed', topic: topic.key(params[0] as never) });
  return { messages, send, publish };
}

/**
 * A write whose change notices ride in its last statement (fewer round trips on a hot path; a single statement
 * needs no transaction): `announce(publish)` names the topics it changes, and `write(sending)` runs the write, whose
 * statement must select `sending` so that the notices commit with it. After the commit this instance handles them
 * at once, as `mutate`.
 */
export async function mutateInOneStatement<T>(
  app: Pick<FastifyInstance, 'bus'>,
  announce: (publish: Publish) => void,
  write: (sending: SQL) => Promise<T>,
): Promise<T> {
  const { messages, publish } = collector();
  announce(publish);
  const result = await write(app.bus.sendingIn([...messages.values()]));
  for (const message of messages.values()) app.bus.deliver(message);
  return result;
}
