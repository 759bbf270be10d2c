import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  LIVE_EVENT,
  LIVE_STREAM_PATH,
  MAX_STREAM_TOPICS,
  type LiveTopicDelta,
  type LiveTopicEnd,
  type LiveTopicSnapshot,
} from '../../shared/live.js';
import { badRequest, HttpError } from '../lib/errors.js';
import { etagOf, writeFrame, type Delta, type Sink, type Snapshot } from './hub.js';
import { followTopic, LIVE_TOPIC, startEventStream, wantsEventStream } from './live-route.js';
import type { Topic } from './topic.js';
import { msg } from '../../shared/i18n/translator.js';

type AnyTopic = Topic<unknown, unknown>;

/** The live lists by their routes' URL patterns (`/api/kitchens/:uid/menu`), as the routes registered them. */
class LiveRoutes {
  private readonly routes: { pattern: RegExp; names: string[]; topic: AnyTopic }[] = [];

  add(url: string, topic: AnyTopic): void {
    const names: string[] = [];
    const source = url
      .split('/')
      .map((part) => {
        if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(part.slice(1));
        return '([^/?#]+)';
      })
      .join('/');
    this.routes.push({ pattern: new RegExp(`^${source}$`), names, topic });
  }

  /** The topic a URL names, with its path parameters (undefined: no live list there). */
  find(url: string): { topic: AnyTopic; params: Record<string, string> } | undefined {
    for (const { pattern, names, topic } of this.routes) {
      const match = pattern.exec(url);
      if (!match) continue;
      try {
        return {
          topic,
          params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')])),
        };
      } catch {
        return undefined; // not percent-encoded UTF-8
      }
    }
    return undefined;
  }
}

const TopicList = z.object({
  t: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((t) => (t === undefined ? [] : [t].flat()))
    .pipe(
      z
        .array(z.string().min(1).max(600, 'A topic is a URL of at most 600 characters'))
        .max(MAX_STREAM_TOPICS, `A stream carries at most ${MAX_STREAM_TOPICS} topics`),
    ),
});

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A frame built once per snapshot (or delta) and topic URL, as bytes: written to thousands of streams, a string would
 * be measured and encoded again for each.
 */
function frameCache<K extends object>(build: (key: K, url: string) => string) {
  const built = new WeakMap<K, Map<string, Buffer>>();
  return (key: K, url: string): Buffer => {
    let byUrl = built.get(key);
    if (!byUrl) built.set(key, (byUrl = new Map()));
    let frame = byUrl.get(url);
    if (frame === undefined) byUrl.set(url, (frame = Buffer.from(build(key, url))));
    return frame;
  };
}

/** The frame of a topic's snapshot on a tab's stream. */
const taggedFrame = frameCache((snap: Snapshot, url) => {
  const head: Omit<LiveTopicSnapshot, 'data'> = { topic: url, etag: etagOf(snap) };
  return `event: ${LIVE_EVENT.snapshot}\ndata: ${JSON.stringify(head).slice(0, -1)},"data":${snap.json}}\n\n`;
});

/** The frame of what changed in a topic, for a tab that holds its version `from`. */
const deltaFrame = frameCache((delta: Delta, url) => {
  const head: Omit<LiveTopicDelta, 'ops'> = { topic: url, from: etagOf(delta.from), to: etagOf(delta.to) };
  return `event: ${LIVE_EVENT.delta}\ndata: ${JSON.stringify(head).slice(0, -1)},"ops":${delta.json}}\n\n`;
});

/**
 * The tab's one live connection: `GET /api/live?t=<url>&t=<url>…` (each a live list's own URL, `#<etag>` after it
 * when the tab holds that version) answers one server-sent event stream carrying every topic asked for, each
 * snapshot tagged with its topic. Each topic is checked with its own access rule, as its own route would; a refusal
 * is an `ended` event naming the status and message its GET would answer, and the stream goes on with the others. A
 * sign-out, a suspension or a deletion ends exactly the topics it takes away (`ended`, `missing`). The tab changes
 * what it watches by opening a new stream (any instance can serve it) and closing the old one once it is ready; a
 * topic whose version the tab holds is not sent again. Registered before every route, so that it sees them all.
 */
