// `npm run bench:fanout`: how fast one change reaches 1,000 and 10,000 open streams, and what an idle stream costs,
// for this build against a baseline build (another checkout with its own `dist/`, `BASELINE_ROOT`), measured in the
// same run, one after the other, on PostgreSQL. This build is measured twice: on the tab's one stream
// (`/api/live?t=/api/kitchens`, what browsers open now) and on the list's own stream (`/api/kitchens`, what the
// baseline's browsers opened). Writes go through the API; a write's latency is from its answer to the moment the last
// stream has received it. Results: bench/results/fanout.json.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { openPostgres } from '../src/server/db/database.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { percentile, root, rssMiB, sleep, startApp, type Proc } from './lib.js';
import { seedBench } from './seed.js';

const baselineRoot = process.env.BASELINE_ROOT;
const sizes = (process.env.FANOUT_SIZES ?? '1000,10000').split(',').map(Number);
const writes = Number(process.env.FANOUT_WRITES ?? 30);

interface Row {
  build: string;
  stream: string;
  subscribers: number;
  p50: number;
  p99: number;
  kibPerStream: number;
}

async function measure(app: Proc, ownerToken: string, path: string, n: number) {
  const rssBefore = rssMiB(app.child.pid ?? 0);
  const clients = fork(`${root}bench/sse-clients.ts`, [], {
    env: { ...process.env, SSE_URL: `${app.url}${path}`, SSE_COUNT: String(n) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: { type: string; marker?: string; last?: number }[] = [];
  clients.on('message', (m: (typeof messages)[number]) => messages.push(m));
  const waitFor = async (pred: (m: (typeof messages)[number]) => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = messages.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('fan-out: timed out');
      await sleep(5);
    }
  };
  try {
    await waitFor((m) => m.type === 'connected', 180_000);
    await sleep(2000);
    const kibPerStream = ((rssMiB(app.child.pid ?? 0) - rssBefore) * 1024) / n;
    const latencies: number[] = [];
    for (let i = 0; i < writes; i++) {
      const marker = `M${Date.now().toString(36)}x${i}`;
      clients.send({ type: 'expect', marker });
      const res = await fetch(`${app.url}/api/kitchen`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie: `kitchen_session=${ownerToken}` },
        body: JSON.stringify({ name: `Bench Kitchen ${marker}` }),
      });
      const answered = performance.timeOrigin + performance.now();
      if (!res.ok) throw new Error(`write answered ${res.status}: ${await res.text()}`);
      const got = await waitFor((m) => m.type === 'received' && m.marker === marker, 60_000);
      latencies.push(Math.max(0, (got.last ?? answered) - answered));
    }
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), kibPerStream };
  } finally {
    clients.kill('SIGKILL');
    await sleep(1000);
  }
}

/** A server of `cwd`'s build on a new database with the benchmark's 50 kitchens. */
async function serverOf(cwd: string) {
  const created = await createPgDatabase();
  const app = await startApp({ DATABASE_URL: created.url }, cwd);
  const database = await openPostgres(created.url, { poolSize: 2 });
  const data = await seedBench(database, 0);
  await database.close();
  return {
    app,
    ownerToken: data.ownerToken,
    async stop() {
      await app.stop();
      await created.drop();
    },
  };
}

const builds: { build: string; cwd: string; streams: string[] }[] = [
  { build: 'this', cwd: root, streams: ['/api/live?t=%2Fapi%2Fkitchens', '/api/kitchens'] },
  ...(baselineRoot ? [{ build: 'baseline', cwd: baselineRoot, streams: ['/api/kitchens'] }] : []),
];
const rows: Row[] = [];
for (const n of sizes) {
  // Alternating, so that a quieter or busier minute of this shared machine does not favour one build.
  for (const { build, cwd, streams } of builds) {
    for (const stream of streams) {
      const server = await serverOf(cwd);
      try {
        const result = await measure(server.app, server.ownerToken, stream, n);
        rows.push({ build, stream, subscribers: n, ...result });
        console.log(JSON.stringify(rows.at(-1)));
      } catch (error) {
        // One case that fails is reported, and the others are still measured.
        console.error(`${build} ${stream} ${n}: ${(error as Error).message}`);
        rows.push({ build, stream, subscribers: n, p50: NaN, p99: NaN, kibPerStream: NaN });
      } finally {
        await server.stop();
      }
    }
  }
}
writeFileSync(
  `${root}bench/results/fanout.json`,
  `${JSON.stringify({ at: new Date().toISOString(), writes, rows }, null, 2)}\n`,
);
console.table(
  rows.map((r) => ({
    build: r.build,
    stream: decodeURIComponent(r.stream),
    subscribers: r.subscribers,
    'p50 ms': r.p50.toFixed(1),
    'p99 ms': r.p99.toFixed(1),
    'KiB/stream': r.kibPerStream.toFixed(2),
  })),
);
