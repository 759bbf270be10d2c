import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeBus } from './bus.js';
import { deltaJson } from './delta.js';
import { LIVE_EVENT, LIVE_HEARTBEAT_MS, type LivePing } from '../../shared/live.js';

type Loader = () => Promise<unknown>;

/** A topic's data as sent: its JSON, and whether it means "there is no such thing". */
export interface Snapshot {
  version: number;
  json: string;
  missing: boolean;
}

/**
 * What changed from one snapshot of a topic to the next, built once per change whoever many subscribers hold `from`:
 * `json` is its op (src/shared/live-delta.ts). `from` and `to` are the first snapshots of their content (see
 * `contentOf`), so their tags name the versions a client holds.
 */
export interface Delta {
  from: Snapshot;
  to: Snapshot;
  json: string;
}

/**
 * Where one subscription's frames go: a stream of its own (src/server/live/live-route.ts), or one topic of a tab's
 * single stream (src/server/live/tab-stream.ts).
 */
export interface Sink {
  /** The connection the frames are written to: one that stops reading is dropped (its unsent bytes are watched). */
  readonly res: ServerResponse;
  /** Sends a snapshot. */
  snapshot(snap: Snapshot): void;
  /**
   * Sends what changed since the snapshot this sink was last sent (`delta.from`), when it can say so (a tab's stream:
   * src/server/live/tab-stream.ts); without it, every change is a snapshot.
   */
  delta?(delta: Delta): void;
  /** The topic's subject is gone (a deleted kitchen): the subscription is over. */
  missing(): void;
  /** Ended from outside (the session that could read it signed out): the subscription is over. */
  end(): void;
}

interface Subscriber {
  sink: Sink;
  lastVersion: number;
  /** The content last sent (see `contentOf`): the same content is not sent twice, a later one may be a delta. */
  sent: Snapshot | undefined;
}

/** Someone in this process following a topic's snapshots (not a stream): see `watch`. */
interface Watcher {
  lastVersion: number;
  onSnapshot: (snapshot: Snapshot) => void;
}

interface TopicState {
  load: Loader;
  isMissing: ((data: unknown) => boolean) | undefined;
  /** Bumped on every change notice; a load started at an older version is not cached. */
  version: number;
  cached: Snapshot | undefined;
  inflight: Promise<Snapshot> | undefined;
  /** The content of the snapshot built last (see `contentOf`), which a new one of the same JSON shares. */
  content: Snapshot | undefined;
  subscribers: Set<Subscriber>;
  watchers: Set<Watcher>;
  refreshing: boolean;
  dirty: boolean;
}

/** How many streams one session, and one client address, may hold open at once. */
export interface StreamLimits {
  perSession: number;
  perAddress: number;
}

/** Drop a subscriber whose socket has this much unsent data: it is not reading. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Topics kept cached with nobody subscribed, at most; the least recently created go first. */
const MAX_IDLE_TOPICS = 5000;

/**
 * Keeps the latest snapshot of every live topic (a list the UI shows) and pushes a fresh one to each
 * subscriber whenever the topic changes. Reads are answered from the same cache, so a list is queried
 * once per change, not once per reader. A (re)connecting subscriber always starts from a full snapshot,
 * so a reconnect never loses an update.
 */
export class LiveHub {
  private readonly topics = new Map<string, TopicState>();
  /** Subscriptions by the (hashed) session tokens whose sign-out ends them. */
  private readonly bySession = new Map<string, Set<Subscriber>>();
  /** Every open connection, each heard once per heartbeat, however many topics it carries. */
  private readonly connections = new Set<ServerResponse>();
  /** Open streams by who holds them (`session:<hash>`, `address:<ip>`), to cap them: see `admit`. */
  private readonly holders = new Map<string, number>();
  private readonly limits: StreamLimits;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly pingFrame: string;
  private closed = false;

