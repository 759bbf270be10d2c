// A separate process holding N server-sent event streams (so the server's and the clients' sockets and CPU are
// not in one process). Told a marker, it reports when every stream has received an event containing it.
import http from 'node:http';

const url = process.env.SSE_URL ?? '';
const count = Number(process.env.SSE_COUNT ?? 0);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

interface Stream {
  tail: string;
  seen: boolean;
}
const streams: Stream[] = [];
let marker: string | undefined;
let seen = 0;
let last = 0;
let connected = 0;

function onData(stream: Stream, chunk: string) {
  if (!marker || stream.seen) {
    stream.tail = chunk.slice(-64);
    return;
  }
  const text = stream.tail + chunk;
  stream.tail = chunk.slice(-64);
  if (text.includes(marker)) {
    stream.seen = true;
    seen++;
    last = now();
    if (seen === streams.length) process.send?.({ type: 'received', marker, last });
  }
}

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream: Stream = { tail: '', seen: false };
    const req = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => onData(stream, chunk));
      streams.push(stream);
      connected++;
      resolve();
    });
    req.on('error', reject);
  });
}

process.on('message', (msg: { type: string; marker?: string }) => {
  if (msg.type === 'expect') {
    marker = msg.marker;
    seen = 0;
    for (const s of streams) s.seen = false;
  }
});

const BATCH = 250;
for (let i = 0; i < count; i += BATCH) {
  await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, () => open()));
}
process.send?.({ type: 'connected', connected });
