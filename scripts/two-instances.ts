// `npm run two-instances`: the deployment guide's shape on one machine. Starts two instances of the server on one
// PostgreSQL (DATABASE_URL), each with its metrics behind a token, runs a short load through both at once (the
// kitchens list, each kitchen and its menu, alternating instances), checks that both answered it all and that both
// count it in their metrics, then stops both gracefully (SIGTERM) and prints a summary as JSON.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';

const root = new URL('..', import.meta.url).pathname;
const databaseUrl = process.env.DATABASE_URL;
const seconds = Number(process.env.LOAD_SECONDS ?? 5);
const basePort = Number(process.env.BASE_PORT ?? 3100);
const metricsToken = randomBytes(24).toString('base64url');

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  exit: Promise<number | null>;
}

function start(name: string, port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Both instances sit behind one address, as behind a reverse proxy.
      PUBLIC_URL: `http://localhost:${basePort}`,
      METRICS_TOKEN: metricsToken,
      GEOCODER: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, url: `http://127.0.0.1:${port}`, child, exit };
}

async function ready(instance: Instance): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (instance.child.exitCode !== null) throw new Error(`${instance.name} exited before it was ready`);
    const ok = await fetch(`${instance.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${instance.name} not ready in 60 s`);
}

/** Requests this instance counted in its metrics (every route and status). */
async function countedRequests(instance: Instance): Promise<number> {
  const res = await fetch(`${instance.url}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  if (!res.ok) throw new Error(`${instance.name} /metrics answered ${res.status}`);
  const text = await res.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

async function main(): Promise<number> {
  if (!databaseUrl) {
    console.error('Set DATABASE_URL to a PostgreSQL database both instances will share.');
    return 2;
  }
  const env = { DATABASE_URL: databaseUrl };
  // The first one migrates and seeds the demo kitchens; the second finds it done.
  const a = start('a', basePort + 1, { ...env, SEED_DEMO: 'true' });
  const instances = [a];
  try {
    await ready(a);
    const b = start('b', basePort + 2, { ...env, SEED_DEMO: 'false' });
    instances.push(b);
    await ready(b);
    const kitchens = (await (await fetch(`${a.url}/api/kitchens`)).json()) as { uid: string }[];
    if (kitchens.length === 0) throw new Error('no kitchens to read');
    const paths = [
      '/api/kitchens',
      ...kitchens.flatMap((k) => [`/api/kitchens/${k.uid}`, `/api/kitchens/${k.uid}/menu`]),
    ];
    const before = await Promise.all(instances.map(countedRequests));
    const results = await Promise.all(
      instances.map((instance) =>
        autocannon({
          url: instance.url,
          connections: 10,
          duration: seconds,
          requests: paths.map((path) => ({ method: 'GET' as const, path })),
        }),
      ),
    );
    const after = await Promise.all(instances.map(countedRequests));
    const summary = instances.map((instance, i) => {
      const r = results[i]!;
      return {
        instance: instance.name,
        requests: r.requests.total,
        perSecond: Math.round(r.requests.average),
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        countedInMetrics: after[i]! - before[i]!,
      };
    });
    console.log(JSON.stringify({ seconds, instances: summary }));
    // Every answer a 2xx, and each instance's metrics saw at least the load it answered.
    const ok = summary.every(
      (s) => s.requests > 0 && s.non2xx === 0 && s.errors === 0 && s.countedInMetrics >= s.requests,
    );
    return ok ? 0 : 1;
  } finally {
    // Graceful shutdown, as an orchestrator does it: SIGTERM, then wait.
    for (const instance of instances) instance.child.kill('SIGTERM');
    const codes = await Promise.all(instances.map((i) => i.exit));
    if (codes.some((code) => code !== 0))
      console.error(`an instance did not stop cleanly: ${codes.join(', ')}`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