  /** `heartbeatMs`: how often every stream hears a `ping` event (at most `LIVE_HEARTBEAT_MS`, which is the default). */
  constructor(
    private readonly log: FastifyBaseLogger,
    {
      heartbeatMs = LIVE_HEARTBEAT_MS,
      limits = { perSession: Infinity, perAddress: Infinity },
    }: { heartbeatMs?: number; limits?: StreamLimits } = {},
  ) {
    this.limits = limits;
    // A real event, not an SSE comment: the browser's watchdog must see it, and learns the interval from it.
    const ping: LivePing = { heartbeatMs };
    this.pingFrame = `event: ${LIVE_EVENT.ping}\ndata: ${JSON.stringify(ping)}\n\n`;
    this.heartbeat = setInterval(() => this.ping(), heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * The current snapshot of a topic, loading it if it is not cached. A topic's key always names the same loader
   * (topics are declared once: live/topic.ts), so the loader of whoever asks first is the topic's loader.
   */
  read(topic: string, load: Loader, isMissing: ((data: unknown) => boolean) | undefined): Promise<Snapshot> {
    return this.snapshot(this.state(topic, load, isMissing));
  }

  /** A topic's snapshot if the hub holds one now (nothing is loaded). */
  cached(topic: string): Snapshot | undefined {
    return this.topics.get(topic)?.cached;
  }

  /** A topic changed (a write committed here or on another instance): reload it for its subscribers. */
  changed(topic: string): void {
    const state = this.topics.get(topic);
    if (!state) return;
    state.version++;
    state.cached = undefined;
    state.inflight = undefined;
    if (isFollowed(state)) this.refresh(topic, state);
    else this.topics.delete(topic);
  }

  /**
   * Follows the change bus: reloads the topics it says changed, ends the streams of sessions signed out anywhere,
   * and reloads everything after a gap in the feed.
   */
  follow(bus: ChangeBus): void {
    bus.on('changed', ({ topic }) => this.changed(topic));
    bus.on('session-ended', ({ sessionHash }) => this.endSessionStreams(sessionHash));
    bus.onResync(() => this.resyncAll());
  }

  /** The change feed was interrupted: every topic may be stale. */
  resyncAll(): void {
    for (const topic of [...this.topics.keys()]) this.changed(topic);
  }

  /**
   * Takes a place for one more stream of a client (its address and the hashes of every session cookie it sent),
   * or refuses (undefined) when the address or any of the sessions holds its limit already. The returned function
   * gives the place back (once, whatever calls it).
   */
  admit(address: string, sessions: readonly string[]): (() => void) | undefined {
    const keys = [`address:${address}`, ...sessions.map((hash) => `session:${hash}`)];
    const full = keys.some(
      (key) =>
        (this.holders.get(key) ?? 0) >=
        (key.startsWith('address:') ? this.limits.perAddress : this.limits.perSession),
    );
    if (full) return undefined;
    for (const key of keys) this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = (this.holders.get(key) ?? 1) - 1;
        if (left > 0) this.holders.set(key, left);
        else this.holders.delete(key);
      }
    };
  }

  /** Streams held by an address or a session (hashed), as `admit` counts them. */
  heldBy(holder: { address: string } | { session: string }): number {
    return (
      this.holders.get('address' in holder ? `address:${holder.address}` : `session:${holder.session}`) ?? 0
    );
  }

  /**
   * Counts an open connection (heartbeats; ended on shutdown) until it closes. Every stream, single or a tab's,
   * registers its response once.
   */
  open(res: ServerResponse): void {
    if (this.closed) {
      res.end();
      return;
    }
    this.connections.add(res);
    res.once('close', () => this.connections.delete(res));
  }

  /**
   * Subscribes `sink` to a topic: a snapshot now, then one after every change; `sessions` (hashed) end it when they
   * sign out. Returns the unsubscribe (harmless to call twice).
   */
  subscribe(
    topic: string,
    load: Loader,
    isMissing: ((data: unknown) => boolean) | undefined,
    sink: Sink,
    sessions: readonly string[] = [],
  ): () => void {
    const state = this.state(topic, load, isMissing);
    const subscriber: Subscriber = { sink, lastVersion: -1, sent: undefined };
    state.subscribers.add(subscriber);
    for (const session of sessions) {
      let set = this.bySession.get(session);
      if (!set) this.bySession.set(session, (set = new Set()));
      set.add(subscriber);
    }
    this.first(topic, state, (snap) => this.send(subscriber, snap));
    return () => {
      for (const session of sessions) {
        const set = this.bySession.get(session);
        set?.delete(subscriber);
        if (set?.size === 0) this.bySession.delete(session);
      }
      state.subscribers.delete(subscriber);
      this.forgetIfIdle(topic, state);
    };
  }

