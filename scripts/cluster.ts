// `npm run cluster`: the deployment recipe of docs/operations.md on one machine. Builds the app if it is stale,
// then starts CLUSTER_SIZE instances (3 by default) on one PostgreSQL (DATABASE_URL; by default the local server's
// database `homecooked`, made if missing) behind nginx on PORT (3000 by default), with a supervisor: health checks
// every half second, a crashed instance started again, nginx's rotation following readiness.
//   kill -HUP <pid>   restarts every instance in turn, without a client seeing a failure;
//   Ctrl-C / SIGTERM  stops nginx gracefully, then the instances.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildIsStale, projectRoot } from './build-state.mjs';
import { Cluster } from './cluster/cluster.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/homecooked';
const size = Number(process.env.CLUSTER_SIZE ?? 3);
const port = Number(process.env.PORT ?? 3000);

/** Makes the database named in the URL when the server has none of that name. */
async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replaceAll('"', '""')}"`);
      console.log(`[cluster] made the database ${name}`);
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  if (!Number.isInteger(size) || size < 1 || size > 16) {
    console.error('CLUSTER_SIZE must be a whole number from 1 to 16');
    return 2;
  }
  if (spawnSync('nginx', ['-v']).error) {
    console.error('nginx is not installed: apt-get install nginx (Debian), then run this again');
    return 2;
  }
  await ensureDatabase(databaseUrl);
  if (buildIsStale()) {
    console.log('[cluster] building the app (sources changed since the last build)...');
    const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
    if (build.status !== 0) return build.status ?? 1;
  }
  const cluster = new Cluster({
    size,
    port,
    command: [process.execPath, 'dist/node/server/main.js'],
    cwd: projectRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      // Every instance must sign and read the same cookies: a sign-in started on one may come back to another.
      SESSION_SECRET: process.env.SESSION_SECRET ?? randomBytes(48).toString('base64url'),
      TRUST_PROXY: process.env.TRUST_PROXY ?? '1',
      // The development payments keep their state in one process: across instances, card payments need Stripe.
      PAYMENTS: process.env.PAYMENTS ?? 'off',
      SEED_DEMO: 'false',
      // Each instance logs every request at `info`; the supervisor's health checks alone would fill a terminal.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    firstEnv: { SEED_DEMO: process.env.SEED_DEMO ?? 'true' },
    devSignIn: !process.env.GOOGLE_CLIENT_ID,
  });
  const stopped = new Promise<void>((resolve) => {
    const stop = () => void cluster.stop().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.on('SIGHUP', () => {
    console.log('[cluster] rolling restart');
    cluster.rollingRestart().then(
      () => console.log('[cluster] rolling restart done'),
      (error: unknown) => console.error('[cluster] rolling restart failed', error),
    );
  });
  try {
    await cluster.start();
  } catch (error) {
    console.error(error);
    await cluster.stop();
    return 1;
  }
  // The address browsers use (PUBLIC_URL): sign-in cookies and origin checks are for it, not for 127.0.0.1.
  const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
  console.log(`[cluster] open ${publicUrl} (pid ${process.pid}; kill -HUP it for a rolling restart)`);
  await stopped;
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
