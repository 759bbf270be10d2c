import { LIVE_HEARTBEAT_MS } from '../../shared/live.js';

/** What an open stream reports to the keeper that opened it. */
export interface StreamSignals {
  /** A full snapshot arrived: the stream works, so the next failure waits the shortest delay again. */
  snapshot(): void;
  /** A heartbeat arrived, announcing the server's heartbeat interval. */
  heartbeat(heartbeatMs: number): void;
  /** The stream failed (an answer other than 200, a dropped connection): it is to be reopened later. */
  failed(): void;
}

/** Opens a stream that reports to `signals`; returns the function that closes it. */
export type OpenStream = (signals: StreamSignals) => () => void;

export interface ReconnectOptions {
  /** The delay after a first failure; it doubles with each failure in a row, up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Assumed until the stream announces its own. */
  heartbeatMs?: number;
  random?: () => number;
}

export const RECONNECT_DEFAULTS = {
  initialDelayMs: 500,
  maxDelayMs: 20_000,
  heartbeatMs: LIVE_HEARTBEAT_MS,
  random: Math.random,
} satisfies Required<ReconnectOptions>;

/**
 * How long to wait before reopening after `failures` failures in a row: exponential, capped, and jittered between
 * half and all of it, so that the browsers of an instance that went away do not all come back at the same moment.
 */
export function reconnectDelay(failures: number, options: ReconnectOptions = {}): number {
  const { initialDelayMs, maxDelayMs, random } = { ...RECONNECT_DEFAULTS, ...options };
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, failures - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/**
 * Keeps a live stream open for good. The browser's EventSource gives up for good on any answer but 200 (a 503
 * while the database or the instance is down, a proxy's 502) and cannot tell a connection that went silent
 * without closing; so every failure is reopened here after a growing, jittered delay, and a stream that has
 * been silent for twice its heartbeat interval is closed and reopened. A reopened stream starts with a full
 * snapshot, so nothing is lost.
 */
export function keepStreamOpen(open: OpenStream, options: ReconnectOptions = {}) {
  let heartbeatMs = options.heartbeatMs ?? RECONNECT_DEFAULTS.heartbeatMs;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closeCurrent: (() => void) | undefined;

  const after = (ms: number, then: () => void) => {
    clearTimeout(timer);
    timer = setTimeout(then, ms);
  };
  const stop = () => {
    clearTimeout(timer);
    closeCurrent?.();
    closeCurrent = undefined;
  };
  const connect = () => {
    stop();
    let current = true;
    const watch = () => after(2 * heartbeatMs, connect);
    const close = open({
      snapshot() {
        if (!current) return;
        failures = 0;
        watch();
      },
      heartbeat(ms) {
        if (!current) return;
        heartbeatMs = ms;
        watch();
      },
      failed() {
        if (!current) return;
        stop();
        failures++;
        after(reconnectDelay(failures, options), connect);
      },
    });
    closeCurrent = () => {
      current = false;
      close();
    };
    watch();
  };

  connect();
  return {
    /** Closes the stream and forgets every pending reopen. */
    stop,
    /** Reopens now, as after a first connect (the network is back). */
    restart() {
      failures = 0;
      connect();
    },
  };
}