  /**
   * Calls `onSnapshot` with a topic's snapshot now and after every change, as a stream of it would be sent them
   * (a stream of another topic can end by what this one says: src/server/live/live-route.ts). Returns the stop.
   */
  watch(
    topic: string,
    load: Loader,
    isMissing: ((data: unknown) => boolean) | undefined,
    onSnapshot: (snapshot: Snapshot) => void,
  ): () => void {
    const state = this.state(topic, load, isMissing);
    const watcher: Watcher = { lastVersion: -1, onSnapshot };
    state.watchers.add(watcher);
    this.first(topic, state, (snap) => this.tell(watcher, snap));
    return () => {
      state.watchers.delete(watcher);
      this.forgetIfIdle(topic, state);
    };
  }

  /** Hands a new stream or watcher the topic's snapshot; a failed load is retried for everyone following it. */
  private first(topic: string, state: TopicState, deliver: (snap: Snapshot) => void): void {
    this.snapshot(state).then(deliver, (error: unknown) => {
      this.log.warn({ err: error, topic }, 'live snapshot failed');
      this.scheduleRetry(topic, state);
    });
  }

  /** Its last stream or watcher left: forgotten, unless its snapshot is cached (reads use it) or loading. */
  private forgetIfIdle(topic: string, state: TopicState): void {
    if (!isFollowed(state) && !state.cached && !state.inflight) this.topics.delete(topic);
  }

  /**
   * A session was signed out: end the streams it opened. Access is checked when a stream opens, so this is what
   * stops a signed-out browser from receiving further private updates (its reconnect is then refused).
   */
  endSessionStreams(sessionHash: string): void {
    const set = this.bySession.get(sessionHash);
    if (!set) return;
    this.bySession.delete(sessionHash);
    for (const subscriber of set) subscriber.sink.end();
  }

  subscriberCount(): number {
    let n = 0;
    for (const s of this.topics.values()) n += s.subscribers.size;
    return n;
  }

  /** Open streams by topic kind (the key before its first `:`: `menu`, `orders`, `chat`, …), for the metrics. */
  /** Topics loaded (computed) since start, by kind: what a cache of them saves shows here. */
  readonly loadsByKind = new Map<string, number>();

