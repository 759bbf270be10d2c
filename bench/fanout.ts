// `npm run bench:fanout`: how fast one change reaches 1,000 and 10,000 open streams, and what an idle stream costs,
// for this build against a baseline build (another checkout with its own `dist/`, `BASELINE_ROOT`), measured in the
// same run, one after the other, on PostgreSQL and PGlite (`FANOUT_ENGINES`, both by default), on the tab's one
// stream (`/api/live?t=/api/kitchens`, what screens open) and on the list's own stream (`/api/kitchens`)
// (`FANOUT_STREAMS=tab,own`). Writes go through the API; a write's latency is from its answer to the moment the last
// stream has received it. Results: bench/results/fanout.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, openPostgres } from '../src/server/db/database.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { measureFanOut } from './fan-out-measure.js';
import { root, startApp } from './lib.js';
import { seedBench } from './seed.js';

const baselineRoot = process.env.BASELINE_ROOT;
const sizes = (process.env.FANOUT_SIZES ?? '1000,10000').split(',').map(Number);
const writes = Number(process.env.FANOUT_WRITES ?? 30);
const engines = (process.env.FANOUT_ENGINES ?? 'postgres,pglite').split(',') as ('postgres' | 'pglite')[];

interface Row {
  engine: string;
  build: string;
  stream: string;
  subscribers: number;
  p50: number;
  p99: number;
  kibPerStream: number;
}

/** A server of `cwd`'s build on a new database of `engine` with the benchmark's 50 kitchens. */
async function serverOf(cwd: string, engine: 'postgres' | 'pglite') {
  if (engine === 'pglite') {
    // Seeded before the server starts: PGlite's files are one process's at a time.
    const dataDir = mkdtempSync(join(tmpdir(), 'mkt-fanout-'));
    const database = await openPglite(dataDir);
    const data = await seedBench(database, 0);
    await database.close();
    const app = await startApp({ DATA_DIR: dataDir }, cwd);
    return {
      app,
      ownerToken: data.ownerToken,
      async stop() {
        await app.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
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

// `FANOUT_STREAMS=tab,own`: the tab's one stream (what screens open), the list's own stream, or both (the default).
const streams = (process.env.FANOUT_STREAMS ?? 'tab,own')
  .split(',')
  .map((kind) => (kind === 'own' ? '/api/kitchens' : '/api/live?t=%2Fapi%2Fkitchens'));
const builds: { build: string; cwd: string; streams: string[] }[] = [
  { build: 'this', cwd: root, streams },
  ...(baselineRoot ? [{ build: 'baseline', cwd: baselineRoot, streams }] : []),
];
const rows: Row[] = [];
for (const engine of engines)
  for (const n of sizes) {
    // Alternating, so that a quieter or busier minute of this shared machine does not favour one build.
    for (const { build, cwd, streams } of builds) {
      for (const stream of streams) {
        const server = await serverOf(cwd, engine);
        try {
          const result = await measureFanOut({
            reader: server.app,
            writer: server.app,
            ownerToken: server.ownerToken,
            path: stream,
            n,
            writes,
          });
          rows.push({ engine, build, stream, subscribers: n, ...result });
          console.log(JSON.stringify(rows.at(-1)));
        } catch (error) {
          // One case that fails is reported, and the others are still measured.
          console.error(`${engine} ${build} ${stream} ${n}: ${(error as Error).message}`);
          rows.push({ engine, build, stream, subscribers: n, p50: NaN, p99: NaN, kibPerStream: NaN });
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
    engine: r.engine,
    build: r.build,
    stream: decodeURIComponent(r.stream),
    subscribers: r.subscribers,
    'p50 ms': r.p50.toFixed(1),
    'p99 ms': r.p99.toFixed(1),
    'KiB/stream': r.kibPerStream.toFixed(2),
  })),
);
