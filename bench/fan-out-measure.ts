import { fork } from 'node:child_process';
import { percentile, root, rssMiB, sleep, type Proc } from './lib.js';

/**
 * Opens `n` streams of `path` on `reader` (in a process of their own: bench/sse-clients.ts), then renames the owner's
 * kitchen through `writer` `writes` times, one at a time: each write's latency is from its answer to the moment the
 * last stream has received it (and the first streams' lists, rebuilt from what they received, must be the list a GET
 * answers then). Also what an idle stream adds to `reader`'s memory.
 */
export async function measureFanOut(options: {
  reader: Proc;
  writer: Proc;
  ownerToken: string;
  path: string;
  n: number;
  writes: number;
}) {
  const { reader, writer, ownerToken, path, n, writes } = options;
  const rssBefore = rssMiB(reader.child.pid ?? 0);
  const clients = fork(`${root}bench/sse-clients.ts`, [], {
    env: { ...process.env, SSE_URL: `${reader.url}${path}`, SSE_COUNT: String(n) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: { type: string; marker?: string; last?: number; rebuilt?: string[] }[] = [];
  const waiters: (() => void)[] = [];
  clients.on('message', (m: (typeof messages)[number]) => {
    messages.push(m);
    waiters.splice(0).forEach((w) => w());
  });
  const waitFor = async (pred: (m: (typeof messages)[number]) => boolean, ms: number) => {
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
  try {
    await waitFor((m) => m.type === 'connected', 180_000);
    await sleep(2000);
    const kibPerStream = ((rssMiB(reader.child.pid ?? 0) - rssBefore) * 1024) / n;
    const latencies: number[] = [];
    for (let i = 0; i < writes; i++) {
      const marker = `M${Date.now().toString(36)}x${i}`;
      clients.send({ type: 'expect', marker });
      const res = await fetch(`${writer.url}/api/kitchen`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie: `kitchen_session=${ownerToken}` },
        body: JSON.stringify({ name: `Bench Kitchen ${marker}` }),
      });
      const answered = performance.timeOrigin + performance.now();
      if (!res.ok) throw new Error(`write answered ${res.status}: ${await res.text()}`);
      const got = await waitFor((m) => m.type === 'received' && m.marker === marker, 60_000);
      latencies.push(Math.max(0, (got.last ?? answered) - answered));
      // The first streams rebuilt the list from what they received, as a browser does: it is the list a GET answers.
      const list = JSON.stringify(await (await fetch(`${reader.url}/api/kitchens`)).json());
      const wrong = (got.rebuilt ?? []).find((rebuilt) => rebuilt !== list);
      if (wrong !== undefined || !got.rebuilt?.length)
        throw new Error(`fan-out: a stream rebuilt another list: ${wrong?.slice(0, 200)}`);
    }
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), kibPerStream };
  } finally {
    clients.kill('SIGKILL');
    await sleep(1000);
  }
}
