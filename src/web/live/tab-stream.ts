import {
  LIVE_EVENT,
  LIVE_STREAM_PATH,
  parseLivePing,
  type LiveTopicDelta,
  type LiveTopicEnd,
  type LiveTopicSnapshot,
} from '../../shared/live.js';
import { applyDelta } from '../../shared/live-delta.js';
import { keepStreamOpen } from './keep-stream-open.js';

/** Who follows a topic on the tab's stream. */
export interface TopicListener {
  /** The topic's whole current value. */
  snapshot(data: unknown): void;
  /**
   * The topic is no longer carried: `missing` (its subject is gone for good), or `ended` (refused, with the status
   * and message its GET would answer; or ended by a sign-out or a suspension, without).
   */
  gone(end: LiveTopicEnd, how: 'missing' | 'ended'): void;
}

interface Followed {
  listeners: Set<TopicListener>;
  /** The version held (its tag), sent when the stream is reopened so that it is not sent again. */
  etag: string | undefined;
  /** A snapshot arrived on the current connection, or the server confirmed the one held. */
  live: boolean;
  /**
   * The latest value (of the version `etag`): handed to a follower that comes while the topic is carried, and what
   * the next delta applies to.
   */
  last: { data: unknown } | undefined;
}

/** How long a topic nobody follows any more stays on the connection before it is reopened without it. */
const DROP_AFTER_MS = 5000;

/**
 * The tab's one live connection (`/api/live`), carrying every topic the tab watches: a browser keeps at most six
 * connections to a site over HTTP/1.1, streams included. Following a topic it does not carry yet reopens it with
 * the new list (a topic whose version the tab holds is not sent again, and one that changed meanwhile is); one
 * nobody follows any more is dropped at the next reopen, or a few seconds later. The
 * connection is kept open for good (keep-stream-open.ts): reopened after a failure, a silence, or the network
 * coming back, each time from the versions held, so nothing is lost and nothing is sent twice.
 */
export class TabStream {
  private readonly topics = new Map<string, Followed>();
  /** The topics of the connection open now. */
  private carried = new Set<string>();
  private keeper: ReturnType<typeof keepStreamOpen> | undefined;
  private dropTimer: ReturnType<typeof setTimeout> | undefined;
  private reopenQueued = false;

  constructor(private readonly openSource: (url: string) => EventSource = (url) => new EventSource(url)) {}

  /**
   * Follows `url`'s topic (a live list's own URL); returns the unfollow. `held`: a version of it the tab already
   * has (a server-rendered page's data, with its tag), which the server then does not send; it sends whatever came
   * after it.
   */
  follow(url: string, listener: TopicListener, held?: { etag: string; data: unknown }): () => void {
    let topic = this.topics.get(url);
    if (!topic)
      this.topics.set(
        url,
        (topic = {
          listeners: new Set(),
          etag: held?.etag,
          live: false,
          last: held && { data: held.data },
        }),
      );
    topic.listeners.add(listener);
    if (!this.carried.has(url)) this.queueReopen();
    // Carried already (a page left and the next one follows the same list): what arrived meanwhile is not lost.
    else if (topic.live && topic.last) {
      const { data } = topic.last;
      queueMicrotask(() => topic.listeners.has(listener) && listener.snapshot(data));
    }
    const followed = topic;
    return () => {
      followed.listeners.delete(listener);
      if (followed.listeners.size > 0 || this.topics.get(url) !== followed) return;
      // Still carried, and its snapshots kept, until the connection is reopened without it.
      clearTimeout(this.dropTimer);
      this.dropTimer = setTimeout(() => this.queueReopen(), DROP_AFTER_MS);
    };
  }

  /** Whether the tab holds the server's latest snapshot of `url` (the stream delivered it and has not failed). */
  isLive(url: string): boolean {
    return this.topics.get(url)?.live ?? false;
  }

  /** How many connections this tab holds now (0 or 1): what "one live connection per tab" is checked by. */
  get connections(): number {
    return this.keeper ? 1 : 0;
  }

  /** Forgets the version held of `url` and reopens the connection: the server sends that topic whole. */
  private askAgain(url: string): void {
    const topic = this.topics.get(url);
    if (!topic) return;
    topic.etag = undefined;
    topic.live = false;
    topic.last = undefined;
    this.keeper?.restart();
  }

