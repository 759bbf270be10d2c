import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { percentile, type LoadResult } from './lib.js';

export interface HttpLoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Requests in flight on each connection (HTTP/1.1 pipelining). */
  pipelining: number;
  /** Seconds. */
  duration: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/**
 * A closed-loop GET load that reads each answer's head and skips its body by its Content-Length, as a browser's
 * network stack hands bytes on without looking at them. autocannon appends every body to a JavaScript string
 * (`req.body += data`): for a compressed page that is UTF-8 decoding of binary bytes, which cost its one thread about
 * 30 µs an answer and made the client, not the server, the limit of an HTML read (the server idle 30 % of the time),
 * while a JSON answer, ASCII, decodes on a fast path. Measured here, every read costs the client the same.
 */
export async function httpLoad(options: HttpLoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const head =
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n';
  const request = Buffer.from(head, 'latin1');
  const latencies: number[] = [];
  let completed = 0;
  let non2xx = 0;
  let errors = 0;
  let running = true;
  const started = performance.now();

  const connection = () =>
    new Promise<void>((resolve) => {
      const sent: number[] = [];
      let pendingHead = EMPTY;
      let bodyLeft = -1; // -1: reading a head
      let status = 0;
      const socket = net.connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      const send = (count: number) => {
        const now = performance.now();
        for (let i = 0; i < count; i++) sent.push(now);
        socket.write(count === 1 ? request : Buffer.concat(Array.from({ length: count }, () => request)));
      };
      const answered = (status: number) => {
        const now = performance.now();
        if (!running) return;
        latencies.push(now - (sent.shift() ?? now));
        completed++;
        if (status < 200 || status > 299) non2xx++;
        send(1);
      };
      socket.once('connect', () => send(options.pipelining));
      socket.on('data', (data: Buffer) => {
        let chunk = data;
        if (pendingHead.length) {
          chunk = Buffer.concat([pendingHead, data]);
          pendingHead = EMPTY;
        }
        let offset = 0;
        while (offset < chunk.length) {
          if (bodyLeft >= 0) {
            const take = Math.min(bodyLeft, chunk.length - offset);
            bodyLeft -= take;
            offset += take;
            if (bodyLeft === 0) {
              bodyLeft = -1;
              answered(status);
            }
            continue;
          }
          const end = chunk.indexOf(HEAD_END, offset);
          if (end < 0) {
            pendingHead = Buffer.from(chunk.subarray(offset));
            return;
          }
          const text = chunk.toString('latin1', offset, end);
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
          if (!length) {
            // Every read measured here answers with a Content-Length: anything else is a broken measure.
            errors++;
            socket.destroy();
            return;
          }
          status = Number(text.slice(9, 12));
          bodyLeft = Number(length[1]);
          offset = end + HEAD_END.length;
          if (bodyLeft === 0) {
            bodyLeft = -1;
            answered(status);
          }
        }
      });
      socket.on('error', () => {
        errors++;
      });
      socket.on('close', () => resolve());
      const stop = setInterval(() => {
        if (running) return;
        clearInterval(stop);
        socket.destroy();
      }, 50);
    });

  const all = Array.from({ length: options.connections }, () => connection());
  await new Promise((r) => setTimeout(r, options.duration * 1000));
  running = false;
  const ended = performance.now();
  await Promise.all(all);
  const seconds = (ended - started) / 1000;
  return {
    requestsPerSec: completed / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx,
    errors,
    total: completed,
  };
}