export function registerTabStream(app: FastifyInstance): void {
  const routes = new LiveRoutes();
  app.addHook('onRoute', (route) => {
    const topic = (route.handler as { [LIVE_TOPIC]?: AnyTopic })[LIVE_TOPIC];
    if (topic && [route.method].flat().includes('GET')) routes.add(route.url, topic);
  });

  app.get(
    LIVE_STREAM_PATH,
    {
      schema: { querystring: TopicList },
      config: {
        doc: {
          summary:
            "The tab's one live stream: `?t=<url>` per live list it watches (`#<etag>` after one it holds); each topic's snapshots tagged with it, `ended`/`missing` when one is refused or gone",
          tags: ['live'],
          responses: {
            200: {
              description: 'A server-sent event stream (ask for text/event-stream)',
              type: 'text/event-stream',
            },
          },
          errors: { 429: 'This session or address holds too many open streams (with Retry-After)' },
        },
      },
    },
    async (request, reply) => {
      if (!wantsEventStream(request))
        throw badRequest('This is a live stream: ask for text/event-stream', 'accept');
      const { res, release } = startEventStream(request, reply);
      const stops = new Map<string, () => void>();
      res.on('close', () => {
        release();
        for (const stop of stops.values()) stop();
        stops.clear();
      });

      const end = (url: string, name: string, why: Omit<LiveTopicEnd, 'topic'> = {}) => {
        stops.get(url)?.();
        stops.delete(url);
        if (!res.writableEnded) res.write(event(name, { topic: url, ...why } satisfies LiveTopicEnd));
      };

      for (const asked of new Set((request.query as z.output<typeof TopicList>).t)) {
        if (res.destroyed) return;
        const at = asked.indexOf('#');
        const url = at < 0 ? asked : asked.slice(0, at);
        let held = at < 0 ? undefined : asked.slice(at + 1);
        const found = routes.find(url);
        // Refusals in the tab's language.
        const tr = request.server.i18n.translator(request.locale);
        if (!found) {
          end(url, LIVE_EVENT.ended, { status: 404, message: tr.t('No live list at this address') });
          continue;
        }
        const { topic } = found;
        // The topic's own access rule, on this request as its own route would have seen it.
        const asIfRouted = Object.create(request, { params: { value: found.params } }) as FastifyRequest;
        let access;
        try {
          access = await topic.access(asIfRouted);
        } catch (error) {
          const refusal =
            error instanceof HttpError
              ? { status: error.statusCode, message: tr.t(error.message, error.values) }
              : error instanceof z.ZodError
                ? { status: 400, message: tr.t(error.issues[0]?.message ?? msg('Invalid address')) }
                : undefined;
          if (!refusal) throw error;
          end(url, LIVE_EVENT.ended, refusal);
          continue;
        }
        if (res.destroyed) return;
        const sink: Sink = {
          res,
          snapshot: (snap) => {
            // The version the tab said it holds is not sent again; every later one is.
            if (held !== undefined && etagOf(snap) === held) {
              held = undefined;
              return;
            }
            held = undefined;
            writeFrame(res, taggedFrame(snap, url));
          },
          delta: (delta) => writeFrame(res, deltaFrame(delta, url)),
          missing: () =>
            end(url, LIVE_EVENT.missing, {
              status: 404,
              message: tr.t(topic.missing?.message ?? msg('Not found')),
            }),
          end: () => end(url, LIVE_EVENT.ended),
        };
        stops.set(
          url,
          followTopic(app, topic, access, sink, () => end(url, LIVE_EVENT.ended)),
        );
      }
      if (!res.writableEnded) res.write(event(LIVE_EVENT.ready, { topics: stops.size }));
    },
  );
}
