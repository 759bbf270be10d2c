import { fork } from 'node:child_process';
import { percentile, root, rssMiB, sleep, type Proc } from './lib.js';

/** Writes made before the measured ones (see below). */
const WARM_UP_WRITES = 3;

interface ClientsReport {
  type: string;
  marker?: string;
  last?: number;
  rebuilt?: string[];
}

/**
 * Opens `n` streams of `path` on `reader` (or spread evenly over several readers, each with a process of clients of
 * its own: bench/sse-clients.ts), then renames the owner's kitchen through `writer` `writes` times, one at a time
 * (after WARM_UP_WRITES that are not counted):
 * each write's latency is from its answer to the moment the last stream of all has received it (and the first
 * streams' lists, rebuilt from what they received, must be the list a GET answers then on their reader). Also what an
 * idle stream adds to the (first) reader's memory.
 */
export async function measureFanOut(options: {
  reader: Proc | Proc[];
  writer: Proc;
  ownerToken: string;
  path: string;
  n: number;
  writes: number;
}) {
  const { writer, ownerToken, path, n, writes } = options;
  const readers = [options.reader].flat();
  const first = readers[0];
  if (!first) throw new Error('fan-out: no reader');
  const rssBefore = rssMiB(first.child.pid ?? 0);
  const groups = readers.map((reader, i) => {
    const count = Math.floor(n / readers.length) + (i < n % readers.length ? 1 : 0);
    const child = fork(`${root}bench/sse-clients.ts`, [], {
      env: { ...process.env, SSE_URL: `${reader.url}${path}`, SSE_COUNT: String(count) },
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const messages: ClientsReport[] = [];
    const waiters: (() => void)[] = [];
    child.on('message', (m: ClientsReport) => {
      messages.push(m);
      waiters.splice(0).forEach((w) => w());
    });
    const waitFor = async (pred: (m: ClientsReport) => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = messages.find(pred);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('fan-out: timed out');
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    };
    return { reader, child, count, waitFor };
  });
  try {
    for (const group of groups) await group.waitFor((m) => m.type === 'connected', 300_000);
    await sleep(2000);
    const kibPerStream = ((rssMiB(first.child.pid ?? 0) - rssBefore) * 1024) / (groups[0]?.count || 1);
    const latencies: number[] = [];
    // The first writes after the streams opened run the server's send path (and the clients') before V8 has
    // optimised it: 170-200 ms each against 60-130 ms after. A server that has run for a while is past that, so they
    // are made and not counted.
    for (let i = -WARM_UP_WRITES; i < writes; i++) {
      const marker = `M${Date.now().toString(36)}x${i + WARM_UP_WRITES}`;
      for (const group of groups) group.child.send({ type: 'expect', marker });
      const res = await fetch(`${writer.url}/api/kitchen`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie: `kitchen_session=${ownerToken}` },
        body: JSON.stringify({ name: `Bench Kitchen ${marker}` }),
      });
      const answered = performance.timeOrigin + performance.now();
      if (!res.ok) throw new Error(`write answered ${res.status}: ${await res.text()}`);
      let last = answered;
      for (const group of groups) {
        const got = await group.waitFor((m) => m.type === 'received' && m.marker === marker, 60_000);
        last = Math.max(last, got.last ?? answered);
        // The first streams rebuilt the list from what they received, as a browser does: it is the list a GET
        // answers on their reader.
        const list = JSON.stringify(await (await fetch(`${group.reader.url}/api/kitchens`)).json());
        const wrong = (got.rebuilt ?? []).find((rebuilt) => rebuilt !== list);
        if (wrong !== undefined || !got.rebuilt?.length)
          throw new Error(`fan-out: a stream rebuilt another list: ${wrong?.slice(0, 200)}`);
      }
      if (i >= 0) latencies.push(Math.max(0, last - answered));
    }
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), kibPerStream };
  } finally {
    for (const group of groups) group.child.kill('SIGKILL');
    await sleep(1000);
  }
}
