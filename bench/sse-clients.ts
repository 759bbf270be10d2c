// A separate process holding N server-sent event streams (so the server's and the clients' sockets and CPU are
// not in one process). Told a marker, it reports when every stream has received an event containing it. The first
// few streams also rebuild the list from what they receive, as a browser does (snapshots, and on a tab's stream
// deltas applied to the version held), and report it: the measure checks it against the list a GET answers, so a
// change counts as received only if a client could show it. The others are plain sockets that only look for the
// marker in the bytes they receive: the streams are browsers on other machines, and the cost of parsing 10,000
// responses in this one process on the server's own machine is not theirs (an HTTP client's parsing and decoding
// made this process, not the server, the last to see a change).
import http from 'node:http';
import net from 'node:net';
import { applyDelta, type DeltaOp } from '../src/shared/live-delta.js';

const url = process.env.SSE_URL ?? '';
const count = Number(process.env.SSE_COUNT ?? 0);
const CHECKED = 5;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

interface Stream {
  tail: string;
  seen: boolean;
  /** One of the first streams: it rebuilds the list. Its unparsed rest, and the list so far (with its tag). */
  checked: boolean;
  buffer?: string;
  held?: { etag: string | undefined; data: unknown };
  broken?: string;
}
const streams: Stream[] = [];
let marker: string | undefined;
let markerBytes: Buffer | undefined;
let seen = 0;
let last = 0;
let connected = 0;

/** A checked stream's events, applied as the browser applies them (src/web/live/tab-stream.ts). */
function rebuild(stream: Stream, chunk: string) {
  stream.buffer = (stream.buffer ?? '') + chunk;
  let end;
  while ((end = stream.buffer.indexOf('\n\n')) >= 0) {
    const block = stream.buffer.slice(0, end);
    stream.buffer = stream.buffer.slice(end + 2);
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (event === 'snapshot') {
      const parsed = JSON.parse(data) as unknown;
      // A tab's stream tags its snapshots ({topic, etag, data}); a list's own stream sends the list itself.
      const tagged = parsed as Partial<{ topic: string; etag: string; data: unknown }> | null;
      stream.held =
        typeof tagged === 'object' && tagged !== null && typeof tagged.etag === 'string' && 'topic' in tagged
          ? { etag: tagged.etag, data: tagged.data }
          : { etag: undefined, data: parsed };
    } else if (event === 'delta') {
      const delta = JSON.parse(data) as { from: string; to: string; ops: DeltaOp };
      if (!stream.held || stream.held.etag !== delta.from) stream.broken = 'a delta from a version not held';
      else stream.held = { etag: delta.to, data: applyDelta(stream.held.data, delta.ops) };
    }
  }
}

function report() {
  process.send?.({
    type: 'received',
    marker,
    last,
    rebuilt: streams.slice(0, CHECKED).map((s) => s.broken ?? JSON.stringify(s.held?.data ?? null)),
  });
}

function seeMarker(stream: Stream) {
  stream.seen = true;
  seen++;
  last = now();
  if (seen === streams.length) report();
}

function onData(stream: Stream, chunk: string) {
  if (stream.checked) rebuild(stream, chunk);
  if (!marker || stream.seen) {
    stream.tail = chunk.slice(-64);
    return;
  }
  const text = stream.tail + chunk;
  stream.tail = chunk.slice(-64);
  if (text.includes(marker)) seeMarker(stream);
}

/** A plain socket's bytes: the marker, found across two reads too (the end of the last read is kept). */
function onBytes(stream: Stream & { bytesTail: Buffer }, chunk: Buffer) {
  if (markerBytes && !stream.seen) {
    const found =
      chunk.includes(markerBytes) ||
      (stream.bytesTail.length > 0 &&
        Buffer.concat([stream.bytesTail, chunk.subarray(0, markerBytes.length)]).includes(markerBytes));
    if (found) seeMarker(stream);
  }
  stream.bytesTail = chunk.subarray(Math.max(0, chunk.length - 64));
}

function open(): Promise<void> {
  // The first streams parse what they receive: HTTP's own client.
  if (streams.length + opening < CHECKED) return openParsed();
  return openPlain();
}
let opening = 0;

function openParsed(): Promise<void> {
  opening++;
  return new Promise((resolve, reject) => {
    const stream: Stream = { tail: '', seen: false, checked: true };
    const req = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      opening--;
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.setEncoding('utf8');
      streams.unshift(stream);
      res.on('data', (chunk: string) => onData(stream, chunk));
      connected++;
      resolve();
    });
    req.on('error', reject);
  });
}

const target = new URL(url);
function openPlain(): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = { tail: '', seen: false, checked: false, bytesTail: Buffer.alloc(0) };
    const socket = net.connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    socket.once('connect', () =>
      socket.write(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
          'Accept: text/event-stream\r\nConnection: close\r\n\r\n',
      ),
    );
    socket.once('data', (head: Buffer) => {
      if (!head.subarray(0, 16).toString('latin1').startsWith('HTTP/1.1 200'))
        return reject(new Error(`answered ${head.subarray(0, 40).toString('latin1')}`));
      streams.push(stream);
      connected++;
      socket.on('data', (chunk: Buffer) => onBytes(stream, chunk));
      resolve();
    });
    socket.on('error', reject);
  });
}

process.on('message', (msg: { type: string; marker?: string }) => {
  if (msg.type === 'expect') {
    marker = msg.marker;
    markerBytes = marker === undefined ? undefined : Buffer.from(marker);
    seen = 0;
    for (const s of streams) s.seen = false;
  }
});

const BATCH = 250;
for (let i = 0; i < count; i += BATCH) {
  await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, () => open()));
}
process.send?.({ type: 'connected', connected });