  subscribersByKind(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [topic, state] of this.topics) {
      const kind = topic.split(':', 1)[0] ?? topic;
      counts.set(kind, (counts.get(kind) ?? 0) + state.subscribers.size);
    }
    return counts;
  }

  /** Ends every stream (on shutdown), so the HTTP server can close. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const state of this.topics.values()) {
      state.subscribers.clear();
      state.watchers.clear();
    }
    for (const res of this.connections) res.end();
    this.connections.clear();
  }

  /**
   * A topic's state, created with `load` and `isMissing` if it is new. Every caller passes the topic's own test of
   * "missing" (topics are declared once), so a state created by a stream answers reads as one created by a read.
   */
  private state(
    topic: string,
    load: Loader,
    isMissing: ((data: unknown) => boolean) | undefined,
  ): TopicState {
    let state = this.topics.get(topic);
    if (!state) {
      if (this.topics.size >= MAX_IDLE_TOPICS) this.evictIdle();
      const kind = topic.split(':', 1)[0] ?? topic;
      state = {
        load: () => {
          this.loadsByKind.set(kind, (this.loadsByKind.get(kind) ?? 0) + 1);
          return load();
        },
        isMissing,
        version: 0,
        cached: undefined,
        inflight: undefined,
        content: undefined,
        subscribers: new Set(),
        watchers: new Set(),
        refreshing: false,
        dirty: false,
      };
      this.topics.set(topic, state);
    }
    return state;
  }

  /** Forgets the oldest cached topics that nobody subscribes to, so requests for many ids cannot fill memory. */
  private evictIdle(): void {
    let toDrop = Math.ceil(MAX_IDLE_TOPICS / 10);
    for (const [topic, state] of this.topics) {
      if (toDrop === 0) break;
      if (!isFollowed(state) && !state.refreshing) {
        this.topics.delete(topic);
        toDrop--;
      }
    }
  }

  private snapshot(state: TopicState): Promise<Snapshot> {
    if (state.cached) return Promise.resolve(state.cached);
    if (state.inflight) return state.inflight;
    const version = state.version;
    const inflight = state.load().then((data) => {
      const json = JSON.stringify(data);
      // The same change often arrives twice (our own commit, then its notification): its snapshots share their
      // content, so that each subscriber tells it from the one it holds by reference, not by comparing the JSON.
      const same = state.content?.json === json ? state.content : undefined;
      const snap = { version, json: same?.json ?? json, missing: state.isMissing?.(data) ?? false };
      if (same && same.missing === snap.missing) contents.set(snap, same);
      else state.content = snap;
      if (state.version === version) state.cached = snap;
      return snap;
    });
    state.inflight = inflight;
    const clear = () => {
      if (state.inflight === inflight) state.inflight = undefined;
    };
    inflight.then(clear, clear);
    return inflight;
  }

  private refresh(topic: string, state: TopicState): void {
    if (state.refreshing) {
      state.dirty = true;
      return;
    }
    state.refreshing = true;
    // Let a burst of change notices for one topic coalesce into one reload.
    setImmediate(() => void this.reload(topic, state));
  }

  /** Reloads a topic until no change arrived during the load, and sends the result to its subscribers. */
  private async reload(topic: string, state: TopicState): Promise<void> {
    try {
      do {
        state.dirty = false;
        const snap = await this.snapshot(state);
        if (state.dirty) continue;
        const content = contentOf(snap);
        // Computed once per content held (nearly every subscriber holds the previous one), when first needed.
        const deltas = new Map<Snapshot, Delta | null>();
        const deltaFrom = (from: Snapshot): Delta | null => {
          let delta = deltas.get(from);
          if (delta === undefined) {
            const json = from.missing || snap.missing ? undefined : deltaJson(from.json, content.json);
            deltas.set(from, (delta = json === undefined ? null : { from, to: content, json }));
          }
          return delta;
        };
        for (const s of state.subscribers) this.send(s, snap, content, deltaFrom);
        for (const watcher of state.watchers) this.tell(watcher, snap);
      } while (state.dirty && !this.closed);
    } catch (error) {
      this.log.warn({ err: error, topic }, 'live refresh failed');
      this.scheduleRetry(topic, state);
    } finally {
      state.refreshing = false;
    }
  }

  private scheduleRetry(topic: string, state: TopicState): void {
    setTimeout(() => {
      if (!this.closed && isFollowed(state) && this.topics.get(topic) === state) this.changed(topic);
    }, 1000).unref();
  }

  /**
   * Sends `snap` (whose content is `content`) to a subscriber that does not hold it yet: the delta from the content
   * it holds when `deltaFrom` has one, else the snapshot.
   */
  private send(
    subscriber: Subscriber,
    snap: Snapshot,
    content: Snapshot = contentOf(snap),
    deltaFrom?: (held: Snapshot) => Delta | null,
  ): void {
    const { sink } = subscriber;
    if (snap.version <= subscriber.lastVersion || sink.res.writableEnded) return;
    if (sink.res.writableLength > MAX_BUFFERED_BYTES) {
      sink.res.destroy();
      return;
    }
    subscriber.lastVersion = snap.version;
    // Its subject is gone (a deleted kitchen): say so; a new subscription would answer 404.
    if (snap.missing) {
      sink.missing();
      return;
    }
    // The same change often arrives twice (our own commit, then its notification): send it once.
    const held = subscriber.sent;
    if (held === content) return;
    subscriber.sent = content;
    const delta = held && sink.delta && deltaFrom ? deltaFrom(held) : null;
    if (delta) sink.delta?.(delta);
    else sink.snapshot(snap);
  }

  private tell(watcher: Watcher, snap: Snapshot): void {
    if (snap.version <= watcher.lastVersion || this.closed) return;
    watcher.lastVersion = snap.version;
    watcher.onSnapshot(snap);
  }

  private ping(): void {
    for (const res of this.connections) if (!res.writableEnded) res.write(this.pingFrame);
  }
}

