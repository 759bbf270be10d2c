import type { DeltaOp } from './live-delta.js';

/**
 * How often a live stream sends a heartbeat when nothing else happens, by default and at most. A browser that
 * hears nothing for twice the interval takes the connection for dead and opens another; until a stream's first
 * heartbeat tells it the server's interval, it assumes this one, so a server may only beat faster.
 */
export const LIVE_HEARTBEAT_MS = 20_000;

/** The named server-sent events of a live stream. */
export const LIVE_EVENT = {
  /** The topic's whole current value (JSON), on every (re)connect and after a change that is not sent as a delta. */
  snapshot: 'snapshot',
  /**
   * On a tab's one stream: what changed in a topic (`LiveTopicDelta`), for a tab holding the version it starts from;
   * a tab holding another asks for the topic again.
   */
  delta: 'delta',
  /** A heartbeat, carrying a `LivePing`. */
  ping: 'ping',
  /** The topic's subject is gone (a deleted kitchen): the stream ends, and a GET answers 404. */
  missing: 'missing',
  /**
   * On a tab's one stream (`LIVE_STREAM_PATH`): a topic is no longer served to this reader (they signed out, its
   * kitchen was suspended) or was refused when asked for; `LiveTopicEnd` says which and why. A GET says the rest.
   */
  ended: 'ended',
  /** On a tab's one stream: every topic asked for is subscribed (or refused); the stream works. */
  ready: 'ready',
} as const;

/** The one stream a tab holds: `?t=<url>` per topic it watches (a live list's own URL), `#<etag>` when it holds one. */
export const LIVE_STREAM_PATH = '/api/live';
/** Topics one stream may carry. */
export const MAX_STREAM_TOPICS = 50;

/** A snapshot on a tab's one stream: which topic (the URL it was asked by), its version's tag, and its value. */
export interface LiveTopicSnapshot {
  topic: string;
  etag: string;
  data: unknown;
}

/**
 * What changed in a topic on a tab's one stream: from the version tagged `from` to the one tagged `to`, by `ops`
 * (`applyDelta`: src/shared/live-delta.ts).
 */
export interface LiveTopicDelta {
  topic: string;
  from: string;
  to: string;
  ops: DeltaOp;
}

/** A topic gone from a tab's one stream (`missing` or `ended`), and, when it was refused, the answer a GET gives. */
export interface LiveTopicEnd {
  topic: string;
  status?: number;
  message?: string;
}

/** A heartbeat's data: the stream's heartbeat interval, so the browser knows how long a silence may last. */
export interface LivePing {
  heartbeatMs: number;
}

/**
 * The interval a heartbeat's data announces, if it is one. (Checked by hand rather than with zod: every page's
 * live lists read this, and zod stays out of the first view's JavaScript.)
 */
export function parseLivePing(data: string): number | undefined {
  try {
    const { heartbeatMs } = JSON.parse(data) as Partial<LivePing>;
    return typeof heartbeatMs === 'number' && Number.isInteger(heartbeatMs) && heartbeatMs > 0
      ? heartbeatMs
      : undefined;
  } catch {
    return undefined;
  }
}
