import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { requiredLsnOf } from '../db/read-replica.js';
import { frameOf, MISSING_FRAME, startStream, writeFrame, type Sink, type Snapshot } from './hub.js';
import { requestSessionHashes } from '../identity/sessions.js';
import { notFound, tooManyRequests } from '../lib/errors.js';
import { missingTest, type Topic, type TopicAccess } from './topic.js';

/** Marks a route handler that serves a live topic. */
export const LIVE_TOPIC = Symbol('live topic');

/**
 * Takes this client's place for one more stream (429 beyond its session's or address's limit), and answers the
 * request with an open server-sent event stream that the hub counts (heartbeats; ended on shutdown). `release`
 * gives the place back: call it when the stream closes.
 */
export function startEventStream(request: FastifyRequest, reply: FastifyReply) {
  const { hub } = request.server;
  const release = hub.admit(request.ip, requestSessionHashes(request));
  if (!release)
    throw tooManyRequests('Too many live connections from here: close a few tabs and try again', 10);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  // What EventSource waits before it retries a dropped connection by itself. Our web app reopens streams itself
  // (with backoff, and also after a non-200 answer or a silence: src/web/live/keep-stream-open.ts).
  startStream(res, 'retry: 1500\n\n');
  // A stream is long by nature: no idle timeout on its socket.
  request.raw.socket.setTimeout(0);
  hub.open(res);
  return { res, release };
}

export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/**
 * A topic's current snapshot from the hub's cache (loaded if need be), as its route would answer it. The same
 * object until the topic changes, so it can key what is derived from it (a server-rendered page).
 */
export function readTopic<P, T>(app: FastifyInstance, topic: Topic<P, T>, params: P): Promise<Snapshot> {
  const { hub, clock } = app;
  return hub.read(
    topic.key(params),
    hubLoader(app, topic.public ?? false, (db) => topic.load(db, params, clock)),
    missingTest(topic),
  );
}

/**
 * How the hub loads a topic, for everyone who reads it: a public topic off the replica once it has replayed every
 * change heard (else the primary: a snapshot the hub keeps is never older than a change it heard of); any other from
 * the primary.
 */
function hubLoader(app: FastifyInstance, isPublic: boolean, load: (db: Db) => Promise<unknown>) {
  return isPublic ? () => app.reads.shared(load) : () => load(app.db);
}

/**
 * A topic's snapshot as one request reads it (not a stream): the hub's (see `readTopic`), or, for a public topic
 * the hub holds no snapshot of while the replica has not replayed everything heard, the replica's own answer to this
 * reader, which the hub does not keep (db/read-replica.ts says when).
 */
export async function readTopicFor<P, T>(
  request: FastifyRequest,
  topic: Topic<P, T>,
  params: P,
): Promise<Snapshot> {
  const app = request.server;
  if (topic.public && app.reads.enabled) {
    // What the hub holds is never older than a change it heard of: anyone may be sent it.
    const held = app.hub.cached(topic.key(params));
    if (held) return held;
    if (!(await app.reads.publicRead(requiredLsnOf(request))).shared) {
      const data = await app.reads.own((db) => topic.load(db, params, app.clock));
      return { version: -1, json: JSON.stringify(data), missing: missingTest(topic)?.(data) ?? false };
    }
  }
  return readTopic(app, topic, params);
}

/**
 * Subscribes `sink` to the topic its access rule resolved (the sessions named end it at their sign-out), and follows
 * the topic whose change can end it (`endsWhen`: `ended` is called then). Returns the stop.
 */
export function followTopic<P, T>(
  app: FastifyInstance,
  topic: Topic<P, T>,
  { params, sessions = [], endsWhen }: TopicAccess<P>,
  sink: Sink,
  ended: () => void,
): () => void {
  const { hub, clock } = app;
  const unsubscribe = hub.subscribe(
    topic.key(params),
    hubLoader(app, topic.public ?? false, (db) => topic.load(db, params, clock)),
    missingTest(topic),
    sink,
    sessions,
  );
  const unwatch = endsWhen
    ? hub.watch(
        endsWhen.key,
        hubLoader(app, endsWhen.public, (db) => endsWhen.load(db, clock)),
        endsWhen.isMissing,
        (snapshot) => {
          if (endsWhen.ends(snapshot)) ended();
        },
      )
    : undefined;
  return () => {
    unsubscribe();
    unwatch?.();
  };
}

/**
 * The route handler of a live list: checks the topic's access rule, then answers JSON to a plain GET, or a
 * server-sent event stream (a snapshot, then one per change) to a client asking for text/event-stream, as
 * EventSource does. Both come from the hub's cache.
 */
export function serveTopic<P, T>(topic: Topic<P, T>) {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const access = await topic.access(request);
    const stream = wantsEventStream(request);
    const snapshot = await (stream
      ? readTopic(request.server, topic, access.params)
      : readTopicFor(request, topic, access.params));
    if (snapshot.missing) throw notFound(topic.missing?.message);
    if (!stream)
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(snapshot.json);
    const { res, release } = startEventStream(request, reply);
    const sink: Sink = {
      res,
      snapshot: (snap) => writeFrame(res, frameOf(snap)),
      missing: () => res.end(MISSING_FRAME),
      end: () => res.end(),
    };
    const stop = followTopic(request.server, topic, access, sink, () => res.end());
    res.on('close', () => {
      release();
      stop();
    });
  };
  // Its route is also a topic of the tab's one stream (src/server/live/tab-stream.ts).
  return Object.assign(handler, { [LIVE_TOPIC]: topic as Topic<unknown, unknown> });
}
