import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_HEARTBEAT_MS } from '../../shared/live.js';
import {
  keepStreamOpen,
  reconnectDelay,
  type ReconnectOptions,
  type StreamSignals,
} from './keep-stream-open.js';

/** Keeps a stream open through a recording opener: each open stream's signals, and whether it was closed. */
function keep(options: ReconnectOptions = {}) {
  const streams: { signals: StreamSignals; closed: boolean }[] = [];
  const keeper = keepStreamOpen(
    (signals) => {
      const stream = { signals, closed: false };
      streams.push(stream);
      return () => (stream.closed = true);
    },
    { random: () => 1, ...options },
  );
  const latest = () => {
    const stream = streams.at(-1);
    if (!stream) throw new Error('no stream opened');
    return stream;
  };
  return { keeper, streams, latest };
}

describe('reconnectDelay', () => {
  it('doubles from 0.5 s with each failure in a row, up to 20 s', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => reconnectDelay(n, { random: () => 1 }));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 20_000, 20_000, 20_000]);
  });

  it('jitters between half and all of the delay', () => {
    expect(reconnectDelay(3, { random: () => 0 })).toBe(1000);
    expect(reconnectDelay(3, { random: () => 0.5 })).toBe(1500);
    expect(reconnectDelay(9, { random: () => 0 })).toBe(10_000);
  });
});

describe('keepStreamOpen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reopens a failed stream (e.g. answered 503) after the backoff, and not before', () => {
    const { streams, latest } = keep();
    expect(streams).toHaveLength(1);
    latest().signals.failed();
    expect(latest().closed).toBe(true);
    vi.advanceTimersByTime(499);
    expect(streams).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(streams).toHaveLength(2);
    expect(latest().closed).toBe(false);
  });

  it('waits longer after each failure in a row, up to the cap, and from the start after a snapshot', () => {
    const { streams, latest } = keep();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      latest().signals.failed();
      const before = streams.length;
      const started = Date.now();
      while (streams.length === before) vi.advanceTimersByTime(100);
      waits.push(Date.now() - started);
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 20_000, 20_000]);

    latest().signals.snapshot();
    latest().signals.failed();
    vi.advanceTimersByTime(500);
    expect(streams).toHaveLength(10);
  });

  it('closes and reopens a stream that has been silent for twice the heartbeat interval', () => {
    const { streams, latest } = keep();
    const first = latest();
    vi.advanceTimersByTime(2 * LIVE_HEARTBEAT_MS - 1);
    expect(streams).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(first.closed).toBe(true);
    expect(streams).toHaveLength(2);
  });

  it('keeps a stream that hears heartbeats or snapshots, and learns the interval the server announces', () => {
    const { streams, latest } = keep();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(2 * LIVE_HEARTBEAT_MS - 1);
      if (i % 2) latest().signals.snapshot();
      else latest().signals.heartbeat(LIVE_HEARTBEAT_MS);
    }
    expect(streams).toHaveLength(1);

    latest().signals.heartbeat(1000);
    vi.advanceTimersByTime(1999);
    expect(streams).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(streams).toHaveLength(2);
    // The reopened stream keeps the interval it learned.
    vi.advanceTimersByTime(2000);
    expect(streams).toHaveLength(3);
  });

  it('ignores what a stream it has closed still reports', () => {
    const { streams, latest } = keep();
    const first = latest();
    vi.advanceTimersByTime(2 * LIVE_HEARTBEAT_MS);
    expect(streams).toHaveLength(2);
    first.signals.failed();
    first.signals.heartbeat(10);
    expect(latest().closed).toBe(false);
    vi.advanceTimersByTime(2 * LIVE_HEARTBEAT_MS - 1);
    expect(streams).toHaveLength(2);
  });

  it('stop closes the stream and cancels a pending reopen; restart reopens at once from the shortest delay', () => {
    const { keeper, streams, latest } = keep();
    latest().signals.failed();
    keeper.stop();
    vi.advanceTimersByTime(10 * LIVE_HEARTBEAT_MS);
    expect(streams).toHaveLength(1);

    keeper.restart();
    expect(streams).toHaveLength(2);
    latest().signals.failed();
    vi.advanceTimersByTime(500);
    expect(streams).toHaveLength(3);

    keeper.stop();
    expect(latest().closed).toBe(true);
    vi.advanceTimersByTime(10 * LIVE_HEARTBEAT_MS);
    expect(streams).toHaveLength(3);
  });
});
