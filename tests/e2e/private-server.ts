import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import { createSession, type Role } from '../../src/server/identity/sessions.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';

const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface PrivateServer {
  /** Where the server listens (its origin as seen from this process). */
  url: string;
  /** Its database. */
  databaseUrl: string;
  /** The browsers' origin (PUBLIC_URL): the server's own, or a proxy's in front of it. */
  publicUrl: string;
  start(): Promise<void>;
  /** SIGTERM, as an orchestrator stops an instance; resolves once the process has exited. */
  stop(): Promise<void>;
  /** A session cookie of a new user with this role, valid on this server. */
  sessionCookie(role: Role, email: string): Promise<{ name: string; value: string; url: string }>;
  dispose(): Promise<void>;
}

/**
 * The built server (`node dist/node/server/main.js`, as `npm start` runs it) in a process of this test's own, on
 * a new PostgreSQL database, so that a test may stop and restart it without disturbing the shared e2e server.
 */
export async function privateServer(
  options: { port?: number; publicUrl?: string; env?: Record<string, string>; name?: string } = {},
): Promise<PrivateServer> {
  const port = options.port ?? (await freePort());
  const url = `http://localhost:${port}`;
  const publicUrl = options.publicUrl ?? url;
  const name = `mkt_e2e_${options.name ?? 'private'}_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${name}"`);
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  let database: Database | undefined;

  const server: PrivateServer = {
    url,
    databaseUrl,
    publicUrl,
    async start() {
      output = '';
      const started = spawn(process.execPath, ['dist/node/server/main.js'], {
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          PUBLIC_URL: publicUrl,
          NODE_ENV: 'development',
          GEOCODER: 'off',
          SEED_DEMO: 'false',
          // Cash on delivery only, unless a test asks for card payments (PAYMENTS=local).
          PAYMENTS: 'off',
          SIGN_IN_RATE_LIMIT: '10000',
          // Every browser of the suite is 127.0.0.1 too.
          LIVE_STREAMS_PER_ADDRESS: '10000',
          LOG_LEVEL: 'warn',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.stdout.on('data', (d: Buffer) => (output += d.toString()));
      started.stderr.on('data', (d: Buffer) => (output += d.toString()));
      exited = new Promise((resolve) => started.once('exit', () => resolve()));
      child = started;
      for (;;) {
        if (started.exitCode !== null) throw new Error(`the server exited while starting:\n${output}`);
        const ready = await fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      child?.kill('SIGTERM');
      await exited;
      child = undefined;
    },
    async sessionCookie(role, email) {
      database ??= await openPostgres(databaseUrl, { poolSize: 1 });
      const { db } = database;
      const user = await upsertUser(db, {
        issuer: 'urn:e2e',
        subject: email,
        email,
        displayName: `E2E ${role}`,
        photoUrl: null,
      });
      return { name: `${role}_session`, value: await createSession(db, user.id, role), url: publicUrl };
    },
    async dispose() {
      child?.kill('SIGKILL');
      await exited;
      await database?.close();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
  return server;
}