/** Streams or watchers follow it: a change reloads it for them. */
const isFollowed = (state: TopicState) => state.subscribers.size > 0 || state.watchers.size > 0;

/** Snapshots by the first snapshot of a topic with the same JSON (built in a row), when it is not themselves. */
const contents = new WeakMap<Snapshot, Snapshot>();

/** The first snapshot of a topic with the same content as `snap` (built in a row): what subscribers are said to hold. */
export const contentOf = (snap: Snapshot): Snapshot => contents.get(snap) ?? snap;

const frames = new WeakMap<Snapshot, Buffer>();

/**
 * A snapshot's frame on a stream of its own topic: built once, whoever many subscribers it goes to, as bytes (a
 * string would be measured and encoded again for each).
 */
export function frameOf(snap: Snapshot): Buffer {
  let frame = frames.get(snap);
  if (frame === undefined)
    frames.set(snap, (frame = Buffer.from(`event: ${LIVE_EVENT.snapshot}\ndata: ${snap.json}\n\n`)));
  return frame;
}

const CRLF = Buffer.from('\r\n');
const chunks = new WeakMap<Buffer, Buffer>();
/** Streams whose status line and headers are known to be on their socket: see `startStream`. */
const headed = new WeakSet<ServerResponse>();

/**
 * Starts a stream's body with `first` and notes when its head has reached the socket: until then `writeFrame` goes
 * through the response. `res.headersSent` only says the head was formed: Node (24.22 and later) holds the head and
 * every `res.write` of a tick in the response itself until the next tick, so bytes written to the socket meanwhile
 * would arrive first.
 */
export function startStream(res: ServerResponse, first: string): void {
  res.write(first, (error) => {
    if (!error) headed.add(res);
  });
}

/**
 * Writes a frame built once for many streams (`frameOf`, a tab's stream's frames). On an HTTP/1.1 stream, which is
 * sent in chunks, the chunk (its length, the frame, CRLF) is also built once and written to the socket as one
 * buffer: `res.write` would frame it again for each stream, as four writes gathered on the next tick. That is done
 * only when nothing can overtake it: the head is on the socket (`startStream`) and the response holds no bytes of its
 * own (a `res.write` of this tick, which Node gathers until the next: `writableLength` counts them with the socket's,
 * which keeps its order). Otherwise the frame goes through `res.write`, behind what the response holds.
 */
export function writeFrame(res: ServerResponse, frame: Buffer): void {
  const { socket } = res;
  if (
    !res.chunkedEncoding ||
    !headed.has(res) ||
    !socket ||
    socket.destroyed ||
    res.writableEnded ||
    res.writableCorked > 0 ||
    res.writableLength !== socket.writableLength
  ) {
    if (!res.writableEnded) res.write(frame);
    return;
  }
  let chunk = chunks.get(frame);
  if (chunk === undefined)
    chunks.set(
      frame,
      (chunk = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`), frame, CRLF])),
    );
  socket.write(chunk);
}

/** The frame that says a stream's subject is gone. */
export const MISSING_FRAME = `event: ${LIVE_EVENT.missing}\ndata: {}\n\n`;

const etags = new WeakMap<Snapshot, string>();

/** A short tag of a snapshot's content: a tab that reconnects holding it is not sent it again. */
export function etagOf(snap: Snapshot): string {
  let etag = etags.get(snap);
  if (etag === undefined)
    etags.set(snap, (etag = createHash('sha256').update(snap.json).digest('base64url').slice(0, 16)));
  return etag;
}
