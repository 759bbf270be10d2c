// `BENCH_ONLY=bus npm run bench`: the change bus between instances (issue 33), LISTEN/NOTIFY against NATS JetStream
// (BUS_URL) in the same run, on one PostgreSQL:
// - fan-out: three app instances, BUS_SUBSCRIBERS (10,000) open streams spread over them (a process of clients per
//   instance), writes through the first; a write's latency is from its answer to the moment the last stream of all
//   three instances has received it;
// - a ramp of write rates (BUS_RATES, 50 to 800 writes/s, BUS_STEP_SECONDS each): three bus instances in this
//   process, each with its own pool, write at the rate between them (each write a transaction that sends one
//   change); every instance hears every change. Per rate: the writes achieved, the bus's own lag (from the send
//   inside the transaction to its arrival, what /metrics shows) and the lag from the moment the write was due (its
//   wait for a connection and its commit included), p50 and p99, and any change that never arrived.
import { openPostgres, type Database } from '../src/server/db/database.js';
import { ChangeBus } from '../src/server/live/bus.js';
import { NatsChangeBus } from '../src/server/live/nats-bus.js';
import { createPrivateNats } from '../src/server/test/private-nats.js';
import { freePort } from '../src/server/test/http-client.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { measureFanOut } from './fan-out-measure.js';
import { percentile, sleep, startApp, type BenchRow, type Proc } from './lib.js';
import { seedBench } from './seed.js';

const SUBSCRIBERS = Number(process.env.BUS_SUBSCRIBERS ?? 10_000);
const FANOUT_WRITES = Number(process.env.BUS_FANOUT_WRITES ?? 20);
const RATES = (process.env.BUS_RATES ?? '50,100,200,400,800').split(',').map(Number);
const STEP_SECONDS = Number(process.env.BUS_STEP_SECONDS ?? 4);
const STREAM = '/api/live?t=%2Fapi%2Fkitchens';

type BusKind = 'notify' | 'nats';
/** `BUS_KINDS=nats,notify`: which buses, in which order (both, LISTEN/NOTIFY first, by default). */
const BUSES = (process.env.BUS_KINDS ?? 'notify,nats').split(',') as BusKind[];
/** `BUS_PARTS=ramp`: the fan-out, the ramp, or both (the default). */
const PARTS = (process.env.BUS_PARTS ?? 'fanout,ramp').split(',');

/** Three instances of the built app on one new database, with `bus`; the benchmark's 50 kitchens seeded. */
async function fanOut(kind: BusKind, natsUrl: string, record: (row: BenchRow) => void) {
  const created = await createPgDatabase();
  const env = { DATABASE_URL: created.url, ...(kind === 'nats' ? { BUS_URL: natsUrl } : {}) };
  const apps: Proc[] = [];
  try {
    for (let i = 0; i < 3; i++) apps.push(await startApp(env));
    const database = await openPostgres(created.url, { poolSize: 2 });
    const data = await seedBench(database, 0);
    await database.close();
    const [writer] = apps as [Proc];
    const result = await measureFanOut({
      reader: apps,
      writer,
      ownerToken: data.ownerToken,
      path: STREAM,
      n: SUBSCRIBERS,
      writes: FANOUT_WRITES,
    });
    for (const [p, value] of [
      ['p50', result.p50],
      ['p99', result.p99],
    ] as const)
      record({
        measure: `bus fan-out: ${SUBSCRIBERS} streams on 3 instances, ${p}`,
        engine: kind,
        value,
        unit: 'ms',
      });
  } finally {
    for (const app of apps) await app.stop();
    await created.drop();
  }
}

