import http from 'node:http';
import { applyDelta, type DeltaOp } from '../../shared/live-delta.js';

export interface EventStream {
  events: { event: string; data: string }[];
  /**
   * Resolves with the first event (already received or future) that matches, or rejects after `timeoutMs`. On a tab's
   * stream a delta is seen as the snapshot it makes of the topic's last value (`{ topic, etag, data }`), as a browser
   * would rebuild it.
   */
  waitFor(predicate: (data: unknown) => boolean, timeoutMs?: number): Promise<unknown>;
  close(): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
}

/** Opens a server-sent event stream over real HTTP (app.inject cannot stream) and collects its events. */
export function openEventStream(
  url: string,
  headers: Record<string, string> = {},
  /** Told each event's value as it arrives (as `waitFor` sees it). */
  onValue?: (value: unknown, event: string) => void,
  /**
   * A tab's stream reopened naming versions it holds (`t=<url>#<etag>`): those versions with their data, which the
   * server does not send again and its deltas start from.
   */
  held: ReadonlyMap<string, { etag: string; data: unknown }> = new Map(),
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const events: { event: string; data: string }[] = [];
    /** Each event's value as waiters see it: its data, or for a delta the snapshot it rebuilds. */
    const values: unknown[] = [];
    /** A tab's stream: each topic's last value and its tag, for the deltas that follow. */
    const topics = new Map<string, { etag: string; data: unknown }>(held);
    const valueOf = (event: string, parsed: unknown): unknown => {
      // A list's own stream sends its value itself, which may be null or an array.
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed;
      const frame = parsed as { topic?: string; etag?: string; data?: unknown; from?: string; to?: string };
      if (event === 'snapshot' && typeof frame.topic === 'string' && typeof frame.etag === 'string')
        topics.set(frame.topic, { etag: frame.etag, data: frame.data });
      if (event !== 'delta' || typeof frame.topic !== 'string') return parsed;
      const held = topics.get(frame.topic);
      if (!held || held.etag !== frame.from) return parsed;
      const rebuilt = {
        topic: frame.topic,
        etag: frame.to ?? '',
        data: applyDelta(held.data, (parsed as { ops: DeltaOp }).ops),
      };
      topics.set(frame.topic, { etag: rebuilt.etag, data: rebuilt.data });
      return rebuilt;
    };
    const waiters: { predicate: (d: unknown) => boolean; resolve: (d: unknown) => void }[] = [];
    let markEnded: () => void = () => {};
    const ended = new Promise<void>((resolveEnded) => (markEnded = resolveEnded));
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('end', () => markEnded());
      res.on('close', () => markEnded());
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (!data) continue;
          events.push({ event, data });
          const parsed = valueOf(event, JSON.parse(data));
          values.push(parsed);
          onValue?.(parsed, event);
          for (const w of [...waiters]) {
            if (w.predicate(parsed)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(parsed);
            }
          }
        }
      });
      resolve({
        events,
        waitFor(predicate, timeoutMs = 5000) {
          const seen = values.find(predicate);
          if (seen !== undefined) return Promise.resolve(seen);
          return new Promise((res2, rej2) => {
            const timer = setTimeout(() => rej2(new Error('no matching event in time')), timeoutMs);
            waiters.push({
              predicate,
              resolve: (d) => {
                clearTimeout(timer);
                res2(d);
              },
            });
          });
        },
        close: () => req.destroy(),
        ended,
      });
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
  });
}