  private queueReopen(): void {
    if (this.reopenQueued) return;
    this.reopenQueued = true;
    // Every topic a render follows joins the same reopen.
    queueMicrotask(() => {
      this.reopenQueued = false;
      this.reopen();
    });
  }

  private reopen(): void {
    clearTimeout(this.dropTimer);
    for (const [url, topic] of this.topics) if (topic.listeners.size === 0) this.topics.delete(url);
    const wanted = [...this.topics.keys()];
    if (wanted.length === 0) {
      this.stop();
      return;
    }
    if (this.keeper && wanted.length === this.carried.size && wanted.every((url) => this.carried.has(url)))
      return;
    if (this.keeper) this.keeper.restart();
    else {
      this.keeper = keepStreamOpen((signals) => this.connect(signals));
      window.addEventListener('offline', this.offline);
      window.addEventListener('online', this.online);
    }
  }

  private readonly offline = () => this.keeper?.stop();
  private readonly online = () => this.keeper?.restart();

  private stop(): void {
    this.keeper?.stop();
    this.keeper = undefined;
    this.carried = new Set();
    window.removeEventListener('offline', this.offline);
    window.removeEventListener('online', this.online);
  }

  /** Opens one connection carrying every followed topic; returns its close. */
  private connect(signals: Parameters<Parameters<typeof keepStreamOpen>[0]>[0]): () => void {
    const urls = [...this.topics.keys()];
    const query = urls
      .map((url) => {
        const etag = this.topics.get(url)?.etag;
        return `t=${encodeURIComponent(etag ? `${url}#${etag}` : url)}`;
      })
      .join('&');
    const source = this.openSource(`${LIVE_STREAM_PATH}?${query}`);
    this.carried = new Set(urls);
    const on = (name: string, handle: (data: string) => void) =>
      source.addEventListener(name, (event: MessageEvent<string>) => handle(event.data));
    const received = (topic: Followed, etag: string, value: unknown) => {
      topic.etag = etag;
      topic.live = true;
      topic.last = { data: value };
      for (const listener of topic.listeners) listener.snapshot(value);
    };
    on(LIVE_EVENT.snapshot, (data) => {
      const { topic: url, etag, data: value } = JSON.parse(data) as LiveTopicSnapshot;
      const topic = this.topics.get(url);
      if (topic) received(topic, etag, value);
    });
    on(LIVE_EVENT.delta, (data) => {
      const { topic: url, from, to, ops } = JSON.parse(data) as LiveTopicDelta;
      const topic = this.topics.get(url);
      if (!topic) return;
      let value: unknown;
      try {
        if (topic.etag !== from || !topic.last) throw new Error('not the version held');
        value = applyDelta(topic.last.data, ops);
      } catch {
        // It holds another version: that topic is asked for again whole (the others are not sent again).
        this.askAgain(url);
        return;
      }
      received(topic, to, value);
    });
    const gone = (how: 'missing' | 'ended') => (data: string) => {
      const end = JSON.parse(data) as LiveTopicEnd;
      const topic = this.topics.get(end.topic);
      if (!topic) return;
      // Not carried any more: following it again (once a GET says it can be read) reopens with it.
      this.topics.delete(end.topic);
      this.carried.delete(end.topic);
      for (const listener of topic.listeners) listener.gone(end, how);
    };
    on(LIVE_EVENT.missing, gone('missing'));
    on(LIVE_EVENT.ended, gone('ended'));
    on(LIVE_EVENT.ready, () => {
      // The versions held of topics not sent again are the server's latest.
      for (const url of urls) {
        const topic = this.topics.get(url);
        if (topic?.etag) topic.live = true;
      }
      signals.snapshot();
    });
    on(LIVE_EVENT.ping, (data) => {
      const heartbeatMs = parseLivePing(data);
      if (heartbeatMs) signals.heartbeat(heartbeatMs);
    });
    source.addEventListener('error', () => {
      for (const topic of this.topics.values()) topic.live = false;
      signals.failed();
    });
    return () => source.close();
  }
}

/** The tab's stream (one per page load). */
export const tabStream = typeof window === 'undefined' ? undefined : new TabStream();
