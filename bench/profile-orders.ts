// Profiles the order route: the server runs with --cpu-prof while 50 customers order; prints the hottest
// functions (self time) so the bound of `orders/s` can be read off. `node --import tsx bench/profile-orders.ts`
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../src/server/db/database.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { allocatePort, load, root, waitForReady } from './lib.js';
import { orderRequest, seedBench } from './seed.js';

const created = await createPgDatabase();
const db = await openPostgres(created.url);
const data = await seedBench(db, 2000);
const port = allocatePort();
const profDir = mkdtempSync(join(tmpdir(), 'mkt-prof-'));
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${profDir}`, 'dist/node/server/main.js'],
  {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: created.url,
      LOG_LEVEL: 'error',
      GEOCODER: 'off',
    },
    stdio: 'inherit',
  },
);
await waitForReady(`http://127.0.0.1:${port}/readyz`);
let next = 0;
for (const connections of [1, 50]) {
  const r = await load({
    url: `http://127.0.0.1:${port}`,
    connections,
    amount: connections === 1 ? 300 : 1500,
    requests: [
      {
        method: 'POST',
        path: '/api/orders',
        setupRequest: (req) => ({ ...req, ...orderRequest(data, next++, 'profile') }),
      },
    ],
  });
  console.log(
    `${connections} connection(s): ${r.requestsPerSec.toFixed(0)} orders/s, p50 ${r.p50} ms, p99 ${r.p99} ms`,
  );
}
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(profDir, file ?? ''), 'utf8')) as {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byName = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const t = self.get(node.id) ?? 0;
  total += t;
  const where = node.callFrame.url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
  const key = `${node.callFrame.functionName || '(anonymous)'} ${where.split('/').slice(0, 2).join('/')}`;
  byName.set(key, (byName.get(key) ?? 0) + t);
}
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const url = node.callFrame.url;
  const pkg = url.includes('node_modules/')
    ? (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? url)
    : url.includes('/dist/')
      ? 'app: ' +
        url
          .replace(/.*\/dist\/node\//, '')
          .split('/')
          .slice(0, 2)
          .join('/')
      : url.startsWith('node:')
        ? 'node internals'
        : url || node.callFrame.functionName;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + (self.get(node.id) ?? 0));
}
console.log('self time by package (top 20):');
for (const [k, t] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`  ${((t / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
console.log('self time by function (top 25):');
for (const [k, t] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`  ${((t / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
await db.close();
await created.drop();