/** The ramp of write rates on three bus instances of `kind` (one process, a pool each). */
async function ramp(kind: BusKind, natsUrl: string, record: (row: BenchRow) => void) {
  const created = await createPgDatabase();
  const databases: Database[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    for (let i = 0; i < 3; i++) databases.push(await openPostgres(created.url, { poolSize: 10 }));
    const buses = databases.map((d) =>
      kind === 'nats' ? new NatsChangeBus(d.db, { url: natsUrl }) : new ChangeBus(d),
    );
    let busLags: number[] = [];
    let dueLags: number[] = [];
    let arrivals = 0;
    /** True while a writer's own handlers are given its change (not an arrival from the bus). */
    let local = false;
    for (const bus of buses) {
      bus.onLag((ms) => busLags.push(ms));
      bus.on('changed', (m) => {
        const due = Number(m.topic.split(':')[1]);
        if (local || !Number.isFinite(due)) return;
        arrivals++;
        dueLags.push(performance.timeOrigin + performance.now() - due);
      });
      stops.push(await bus.listen());
    }
    for (const rate of RATES) {
      busLags = [];
      dueLags = [];
      arrivals = 0;
      const total = rate * STEP_SECONDS;
      const start = performance.now() + 50;
      let failed = 0;
      let firstFailure: string | undefined;
      const writes: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        const dueAt = start + (i * 1000) / rate;
        const wait = dueAt - performance.now();
        if (wait > 1) await sleep(wait);
        const bus = buses[i % buses.length] as ChangeBus;
        const database = databases[i % databases.length] as Database;
        const message = { type: 'changed' as const, topic: `bench:${performance.timeOrigin + dueAt}` };
        writes.push(
          database.db
            .transaction((tx) => bus.send(tx, [message]))
            // What mutate does after the commit (the NATS bus's relay is kicked); its delivery to the writer's own
            // handlers, at once, is not counted: every instance hears each change from the bus too.
            .then(() => {
              local = true;
              try {
                bus.afterCommit([message]);
              } finally {
                local = false;
              }
            })
            .catch((error: unknown) => {
              failed++;
              firstFailure ??= (error as Error).message;
            }),
        );
      }
      await Promise.all(writes);
      const achieved = total / ((performance.now() - start) / 1000);
      // Every instance hears every change (its own included, from the bus).
      const expected = (total - failed) * buses.length;
      const deadline = Date.now() + 60_000;
      while (arrivals < expected && Date.now() < deadline) await sleep(20);
      const missing = expected - arrivals;
      console.log(
        `    ${kind} ${rate}/s: ${achieved.toFixed(0)} writes/s achieved, bus lag p50 ${percentile(busLags, 50).toFixed(1)} p99 ${percentile(busLags, 99).toFixed(1)} ms, from due p99 ${percentile(dueLags, 99).toFixed(1)} ms, ${failed} failed${firstFailure ? ` (${firstFailure})` : ''}, ${missing} missing`,
      );
      record({
        measure: `bus ramp ${rate} writes/s: achieved`,
        engine: kind,
        value: achieved,
        unit: 'writes/s',
      });
      record({
        measure: `bus ramp ${rate} writes/s: bus lag p50`,
        engine: kind,
        value: percentile(busLags, 50),
        unit: 'ms',
      });
      record({
        measure: `bus ramp ${rate} writes/s: bus lag p99`,
        engine: kind,
        value: percentile(busLags, 99),
        unit: 'ms',
      });
      record({
        measure: `bus ramp ${rate} writes/s: lag from due p99`,
        engine: kind,
        value: percentile(dueLags, 99),
        unit: 'ms',
      });
      if (missing > 0 || failed > 0)
        record({
          measure: `bus ramp ${rate} writes/s: missing or failed`,
          engine: kind,
          value: missing + failed,
          unit: 'changes',
        });
      await sleep(1000);
    }
  } finally {
    for (const stop of stops) await stop();
    for (const d of databases) await d.close();
    await created.drop();
  }
}

export async function busBench(record: (row: BenchRow) => void): Promise<void> {
  // A NATS server of the bench's own (its own port and store): the shared one is left alone.
  const nats = createPrivateNats(await freePort());
  await nats.start();
  try {
    if (PARTS.includes('fanout')) {
      console.log(
        `\n== change bus: fan-out to ${SUBSCRIBERS} streams on 3 instances (${FANOUT_WRITES} writes)`,
      );
      for (const kind of BUSES) await fanOut(kind, nats.url, record);
    }
    if (PARTS.includes('ramp')) {
      console.log(`\n== change bus: a ramp of write rates (${STEP_SECONDS} s each), 3 instances`);
      for (const kind of BUSES) await ramp(kind, nats.url, record);
    }
  } finally {
    await nats.destroy();
  }
}
